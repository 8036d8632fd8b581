package story

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"

	"arena/client"
)

// cup is the story's tournament: four players, playoffs only, with a
// small final.
const cup = "story-cup"

// game is the result object both clients of a match agree on.
var game = map[string]any{"score": []any{3, 1}, "map": "Harbor <night> & fog", "rounds": 4}

func tournamentSteps() []step {
	return []step{
		{"AdminCreatesTheCup", func(t *testing.T, w *world) {
			now := time.Now()
			w.adminAPI(t, "POST", "/api/v1/admin/tournaments", map[string]any{
				"slug": cup, "name": "Story Cup", "description": "Four players, one cup.", "format": "playoffs_only",
				"maxPlayers": 4, "registrationOpensAt": iso(now.Add(-time.Hour)), "registrationClosesAt": iso(now.Add(24 * time.Hour)),
				"startsAt": iso(now.Add(48 * time.Hour)), "environment": "demo", "smallFinal": true, "matchWindowMinutes": 30,
				"cast": map[string]any{"handMode": "hidden", "delaySeconds": 0},
			}, 201)
			assert.Empty(t, w.read(t, "/api/v1/tournaments")["tournaments"], "a draft is never public")
			w.status(t, "registration_open")
			list := w.read(t, "/api/v1/tournaments")["tournaments"].([]any)
			require.Len(t, list, 1)
			assert.Equal(t, "registration_open", list[0].(map[string]any)["status"])
		}},
		{"PlayersAreRegistered", func(t *testing.T, w *world) {
			for i, p := range players {
				w.adminAPI(t, "POST", "/api/v1/admin/tournaments/"+cup+"/registrations",
					map[string]any{"platformId": p.id, "personaName": p.name, "seed": i + 1}, 201)
			}
			a := w.do(t, request{method: "POST", path: "/api/v1/admin/tournaments/" + cup + "/registrations", auth: "Bearer " + w.admin,
				body: map[string]any{"platformId": "76561198000000199"}})
			assert.Equal(t, http.StatusConflict, a.status)
			assert.Equal(t, "tournament_full", a.json(t)["error"])
			assert.Equal(t, float64(4), w.tournament(t)["playerCount"])
		}},
		{"PlayoffsStart", func(t *testing.T, w *world) {
			a := w.do(t, request{method: "POST", path: "/api/v1/admin/tournaments/" + cup + "/status", auth: "Bearer " + w.admin,
				body: map[string]any{"status": "completed"}})
			assert.Equal(t, http.StatusConflict, a.status)
			assert.Equal(t, "invalid_transition", a.json(t)["error"])
			w.status(t, "registration_closed")
			w.status(t, "playoffs")
			assert.Equal(t, "playoffs", w.tournament(t)["status"])
			for _, slot := range []string{"SF1", "SF2", "FINAL", "SMALL_FINAL"} {
				w.matches[slot] = int64(w.match(t, slot)["id"].(float64))
			}
			sf1, sf2 := w.match(t, "SF1"), w.match(t, "SF2")
			assert.Equal(t, []any{player(1), player(4)}, []any{sf1["p1PlatformId"], sf1["p2PlatformId"]}, "seeds 1 and 4")
			assert.Equal(t, []any{player(2), player(3)}, []any{sf2["p1PlatformId"], sf2["p2PlatformId"]}, "seeds 2 and 3")
		}},
		{"ClientsAgreeOnTheFirstSemifinal", func(t *testing.T, w *world) {
			ctx := context.Background()
			w.ready(t, "SF1", 1, 4)
			live, err := w.client(t, player(1)).WaitForLiveMatch(ctx)
			require.NoError(t, err)
			assert.Equal(t, w.matches["SF1"], live.MatchID)
			assert.False(t, live.IsCasual(), "an organized match has a seed")
			first, err := w.client(t, player(1)).Submit(ctx, player(1), player(4), game, player(1))
			require.NoError(t, err)
			assert.Equal(t, "pending", first.Status)
			second, err := w.client(t, player(4)).Submit(ctx, player(4), player(1), game, player(1))
			require.NoError(t, err)
			assert.Equal(t, "confirmed", second.Status)
			m := w.publicMatch(t, "SF1")
			assert.Equal(t, "confirmed", m["status"])
			assert.Equal(t, "game_client", m["resultSource"])
			assert.Equal(t, player(1), m["winner"].(map[string]any)["platformId"])
		}},
		{"TheSemifinalsReceiptVerifiesWithXModAlone", func(t *testing.T, w *world) {
			// The receipt (C2SP tlog-proof) of the decided semifinal: its
			// checkpoint opened with golang.org/x/mod/sumdb/note under the
			// arena's log key, its proof checked with sumdb/tlog, its entry
			// the match's deciding event.
			meta := w.read(t, "/api/v1")["log"].(map[string]any)
			pub, err := base64.StdEncoding.DecodeString(meta["publicKey"].(string))
			require.NoError(t, err)
			origin := meta["origin"].(string)
			a := w.do(t, request{method: "GET", path: fmt.Sprintf("/api/v1/matches/%d/receipt", w.matches["SF1"])})
			require.Equal(t, http.StatusOK, a.status, "%s", a.body)
			head, cp, ok := strings.Cut(string(a.body), "\n\n")
			require.True(t, ok)
			vkey, err := note.NewEd25519VerifierKey(origin, pub)
			require.NoError(t, err)
			verifier, err := note.NewVerifier(vkey)
			require.NoError(t, err)
			n, err := note.Open([]byte(cp), note.VerifierList(verifier))
			require.NoError(t, err, "the checkpoint is signed by the arena's log key")
			lines := strings.Split(n.Text, "\n")
			size, err := strconv.ParseInt(lines[1], 10, 64)
			require.NoError(t, err)
			rootRaw, err := base64.StdEncoding.DecodeString(lines[2])
			require.NoError(t, err)
			parts := strings.Split(head, "\n")
			require.Equal(t, "c2sp.org/tlog-proof@v1", parts[0])
			entry, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(parts[1], "extra "))
			require.NoError(t, err)
			index, err := strconv.ParseInt(strings.TrimPrefix(parts[2], "index "), 10, 64)
			require.NoError(t, err)
			var proof tlog.RecordProof
			for _, l := range parts[3:] {
				h, err := base64.StdEncoding.DecodeString(l)
				require.NoError(t, err)
				proof = append(proof, tlog.Hash(h))
			}
			require.NoError(t, tlog.CheckRecord(proof, size, tlog.Hash(rootRaw), index, tlog.RecordHash(entry)), "included in the tree")
			var e struct {
				Type    string `json:"type"`
				MatchID int64  `json:"matchId"`
			}
			require.NoError(t, json.Unmarshal(entry, &e))
			assert.Equal(t, w.matches["SF1"], e.MatchID)
			assert.Equal(t, "match.confirmed", e.Type)
			// And the whole log, checkpoint and tiles, as verify-log checks it.
			tree, err := w.client(t, player(1)).VerifyTiles(context.Background(), client.TlogOptions{Key: meta["publicKey"].(string)})
			require.NoError(t, err)
			assert.GreaterOrEqual(t, tree.TreeSize, size)
		}},
		{"TheAdminSettlesADisputedSemifinal", func(t *testing.T, w *world) {
			ctx := context.Background()
			w.ready(t, "SF2", 2, 3)
			a, err := w.client(t, player(2)).Submit(ctx, player(2), player(3), game, player(2))
			require.NoError(t, err)
			assert.Equal(t, "pending", a.Status)
			b, err := w.client(t, player(3)).Submit(ctx, player(3), player(2), game, player(3))
			require.NoError(t, err)
			assert.Equal(t, "disputed", b.Status)
			assert.Equal(t, "disputed", w.publicMatch(t, "SF2")["status"])
			w.adminAPI(t, "POST", w.matchPath("SF2", "resolve"), map[string]any{"winner": player(3)}, 200)
			m := w.publicMatch(t, "SF2")
			assert.Equal(t, "confirmed", m["status"])
			assert.Equal(t, "admin", m["resultSource"])
			assert.Equal(t, player(3), m["winner"].(map[string]any)["platformId"])
		}},
		{"TheCronForfeitsAnUnansweredSmallFinal", func(t *testing.T, w *world) {
			now := time.Now()
			w.adminAPI(t, "PATCH", w.matchPath("SMALL_FINAL", ""), map[string]any{"opensAt": iso(now.Add(-time.Minute)), "closesAt": iso(now.Add(30 * time.Minute))}, 200)
			st, err := w.client(t, player(2)).Ready(context.Background(), w.matches["SMALL_FINAL"])
			require.NoError(t, err)
			assert.False(t, st.Live, "the other side never readies")
			w.adminAPI(t, "PATCH", w.matchPath("SMALL_FINAL", ""), map[string]any{"opensAt": iso(now.Add(-2 * time.Hour)), "closesAt": iso(now.Add(-time.Hour))}, 200)
			require.NoError(t, w.target.tick(context.Background()))
			m := w.publicMatch(t, "SMALL_FINAL")
			assert.Equal(t, "forfeited", m["status"])
			assert.Equal(t, player(2), m["winner"].(map[string]any)["platformId"])
		}},
		{"AReplayedResultIsRefused", func(t *testing.T, w *world) {
			w.adminAPI(t, "PATCH", w.matchPath("FINAL", ""), map[string]any{"opensAt": iso(time.Now().Add(-time.Minute))}, 200)
			w.ready(t, "FINAL", 1, 3)
			old := w.adminAPI(t, "GET", w.matchPath("SF1", ""), nil, 200)["submissions"].([]any)[0].(map[string]any)
			a := w.do(t, request{method: "POST", path: fmt.Sprintf("/api/v1/matches/%d/result", w.matches["FINAL"]), auth: "Platform MOCK:" + player(1),
				body: map[string]any{"protocol": "svc.result.v3", "result": old["result"], "resultHash": old["resultHash"]}})
			assert.Equal(t, http.StatusUnprocessableEntity, a.status)
			assert.Equal(t, "result_not_for_match", a.json(t)["error"])
		}},
		{"TheFinalCompletesTheCup", func(t *testing.T, w *world) {
			ctx := context.Background()
			_, err := w.client(t, player(3)).Submit(ctx, player(3), player(1), game, player(1))
			require.NoError(t, err)
			_, err = w.client(t, player(3)).Submit(ctx, player(3), player(1), map[string]any{"score": []any{3, 2}}, player(3))
			var apiErr *client.APIError
			require.ErrorAs(t, err, &apiErr)
			assert.Equal(t, "already_submitted", apiErr.Code)
			done, err := w.client(t, player(1)).Submit(ctx, player(1), player(3), game, player(1))
			require.NoError(t, err)
			assert.Equal(t, "confirmed", done.Status)
			full := w.tournament(t)
			assert.Equal(t, "completed", full["status"])
			var podium []string
			for _, p := range full["podium"].([]any) {
				podium = append(podium, p.(map[string]any)["player"].(map[string]any)["platformId"].(string))
			}
			assert.Equal(t, []string{player(1), player(3), player(2), player(4)}, podium)
			_, err = w.client(t, player(1)).Submit(ctx, player(1), player(3), game, "")
			assert.ErrorIs(t, err, client.ErrDraw)
		}},
		{"PublicProfilesAndLadder", func(t *testing.T, w *world) {
			profile := w.read(t, "/api/v1/players/"+player(1))
			assert.Equal(t, players[0].name, profile["player"].(map[string]any)["personaName"])
			stats := profile["stats"].(map[string]any)
			assert.Equal(t, []any{float64(2), float64(2), float64(0), float64(100)}, []any{stats["matchesPlayed"], stats["wins"], stats["losses"], stats["winRate"]})
			for path, want := range map[string]struct {
				status int
				code   string
			}{
				"/api/v1/players/abc":               {400, "invalid_steam_id"},
				"/api/v1/players/76561198000000999": {404, "player_not_found"},
				"/api/v1/tournaments/nope":          {404, "tournament_not_found"},
			} {
				a := w.do(t, request{method: "GET", path: path})
				assert.Equal(t, want.status, a.status, path)
				assert.Equal(t, want.code, a.json(t)["error"], path)
			}
			ladder := w.read(t, "/api/v1/ladder?season=all")
			assert.Contains(t, ladder, "ladder")
		}},
	}
}

// status moves the cup one lifecycle step.
func (w *world) status(t *testing.T, status string) {
	t.Helper()
	w.adminAPI(t, "POST", "/api/v1/admin/tournaments/"+cup+"/status", map[string]any{"status": status}, 200)
}

// tournament is the cup's public object.
func (w *world) tournament(t *testing.T) map[string]any {
	t.Helper()
	return w.read(t, "/api/v1/tournaments/"+cup)
}

// publicMatch finds the match in slot in the cup's public bracket.
func (w *world) publicMatch(t *testing.T, slot string) map[string]any {
	t.Helper()
	for _, col := range w.tournament(t)["bracket"].([]any) {
		for _, raw := range col.(map[string]any)["matches"].([]any) {
			if m := raw.(map[string]any); m["bracketSlot"] == slot {
				return m
			}
		}
	}
	t.Fatalf("no %s in the public bracket", slot)
	return nil
}

// ready has players a then b (1-based) press ready on the match in slot;
// the match is then live.
func (w *world) ready(t *testing.T, slot string, a, b int) {
	t.Helper()
	ctx := context.Background()
	_, err := w.client(t, player(a)).Ready(ctx, w.matches[slot])
	require.NoError(t, err)
	st, err := w.client(t, player(b)).Ready(ctx, w.matches[slot])
	require.NoError(t, err)
	require.True(t, st.Live, "both sides ready: %s is live", slot)
}
