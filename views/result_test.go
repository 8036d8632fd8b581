package views_test

import (
	"bytes"
	"context"
	"html"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/views"
)

// Issue 25 point 1 (the page's side): a match's score shows whatever
// its result's source, game clients' included, and the result line names
// the winner with their score first.
func TestMatchShowsScoreFromEverySource(t *testing.T) {
	for _, source := range []string{"game_client", "player_report", "admin"} {
		t.Run(source, func(t *testing.T) {
			m := groupMatch(7, "Round 1", ada, blaise, 2, &views.Score{P1: 1, P2: 3}, "confirmed")
			m.ResultSource = source
			var b bytes.Buffer
			require.NoError(t, views.MatchLiveView(views.MatchLive{Now: t0, Match: views.MatchDetail{MatchSummary: m}}).Render(context.Background(), &b))
			page := b.String()
			assert.Contains(t, page, `<span>1</span><span aria-hidden="true">–</span><span class="sr-only">to</span><span>3</span>`, "the scoreboard, slot order")
			assert.Contains(t, page, "<dt>Result</dt><dd>"+html.EscapeString(views.ResultSourceLabel(context.Background(), source))+": <bdi>Blaise Pascal</bdi> won 3–1</dd>", "the winner's score first")
		})
	}
	assert.Equal(t, "", views.WinnerScore(nil, 1))
	assert.Equal(t, "3–1", views.WinnerScore(&views.Score{P1: 3, P2: 1}, 1))
	assert.Equal(t, "3–1", views.WinnerScore(&views.Score{P1: 1, P2: 3}, 2))
}
