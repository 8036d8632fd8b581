package core

import (
	"context"
	"time"
)

// Register registers a side for tour at now: the same rules and errors for
// the admin API and the site.
func Register(ctx context.Context, st TournamentStore, tour *Tournament, captain, name string, seed int, roster []string, now time.Time) (*Registration, error) {
	members, err := tour.CheckRoster(captain, roster)
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
