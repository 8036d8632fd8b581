package core

import (
	"slices"
	"time"
)

// MatchStatus is a match's state (spec section 3).
type MatchStatus string

// Match statuses.
const (
	MatchScheduled      MatchStatus = "scheduled"
	MatchLive           MatchStatus = "live"
	MatchAwaitingResult MatchStatus = "awaiting_result"
	MatchConfirmed      MatchStatus = "confirmed"
	MatchDisputed       MatchStatus = "disputed"
	MatchForfeited      MatchStatus = "forfeited"
)

// ResolvedStatuses are the statuses of a match that has its final result:
// the one definition of "resolved", which the store's queries read too.
var ResolvedStatuses = []MatchStatus{MatchConfirmed, MatchForfeited}

// Resolved reports whether the match has its final result.
func (s MatchStatus) Resolved() bool { return slices.Contains(ResolvedStatuses, s) }

// WindowState is where a match's window stands at an instant: players
// ready up while it is open (spec 3, ready).
type WindowState string

// Window states.
const (
	WindowBefore WindowState = "before" // it opens later
	WindowOpen   WindowState = "open"   // opensAt <= now < closesAt
	WindowClosed WindowState = "closed" // closesAt <= now
)

// WindowAt returns where the window [opens, closes) stands at now.
func WindowAt(opens, closes, now time.Time) WindowState {
	switch {
	case now.Before(opens):
		return WindowBefore
	case now.Before(closes):
		return WindowOpen
	}
	return WindowClosed
}

// Window returns where the match's window stands at now.
func (m *Match) Window(now time.Time) WindowState { return WindowAt(m.OpensAt, m.ClosesAt, now) }

// ReadySides reports which sides pressed ready (a scheduled match's; a
// live match had both).
func (m *Match) ReadySides() (p1, p2 bool) { return m.P1ReadyAt != nil, m.P2ReadyAt != nil }

// MatchStage is a match's stage.
type MatchStage string

// Match stages: the spec's four, plus a Swiss round's and a round-robin
// tournament's matches (and a title match's, StageTitle). Playoff, small
// final and final are a bracket's (IsBracketStage). Double-elimination
// matches are playoff matches (the grand final and its reset final); a
// Swiss top cut is a bracket.
const (
	StageGroup      MatchStage = "group"
	StagePlayoff    MatchStage = "playoff"
	StageSmallFinal MatchStage = "small_final"
	StageFinal      MatchStage = "final"
	StageSwiss      MatchStage = "swiss"
	StageRoundRobin MatchStage = "round_robin"
)

// Result sources (spec 2.4).
const (
	SourcePlayerReport = "player_report"
	SourceAdmin        = "admin"
	SourceGameClient   = "game_client"
	SourceAIVideo      = "ai_video"
	SourceBye          = "bye"
)

// Match errors.
const (
	CodeMatchNotFound   = "match_not_found"
	CodeAlreadyResolved = "already_resolved"
	CodeInvalidWinner   = "invalid_winner"
)

// Match is one match of a tournament. P1 and P2 are the sides' captains'
// account ids, "" while undecided.
type Match struct {
	ID           int64
	TournamentID int64
	Stage        MatchStage
	Round        string // human label: "Round 1", "Quarterfinals", ...
	RoundNumber  int
	GroupName    string
	BracketSlot  string
	Status       MatchStatus
	P1, P2       string
	OpensAt      time.Time
	ClosesAt     time.Time
	Winner       string
	Score        *OutcomeScore
	ResultSource string
	WinnerTo     SeatRef
	LoserTo      SeatRef
	SessionNonce string
	GameSeed     int64
	P1ReadyAt    *time.Time
	P2ReadyAt    *time.Time
	LiveAt       *time.Time
	EndedAt      *time.Time
	ResolvedAt   *time.Time
	// BestOf is the series' length (series.go): 1 for a single game.
	BestOf int
	// Games are its decided games, in order (a best of 1 stores none:
	// GamesShown shows the match as its game).
	Games []Game
}

// Outcome returns the match as the standings see it.
func (m *Match) Outcome() MatchOutcome {
	o := MatchOutcome{P1: m.P1, P2: m.P2, Score: m.Score, Forfeit: m.Status == MatchForfeited}
	if m.Status.Resolved() {
		o.Winner = m.Winner
	}
	return o
}

// Loser returns the resolved match's losing side, or "".
func (m *Match) Loser() string {
	if !m.Status.Resolved() {
		return ""
	}
	return m.Outcome().Loser()
}

// Resolution is a decided result for a match.
type Resolution struct {
	Winner  string
	Score   *OutcomeScore
	Forfeit bool   // the loser forfeited: status forfeited
	Source  string // result source recorded
	At      time.Time
	Token   string // tells the call that decided the match (set by ResolveMatch)
	By      string // the deciding admin token's id for the event log; "" when none
	// Game, when set on a best-of-N match, decides only that game (the
	// one being played: CurrentGame); the series goes on unless it wins it.
	Game int
}

// ParseMatchID reads a match id from a path: a positive decimal integer
// with no sign, spaces or leading zeros (at most 18 digits). Anything else
// is CodeMatchNotFound (spec 7: "Match id not an integer, or no such
// match"), the same for the API and the site.
func ParseMatchID(s string) (int64, error) {
	if s == "" || len(s) > 18 || s[0] == '0' {
		return 0, Errorf(CodeMatchNotFound, "match id %q", s)
	}
	var id int64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, Errorf(CodeMatchNotFound, "match id %q", s)
		}
		id = id*10 + int64(c-'0')
	}
	return id, nil
}
