package web_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/views"
)

// The match page shows the players' reports beside each other when the
// handler passes any (the reports slot of views.AdminMatch).
func TestAdminMatchPageShowsReports(t *testing.T) {
	at := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	decided := at.Add(time.Hour)
	one, three := 1, 3
	p := views.AdminMatch{
		ID: 7, TournamentSlug: "cup", TournamentName: "Cup", Round: "Final (F)", Status: "disputed",
		P1: "76561198000000101", P2: "76561198000000102", P1Name: "Ann", P2Name: "Ben",
		Reports: []views.AdminReport{{
			Side: 2, ReporterID: "76561198000000102", ReporterName: "Ben", Winner: "76561198000000102", WinnerName: "Ben",
			ScoreP1: &one, ScoreP2: &three, Status: "disputed", ReportedAt: at,
			DecidedAt: &decided, DecidedBy: "76561198000000101", DecidedByName: "Ann",
		}},
		CanResolve: true,
	}
	var b strings.Builder
	require.NoError(t, views.AdminMatchPage(views.Layout{Title: "Match #7"}, p).Render(context.Background(), &b))
	body := b.String()
	assert.Contains(t, body, "Players' reports")
	assert.Contains(t, body, "<dd>1–3</dd>")
	assert.Contains(t, body, "disputed by <bdi>Ann</bdi>")
	assert.Contains(t, body, "No report.", "side 1 made none")
	assert.Contains(t, body, `datetime="2026-11-20T13:00:00Z"`)
	assert.Contains(t, body, "No submission.")
}
