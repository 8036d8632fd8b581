package core

import (
	"fmt"
	"time"
)

// Series (DESIGN.md "Series and the pace of results"): a best-of-N match
// is played game by game, each game one live session with its own
// sessionNonce and gameSeed, attested by the game clients exactly as a
// single match is (rules 1 to 12 per game). A game decided while no side
// has won SeriesWins(N) games sends the match back to scheduled in the
// same window; the side that reaches it wins the match, whose score is
// then the games won. A best of 1 is exactly a match as before.
//
// The store keeps the decided games (match_games) and decides, inside
// the deciding batch, whether a game ends the series (sql/queries/
// series.sql): Go only says how long a stage's series are.

// CodeGameNotCurrent: an admin's decision of one game names another game
// than the one being played (409).
const CodeGameNotCurrent = "game_not_current"

// BestOfRange bounds a series' length; it must also be odd (CheckBestOf).
var BestOfRange = Range{Min: 1, Max: 9}

// GameRange bounds a game's number in a series (drawn games are
// replayed under their number).
var GameRange = Range{Min: 1, Max: BestOfRange.Max}

// MaxNonceLen bounds a session nonce a replay header or a recording init
// names (the service's own are 22 characters).
const MaxNonceLen = 256

// DefaultBestOf is a series' length when a tournament does not say.
const DefaultBestOf = 1

// SeriesWins is how many games win a best of n: ceil(n/2).
func SeriesWins(n int) int { return (n + 1) / 2 }

// checkBestOf records the problem of a series length given for field: a
// whole odd number from 1 to 9.
func checkBestOf(p *Problems, field string, n Number) {
	if BestOfRange.Problem(n, false) != "" {
		BestOfRange.check(p, field, n, false)
		return
	}
	if n.Set && n.N%2 == 0 {
		p.invalid(field, "Use an odd number of games: 1, 3, 5, 7 or 9.")
	}
}

// checkSeriesScore is a player's report of a series: the games each side
// won, the winner's ceil(N/2), the loser's fewer, neither below the
// games the side has won already (CodeInvalidScore, field score). A best
// of 1 takes any score CheckReportedScore takes.
func checkSeriesScore(m *Match, winner string, score *OutcomeScore) error {
	n := m.SeriesLen()
	if n == 1 {
		return nil
	}
	if score == nil {
		return &Error{Code: CodeInvalidScore, Field: "score", Message: "Give the games each side won."}
	}
	won, lost := score.P1, score.P2
	if winner == m.P2 {
		won, lost = lost, won
	}
	so := m.Series()
	if won != SeriesWins(n) || lost >= won || score.P1 < so.P1 || score.P2 < so.P2 {
		return &Error{Code: CodeInvalidScore, Field: "score",
			Message: fmt.Sprintf("A best of %d is won with %d games, and the games decided (%d-%d) stand.", n, SeriesWins(n), so.P1, so.P2)}
	}
	return nil
}

// SeriesLength is how many games a match of the stage is best of: group,
// Swiss and round-robin matches GroupBestOf, the final, the grand final
// and its reset and the small final FinalBestOf, title matches and other
// playoff matches BestOf. A tournament stored before series has 1
// everywhere.
func (t *Tournament) SeriesLength(stage MatchStage) int {
	n := t.BestOf
	switch stage {
	case StageGroup, StageSwiss, StageRoundRobin:
		n = t.GroupBestOf
	case StageFinal, StageSmallFinal:
		n = t.FinalBestOf
	}
	if n < 1 {
		return DefaultBestOf
	}
	return n
}

// MatchWindowFor is the window of a match of the stage: one
// MatchWindow per game of its series.
func (t *Tournament) MatchWindowFor(stage MatchStage) time.Duration {
	return time.Duration(t.SeriesLength(stage)) * t.MatchWindow()
}

// SeriesScore is the games each side has won in a series, slot order.
type SeriesScore struct {
	P1 int `json:"p1"`
	P2 int `json:"p2"`
}

// Game is one game of a match as the API shows it: a decided game, or
// the game being played (status live, awaiting_result or disputed, no
// winner yet).
type Game struct {
	Game         int           `json:"game"`
	Status       MatchStatus   `json:"status"`
	Winner       string        `json:"-"` // the winning side's captain; "" while undecided
	ResultSource string        `json:"-"`
	Score        *OutcomeScore `json:"score"`
	DecidedAt    *time.Time    `json:"-"`
	SessionNonce string        `json:"-"`
}

// CurrentGame is the number of the game a match is at: the games decided
// so far plus one (while the match is undecided).
func (m *Match) CurrentGame() int { return len(m.DecidedGames()) + 1 }

// DecidedGames are the match's decided games, in order.
func (m *Match) DecidedGames() []Game {
	out := make([]Game, 0, len(m.Games))
	for _, g := range m.Games {
		if g.Winner != "" {
			out = append(out, g)
		}
	}
	return out
}

// Series returns the games each side won so far.
func (m *Match) Series() SeriesScore {
	var s SeriesScore
	for _, g := range m.Games {
		switch {
		case g.Winner == "":
		case g.Winner == m.P1:
			s.P1++
		case g.Winner == m.P2:
			s.P2++
		}
	}
	return s
}

// GamesShown are the games a match object lists: the decided games and
// the game under way. A best of 1 shows its one game once it is live: the
// match itself.
func (m *Match) GamesShown() []Game {
	if m.SeriesLen() == 1 {
		if m.LiveAt == nil && !m.Status.Resolved() || m.ResultSource == SourceBye {
			return []Game{}
		}
		g := Game{Game: 1, Status: m.Status, Score: m.Score, SessionNonce: m.SessionNonce}
		if m.Status.Resolved() {
			g.Winner, g.ResultSource, g.DecidedAt = m.Winner, m.ResultSource, m.ResolvedAt
		}
		return []Game{g}
	}
	out := append([]Game{}, m.DecidedGames()...)
	switch m.Status {
	case MatchLive, MatchAwaitingResult, MatchDisputed:
		out = append(out, Game{Game: len(out) + 1, Status: m.Status, SessionNonce: m.SessionNonce})
	}
	return out
}

// PlayedGames are the games of the match that went live, in order, each
// with its session's nonce: the decided games, then the game being
// played or (a best of 1) decided. Recordings and traces name a game by
// it.
func (m *Match) PlayedGames() []Game {
	out := []Game{}
	for _, g := range m.DecidedGames() {
		if g.SessionNonce != "" {
			out = append(out, g)
		}
	}
	if m.SessionNonce == "" {
		return out
	}
	for _, g := range out {
		if g.SessionNonce == m.SessionNonce {
			return out
		}
	}
	return append(out, Game{Game: len(m.DecidedGames()) + 1, Status: m.Status, SessionNonce: m.SessionNonce})
}

// RecordedGame is the game of the match that a recording or a trace is
// of: the one named by its number (game > 0) or its session's nonce
// (nonce != ""), else the last game that went live (the game being
// played, or the last decided). A game that never went live, or a
// nonce of no game of the match, is CodeNotLive; a number and a nonce
// naming two games, CodeInvalidField.
func RecordedGame(m *Match, game int, nonce string) (Game, error) {
	played := m.PlayedGames()
	if len(played) == 0 {
		return Game{}, Errorf(CodeNotLive, "match %d never went live", m.ID)
	}
	if game == 0 && nonce == "" {
		return played[len(played)-1], nil
	}
	for _, g := range played {
		switch {
		case nonce != "" && g.SessionNonce == nonce:
			if game != 0 && game != g.Game {
				return Game{}, FieldError(CodeInvalidField, "game")
			}
			return g, nil
		case nonce == "" && g.Game == game:
			return g, nil
		}
	}
	if nonce != "" {
		return Game{}, Errorf(CodeNotLive, "no game of match %d went live in that session", m.ID)
	}
	return Game{}, Errorf(CodeNotLive, "game %d of match %d never went live", game, m.ID)
}

// SeriesLen is the match's series length (1 for a match stored before
// series).
func (m *Match) SeriesLen() int {
	if m.BestOf < 1 {
		return 1
	}
	return m.BestOf
}
