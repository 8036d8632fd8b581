package server_test

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"testing"

	"github.com/gowebpki/jcs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/worker/arenatest"
	"arena/worker/server"
)

// logEnv is an arena "alpha" on alpha.test whose database is local SQLite
// or, remote, a real libSQL server; opts change the server's config.
func logEnv(t *testing.T, remote bool, opts ...func(*server.Config)) *protocolEnv {
	t.Helper()
	return alphaOn(t, newTestEnv(t, false, opts...), remote)
}

// alphaOn creates the arena "alpha" on alpha.test in e, its database
// local SQLite or, remote, a real libSQL server.
func alphaOn(t *testing.T, e *testEnv, remote bool) *protocolEnv {
	t.Helper()
	req := map[string]any{"slug": "alpha", "name": "Alpha", "hosts": []string{"alpha.test"}, "plan": "indie",
		"appIds": []string{"480"}}
	if remote {
		req["databaseUrl"] = arenatest.StartCountingLibSQL(t).URL
	}
	status, body := e.do(t, "POST", "ops.test", "/api/v1/operator/arenas", operatorToken, req)
	require.Equal(t, http.StatusCreated, status, body)
	return &protocolEnv{testEnv: e, admin: body["adminToken"].(string)}
}

// readLog pages through the whole log, limit events a page, and checks
// every page's next.
func readLog(t *testing.T, p *protocolEnv, limit int) []map[string]any {
	t.Helper()
	var out []map[string]any
	after := 0.0
	for {
		page := p.mustDo(t, "GET", fmt.Sprintf("/api/v1/events?after=%.0f&limit=%d", after, limit), "", nil, 200)
		events := page["events"].([]any)
		require.LessOrEqual(t, len(events), limit)
		for _, raw := range events {
			out = append(out, raw.(map[string]any))
		}
		if page["next"] == nil {
			return out
		}
		require.Len(t, events, limit, "a page before the last is full")
		after = page["next"].(float64)
		require.Equal(t, out[len(out)-1]["seq"], after, "next is the page's last seq")
	}
}

// checkChain recomputes every hash independently of core (RFC 8785 by
// github.com/gowebpki/jcs, SHA-256) and checks seq and prevHash links.
func checkChain(t *testing.T, events []map[string]any) {
	t.Helper()
	prev := "0000000000000000000000000000000000000000000000000000000000000000"
	for i, e := range events {
		require.Equal(t, float64(i+1), e["seq"], "seq counts from 1 without gaps")
		require.Equal(t, prev, e["prevHash"], "event %d links to the one before", i+1)
		unhashed := map[string]any{}
		for k, v := range e {
			if k != "hash" {
				unhashed[k] = v
			}
		}
		raw, err := json.Marshal(unhashed)
		require.NoError(t, err)
		canonical, err := jcs.Transform(raw)
		require.NoError(t, err)
		sum := sha256.Sum256(canonical)
		require.Equal(t, hex.EncodeToString(sum[:]), e["hash"], "event %d's hash", i+1)
		prev = e["hash"].(string)
	}
}

// checkHead verifies the signed head against the meta object's key and
// the log's last event.
func checkHead(t *testing.T, p *protocolEnv, events []map[string]any) {
	t.Helper()
	meta := p.mustDo(t, "GET", "/api/v1", "", nil, 200)
	pub, err := base64.StdEncoding.DecodeString(meta["log"].(map[string]any)["publicKey"].(string))
	require.NoError(t, err)
	require.Len(t, pub, ed25519.PublicKeySize)
	head := p.mustDo(t, "GET", "/api/v1/events/head", "", nil, 200)
	last := events[len(events)-1]
	assert.Equal(t, last["seq"], head["seq"])
	assert.Equal(t, last["hash"], head["hash"])
	assert.Equal(t, last["at"], head["at"])
	sig, err := base64.StdEncoding.DecodeString(head["signature"].(string))
	require.NoError(t, err)
	msg := "alpha\n" + strconv.FormatFloat(head["seq"].(float64), 'f', 0, 64) + "\n" + head["hash"].(string) + "\n" + head["at"].(string)
	assert.True(t, ed25519.Verify(pub, []byte(msg), sig), "the head's signature verifies")
	assert.False(t, ed25519.Verify(pub, []byte(msg+"x"), sig))
}

// TestEventLogChain plays tournaments (admin decisions, game clients'
// submissions, a withdrawal) and checks the log: every type appended,
// the chain, paging without gaps, the signed head; on SQLite and on the
// libSQL server.
func TestEventLogChain(t *testing.T) {
	for _, remote := range []bool{false, true} {
		t.Run(map[bool]string{false: "SQLite", true: "LibSQL"}[remote], func(t *testing.T) {
			p := logEnv(t, remote)
			empty := p.mustDo(t, "GET", "/api/v1/events/head", "", nil, 200)
			assert.Equal(t, float64(0), empty["seq"], "an empty log's head")
			runCup(t, p.testEnv, p.admin, "cup")
			matches := p.bracket(t, "duo", "demo", 4)
			live := p.goLive(t, matches[0])
			winner := matches[0]["p1PlatformId"].(string)
			res, hash := result(live, winner, "")
			for _, who := range []string{winner, matches[0]["p2PlatformId"].(string)} {
				status, out := p.game(t, "POST", matchPath(matches[0], "result"), who, submission(res, hash), "")
				require.Equal(t, 200, status, out)
			}
			open := p.tournamentBody("open", "playoffs_only", 4)
			delete(open, "groupCount")
			delete(open, "advancePerGroup")
			p.mustDo(t, "POST", "/api/v1/admin/tournaments", p.admin, open, 201)
			p.mustDo(t, "POST", "/api/v1/admin/tournaments/open/status", p.admin, map[string]any{"status": "registration_open"}, 200)
			p.mustDo(t, "POST", "/api/v1/admin/tournaments/open/registrations", p.admin, map[string]any{"platformId": playerID(7)}, 201)
			p.mustDo(t, "DELETE", "/api/v1/admin/tournaments/open/registrations/"+playerID(7), p.admin, nil, 200)
			open["slug"] = "ghost" // a draft cancelled: never public, never logged
			p.mustDo(t, "POST", "/api/v1/admin/tournaments", p.admin, open, 201)
			p.mustDo(t, "POST", "/api/v1/admin/tournaments/ghost/status", p.admin, map[string]any{"status": "cancelled"}, 200)

			events := readLog(t, p, 7)
			checkChain(t, events)
			assert.Equal(t, events, readLog(t, p, 1000), "pages of any size read the same log")
			checkHead(t, p, events)

			types := map[string]int{}
			for _, e := range events {
				assert.NotEqual(t, "ghost", e["tournament"])
				types[e["type"].(string)]++
				data := e["data"].(map[string]any)
				switch e["type"] {
				case "match.submission":
					assert.Equal(t, hash, data["resultHash"])
					assert.NotContains(t, data, "result", "a submission's event never carries the result")
					assert.Contains(t, []any{winner, matches[0]["p2PlatformId"]}, data["platformId"])
					assert.Equal(t, "duo", e["tournament"])
				case "match.resolved":
					assert.NotEmpty(t, data["admin"], "names the admin token")
					assert.NotNil(t, e["matchId"])
				case "registration.withdrawn":
					assert.Equal(t, playerID(7), data["platformId"])
				}
			}
			for _, typ := range []string{"tournament.status", "registration.added", "registration.withdrawn",
				"match.live", "match.submission", "match.confirmed", "match.resolved"} {
				assert.Positive(t, types[typ], "%s logged", typ)
			}
			assert.Equal(t, 2, types["match.submission"])
			assert.Equal(t, types["match.resolved"], types["match.confirmed"]-1, "every admin decision, and the agreeing submissions")

			p.mustDo(t, "GET", "/api/v1/events?limit=0", "", nil, 422)
			p.mustDo(t, "GET", "/api/v1/events?after=-1", "", nil, 422)
			after := p.mustDo(t, "GET", fmt.Sprintf("/api/v1/events?after=%d", len(events)), "", nil, 200)
			assert.Empty(t, after["events"])
			assert.Nil(t, after["next"])
		})
	}
}

// TestEventLogConcurrentSubmissions: submissions racing each other and
// readers sealing the log at the same time leave seq without gaps and
// one chain.
func TestEventLogConcurrentSubmissions(t *testing.T) {
	for _, remote := range []bool{false, true} {
		t.Run(map[bool]string{false: "SQLite", true: "LibSQL"}[remote], func(t *testing.T) {
			p := logEnv(t, remote)
			matches := p.bracket(t, "race", "demo", 8)
			type sub struct {
				m        map[string]any
				who, res string
				hash     string
			}
			var subs []sub
			for _, m := range matches[:4] {
				live := p.goLive(t, m)
				res, hash := result(live, m["p1PlatformId"].(string), "")
				for _, who := range []string{m["p1PlatformId"].(string), m["p2PlatformId"].(string)} {
					subs = append(subs, sub{m, who, res, hash})
				}
			}
			var wg sync.WaitGroup
			for _, s := range subs {
				wg.Add(2)
				go func() {
					defer wg.Done()
					status, out := p.game(t, "POST", matchPath(s.m, "result"), s.who, submission(s.res, s.hash), "")
					assert.Equal(t, 200, status, out)
				}()
				go func() {
					defer wg.Done()
					status, out := p.do(t, "GET", "alpha.test", "/api/v1/events?limit=1000", "", nil)
					assert.Equal(t, 200, status, out)
				}()
			}
			wg.Wait()
			events := readLog(t, p, 10)
			checkChain(t, events)
			checkHead(t, p, events)
			n := 0
			for _, e := range events {
				if e["type"] == "match.submission" {
					n++
				}
			}
			assert.Equal(t, len(subs), n, "every submission logged once")
		})
	}
}

// TestEventLogRecordingReady: a match's finalized recording is logged,
// without its object or share token.
func TestEventLogRecordingReady(t *testing.T) {
	e := newRecordingEnv(t)
	id, status, out := e.upload(t, e.p1, "public", e.replay(t, "public", nil))
	require.Equal(t, 200, status, out)
	events := readLog(t, e.protocolEnv, 100)
	checkChain(t, events)
	var ready []map[string]any
	for _, ev := range events {
		if ev["type"] == "recording.ready" {
			ready = append(ready, ev)
		}
	}
	require.Len(t, ready, 1)
	assert.Equal(t, "rec", ready[0]["tournament"])
	assert.Equal(t, float64(e.matchID()), ready[0]["matchId"])
	assert.Equal(t, map[string]any{"recordingId": float64(id), "platformId": e.p1, "scope": "public",
		"visibility": "arena", "game": float64(1)}, ready[0]["data"])
}
