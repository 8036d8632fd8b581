package views

import (
	"context"
	"strconv"

	"arena/core"
)

// Series on the site (docs/series.md "On the site"): a best-of-N match
// shows its length, the games each side won and each game; a best of 1
// shows exactly what a match always showed, so every part below renders
// nothing for it.

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

// SeriesLabel names a series' length: "Best of 3".
func SeriesLabel(bestOf int) string { return "Best of " + strconv.Itoa(bestOf) }

// SeriesShort is a series' length where room is short: "Bo3".
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

// seriesState says where an undecided series stands: "Game 3 of 5 · 1–1";
// "" for a best of 1 or a decided series.
func seriesState(m MatchSummary) string {
	if !m.IsSeries() || m.Winner != 0 || m.ResultSource != "" {
		return ""
	}
	s := "Game " + strconv.Itoa(m.CurrentGame()) + " of " + strconv.Itoa(m.BestOf)
	if m.Series.P1+m.Series.P2 > 0 {
		s += " · " + SeriesScoreText(m.Series)
	}
	return s
}

// seriesViewerLine says to a player of the series where it stands for
// them: "Game 2 of 3, you lead 1–0", "Game 3 of 5, level at 1–1"; "" for
// a best of 1, a decided series or side 0.
func seriesViewerLine(m MatchSummary, side int) string {
	if !m.IsSeries() || m.ResultSource != "" || side == 0 {
		return ""
	}
	mine, theirs := m.Series.P1, m.Series.P2
	if side == 2 {
		mine, theirs = theirs, mine
	}
	s := "Game " + strconv.Itoa(m.CurrentGame()) + " of " + strconv.Itoa(m.BestOf)
	switch {
	case mine+theirs == 0:
		return s + ", first to " + strconv.Itoa((m.BestOf+1)/2) + " wins"
	case mine > theirs:
		return s + ", you lead " + strconv.Itoa(mine) + "–" + strconv.Itoa(theirs)
	case mine < theirs:
		return s + ", you trail " + strconv.Itoa(mine) + "–" + strconv.Itoa(theirs)
	}
	return s + ", level at " + strconv.Itoa(mine) + "–" + strconv.Itoa(theirs)
}

// seriesGameResult is a game's line after its number: "Ada won 10–8",
// "Live".
func seriesGameResult(ctx context.Context, m MatchSummary, g GameLine) string {
	if g.Winner == 0 {
		return MatchStatusLabel(ctx, g.Status)
	}
	w := m.P1
	if g.Winner == 2 {
		w = m.P2
	}
	s := pubSideName(w) + " won"
	if score := WinnerScore(g.Score, g.Winner); score != "" {
		s += " " + score
	}
	return s
}

// seriesSummary is a series' line on its match page: "Ada won the series
// 2–1", or "Games won: 1–1 · first to 3 wins".
func seriesSummary(m MatchSummary) string {
	if m.Winner != 0 {
		w := m.P1
		if m.Winner == 2 {
			w = m.P2
		}
		s := pubSideName(w) + " won the series"
		if score := WinnerScore(m.Score, m.Winner); score != "" {
			s += " " + score
		}
		return s
	}
	if m.ResultSource != "" {
		return "Decided."
	}
	return "Games won: " + SeriesScoreText(m.Series) + " · first to " + strconv.Itoa((m.BestOf+1)/2) + " wins"
}

// seriesSuffix follows a series' round label in lists: " · best of 3";
// "" for a best of 1.
func seriesSuffix(m MatchSummary) string {
	if !m.IsSeries() {
		return ""
	}
	return " · best of " + strconv.Itoa(m.BestOf)
}
