package core

import "context"

// TournamentReader finds a tournament by id.
type TournamentReader interface {
	// TournamentByID returns the tournament with the id (a title's row
	// included), or CodeTournamentNotFound.
	TournamentByID(ctx context.Context, id int64) (*Tournament, error)
}

// MatchReader reads a tournament's matches.
type MatchReader interface {
	// Matches returns the tournament's matches: group matches by group and
	// round, then the bracket by round and slot.
	Matches(ctx context.Context, tournamentID int64) ([]Match, error)
}

// TournamentStore joins the ports a whole tournament is played through,
// from its season and its creation to its completion: registering
// (RegisterStore), stepping it through its lifecycle (LifecycleStore)
// and the admin's decisions (ResolveStore). The demo (worker/server) and
// the store's tests play tournaments through it; a use case takes the
// part it needs, declared beside it. Every method that two requests can
// race on is one conditional statement or one batch.
type TournamentStore interface {
	TournamentReader
	RegisterStore
	LifecycleStore
	ResolveStore

	// CreateSeason stores s (created at s.CreatedAt) and sets its ID;
	// CodeSlugTaken when the slug is used.
	CreateSeason(ctx context.Context, s *Season) error
	// CreateTournament stores t (status draft) and sets its ID;
	// CodeSlugTaken when the slug is used.
	CreateTournament(ctx context.Context, t *Tournament) error
	// Match returns the match with the id, or CodeMatchNotFound.
	Match(ctx context.Context, id int64) (*Match, error)
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
