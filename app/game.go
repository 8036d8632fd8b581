package app

import (
	"context"
	"time"

	"arena/core"
	"arena/core/playerview"
	"arena/core/tournamentview"
)

// The game protocol's use cases (the game client's live and upcoming
// match, ready, result, referee consent, check-in) and the signed-in
// player's same actions on the website (registering, withdrawing,
// checking in, ready, reporting, confirming and disputing a report).

// SiteAppID is the AppID the website acts with for a tournament or title
// of the environment env. The site is not a game build, so it takes the
// AppID of the build the environment gate shows it to (spec 5.1.6): the
// primary AppID, except for demo ones on an arena with several AppIDs,
// which the gate shows to the other accepted AppIDs (the second is
// taken). With the primary alone, the ready button would find no demo
// match on such an arena.
func SiteAppID(a *core.Arena, env core.Environment) string {
	if len(a.AppIDs) == 0 {
		return ""
	}
	if len(a.AppIDs) > 1 && env == core.EnvironmentDemo {
		return a.AppIDs[1]
	}
	return a.AppIDs[0]
}

// siteCaller is the signed-in viewer as the caller of a rule the game
// client also calls, for something of the environment env (SiteAppID).
func (s *Session) siteCaller(viewer string, env core.Environment) core.Caller {
	return core.Caller{PlatformID: viewer, AppID: SiteAppID(s.Arena, env)}
}

// LiveMatch is the caller's live match (nil: none), and the read of the
// casters of the caller's live matches, planned with it: it answers
// from the same round trip when called.
func (s *Session) LiveMatch(ctx context.Context, caller core.Caller) (*core.MatchState, func(context.Context) (map[int64][]core.CasterSeat, error), error) {
	casters := s.store.PlanPlayerCasters(ctx, caller.PlatformID, core.MatchLive, core.MatchAwaitingResult)
	st, err := core.LiveMatchFor(ctx, s.store, s.Arena, caller)
	return st, casters, err
}

// UpcomingMatch is the caller's next scheduled match as of now (nil:
// none).
func (s *Session) UpcomingMatch(ctx context.Context, caller core.Caller, now time.Time) (*core.MatchState, error) {
	return core.UpcomingMatchFor(ctx, s.store, s.Arena, caller, now)
}

// Ready marks the caller's side of the match ready (core.Ready): the
// match goes live once both sides are.
func (s *Session) Ready(ctx context.Context, caller core.Caller, matchID int64) (core.ReadyOutcome, error) {
	return core.Ready(ctx, s.store, s.Arena, caller, matchID, s.Deps)
}

// ResultMatch is the match a result submission is for, as the game
// protocol sees it. What a confirming final completes its tournament
// with (nothing for other matches) and the arena's placement points are
// read with it, in the same round trip.
func (s *Session) ResultMatch(ctx context.Context, id int64) (*core.MatchState, error) {
	s.store.PlanMatchPlay(ctx, id)
	s.store.PlanSetting(ctx, core.SettingPlacementPoints)
	return s.store.MatchState(ctx, id)
}

// SubmitResult takes the caller's result submission for the match st
// (core.SubmitResult, rules 4 to 12 of spec 4.1).
func (s *Session) SubmitResult(ctx context.Context, st *core.MatchState, caller core.Caller, sub *core.ResultSubmission) (core.SubmitOutcome, error) {
	return core.SubmitResult(ctx, s.store, st, caller, sub, s.Deps)
}

// SetRefereeConsent records the player's AI-referee training consent,
// granted or withdrawn.
func (s *Session) SetRefereeConsent(ctx context.Context, platformID string, granted bool) error {
	return s.store.SetRefereeConsent(ctx, platformID, granted, s.Deps.Now)
}

// CheckIn checks the player's side of the tournament in (core.CheckIn:
// the same rule for the game client and the site). sides are the
// tournament's sides when read with it already; nil reads them.
func (s *Session) CheckIn(ctx context.Context, tour *core.Tournament, sides []core.Registration, player string) error {
	return core.CheckInOf(ctx, s.store, tour, sides, player, s.Deps.Now)
}

// SetCheckedIn is the organizer's check-in control: it checks the
// player's side in or out (core.SetCheckedIn). sides are the
// tournament's sides when read with it already; nil reads them.
func (s *Session) SetCheckedIn(ctx context.Context, tour *core.Tournament, sides []core.Registration, player string, checkedIn bool) error {
	return core.SetCheckedInOf(ctx, s.store, tour, sides, player, checkedIn, s.Deps.Now)
}

// PublicTournament is the tournament with the slug unless it is a draft
// (core.CodeTournamentNotFound for both).
func (s *Session) PublicTournament(ctx context.Context, slug string) (*core.Tournament, error) {
	return tournamentview.Find(ctx, s.store, slug)
}

// RegisterPlayer registers the player's side in the tournament: the
// player as captain, plus roster in team tournaments (core.Register, the
// admin API's rules and errors).
func (s *Session) RegisterPlayer(ctx context.Context, tour *core.Tournament, player string, roster []string) error {
	_, err := core.Register(ctx, s.store, tour, core.RegistrationDraft{PlatformID: player, Roster: roster}, s.Deps.Now)
	return err
}

// WithdrawPlayer takes the player's side out of the tournament while
// registration is open (captains only: core.Withdraw).
func (s *Session) WithdrawPlayer(ctx context.Context, tour *core.Tournament, player string) error {
	return core.Withdraw(ctx, s.store, tour, player, s.Deps.Now)
}

// ReportResult reports the result of the player's live match st: the
// winner (a side's captain) and an optional score (core.ReportResult).
func (s *Session) ReportResult(ctx context.Context, st *core.MatchState, player, winner string, score *core.OutcomeScore) (*core.MatchReport, error) {
	return core.ReportResult(ctx, s.store, st, player, winner, score, s.Deps)
}

// ConfirmReport confirms the opponent's report of the match st and
// answers the match's status afterwards (core.ConfirmReport).
func (s *Session) ConfirmReport(ctx context.Context, st *core.MatchState, player string) (core.MatchStatus, error) {
	return core.ConfirmReport(ctx, s.store, st, player, s.Deps)
}

// DisputeReport disputes the opponent's report of the match st, for the
// admin to decide (core.DisputeReport).
func (s *Session) DisputeReport(ctx context.Context, st *core.MatchState, player, reason string) (core.MatchStatus, error) {
	return core.DisputeReport(ctx, s.store, st, player, reason, s.Deps)
}

// MatchReport is the players' report of the match with the id (nil:
// none).
func (s *Session) MatchReport(ctx context.Context, matchID int64) (*core.MatchReport, error) {
	return s.store.MatchReport(ctx, matchID)
}

// ViewerParts are the player's own things in one read: their matches in
// the statuses with their reports, their sides' captains and check-ins,
// the names.
func (s *Session) ViewerParts(ctx context.Context, platformID string, statuses ...core.MatchStatus) (*playerview.Parts, error) {
	return s.store.ViewerParts(ctx, platformID, statuses...)
}
