package server_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/worker/arenatest"
)

// TestSeriesRecordingsPerGame: in a best of 3 each game has its own
// recordings, segments and traces. A recording of game 1 finalizes after
// game 1 was decided (the match back to scheduled, no session); game 2's
// is another recording; a recording names its game by number or by the
// replay header's session, and a game never played is 409 not_live; a
// trace of game 1 sent while game 2 is live is compared with game 1's.
func TestSeriesRecordingsPerGame(t *testing.T) {
	onBackends(t, func(t *testing.T, p *protocolEnv, _ *arenatest.CountingLibSQL) {
		a, b := playerID(1), playerID(2)
		p.mustDo(t, "PUT", "/api/v1/admin/settings", p.admin, map[string]any{"refereeEnabled": true}, 200)
		for _, who := range []string{a, b} {
			p.game(t, "POST", "/api/v1/me/referee-consent", who, map[string]any{"granted": true}, "")
		}
		m := p.seriesCup(t, "bo3rec", 2, map[string]any{"bestOf": 3})[0]
		e := &recordingEnv{protocolEnv: p, match: m, p1: a, p2: b}
		initAs := func(account string, body map[string]any) (int, map[string]any) {
			body["scope"] = "full"
			return e.game(t, "POST", matchPath(m, "recording/init"), account, body, "")
		}
		finalize := func(account string, init map[string]any, file []byte) (int, map[string]any) {
			require.Equal(t, 204, e.put(t, init["upload"].(map[string]any)["url"].(string), file, "application/gzip"))
			return e.game(t, "POST", fmt.Sprintf("/api/v1/recordings/%.0f/finalize", init["recordingId"]), account, nil, "")
		}
		postTrace := func(account string, body map[string]any) (int, map[string]any) {
			return e.game(t, "POST", matchPath(m, "gameplay-trace"), account, body, "")
		}

		status, out := initAs(a, map[string]any{})
		assert.Equal(t, http.StatusConflict, status)
		assert.Equal(t, "not_live", out["error"], "no game went live yet")

		e.live = p.goLive(t, m)
		game1 := e.live
		status, rec1 := initAs(a, map[string]any{})
		require.Equal(t, 200, status, rec1)
		file1 := e.replay(t, "full", nil)
		status, out = postTrace(a, e.trace(t, 1, game1, false))
		require.Equal(t, 200, status, out)
		res, hash := result(e.live, a, "")
		for _, who := range []string{a, b} {
			status, out = e.game(t, "POST", matchPath(m, "result"), who, submission(res, hash), "")
			require.Equal(t, 200, status, out)
		}
		require.Equal(t, "scheduled", out["matchStatus"], "the series goes on")

		status, out = finalize(a, rec1, file1)
		require.Equal(t, 200, status, out)
		assert.Equal(t, "ready", out["state"], "game 1's recording finalizes after game 1")
		assert.Equal(t, float64(1), out["game"])

		e.live = p.goLive(t, m)
		game2 := e.live
		require.NotEqual(t, game1["sessionNonce"], game2["sessionNonce"])
		status, rec2 := initAs(a, map[string]any{})
		require.Equal(t, 200, status, rec2)
		assert.NotEqual(t, rec1["recordingId"], rec2["recordingId"], "game 2 has a recording of its own")
		status, out = finalize(a, rec2, file1)
		assert.Equal(t, 422, status, "game 1's file is not game 2's")
		assert.Equal(t, "header_mismatch", out["error"])
		status, out = finalize(a, rec2, e.replay(t, "full", nil))
		require.Equal(t, 200, status, out)
		assert.Equal(t, float64(2), out["game"])

		// Player 2 uploads game 1's recording while game 2 is played: the
		// header's session, or the game's number, names it.
		status, byNonce := initAs(b, map[string]any{"sessionNonce": game1["sessionNonce"]})
		require.Equal(t, 200, status, byNonce)
		status, byNumber := initAs(b, map[string]any{"game": 1})
		require.Equal(t, 200, status, byNumber)
		assert.Equal(t, byNonce["recordingId"], byNumber["recordingId"])
		e.live = game1
		status, out = finalize(b, byNonce, e.replay(t, "full", nil))
		require.Equal(t, 200, status, out)
		assert.Equal(t, float64(1), out["game"])
		for name, body := range map[string]map[string]any{
			"Unplayed":     {"game": 3},
			"OtherSession": {"sessionNonce": "not-a-session"},
		} {
			status, out = initAs(b, body)
			assert.Equal(t, http.StatusConflict, status, name)
			assert.Equal(t, "not_live", out["error"], name)
		}
		status, out = initAs(b, map[string]any{"game": 2, "sessionNonce": game1["sessionNonce"]})
		assert.Equal(t, http.StatusUnprocessableEntity, status, "a number and a session naming two games")
		assert.Equal(t, "game", out["field"])
		status, out = e.game(t, "POST", "/api/v1/me/recordings/init", a, map[string]any{"scope": "public", "game": 1}, "")
		assert.Equal(t, http.StatusUnprocessableEntity, status, "a casual recording has no game")
		assert.Equal(t, "game", out["field"])

		status, list := e.game(t, "GET", "/api/v1/me/recordings", a, nil, "")
		require.Equal(t, 200, status)
		games := []float64{}
		for _, r := range list["recordings"].([]any) {
			games = append(games, r.(map[string]any)["game"].(float64))
		}
		assert.ElementsMatch(t, []float64{1, 2, 1}, games, "its own two and player 2's of game 1")

		// Game 1's trace from player 2, sent while game 2 is live, meets
		// player 1's of game 1.
		status, out = postTrace(b, e.trace(t, 2, game1, false))
		require.Equal(t, 200, status, out)
		assert.Equal(t, map[string]any{"status": "agreed", "training": "usable"}, out)
		status, out = postTrace(a, e.trace(t, 1, game2, true))
		require.Equal(t, 200, status, out)
		assert.Equal(t, map[string]any{"status": "pending", "training": "pending"}, out, "game 2's traces are their own")
	})
}
