package app

import (
	"context"

	"arena/core"
)

// The organizer's matches: the queue of matches waiting for them, a
// match examined, its window moved, its result decided, a player's report
// accepted, a decision taken back.

// OrganizerQueue lists the matches that need the organizer at the
// request's now (core.OrganizerQueue).
func (s *Session) OrganizerQueue(ctx context.Context) ([]core.QueuedMatch, error) {
	return core.OrganizerQueue(ctx, s.store, s.Deps.Now)
}

// OrganizerDashboard is what the organizer's dashboard lists: the
// matches that need them at the request's now and every tournament,
// drafts included.
func (s *Session) OrganizerDashboard(ctx context.Context) ([]core.QueuedMatch, []core.Tournament, error) {
	queue, err := core.OrganizerQueue(ctx, s.store, s.Deps.Now)
	if err != nil {
		return nil, nil, err
	}
	tours, err := s.store.Tournaments(ctx, true)
	if err != nil {
		return nil, nil, err
	}
	return queue, tours, nil
}

// TournamentMatches are the matches of the tournament with the slug
// (drafts included), or core.CodeTournamentNotFound.
func (s *Session) TournamentMatches(ctx context.Context, slug string) ([]core.Match, error) {
	tour, err := s.store.Tournament(ctx, slug)
	if err != nil {
		return nil, err
	}
	return s.store.Matches(ctx, tour.ID)
}

// MatchWithSubmissions is the match with the id and both sides' stored
// submissions verbatim, for forensics; core.CodeMatchNotFound when there
// is no such match.
func (s *Session) MatchWithSubmissions(ctx context.Context, id int64) (*core.Match, []core.SubmissionRecord, error) {
	m, err := s.store.Match(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	subs, err := s.store.Submissions(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	return m, subs, nil
}

// OrganizerMatch is a match as the organizer examines it: its state
// (tournament, sides and their names), the sides' stored submissions,
// the players' report and the casters seated on it.
type OrganizerMatch struct {
	*core.MatchState
	Submissions []core.SubmissionRecord
	// Report is the players' report, nil when there is none.
	Report  *core.MatchReport
	Casters []core.CasterSeat
}

// OrganizerMatch reads the match with the id for the organizer's match
// page; core.CodeMatchNotFound when there is no such match.
func (s *Session) OrganizerMatch(ctx context.Context, id int64) (*OrganizerMatch, error) {
	st, err := s.store.MatchState(ctx, id)
	if err != nil {
		return nil, err
	}
	out := OrganizerMatch{MatchState: st}
	if out.Submissions, err = s.store.Submissions(ctx, id); err != nil {
		return nil, err
	}
	if out.Report, err = s.store.MatchReport(ctx, id); err != nil {
		return nil, err
	}
	if out.Casters, err = s.store.Casters(ctx, id); err != nil {
		return nil, err
	}
	return &out, nil
}

// RescheduleMatch moves the window of the match with the id at the
// request's now (core.Reschedule's rules) and answers the match after.
func (s *Session) RescheduleMatch(ctx context.Context, id int64, d core.WindowDraft) (*core.Match, error) {
	m, err := s.store.Match(ctx, id)
	if err != nil {
		return nil, err
	}
	return core.Reschedule(ctx, s.store, m, d, s.Deps.Now)
}

// ResolveMatch records the organizer's decision res on the match with
// the id (core.ResolveMatch), the match and its tournament read
// together, and answers the match decided and its tournament.
func (s *Session) ResolveMatch(ctx context.Context, id int64, res core.Resolution) (*core.Match, *core.Tournament, error) {
	m, tour, err := s.store.MatchWithTournament(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	m, err = core.ResolveMatch(ctx, s.store, tour, m, res, s.Deps)
	return m, tour, err
}

// AcceptReport resolves the match with the id with the result a player
// reported (core.AcceptReport), the match and its tournament read
// together, and answers the match decided.
func (s *Session) AcceptReport(ctx context.Context, id int64) (*core.Match, error) {
	m, tour, err := s.store.MatchWithTournament(ctx, id)
	if err != nil {
		return nil, err
	}
	return core.AcceptReport(ctx, s.store, tour, m, s.Deps)
}

// ReportToAccept is the players' report on m, a match the caller read,
// and the profiles of m's sides and the reporter. The profiles are read
// only when there is a report and m is undecided (nil otherwise).
func (s *Session) ReportToAccept(ctx context.Context, m *core.Match) (*core.MatchReport, map[string]core.PlayerProfile, error) {
	rep, err := s.store.MatchReport(ctx, m.ID)
	if err != nil || rep == nil || m.Status.Resolved() {
		return rep, nil, err
	}
	names, err := s.store.Players(ctx, []string{m.P1, m.P2, rep.ReporterID})
	if err != nil {
		return rep, nil, err
	}
	return rep, names, nil
}
