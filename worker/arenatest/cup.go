package arenatest

import (
	"fmt"
	"net/http"
	"strconv"
	"testing"
	"time"
)

// Cup is a tournament created on the demo arena through the admin API,
// its registration open from an hour before Now to an hour after, starting
// an hour later, with a small final.
type Cup struct {
	Slug string
	// Name is "Cup <slug>" when empty; Format playoffs_only.
	Name, Format string
	MaxPlayers   int
	// Players are registered in order; with Seeded each gets seed i and
	// the name "Cup Player i" (i from 1).
	Players []string
	Seeded  bool
	// Fields add to or override the request's fields.
	Fields map[string]any
}

// CupPlayer is the account id of the test player i (no demo player).
func CupPlayer(i int) string { return fmt.Sprintf("765611980001%05d", i) }

// CupPlayers are the account ids of the test players 1..n.
func CupPlayers(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = CupPlayer(i + 1)
	}
	return out
}

// OpenCup creates the cup, opens its registration and registers its
// players. It returns the cup's admin API path.
func (a *Arena) OpenCup(tb testing.TB, c Cup) string {
	tb.Helper()
	if c.Name == "" {
		c.Name = "Cup " + c.Slug
	}
	if c.Format == "" {
		c.Format = "playoffs_only"
	}
	body := map[string]any{
		"slug": c.Slug, "name": c.Name, "format": c.Format, "maxPlayers": c.MaxPlayers,
		"registrationOpensAt":  a.Now.Add(-time.Hour).Format(time.RFC3339),
		"registrationClosesAt": a.Now.Add(time.Hour).Format(time.RFC3339),
		"startsAt":             a.Now.Add(2 * time.Hour).Format(time.RFC3339),
		"smallFinal":           true,
	}
	for k, v := range c.Fields {
		body[k] = v
	}
	a.Admin(tb, http.MethodPost, "/api/v1/admin/tournaments", body, http.StatusCreated)
	a.SetStatus(tb, c.Slug, "registration_open")
	base := "/api/v1/admin/tournaments/" + c.Slug
	for i, id := range c.Players {
		reg := map[string]any{"platformId": id}
		if c.Seeded {
			reg["seed"], reg["personaName"] = i+1, fmt.Sprintf("Cup Player %d", i+1)
		}
		a.Admin(tb, http.MethodPost, base+"/registrations", reg, http.StatusCreated)
	}
	return base
}

// SetStatus moves the demo arena's tournament through the statuses.
func (a *Arena) SetStatus(tb testing.TB, slug string, statuses ...string) {
	tb.Helper()
	for _, s := range statuses {
		a.Admin(tb, http.MethodPost, "/api/v1/admin/tournaments/"+slug+"/status", map[string]any{"status": s}, http.StatusOK)
	}
}

// AdminMatch is a match as the admin API shows it.
type AdminMatch struct {
	ID           int64   `json:"id"`
	Stage        string  `json:"stage"`
	Round        string  `json:"round"`
	Group        *string `json:"group"`
	BracketSlot  *string `json:"bracketSlot"`
	Status       string  `json:"status"`
	P1           *string `json:"p1PlatformId"`
	P2           *string `json:"p2PlatformId"`
	OpensAt      string  `json:"opensAt"`
	ClosesAt     string  `json:"closesAt"`
	SessionNonce string  `json:"sessionNonce"`
	Winner       *string `json:"winner"`
	Score        *struct {
		P1 int `json:"p1"`
		P2 int `json:"p2"`
	} `json:"score"`
	ResultSource *string `json:"resultSource"`
}

// Slot is the match's bracket slot ("" in a group).
func (m AdminMatch) Slot() string {
	if m.BracketSlot == nil {
		return ""
	}
	return *m.BracketSlot
}

// Path is the match's page, or one of its actions ("ready", "report").
func (m AdminMatch) Path(action string) string {
	p := "/matches/" + strconv.FormatInt(m.ID, 10)
	if action != "" {
		p += "/" + action
	}
	return p
}

// Matches lists a tournament's matches through the admin API.
func (a *Arena) Matches(tb testing.TB, slug string) []AdminMatch {
	tb.Helper()
	var out struct {
		Matches []AdminMatch `json:"matches"`
	}
	Decode(tb, a.Admin(tb, http.MethodGet, "/api/v1/admin/tournaments/"+slug+"/matches", nil, http.StatusOK), &out)
	return out.Matches
}

// MatchBySlot returns the tournament's match in the bracket slot.
func (a *Arena) MatchBySlot(tb testing.TB, slug, slot string) AdminMatch {
	tb.Helper()
	for _, m := range a.Matches(tb, slug) {
		if m.Slot() == slot {
			return m
		}
	}
	tb.Fatalf("arenatest: %s has no match in slot %s", slug, slot)
	return AdminMatch{}
}

// Match reads one match through the admin API.
func (a *Arena) Match(tb testing.TB, id int64) AdminMatch {
	tb.Helper()
	var out AdminMatch
	Decode(tb, a.Admin(tb, http.MethodGet, "/api/v1/admin/matches/"+strconv.FormatInt(id, 10), nil, http.StatusOK), &out)
	return out
}

// Playable returns the tournament's scheduled matches with both sides
// whose window is open on the service clock.
func (a *Arena) Playable(tb testing.TB, slug string) []AdminMatch {
	tb.Helper()
	now := a.ServiceNow(tb)
	var out []AdminMatch
	for _, m := range a.Matches(tb, slug) {
		opens, _ := time.Parse(time.RFC3339, m.OpensAt)
		closes, _ := time.Parse(time.RFC3339, m.ClosesAt)
		if m.Status == "scheduled" && m.P1 != nil && m.P2 != nil && !now.Before(opens) && now.Before(closes) {
			out = append(out, m)
		}
	}
	return out
}

// ResolveScheduled has the admin resolve up to limit (-1: every) scheduled
// matches of the tournament with both sides known, the lower account id
// winning 3-1, and returns how many it resolved.
func (a *Arena) ResolveScheduled(tb testing.TB, slug string, limit int) int {
	tb.Helper()
	done := 0
	for _, m := range a.Matches(tb, slug) {
		if m.Status != "scheduled" || m.P1 == nil || m.P2 == nil || done == limit {
			continue
		}
		score := map[string]any{"p1": 3, "p2": 1}
		if *m.P2 < *m.P1 {
			score = map[string]any{"p1": 1, "p2": 3}
		}
		a.Admin(tb, http.MethodPost, "/api/v1/admin/matches/"+strconv.FormatInt(m.ID, 10)+"/resolve",
			map[string]any{"winner": min(*m.P1, *m.P2), "score": score}, http.StatusOK)
		done++
	}
	return done
}

// PublicTournament is the public API's full tournament, as far as tests
// read it.
type PublicTournament struct {
	Status      string `json:"status"`
	PlayerCount int    `json:"playerCount"`
	Groups      []struct {
		Name      string `json:"name"`
		Standings []struct {
			Player PublicPlayer `json:"player"`
			Played int          `json:"played"`
			Wins   int          `json:"wins"`
			Points int          `json:"points"`
		} `json:"standings"`
		Matches []PublicMatch `json:"matches"`
	} `json:"groups"`
	Bracket []struct {
		Label   string        `json:"label"`
		Matches []PublicMatch `json:"matches"`
	} `json:"bracket"`
	Podium []struct {
		Rank   int          `json:"rank"`
		Player PublicPlayer `json:"player"`
	} `json:"podium"`
}

// PublicPlayer is a player as the public API shows them.
type PublicPlayer struct {
	PlatformID  string `json:"platformId"`
	PersonaName string `json:"personaName"`
	AvatarURL   string `json:"avatarUrl"`
}

// PublicMatch is a match as the public API shows it.
type PublicMatch struct {
	ID           int64         `json:"id"`
	BracketSlot  *string       `json:"bracketSlot"`
	Status       string        `json:"status"`
	Player1      *PublicPlayer `json:"player1"`
	Player2      *PublicPlayer `json:"player2"`
	Winner       *PublicPlayer `json:"winner"`
	Score        *struct{ P1, P2 int }
	ResultSource *string `json:"resultSource"`
}

// Tournament reads the public API's full tournament.
func (a *Arena) Tournament(tb testing.TB, slug string) PublicTournament {
	tb.Helper()
	var out PublicTournament
	Decode(tb, a.API(tb, http.MethodGet, "/api/v1/tournaments/"+slug, "", nil, http.StatusOK), &out)
	return out
}

// Match finds a match in the public tournament, or nil.
func (p PublicTournament) Match(id int64) *PublicMatch {
	for _, g := range p.Groups {
		for i := range g.Matches {
			if g.Matches[i].ID == id {
				return &g.Matches[i]
			}
		}
	}
	for _, c := range p.Bracket {
		for i := range c.Matches {
			if c.Matches[i].ID == id {
				return &c.Matches[i]
			}
		}
	}
	return nil
}

// PlayerName is the player's name as the public API shows it.
func (a *Arena) PlayerName(tb testing.TB, platformID string) string {
	tb.Helper()
	var out struct {
		Player PublicPlayer `json:"player"`
	}
	Decode(tb, a.API(tb, http.MethodGet, "/api/v1/players/"+platformID, "", nil, http.StatusOK), &out)
	return out.Player.PersonaName
}
