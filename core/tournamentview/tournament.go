// Package tournamentview is a tournament as its readers see it: the one
// read model that the JSON API, the pages, the embed, the bracket
// picture, the broadcast view and the calendar feed render. A read takes
// the store once, through Store, and the model holds the decisions:
// which tournaments and matches the public sees (drafts only when the
// organizer asks), the players' names, the group tables, the Swiss stage,
// the bracket and the podium. Renderers only turn it into JSON or HTML.
package tournamentview

import (
	"context"

	"arena/core"
)

// Store is what the read model reads of an arena.
type Store interface {
	// Tournament returns the tournament with the slug, drafts included,
	// or CodeTournamentNotFound.
	Tournament(ctx context.Context, slug string) (*core.Tournament, error)
	// TournamentByID returns the tournament with the id, or
	// CodeTournamentNotFound.
	TournamentByID(ctx context.Context, id int64) (*core.Tournament, error)
	Registrations(ctx context.Context, tournamentID int64) ([]core.Registration, error)
	Matches(ctx context.Context, tournamentID int64) ([]core.Match, error)
	Podium(ctx context.Context, tournamentID int64) ([]core.PodiumPlace, error)
	PlayerReader
}

// Tournament is a tournament as its readers see it, built once per read
// (Build) and shared by every view of it: it must not be changed.
type Tournament struct {
	*core.Tournament
	// Registrations are the sides, in registration order.
	Registrations []core.Registration
	// Entrants are the sides as the page lists them: seeded ones first,
	// by seed.
	Entrants []core.Entrant
	// Players names every registered side.
	Players Players
	// Groups are the group tables, in group order; none before the group
	// stage (and in formats without groups).
	Groups []Group
	// Swiss is a Swiss tournament's stage; nil for other formats.
	Swiss *Swiss
	// Bracket is the playoff bracket; nil before the playoffs.
	Bracket *Bracket
	// Podium is a completed tournament's podium, by rank; empty before.
	Podium []core.PodiumPlace
}

// Find reads the public tournament with the slug: an unknown slug and a
// draft (which only its organizer sees) are CodeTournamentNotFound.
func Find(ctx context.Context, st Store, slug string) (*core.Tournament, error) {
	t, err := st.Tournament(ctx, slug)
	if err != nil {
		return nil, err
	}
	if !t.Status.Public() {
		return nil, core.Errorf(core.CodeTournamentNotFound, "draft")
	}
	return t, nil
}

// MatchTournament reads the tournament of a public match: the match of a
// draft is CodeMatchNotFound; an unknown tournament is
// CodeTournamentNotFound.
func MatchTournament(ctx context.Context, st Store, m *core.Match) (*core.Tournament, error) {
	t, err := st.TournamentByID(ctx, m.TournamentID)
	if err != nil {
		return nil, err
	}
	if !t.Status.Public() {
		return nil, core.Errorf(core.CodeMatchNotFound, "match %d of a draft", m.ID)
	}
	return t, nil
}

// Read is the public tournament with the slug (Find) as its readers see
// it (Build).
func Read(ctx context.Context, st Store, slug string) (*Tournament, error) {
	t, err := Find(ctx, st, slug)
	if err != nil {
		return nil, err
	}
	return Build(ctx, st, t)
}

// Build reads t's sides, matches, podium (once completed) and players'
// names, and builds what its readers see. It shows t whatever its status:
// a public read finds t with Find first; the organizer's reads show
// drafts too.
func Build(ctx context.Context, st Store, t *core.Tournament) (*Tournament, error) {
	regs, err := st.Registrations(ctx, t.ID)
	if err != nil {
		return nil, err
	}
	matches, err := st.Matches(ctx, t.ID)
	if err != nil {
		return nil, err
	}
	var podium []core.PodiumPlace
	if t.Status == core.StatusCompleted {
		if podium, err = st.Podium(ctx, t.ID); err != nil {
			return nil, err
		}
	}
	ids := make([]string, 0, len(regs))
	sides := make([]core.Entrant, 0, len(regs))
	for _, r := range regs {
		ids = append(ids, r.PlatformID)
		sides = append(sides, core.Entrant{ID: r.PlatformID, Seed: r.Seed})
	}
	players, err := ReadPlayers(ctx, st, ids)
	if err != nil {
		return nil, err
	}
	v := &Tournament{Tournament: t, Registrations: regs, Entrants: core.SeedOrder(sides), Players: players, Podium: podium}
	if v.Groups, err = groups(t, regs, matches); err != nil {
		return nil, err
	}
	if t.Format == core.FormatSwiss {
		if v.Swiss, err = swiss(t, regs, matches); err != nil {
			return nil, err
		}
	}
	v.Bracket = bracket(matches)
	return v, nil
}
