package core

import (
	"context"
	"time"
)

// Registration limits.
var SeedRange = Range{Min: 1, Max: 4096}

// MaxPersonaNameRunes bounds a display name an admin types.
const MaxPersonaNameRunes = 64

// RegistrationDraft is a side to register as it is given: the admin API's
// body, the admin pages' form, or a player registering themselves (no
// name or seed). Roster lists the other players (the captain may be
// among them).
type RegistrationDraft struct {
	PlatformID  string   `json:"platformId"`
	PersonaName string   `json:"personaName"`
	Seed        Number   `json:"seed"`
	Roster      []string `json:"roster"`
}

// Check returns the draft's problems, field by field: the captain's and
// every roster entry's account id (invalid_steam_id), the name's length,
// the seed, the roster's length. The tournament's own limits (roster size,
// open window, cap) are Register's.
func (d *RegistrationDraft) Check() Problems {
	var p Problems
	if !ValidPlatformID(d.PlatformID) {
		p.add(CodeInvalidSteamID, "platformId", "Enter a 17-digit account id.")
	}
	checkText(&p, "personaName", d.PersonaName, MaxPersonaNameRunes)
	SeedRange.check(&p, "seed", d.Seed, false)
	if len(d.Roster) > TeamPlayersRange.Max {
		p.invalid("roster", "At most %d players.", TeamPlayersRange.Max)
	}
	for _, id := range d.Roster {
		if !ValidPlatformID(id) {
			p.add(CodeInvalidSteamID, "roster", "Every roster entry must be a 17-digit account id.")
		}
	}
	return p
}

// RegistrationStore keeps a tournament's sides.
type RegistrationStore interface {
	// Register adds a side if the tournament is open at reg.RegisteredAt
	// and below its cap, all in one statement batch, storing the players'
	// profiles too. Errors: CodeRegistrationClosed, CodeTournamentFull,
	// CodeAlreadyRegistered (the captain or a roster member is on a side).
	Register(ctx context.Context, t *Tournament, reg Registration, players []PlayerProfile) error
	// Registrations returns the sides in registration order, with rosters.
	Registrations(ctx context.Context, tournamentID int64) ([]Registration, error)
}

// RegisterStore is what registering reads and writes: the players'
// profiles and the sides. One value, the arena's store, serves it.
type RegisterStore interface {
	RegistrationStore
	PlayerStore
}

// Register registers the drafted side for tour at now: the same rules and
// errors for the admin API, the admin pages and players on the site. It
// answers the draft's first problem, then CodeInvalidRoster,
// CodeRegistrationClosed and the store's CodeTournamentFull and
// CodeAlreadyRegistered.
func Register(ctx context.Context, st RegisterStore, tour *Tournament, d RegistrationDraft, now time.Time) (*Registration, error) {
	if err := d.Check().Err(); err != nil {
		return nil, err
	}
	captain, name, seed := d.PlatformID, d.PersonaName, d.Seed.N
	members, err := tour.CheckRoster(captain, d.Roster)
	if err != nil {
		return nil, err
	}
	if !tour.RegistrationOpenAt(now) {
		return nil, Errorf(CodeRegistrationClosed, "%s takes no registrations", tour.Slug)
	}
	reg := Registration{TournamentID: tour.ID, PlatformID: captain, PersonaName: name, Seed: seed, Roster: members, RegisteredAt: now}
	players := make([]PlayerProfile, len(members))
	for i, id := range members {
		players[i] = PlayerProfile{PlatformID: id}
	}
	players[0].PersonaName = name
	if err := st.Register(ctx, tour, reg, players); err != nil {
		return nil, err
	}
	if reg.PersonaName == "" {
		if p, err := st.Player(ctx, captain); err == nil {
			reg.PersonaName = p.PersonaName
		}
	}
	return &reg, nil
}
