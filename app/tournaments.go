package app

import (
	"context"

	"arena/core"
	"arena/core/tournamentview"
)

// The organizer's tournaments: creating and editing them, their
// lifecycle steps, opening a round's matches, taking a decision back,
// and the arena's seasons.

// CreateTournament checks the draft against the arena's seasons at the
// request's now (core.TournamentDraft.Check) and stores the draft
// tournament it makes. The first problem found is the error.
func (s *Session) CreateTournament(ctx context.Context, draft *core.TournamentDraft) (*core.Tournament, error) {
	seasons, err := s.store.Seasons(ctx)
	if err != nil {
		return nil, err
	}
	tour, problems := draft.Check(seasons, s.Deps.Now)
	if err := problems.Err(); err != nil {
		return nil, err
	}
	if err := s.AddTournament(ctx, tour); err != nil {
		return nil, err
	}
	return tour, nil
}

// AddTournament stores a new draft tournament checked already
// (core.TournamentDraft.Check); CodeSlugTaken when its slug names
// another.
func (s *Session) AddTournament(ctx context.Context, tour *core.Tournament) error {
	return s.store.CreateTournament(ctx, tour)
}

// AdminTournament is the tournament with the slug, drafts included, as
// its readers see it (one read), or core.CodeTournamentNotFound.
func (s *Session) AdminTournament(ctx context.Context, slug string) (*tournamentview.Tournament, error) {
	return tournamentview.ReadAny(ctx, s.store, slug)
}

// TournamentWithSides is the tournament with the slug and its sides, in
// registration order, read together (answered from the route's plan
// when it planned the tournament's parts). Sides is never nil (a use
// case given nil sides reads them itself).
func (s *Session) TournamentWithSides(ctx context.Context, slug string) (*core.Tournament, []core.Registration, error) {
	parts, err := s.store.TournamentParts(ctx, slug, 0)
	if err != nil {
		return nil, nil, err
	}
	sides := parts.Registrations
	if sides == nil {
		sides = []core.Registration{}
	}
	return parts.Tournament, sides, nil
}

// StepTournament moves the tournament with the slug one lifecycle step,
// to status to (core.StepTournamentOf), and answers it as its readers
// see it afterwards, with the captains of the sides the step withdrew
// for not checking in. The answer's read goes with the step's write.
func (s *Session) StepTournament(ctx context.Context, slug string, to core.TournamentStatus) (*tournamentview.Tournament, []string, error) {
	tour, sides, err := s.TournamentWithSides(ctx, slug)
	if err != nil {
		return nil, nil, err
	}
	s.store.PlanTournamentPartsAfterWrite(ctx, "", tour.ID)
	withdrawn, err := core.StepTournamentOf(ctx, s.store, tour, sides, to, s.Deps)
	if err != nil {
		return nil, nil, err
	}
	v, err := tournamentview.Build(ctx, s.store, tour) // the row as the step left it
	if err != nil {
		return nil, nil, err
	}
	return v, withdrawn, nil
}

// ChangeTournamentStatus moves tour one lifecycle step, to status to
// (core.ChangeTournamentStatus).
func (s *Session) ChangeTournamentStatus(ctx context.Context, tour *core.Tournament, to core.TournamentStatus) error {
	return core.ChangeTournamentStatus(ctx, s.store, tour, to, s.Deps)
}

// EditTournament applies the edit to tour past draft at the request's
// now (core.EditTournament) and answers the tournament as its readers
// see it afterwards.
func (s *Session) EditTournament(ctx context.Context, tour *core.Tournament, edit *core.TournamentEdit) (*tournamentview.Tournament, error) {
	edited, err := core.EditTournament(ctx, s.store, tour, edit, s.Deps.Now)
	if err != nil {
		return nil, err
	}
	return tournamentview.Build(ctx, s.store, edited)
}

// EditTournamentDetails applies the edit to tour past draft at the
// request's now (core.EditTournament) and answers the tournament as
// edited, with no read.
func (s *Session) EditTournamentDetails(ctx context.Context, tour *core.Tournament, edit *core.TournamentEdit) (*core.Tournament, error) {
	return core.EditTournament(ctx, s.store, tour, edit, s.Deps.Now)
}

// SaveDraftTournament stores the settings of a tournament that is still
// a draft (checked already). Errors: CodeTournamentNotFound,
// CodeTournamentNotDraft, CodeSlugTaken.
func (s *Session) SaveDraftTournament(ctx context.Context, tour *core.Tournament) error {
	return s.store.UpdateTournament(ctx, tour)
}

// TournamentDesk is what the organizer's page of a tournament shows
// besides its row: its sides in registration order, its matches, and,
// for a draft, the seasons it may join.
type TournamentDesk struct {
	Registrations []core.Registration
	Matches       []core.Match
	Seasons       []core.Season // a draft's only
}

// TournamentDesk reads tour's sides and matches, and the arena's seasons
// when tour is a draft.
func (s *Session) TournamentDesk(ctx context.Context, tour *core.Tournament) (*TournamentDesk, error) {
	regs, err := s.store.Registrations(ctx, tour.ID)
	if err != nil {
		return nil, err
	}
	matches, err := s.store.Matches(ctx, tour.ID)
	if err != nil {
		return nil, err
	}
	d := &TournamentDesk{Registrations: regs, Matches: matches}
	if tour.Status == core.StatusDraft {
		if d.Seasons, err = s.store.Seasons(ctx); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// OpenRound opens at the request's now every scheduled match of tour's
// round whose sides are known (core.OpenRound), and answers their ids.
func (s *Session) OpenRound(ctx context.Context, tour *core.Tournament, round string) ([]int64, error) {
	return core.OpenRound(ctx, s.store, tour, round, s.Deps.Now)
}

// ReopenMatch takes the decision of the match with the id back
// (core.ReopenMatch), by the admin token with the id by, and answers the
// match as it is afterwards.
func (s *Session) ReopenMatch(ctx context.Context, id int64, by string) (*core.Match, error) {
	m, tour, err := s.store.MatchWithTournament(ctx, id)
	if err != nil {
		return nil, err
	}
	return core.ReopenMatch(ctx, s.store, tour, m, by, s.Deps)
}

// CreateSeason stores a new season checked already
// (core.SeasonDraft.Check); CodeSlugTaken when its slug names another.
func (s *Session) CreateSeason(ctx context.Context, season *core.Season) error {
	return s.store.CreateSeason(ctx, season)
}

// UpdateSeason stores a season's new name and dates (checked already);
// CodeNotFound when the arena has no season of its slug.
func (s *Session) UpdateSeason(ctx context.Context, season *core.Season) error {
	return s.store.UpdateSeason(ctx, season)
}
