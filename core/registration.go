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

// RegistrationStore reads a tournament's sides.
type RegistrationStore interface {
	// Registrations returns the sides in registration order, with rosters.
	Registrations(ctx context.Context, tournamentID int64) ([]Registration, error)
}

// BulkRegisterStore is what registering a list reads and writes.
type BulkRegisterStore interface {
	RegistrationStore
	TournamentReader
	// RegisterAll adds every side, all or none, in one batch: each as
	// Register would, and nothing if any is refused then (the tournament
	// closed, filled up, or a player registered meanwhile: false).
	RegisterAll(ctx context.Context, t *Tournament, regs []Registration, players [][]PlayerProfile) (bool, error)
}

// RegisterStore is what registering reads and writes: the captain's
// profile and the side. One value, the arena's store, serves it.
type RegisterStore interface {
	// Player returns one profile, or CodePlayerNotFound.
	Player(ctx context.Context, id string) (*PlayerProfile, error)
	// Register adds a side if the tournament is open at reg.RegisteredAt
	// and below its cap, all in one statement batch, storing the players'
	// profiles too. Errors: CodeRegistrationClosed, CodeTournamentFull,
	// CodeAlreadyRegistered (the captain or a roster member is on a side).
	Register(ctx context.Context, t *Tournament, reg Registration, players []PlayerProfile) error
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

// MaxBulkRegistrations bounds the sides one bulk registration adds.
const MaxBulkRegistrations = 512

// RegisterAll registers the drafted sides for tour at now, all or none,
// under Register's rules. A refusal names the entry (Error.Index, from
// 0) with Register's codes: the entry's first problem or
// CodeInvalidRoster; CodeRegistrationClosed (entry 0); a player on two
// entries or already on a side (CodeAlreadyRegistered); the first entry
// over the tournament's cap (CodeTournamentFull). No list, or one over
// MaxBulkRegistrations, is CodeInvalidField on registrations. The sides
// come back in the list's order, their names as stored.
func RegisterAll(ctx context.Context, st BulkRegisterStore, tour *Tournament, drafts []RegistrationDraft, now time.Time) ([]Registration, error) {
	if len(drafts) == 0 || len(drafts) > MaxBulkRegistrations {
		return nil, FieldError(CodeInvalidField, "registrations")
	}
	regs := make([]Registration, len(drafts))
	players := make([][]PlayerProfile, len(drafts))
	for i, d := range drafts {
		if err := d.Check().Err(); err != nil {
			return nil, AtIndex(err, i)
		}
		members, err := tour.CheckRoster(d.PlatformID, d.Roster)
		if err != nil {
			return nil, AtIndex(err, i)
		}
		regs[i] = Registration{TournamentID: tour.ID, PlatformID: d.PlatformID, PersonaName: d.PersonaName, Seed: d.Seed.N, Roster: members, RegisteredAt: now}
		players[i] = make([]PlayerProfile, len(members))
		for j, id := range members {
			players[i][j] = PlayerProfile{PlatformID: id}
		}
		players[i][0].PersonaName = d.PersonaName
	}
	if err := checkBulk(ctx, st, tour, regs, now); err != nil {
		return nil, err
	}
	stored, err := st.RegisterAll(ctx, tour, regs, players)
	if err != nil {
		return nil, err
	}
	if !stored { // refused in the batch: name the entry as things are now
		current, err := st.TournamentByID(ctx, tour.ID)
		if err != nil {
			return nil, err
		}
		if err := checkBulk(ctx, st, current, regs, now); err != nil {
			return nil, err
		}
		return nil, Errorf(CodeRegistrationClosed, "%s takes no registrations", tour.Slug)
	}
	all, err := st.Registrations(ctx, tour.ID)
	if err != nil {
		return nil, err
	}
	names := make(map[string]string, len(all))
	for _, r := range all {
		names[r.PlatformID] = r.PersonaName
	}
	for i := range regs {
		regs[i].PersonaName = names[regs[i].PlatformID]
	}
	return regs, nil
}

// checkBulk applies the tournament's rules to the whole list against
// the sides registered now: open (entry 0), each player once across the
// list and the sides, the cap.
func checkBulk(ctx context.Context, st BulkRegisterStore, tour *Tournament, regs []Registration, now time.Time) error {
	if !tour.RegistrationOpenAt(now) {
		return AtIndex(Errorf(CodeRegistrationClosed, "%s takes no registrations", tour.Slug), 0)
	}
	sides, err := st.Registrations(ctx, tour.ID)
	if err != nil {
		return err
	}
	taken := map[string]bool{}
	for _, s := range sides {
		taken[s.PlatformID] = true
		for _, id := range s.Roster {
			taken[id] = true
		}
	}
	for i, r := range regs {
		for _, id := range r.Roster {
			if taken[id] {
				return AtIndex(Errorf(CodeAlreadyRegistered, "%s is on a side already", id), i)
			}
			taken[id] = true
		}
		if len(sides)+i+1 > tour.MaxPlayers {
			return AtIndex(Errorf(CodeTournamentFull, "%s takes %d sides", tour.Slug, tour.MaxPlayers), i)
		}
	}
	return nil
}
