package core

import (
	"context"
	"strings"
	"time"
)

// CodeNameFromPlatform: the arena signs players in through the platform
// (it has a publisher key), whose player summaries name them; they do not
// name themselves.
const CodeNameFromPlatform = "name_from_platform"

// MockProfiles reports whether the arena's players name themselves: it has
// no publisher key, so it signs players in with the mock form and nobody's
// name comes from the platform (DESIGN "Modes").
func (a *Arena) MockProfiles() bool { return a.PublisherKey == "" }

// DisplayNameDraft is the name a player gives themselves on the account
// page (mock mode).
type DisplayNameDraft struct {
	PersonaName string `json:"personaName"`
}

// Check returns the name as stored (trimmed) or its problem at
// personaName: displayable text of 1 to MaxPersonaNameRunes characters.
func (d DisplayNameDraft) Check() (string, Problems) {
	var p Problems
	name := strings.TrimSpace(d.PersonaName)
	if name == "" {
		p.invalid("personaName", "Enter a name.")
		return name, p
	}
	checkText(&p, "personaName", name, MaxPersonaNameRunes)
	return name, p
}

// PlayerStore reads the players' profiles.
type PlayerStore interface {
	// Players returns the profiles of the ids the arena knows.
	Players(ctx context.Context, ids []string) (map[string]PlayerProfile, error)
}

// ProfileStore keeps the players' names.
type ProfileStore interface {
	// SetPersonaName names a known player (one who signed in).
	SetPersonaName(ctx context.Context, platformID, name string, at time.Time) error
}

// SetDisplayName names the signed-in player as they typed it: mock arenas
// only (CodeNameFromPlatform otherwise), then the draft's problem.
func SetDisplayName(ctx context.Context, ps ProfileStore, a *Arena, platformID string, d DisplayNameDraft, now time.Time) error {
	if !a.MockProfiles() {
		return Errorf(CodeNameFromPlatform, "names come from the platform on this arena")
	}
	name, problems := d.Check()
	if err := problems.Err(); err != nil {
		return err
	}
	return ps.SetPersonaName(ctx, platformID, name, now)
}
