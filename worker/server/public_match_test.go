package server_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/worker/arenatest"
)

// TestPublicMatch: GET /api/v1/matches/{id} answers a tournament's match
// as the tournament's own view shows it, plus the tournament; a title's
// match has tournament null; unknown ids are match_not_found.
func TestPublicMatch(t *testing.T) {
	a := arenatest.New(t, arenatest.Options{NoSite: true, NoRateLimits: true})

	// The Autumn Open is completed: its final is decided.
	autumn := a.Tournament(t, "autumn-open")
	final := autumn.Bracket[len(autumn.Bracket)-1].Matches[0]
	whole := a.API(t, http.MethodGet, "/api/v1/tournaments/autumn-open", "", nil, http.StatusOK)
	got := a.API(t, http.MethodGet, fmt.Sprintf("/api/v1/matches/%d", final.ID), "", nil, http.StatusOK)
	var inTournament map[string]any
	for _, col := range whole["bracket"].([]any) {
		for _, m := range col.(map[string]any)["matches"].([]any) {
			if m.(map[string]any)["id"] == float64(final.ID) {
				inTournament = m.(map[string]any)
			}
		}
	}
	require.NotNil(t, inTournament)
	assert.Equal(t, map[string]any{"slug": "autumn-open", "name": whole["name"]}, got["tournament"])
	delete(got, "tournament")
	delete(inTournament, "casters")
	delete(inTournament, "streams")
	assert.Equal(t, inTournament, got, "the same match object as the tournament's")
	assert.Equal(t, "confirmed", got["status"])
	assert.NotNil(t, got["winner"])

	// The Arena Champion's pending challenge has no match yet; the Rookie
	// Belt's coronation is one once a second volunteer comes.
	titles := a.API(t, http.MethodGet, "/api/v1/public/titles", "", nil, http.StatusOK)["titles"].([]any)
	var titleMatch map[string]any
	for _, title := range titles {
		if m, ok := title.(map[string]any)["match"].(map[string]any); ok {
			titleMatch = m
		}
	}
	if titleMatch == nil {
		rookie := titles[1].(map[string]any)
		a.Game(t, http.MethodPost, fmt.Sprintf("/api/v1/titles/%.0f/volunteer", rookie["id"]), "76561198000000002", nil, http.StatusCreated)
		titleMatch = a.API(t, http.MethodGet, "/api/v1/public/titles", "", nil, http.StatusOK)["titles"].([]any)[1].(map[string]any)["match"].(map[string]any)
	}
	got = a.API(t, http.MethodGet, fmt.Sprintf("/api/v1/matches/%.0f", titleMatch["id"]), "", nil, http.StatusOK)
	assert.Contains(t, got, "tournament")
	assert.Nil(t, got["tournament"], "a title's match has no tournament")
	assert.Equal(t, "title", got["stage"])

	// A public read like the others: the edge front caches it by these.
	res, err := http.Get(fmt.Sprintf("%s/api/v1/matches/%d", a.URL, final.ID))
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, "public, max-age=10", res.Header.Get("Cache-Control"))
	assert.NotEmpty(t, res.Header.Get("ETag"))

	for _, id := range []string{"999999", "0", "abc", "-1"} {
		out := a.API(t, http.MethodGet, "/api/v1/matches/"+id, "", nil, http.StatusNotFound)
		assert.Equal(t, "match_not_found", out["error"], id)
	}
}
