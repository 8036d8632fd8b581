package views

import (
	"context"
	"strconv"

	"github.com/a-h/templ"

	"arena/core"
)

// Series on the site (docs/series.md "On the site"): a best-of-N match
// shows its length, the games each side won and each game; a best of 1
// shows exactly what a match always showed, so every part below renders
// nothing for it. Their texts are the catalog's match.series.* ids.

// GameLine is one game of a series as the pages show it: a decided game,
// or the game under way (Winner 0, Status live, awaiting_result or
// disputed).
type GameLine struct {
	Number int
	Status core.MatchStatus
	Winner int    // the winning slot (1 or 2); 0 while it is played
	Score  *Score // the game's score, when one was given
	// Source is where a decided game's result came from (game_client,
	// player_report, admin).
	Source string
}

// IsSeries reports whether the match is a best of more than one game.
func (m MatchSummary) IsSeries() bool { return m.BestOf > 1 }

// CurrentGame is the number of the game the series is at: its decided
// games plus one.
func (m MatchSummary) CurrentGame() int {
	n := 1
	for _, g := range m.Games {
		if g.Winner != 0 {
			n++
		}
	}
	return n
}

// seriesLabel names a series' length: "Best of 3".
func seriesLabel(ctx context.Context, bestOf int) string {
	return msg(ctx, "match.series.bestOf", "N", tr(ctx).Number(bestOf))
}

// SeriesShort is a series' length where room is short: "Bo3", as players
// write it in every language.
func SeriesShort(bestOf int) string { return "Bo" + strconv.Itoa(bestOf) }

// SeriesScoreText is the games each side won, slot order: "2–1".
func SeriesScoreText(s Score) string { return strconv.Itoa(s.P1) + "–" + strconv.Itoa(s.P2) }

// seriesShownScore is the score a series' scoreboard shows: the match's
// score once decided, else the games won once a game is decided; nil for
// a best of 1 or a series with no game decided.
func seriesShownScore(m MatchSummary) *Score {
	if m.Score != nil || !m.IsSeries() || m.Series.P1+m.Series.P2 == 0 {
		return m.Score
	}
	s := m.Series
	return &s
}

// seriesAt is the game a series is at: "Game 3 of 5".
func seriesAt(ctx context.Context, m MatchSummary) string {
	return msg(ctx, "match.series.gameOf", "N", tr(ctx).Number(m.CurrentGame()), "BestOf", tr(ctx).Number(m.BestOf))
}

// seriesState says where an undecided series stands: "Game 3 of 5 · 1–1";
// "" for a best of 1 or a decided series.
func seriesState(ctx context.Context, m MatchSummary) string {
	if !m.IsSeries() || m.Winner != 0 || m.ResultSource != "" {
		return ""
	}
	s := seriesAt(ctx, m)
	if m.Series.P1+m.Series.P2 > 0 {
		s += " · " + SeriesScoreText(m.Series)
	}
	return s
}

// seriesViewerText says to a player of the series where it stands for
// them: "Game 2 of 3, you lead 1–0", "Game 3 of 5, level at 1–1"; "" for
// a best of 1, a decided series or side 0.
func seriesViewerText(ctx context.Context, m MatchSummary, side int) string {
	if !m.IsSeries() || m.ResultSource != "" || side == 0 {
		return ""
	}
	mine, theirs := m.Series.P1, m.Series.P2
	if side == 2 {
		mine, theirs = theirs, mine
	}
	at := seriesAt(ctx, m)
	score := strconv.Itoa(mine) + "–" + strconv.Itoa(theirs)
	switch {
	case mine+theirs == 0:
		return msg(ctx, "match.series.viewer.start", "Game", at, "FirstTo", seriesFirstTo(ctx, m.BestOf))
	case mine > theirs:
		return msg(ctx, "match.series.viewer.lead", "Game", at, "Score", score)
	case mine < theirs:
		return msg(ctx, "match.series.viewer.trail", "Game", at, "Score", score)
	}
	return msg(ctx, "match.series.viewer.level", "Game", at, "Score", score)
}

// seriesFirstTo is how many games win a best of bestOf: "first to 2
// wins".
func seriesFirstTo(ctx context.Context, bestOf int) string {
	return msgN(ctx, "match.series.firstTo", core.SeriesWins(bestOf))
}

// seriesWinner is a decided series' or game's winner as a message
// argument: their name (what they typed, isolated), or "TBD".
func seriesWinner(ctx context.Context, m MatchSummary, winner int) any {
	w := m.P1
	if winner == 2 {
		w = m.P2
	}
	return pubSideArg(ctx, w)
}

// seriesGameResult is a game's line after its number: "Ada won 10–8",
// "Live".
func seriesGameResult(ctx context.Context, m MatchSummary, g GameLine) templ.Component {
	if g.Winner == 0 {
		return templ.Raw(templ.EscapeString(MatchStatusLabel(ctx, g.Status)))
	}
	if score := WinnerScore(g.Score, g.Winner); score != "" {
		return msgHTML(ctx, "match.series.gameWonScore", "Name", seriesWinner(ctx, m, g.Winner), "Score", score)
	}
	return msgHTML(ctx, "match.series.gameWon", "Name", seriesWinner(ctx, m, g.Winner))
}

// seriesSummary is a series' line on its match page: "Ada won the series
// 2–1", or "Games won: 1–1 · first to 3 wins".
func seriesSummary(ctx context.Context, m MatchSummary) templ.Component {
	if m.Winner != 0 {
		if score := WinnerScore(m.Score, m.Winner); score != "" {
			return msgHTML(ctx, "match.series.wonScore", "Name", seriesWinner(ctx, m, m.Winner), "Score", score)
		}
		return msgHTML(ctx, "match.series.won", "Name", seriesWinner(ctx, m, m.Winner))
	}
	if m.ResultSource != "" {
		return msgHTML(ctx, "match.series.decided")
	}
	return msgHTML(ctx, "match.series.standing", "Score", SeriesScoreText(m.Series), "FirstTo", seriesFirstTo(ctx, m.BestOf))
}

// seriesRoundSuffix follows a series' round label in lists: " · best of
// 3"; "" for a best of 1.
func seriesRoundSuffix(ctx context.Context, m MatchSummary) string {
	if !m.IsSeries() {
		return ""
	}
	return " · " + msg(ctx, "match.series.bestOfShort", "N", tr(ctx).Number(m.BestOf))
}
