package server_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/client"
)

// formatsTarget is the arena service the formats' end-to-end test plays
// against: natively a test server in this process; with ARENA_E2E_ADDR
// set (host:port of a running service, e.g. wrangler dev), that service,
// with ARENA_E2E_OPERATOR_TOKEN and, when its arenas need one,
// ARENA_E2E_DATABASE_URL (a libSQL URL for the new arena's database).
type formatsTarget struct {
	addr, operatorToken, databaseURL string
	host                             string // the arena's host, reached at addr
	http                             *http.Client
	now                              func() time.Time
	env                              *testEnv // native only
}

func newFormatsTarget(t *testing.T) *formatsTarget {
	var suffix [4]byte
	_, _ = rand.Read(suffix[:])
	ft := &formatsTarget{host: "formats-" + hex.EncodeToString(suffix[:]) + ".e2e.test", now: time.Now}
	if addr := os.Getenv("ARENA_E2E_ADDR"); addr != "" {
		ft.addr, ft.operatorToken, ft.databaseURL = addr, os.Getenv("ARENA_E2E_OPERATOR_TOKEN"), os.Getenv("ARENA_E2E_DATABASE_URL")
	} else {
		ft.env = newTestEnv(t, true)
		srv := httptest.NewServer(ft.env.Server)
		t.Cleanup(srv.Close)
		ft.addr, ft.operatorToken = srv.Listener.Addr().String(), operatorToken
		ft.now = func() time.Time { return ft.env.Now }
	}
	// Every request goes to addr, whatever host its URL names: the
	// arena's host picks the arena.
	dialer := &net.Dialer{Timeout: 5 * time.Second}
	ft.http = &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return dialer.DialContext(ctx, network, ft.addr)
		},
	}}
	return ft
}

func (ft *formatsTarget) baseURL() string { return "http://" + ft.host + "/" }

// call sends a JSON request to the arena (or the operator API) and
// requires the status.
func (ft *formatsTarget) call(t *testing.T, method, path, token string, body any, want int) map[string]any {
	t.Helper()
	var rd *bytes.Reader
	if body != nil {
		b, err := json.Marshal(body)
		require.NoError(t, err)
		rd = bytes.NewReader(b)
	} else {
		rd = bytes.NewReader(nil)
	}
	req, err := http.NewRequest(method, "http://"+ft.host+path, rd)
	require.NoError(t, err)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := ft.http.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	var out map[string]any
	if resp.StatusCode != http.StatusNoContent {
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&out))
	}
	require.Equal(t, want, resp.StatusCode, "%s %s: %v", method, path, out)
	return out
}

// TestFormatsPlayedByReferenceClients plays a tournament of every format
// with the reference game client for every player, over HTTP: each
// match's window is opened through the admin API (so the test needs no
// clock), both clients ready and submit the same result, and the
// tournament moves on by itself: double elimination with and without a
// grand-final reset, Swiss rounds with a top cut, a round robin. The
// lower account id wins, but the losers' champion wins the first grand
// final (so the reset is played, and won by the winners' champion); and
// best-of-N series, a game at a time, until a side has won the series.
// Natively, the ratings come from the scheduled job a day later and order
// the ladder.
func TestFormatsPlayedByReferenceClients(t *testing.T) {
	ft := newFormatsTarget(t)
	req := map[string]any{"slug": ft.host[:len("formats-")+8], "name": "Formats", "hosts": []string{ft.host}, "plan": "indie", "appIds": []string{"480"}}
	if ft.databaseURL != "" {
		req["databaseUrl"] = ft.databaseURL
	}
	admin := ft.call(t, "POST", "/api/v1/operator/arenas", ft.operatorToken, req, http.StatusCreated)["adminToken"].(string)
	clients := map[string]*client.Client{}
	player := func(id string) *client.Client {
		if c, ok := clients[id]; ok {
			return c
		}
		s := client.NewSettings(ft.baseURL())
		s.MockSteamID = id
		c, err := client.New(s, client.Deps{HTTP: ft.http, Now: ft.now})
		require.NoError(t, err)
		clients[id] = c
		return c
	}
	cases := []struct {
		name, format string
		players      int
		fields       map[string]any
		podium       []int // players on ranks 1, 2, ...
		played       int   // matches played by the clients
	}{
		{"DoubleElimination", "double_elimination", 6, map[string]any{"grandFinalReset": true}, []int{1, 2, 3, 4}, 11},
		{"DoubleEliminationWithoutReset", "double_elimination", 3, map[string]any{"grandFinalReset": false}, []int{2, 1, 3}, 4},
		// After 3 rounds: 1 (3 points), then 5, 2 and 6 (2 points) by Buchholz;
		// the cut's semifinals 1-6 and 5-2, its small final 6-5.
		{"Swiss", "swiss", 7, map[string]any{"swissRounds": 3, "topCut": 4, "smallFinal": true}, []int{1, 2, 5, 6}, 13},
		{"RoundRobin", "round_robin", 4, nil, []int{1, 2, 3}, 6},
		// Series at an asap pace: semifinals best of 3, the final best of 5,
		// each game readied and attested by the clients (2 + 2 + 3 games).
		{"Series", "playoffs_only", 4, map[string]any{"bestOf": 3, "finalBestOf": 5, "pacing": "asap"}, []int{1, 2, 3, 4}, 7},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			slug := "f-" + strconv.Itoa(len(tc.name)) + "-" + tc.format[:4]
			body := map[string]any{
				"slug": slug, "name": tc.name, "format": tc.format, "maxPlayers": tc.players,
				"registrationOpensAt": "2000-01-01T00:00:00Z", "registrationClosesAt": "2100-01-01T00:00:00Z",
				"startsAt": "2100-01-02T00:00:00Z", "matchWindowMinutes": 30,
			}
			for k, v := range tc.fields {
				body[k] = v
			}
			base := "/api/v1/admin/tournaments/" + slug
			ft.call(t, "POST", "/api/v1/admin/tournaments", admin, body, http.StatusCreated)
			ft.call(t, "POST", base+"/status", admin, map[string]any{"status": "registration_open"}, http.StatusOK)
			for i := 1; i <= tc.players; i++ {
				ft.call(t, "POST", base+"/registrations", admin, map[string]any{"platformId": playerID(i), "seed": i}, http.StatusCreated)
			}
			ft.call(t, "POST", base+"/status", admin, map[string]any{"status": "registration_closed"}, http.StatusOK)
			first := "group_stage"
			if tc.format == "double_elimination" || tc.format == "playoffs_only" {
				first = "playoffs"
			}
			ft.call(t, "POST", base+"/status", admin, map[string]any{"status": first}, http.StatusOK)
			assert.Equal(t, tc.played, playWithClients(t, ft, admin, slug, player))

			full := ft.call(t, "GET", "/api/v1/tournaments/"+slug, "", nil, http.StatusOK)
			require.Equal(t, "completed", full["status"])
			var podium []string
			for _, p := range full["podium"].([]any) {
				podium = append(podium, p.(map[string]any)["player"].(map[string]any)["platformId"].(string))
			}
			var want []string
			for _, i := range tc.podium {
				want = append(want, playerID(i))
			}
			assert.Equal(t, want, podium)
		})
	}
	if ft.env == nil {
		return // the ratings need the service clock
	}
	t.Run("RatingsOrderTheLadder", func(t *testing.T) {
		assert.Nil(t, ft.call(t, "GET", "/api/v1/players/"+playerID(1), "", nil, http.StatusOK)["rating"], "not rated before the day is over")
		ft.env.Now = ft.env.Now.Add(24 * time.Hour)
		ft.call(t, "POST", "/__dev/tick", "", nil, http.StatusOK)
		rating := ft.call(t, "GET", "/api/v1/players/"+playerID(1), "", nil, http.StatusOK)["rating"].(map[string]any)
		assert.Greater(t, rating["rating"].(float64), 1500.0)
		assert.Greater(t, rating["matches"].(float64), 10.0)
		ladder := ft.call(t, "GET", "/api/v1/ladder?order=rating", "", nil, http.StatusOK)["ladder"].([]any)
		require.Len(t, ladder, 7)
		top := ladder[0].(map[string]any)
		assert.Equal(t, playerID(1), top["player"].(map[string]any)["platformId"])
		assert.Contains(t, top, "rating")
		plain := ft.call(t, "GET", "/api/v1/ladder", "", nil, http.StatusOK)
		assert.Empty(t, plain["ladder"], "the spec's ladder: no season, no rows")
	})
}

// playWithClients plays every match of the tournament that has both
// sides, until none is left: the window opened through the admin API,
// both clients ready, both submit. It returns how many it played.
func playWithClients(t *testing.T, ft *formatsTarget, admin, slug string, player func(string) *client.Client) int {
	t.Helper()
	ctx := context.Background()
	game := map[string]any{"score": []any{2, 1}}
	played := 0
	for range 200 {
		var next map[string]any
		for _, raw := range ft.call(t, "GET", "/api/v1/admin/tournaments/"+slug+"/matches", admin, nil, http.StatusOK)["matches"].([]any) {
			m := raw.(map[string]any)
			if m["status"] == "scheduled" && m["p1PlatformId"] != nil && m["p2PlatformId"] != nil {
				next = m
				break
			}
		}
		if next == nil {
			return played
		}
		id := int64(next["id"].(float64))
		p1, p2 := next["p1PlatformId"].(string), next["p2PlatformId"].(string)
		ft.call(t, "PATCH", fmt.Sprintf("/api/v1/admin/matches/%d", id), admin,
			map[string]any{"opensAt": "2000-01-01T00:00:00Z", "closesAt": "2100-01-01T00:00:00Z"}, http.StatusOK)
		_, err := player(p1).Ready(ctx, id)
		require.NoError(t, err)
		st, err := player(p2).Ready(ctx, id)
		require.NoError(t, err)
		require.True(t, st.Live, "match %d goes live", id)
		winner := min(p1, p2)
		if next["bracketSlot"] == "GF" {
			winner = p2
		}
		first, err := player(p1).Submit(ctx, p1, p2, game, winner)
		require.NoError(t, err)
		assert.Equal(t, "pending", first.Status)
		second, err := player(p2).Submit(ctx, p2, p1, game, winner)
		require.NoError(t, err)
		require.Equal(t, "confirmed", second.Status, "match %d (%v)", id, next["bracketSlot"])
		played++
	}
	t.Fatalf("%s: still playing after 200 matches", slug)
	return played
}
