package server_test

import (
	"context"
	"errors"
	"net/http"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/core"
	"arena/worker/server"
)

func TestSeedDemo(t *testing.T) {
	env := newTestEnv(t, false)
	token, err := env.Server.SeedDemo(context.Background())
	require.NoError(t, err)
	assertDemoSeeded(t, env, token)
}

// assertDemoSeeded checks the whole demo arena: hosts, admin token, the
// tournaments in their stages, the ladder.
func assertDemoSeeded(t *testing.T, env *testEnv, token string) {
	t.Helper()
	for _, host := range server.DemoHosts {
		status, body := env.do(t, "GET", host+":8787", "/api/v1", "", nil)
		require.Equal(t, http.StatusOK, status)
		assert.Equal(t, "demo", body["tenant"].(map[string]any)["slug"])
	}
	status, _ := env.do(t, "PUT", "localhost", "/api/v1/admin/settings", token, map[string]any{"name": "My Demo"})
	assert.Equal(t, http.StatusOK, status)

	_, list := env.do(t, "GET", "localhost", "/api/v1/tournaments", "", nil)
	statuses := map[string]any{}
	for _, raw := range list["tournaments"].([]any) {
		tour := raw.(map[string]any)
		statuses[tour["slug"].(string)] = tour["status"]
	}
	assert.Equal(t, map[string]any{"autumn-open": "completed", "winter-cup": "group_stage", "spring-invitational": "registration_open",
		"summer-double": "playoffs", "harvest-cup": "registration_closed", "autumn-masters": "group_stage",
		"spring-showdown": "playoffs"}, statuses)

	_, showdown := env.do(t, "GET", "localhost", "/api/v1/tournaments/spring-showdown", "", nil)
	assert.Equal(t, "asap", showdown["pacing"])
	series := map[string]any{}
	for _, col := range showdown["bracket"].([]any) {
		for _, raw := range col.(map[string]any)["matches"].([]any) {
			m := raw.(map[string]any)
			series[m["bracketSlot"].(string)] = []any{m["bestOf"], m["status"], m["seriesScore"], len(m["games"].([]any))}
		}
	}
	assert.Equal(t, map[string]any{
		"SF1":   []any{float64(3), "confirmed", map[string]any{"p1": float64(2), "p2": float64(1)}, 3},
		"SF2":   []any{float64(3), "confirmed", map[string]any{"p1": float64(2), "p2": float64(0)}, 2},
		"FINAL": []any{float64(5), "scheduled", map[string]any{"p1": float64(1), "p2": float64(1)}, 2},
	}, series, "a best-of-3 bracket with its best-of-5 final part-played")
	status, up := env.Do(t, "GET", "http://localhost/api/v1/me/upcoming-match", "Platform MOCK:76561198000000021", nil)
	require.Equal(t, 200, status, "the final is open now for its next game")
	assert.Equal(t, []any{float64(3), float64(5), true}, []any{up["game"], up["bestOf"], up["windowOpen"]})

	_, harvest := env.do(t, "GET", "localhost", "/api/v1/tournaments/harvest-cup", "", nil)
	assert.Equal(t, float64(24*60), harvest["checkInMinutes"])
	checkedIn := 0
	for _, raw := range harvest["players"].([]any) {
		if raw.(map[string]any)["checkedIn"] == true {
			checkedIn++
		}
	}
	assert.Equal(t, [2]any{6, 4}, [2]any{len(harvest["players"].([]any)), checkedIn}, "six registered, four checked in")

	_, masters := env.do(t, "GET", "localhost", "/api/v1/tournaments/autumn-masters", "", nil)
	assert.Equal(t, "gsl", masters["groupFormat"])
	for _, g := range masters["groups"].([]any) {
		open := []any{}
		for _, raw := range g.(map[string]any)["matches"].([]any) {
			if m := raw.(map[string]any); m["status"] == "scheduled" {
				open = append(open, m["round"])
			}
		}
		assert.Equal(t, []any{"Decider match"}, open, "everything but the decider played")
	}

	_, autumn := env.do(t, "GET", "localhost", "/api/v1/tournaments/autumn-open", "", nil)
	assert.Equal(t, float64(16), autumn["playerCount"])
	assert.Len(t, autumn["groups"], 4)
	assert.Len(t, autumn["podium"], 4)
	assert.Len(t, autumn["bracket"], 6, "quarterfinals and semifinals on both sides, final and small final")

	_, winter := env.do(t, "GET", "localhost", "/api/v1/tournaments/winter-cup", "", nil)
	resolved, scheduled := 0, 0
	for _, g := range winter["groups"].([]any) {
		for _, m := range g.(map[string]any)["matches"].([]any) {
			switch m.(map[string]any)["status"] {
			case "confirmed":
				resolved++
			case "scheduled":
				scheduled++
			}
		}
	}
	assert.Equal(t, 4, resolved, "round one of two groups of four")
	assert.Equal(t, 8, scheduled)

	_, ladder := env.do(t, "GET", "localhost", "/api/v1/ladder", "", nil)
	assert.Equal(t, "season-1", ladder["season"].(map[string]any)["slug"])
	assert.Len(t, ladder["ladder"], 16)

	_, double := env.do(t, "GET", "localhost", "/api/v1/tournaments/summer-double", "", nil)
	played, open := 0, 0
	for _, c := range double["bracket"].([]any) {
		for _, raw := range c.(map[string]any)["matches"].([]any) {
			m := raw.(map[string]any)
			switch {
			case m["resultSource"] == "bye":
			case m["status"] == "confirmed":
				played++
			case m["player1"] != nil && m["player2"] != nil:
				open++
			}
		}
	}
	assert.Equal(t, [2]int{6, 3}, [2]int{played, open}, "steps 1 and 2 played; the winners' final and losers' round 2 open")
}

// failingDemoStore is the demo's tournament store failing (or, with
// crash, stopping its goroutine dead as a killed process would) when the
// demo creates its third tournament: one cup complete, one half played.
type failingDemoStore struct {
	core.TournamentStore
	crash   bool
	created int
}

func (s *failingDemoStore) CreateTournament(ctx context.Context, tour *core.Tournament) error {
	if s.created++; s.created == 3 {
		if s.crash {
			runtime.Goexit()
		}
		return errors.New("disk full")
	}
	return s.TournamentStore.CreateTournament(ctx, tour)
}

// TestSeedDemoPartWay: seeding cut off part-way leaves no demo arena that
// routes, and seeding again (after DropUnfinishedArenas, as the next
// native start does) builds the whole demo.
func TestSeedDemoPartWay(t *testing.T) {
	for _, crash := range []bool{false, true} {
		name := map[bool]string{false: "Failure", true: "Crash"}[crash]
		t.Run(name, func(t *testing.T) {
			env := newTestEnv(t, false)
			env.Server.SetDemoStore(func(st core.TournamentStore) core.TournamentStore {
				return &failingDemoStore{TournamentStore: st, crash: crash}
			})
			done := make(chan error, 1)
			go func() {
				var err error = errors.New("goroutine ended before SeedDemo returned")
				defer func() { done <- err }()
				_, err = env.Server.SeedDemo(context.Background())
			}()
			require.Error(t, <-done)
			status, _ := env.do(t, "GET", "localhost", "/api/v1/tournaments", "", nil)
			assert.Equal(t, http.StatusNotFound, status, "a half-built demo never routes")
			if crash {
				files := strings.Join(arenaFiles(t, env), " ")
				assert.Contains(t, files, "demo.db", "a crash leaves the half-built database for the next start")
			} else {
				assert.Empty(t, arenaFiles(t, env), "a failure removes the half-built database")
			}

			env.Server.SetDemoStore(nil)
			_, err := env.Server.DropUnfinishedArenas(context.Background())
			require.NoError(t, err)
			token, err := env.Server.SeedDemo(context.Background())
			require.NoError(t, err)
			assertDemoSeeded(t, env, token)
		})
	}
}
