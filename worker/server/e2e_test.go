package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/client"
)

// TestReferenceClientsEndToEnd has reference clients play a 4-player
// bracket against the server over real HTTP: an agreed semifinal, a
// disputed one the admin settles, a replay attempt, and the final.
func TestReferenceClientsEndToEnd(t *testing.T) {
	e := newTestEnv(t, false)
	httpSrv := httptest.NewServer(e.Server)
	defer httpSrv.Close()
	status, body := e.do(t, "POST", "ops.test", "/api/v1/operator/arenas", operatorToken, map[string]any{
		"slug": "e2e", "name": "E2E", "hosts": []string{"alpha.test", "127.0.0.1"}, "plan": "indie", "appIds": []string{"480"}})
	require.Equal(t, 201, status, body)
	p := &protocolEnv{testEnv: e, admin: body["adminToken"].(string)}
	matches := p.bracket(t, "e2e", "demo", 4)
	sf1, sf2 := matches[0], matches[1]
	ctx := context.Background()

	newClient := func(id string) *client.Client {
		s := client.NewSettings(httpSrv.URL + "/")
		s.MockSteamID = id
		c, err := client.New(s, client.Deps{HTTP: httpSrv.Client(), Now: func() time.Time { return e.Now }})
		require.NoError(t, err)
		return c
	}
	c := map[int]*client.Client{}
	for i := 1; i <= 4; i++ {
		c[i] = newClient(playerID(i))
	}
	ready := func(m map[string]any, a, b int) {
		t.Helper()
		id := int64(m["id"].(float64))
		_, err := c[a].Ready(ctx, id)
		require.NoError(t, err)
		st, err := c[b].Ready(ctx, id)
		require.NoError(t, err)
		require.True(t, st.Live)
	}
	game := map[string]any{"score": []any{3, 1}, "map": "Harbor <night> & fog", "rounds": 4}

	t.Run("AgreedSemifinal", func(t *testing.T) {
		ready(sf1, 1, 4)
		live, err := c[1].WaitForLiveMatch(ctx)
		require.NoError(t, err)
		assert.Equal(t, int64(sf1["id"].(float64)), live.MatchID)
		assert.False(t, live.IsCasual(), "an organized match has a seed")
		first, err := c[1].Submit(ctx, playerID(1), playerID(4), game, playerID(1))
		require.NoError(t, err)
		assert.Equal(t, "pending", first.Status)
		second, err := c[4].Submit(ctx, playerID(4), playerID(1), game, playerID(1))
		require.NoError(t, err)
		assert.Equal(t, "confirmed", second.Status)
		assert.Equal(t, first.Result, second.Result, "both clients produced the same canonical bytes")
	})
	t.Run("AntiMixupRefusesLocally", func(t *testing.T) {
		ready(sf2, 2, 3)
		_, err := c[2].Submit(ctx, playerID(2), playerID(9), game, playerID(2))
		assert.ErrorIs(t, err, client.ErrOpponentMismatch)
	})
	t.Run("DisputedSemifinal", func(t *testing.T) {
		a, err := c[2].Submit(ctx, playerID(2), playerID(3), game, playerID(2))
		require.NoError(t, err)
		assert.Equal(t, "pending", a.Status)
		b, err := c[3].Submit(ctx, playerID(3), playerID(2), game, playerID(3))
		require.NoError(t, err)
		assert.Equal(t, "disputed", b.Status)
		_, err = c[3].Submit(ctx, playerID(3), playerID(2), game, playerID(3))
		assert.ErrorIs(t, err, client.ErrNoLiveMatch, "a disputed match is no longer live")
		p.mustDo(t, "POST", fmt.Sprintf("/api/v1/admin/matches/%.0f/resolve", sf2["id"]), p.admin, map[string]any{"winner": playerID(3)}, 200)
	})
	var final, small map[string]any
	for _, raw := range p.mustDo(t, "GET", "/api/v1/admin/tournaments/e2e/matches", p.admin, nil, 200)["matches"].([]any) {
		switch m := raw.(map[string]any); m["bracketSlot"] {
		case "FINAL":
			final = m
		case "SMALL_FINAL":
			small = m
		}
	}
	assert.ElementsMatch(t, []any{playerID(2), playerID(4)}, []any{small["p1PlatformId"], small["p2PlatformId"]}, "the semifinal losers")
	p.mustDo(t, "POST", fmt.Sprintf("/api/v1/admin/matches/%.0f/resolve", small["id"]), p.admin, map[string]any{"winner": playerID(2)}, 200)
	require.Equal(t, playerID(1), final["p1PlatformId"])
	require.Equal(t, playerID(3), final["p2PlatformId"])
	e.Now = e.Now.Add(31 * time.Minute) // the final's window opens one window later
	ready(final, 1, 3)

	t.Run("ReplayOfAnotherMatchsResultIsRefused", func(t *testing.T) {
		detail := p.mustDo(t, "GET", fmt.Sprintf("/api/v1/admin/matches/%.0f", sf1["id"]), p.admin, nil, 200)
		old := detail["submissions"].([]any)[0].(map[string]any)
		raw, _ := json.Marshal(map[string]any{"protocol": "svc.result.v3", "result": old["result"], "resultHash": old["resultHash"]})
		req, _ := http.NewRequest("POST", fmt.Sprintf("%s/api/v1/matches/%.0f/result", httpSrv.URL, final["id"]), bytes.NewReader(raw))
		req.Header.Set("Authorization", "Platform MOCK:"+playerID(1))
		resp, err := httpSrv.Client().Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		var out map[string]any
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&out))
		assert.Equal(t, 422, resp.StatusCode)
		assert.Equal(t, "result_not_for_match", out["error"])
	})
	t.Run("FinalCompletesTheTournament", func(t *testing.T) {
		_, err := c[3].Submit(ctx, playerID(3), playerID(1), game, playerID(3))
		require.NoError(t, err)
		_, err = c[3].Submit(ctx, playerID(3), playerID(1), map[string]any{"score": []any{3, 2}}, playerID(3))
		var apiErr *client.APIError
		require.True(t, errors.As(err, &apiErr), err)
		assert.Equal(t, 409, apiErr.Status)
		assert.Equal(t, "already_submitted", apiErr.Code, "4xx is final: no retry")
		done, err := c[1].Submit(ctx, playerID(1), playerID(3), game, playerID(3))
		require.NoError(t, err)
		assert.Equal(t, "confirmed", done.Status)
		full := p.mustDo(t, "GET", "/api/v1/tournaments/e2e", "", nil, 200)
		assert.Equal(t, "completed", full["status"])
		podium := full["podium"].([]any)
		assert.Equal(t, playerID(3), podium[0].(map[string]any)["player"].(map[string]any)["platformId"])
	})
	t.Run("DrawSubmitsNothing", func(t *testing.T) {
		_, err := c[1].Submit(ctx, playerID(1), playerID(3), game, "")
		assert.ErrorIs(t, err, client.ErrDraw)
	})
}
