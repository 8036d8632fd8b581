package core

import (
	"context"
	"time"
)

// TournamentReader finds an arena's tournaments.
type TournamentReader interface {
	// Tournament returns the tournament with the slug, drafts included, or
	// CodeTournamentNotFound (also for a title's FormatTitle row).
	Tournament(ctx context.Context, slug string) (*Tournament, error)
	// TournamentByID returns the tournament with the id (a title's row
	// included), or CodeTournamentNotFound.
	TournamentByID(ctx context.Context, id int64) (*Tournament, error)
	// Tournaments returns the tournaments (without drafts unless asked;
	// never titles' rows), newest start first.
	Tournaments(ctx context.Context, withDrafts bool) ([]Tournament, error)
}

// TournamentStore keeps an arena's seasons, tournaments, registrations and
// matches: every port a tournament's lifecycle (lifecycle.go, decided.go)
// goes through. A use case that needs one part takes that part's port,
// declared beside it. Every method that two requests can race on is one
// conditional statement or one batch.
type TournamentStore interface {
	TournamentReader
	SeasonStore
	RegistrationStore
	PlayerStore
	RatingReader
	SettingStore
	WindowStore

	// CreateTournament stores t (status draft) and sets its ID;
	// CodeSlugTaken when the slug is used.
	CreateTournament(ctx context.Context, t *Tournament) error
	// SetTournamentStatus moves t from `from` to `to` if it still is in
	// `from`; otherwise CodeInvalidTransition.
	SetTournamentStatus(ctx context.Context, t *Tournament, from, to TournamentStatus, at time.Time) error

	// StartStage moves t from `from` to `to` and, in the same batch, stores
	// the step's group assignments (captain -> group), seeds and matches,
	// all guarded by token (fresh for the call). When another request
	// moved t first it stores nothing and answers CodeInvalidTransition.
	StartStage(ctx context.Context, t *Tournament, from, to TournamentStatus, stage StageStart, at time.Time, token string) error
	// AddMatches stores a stage's next matches (a Swiss round, a top
	// cut's bracket) while t is in status `from`, moving it to `to` in the
	// same batch. Every match has a bracket slot; a slot stored already is
	// skipped, so two requests adding the same matches store them once.
	AddMatches(ctx context.Context, t *Tournament, from, to TournamentStatus, matches []Match, at time.Time) error
	// Matches returns the tournament's matches: group matches by group and
	// round, then the bracket by round and slot.
	Matches(ctx context.Context, tournamentID int64) ([]Match, error)
	// TournamentPlay reads the tournament with the id, its sides (in
	// registration order) and its matches (as Matches orders them)
	// together: one round trip to a remote database.
	TournamentPlay(ctx context.Context, id int64) (*Tournament, []Registration, []Match, error)
	// Match returns the match with the id, or CodeMatchNotFound.
	Match(ctx context.Context, id int64) (*Match, error)
	// ResolveMatch records res (with its Token) if the match is not
	// resolved yet and both sides are known, seating its winner and loser
	// in the same batch, and returns the resolved match;
	// CodeAlreadyResolved when another decision came first.
	ResolveMatch(ctx context.Context, id int64, res Resolution) (*Match, error)
	// ResolveGame decides game res.Game of a best-of-N match that is not
	// resolved (queries/series.sql) in one batch: the match goes back to
	// scheduled for the next game, or is decided when the game wins the
	// series (seating its winner and loser as every decision does).
	// CodeAlreadyResolved when the match was resolved meanwhile;
	// CodeGameNotCurrent when that game was decided meanwhile.
	ResolveGame(ctx context.Context, id int64, res Resolution) (*Match, error)
	// DecidedFinals returns the tournaments still in playoffs whose final
	// is decided.
	DecidedFinals(ctx context.Context) ([]int64, error)
	// StagesToSettle returns the round-robin and Swiss tournaments in
	// group_stage with every match resolved, and the double eliminations
	// in playoffs whose grand final is decided with no reset pending.
	StagesToSettle(ctx context.Context) ([]int64, error)
	// CompleteTournament moves t from playoffs to completed and stores its
	// podium and placements in one batch; a second call changes nothing.
	CompleteTournament(ctx context.Context, t *Tournament, podium []PodiumPlace, placements []ScoredPlacement, at time.Time) error
	// Podium returns the completed tournament's podium by rank.
	Podium(ctx context.Context, tournamentID int64) ([]PodiumPlace, error)
}

// ScoredPlacement is a final placement with the ladder points it earned.
type ScoredPlacement struct {
	Placement
	Points int
}

// CodePlayerNotFound is returned for an account id the arena does not know.
const CodePlayerNotFound = "player_not_found"

// PlayerCard is a player's public read model, beside the tournament's
// (tournamentview.Parts): the profile, the numbers and trophies, and the
// rating. The player API and the player page both answer from it.
type PlayerCard struct {
	Profile PlayerProfile
	Stats   PlayerStats
	// Rating is nil while the player is unrated.
	Rating *PlayerRating
}

// PlayerStats are a player's numbers on the public profile (spec 2.4).
type PlayerStats struct {
	MatchesPlayed int      `json:"matchesPlayed"`
	Wins          int      `json:"wins"`
	Losses        int      `json:"losses"`
	WinRate       int      `json:"winRate"`
	Trophies      []Trophy `json:"trophies"`
}

// Trophy is a podium place won in a completed tournament.
type Trophy struct {
	Rank           int    `json:"rank"`
	TournamentID   int64  `json:"tournamentId"`
	TournamentSlug string `json:"-"`
	TournamentName string `json:"-"`
}

// LadderRow is one side's season total.
type LadderRow struct {
	PlatformID  string
	Points      int
	Tournaments int
}
