package server_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/core"
	"arena/worker/arenatest"
	"arena/worker/server"
)

// hookEnv is an arena "alpha" in dev mode (webhooks may point at this
// machine) whose service clock starts at the real time, so that the
// Standard Webhooks libraries' timestamp tolerance holds; its database is
// local SQLite or, remote, a real libSQL server.
func hookEnv(t *testing.T, remote bool) *protocolEnv {
	t.Helper()
	o := testOptions()
	o.Now = time.Now().UTC().Truncate(time.Second)
	return alphaOn(t, &testEnv{arenatest.New(t, o)}, remote)
}

func (p *protocolEnv) tick(t *testing.T) {
	t.Helper()
	status, out := p.do(t, "POST", "x.test", "/__dev/tick", "", nil)
	require.Equal(t, http.StatusOK, status, out)
	require.Empty(t, out["failed"], "no arena's jobs failed")
}

// duel plays a two-player cup to its decided final.
func (p *protocolEnv) duel(t *testing.T, slug string) {
	t.Helper()
	p.playoffCup(t, p.admin, slug, 2)
	resolveAll(t, p.testEnv, p.admin, slug)
}

// standardEvent is a standard delivery's body.
type standardEvent struct {
	Type      string        `json:"type"`
	Timestamp string        `json:"timestamp"`
	Data      core.LogEvent `json:"data"`
}

func decodeStandard(t *testing.T, d delivery) standardEvent {
	t.Helper()
	var ev standardEvent
	dec := json.NewDecoder(strings.NewReader(string(d.body)))
	dec.DisallowUnknownFields()
	require.NoError(t, dec.Decode(&ev), string(d.body))
	return ev
}

// verifyStandard checks a delivery with the Standard Webhooks Go library,
// its timestamp within the library's tolerance of the machine's clock
// (deliveries are signed when sent, whatever the service clock says).
func verifyStandard(t *testing.T, secret string, d delivery) {
	t.Helper()
	wh, err := standardwebhooks.NewWebhook(secret)
	require.NoError(t, err)
	require.NoError(t, wh.Verify(d.body, d.header), string(d.body))
	assert.Error(t, wh.VerifyIgnoringTimestamp(append(append([]byte{}, d.body...), ' '), d.header), "a changed body fails")
}

// verifyWithNode checks deliveries with the npm standardwebhooks library
// (testdata/standardwebhooks, installed by npm ci when missing). Without
// node or the package the check is skipped, unless
// ARENA_REQUIRE_CLIENTS=1.
func verifyWithNode(t *testing.T, secrets map[string]string, deliveries []delivery) {
	t.Helper()
	missing := func(why string) {
		if os.Getenv("ARENA_REQUIRE_CLIENTS") == "1" {
			t.Fatalf("the standardwebhooks npm check is required (ARENA_REQUIRE_CLIENTS=1): %s", why)
		}
		t.Skipf("the standardwebhooks npm check is skipped: %s", why)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		missing("node is not installed")
	}
	dir, err := filepath.Abs("testdata/standardwebhooks")
	require.NoError(t, err)
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "standardwebhooks")); err != nil {
		npm := exec.Command("npm", "ci", "--no-audit", "--no-fund", "--loglevel=error")
		npm.Dir = dir
		if out, err := npm.CombinedOutput(); err != nil {
			missing(fmt.Sprintf("npm ci: %v: %s", err, out))
		}
	}
	type captured struct {
		Secret  string            `json:"secret"`
		Body    string            `json:"body"`
		Headers map[string]string `json:"headers"`
	}
	var list []captured
	for _, d := range deliveries {
		h := map[string]string{}
		for _, k := range []string{core.HeaderWebhookID, core.HeaderWebhookTimestamp, core.HeaderWebhookSignature} {
			h[k] = d.header.Get(k)
		}
		list = append(list, captured{Secret: secrets[strings.TrimPrefix(d.path, "/")], Body: string(d.body), Headers: h})
	}
	raw, err := json.Marshal(list)
	require.NoError(t, err)
	file := filepath.Join(t.TempDir(), "deliveries.json")
	require.NoError(t, os.WriteFile(file, raw, 0o600))
	cmd := exec.Command(node, filepath.Join(dir, "verify.mjs"), file)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "standardwebhooks (npm): %s", out)
	assert.JSONEq(t, fmt.Sprintf(`{"verified": %d}`, len(list)), strings.TrimSpace(string(out)))
}

// subscribe subscribes the receiver's path to the event types.
func (p *protocolEnv) subscribe(t *testing.T, to, format string, events ...string) (id, secret string) {
	t.Helper()
	out := p.mustDo(t, "POST", "/api/v1/admin/webhooks", p.admin, map[string]any{"url": to, "events": events, "format": format}, 201)
	secret = out["secret"].(string)
	require.True(t, strings.HasPrefix(secret, "whsec_"), secret)
	head := p.mustDo(t, "GET", "/api/v1/events/head", "", nil, 200)
	assert.Equal(t, head["seq"], out["cursor"], "a subscription starts at the log's head, and says so")
	return out["id"].(string), secret
}

func (p *protocolEnv) deliveries(t *testing.T, id string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, raw := range p.mustDo(t, "GET", "/api/v1/admin/webhooks/"+id+"/deliveries", p.admin, nil, 200)["deliveries"].([]any) {
		out = append(out, raw.(map[string]any))
	}
	return out
}

// failing makes the receiver answer 500 to everything, or stop.
func (rc *receiver) failing(on bool) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.failAll = on
}

// since returns the receiver's deliveries after the first n.
func since(rc *receiver, n int) []delivery { return rc.got()[n:] }

// TestWebhookSubscriptions drives integrator webhooks end to end on
// SQLite and on the libSQL server: subscribe, play, run the scheduled
// job, verify every delivery with the Standard Webhooks libraries (Go and
// npm); retries with backoff; pause and resume; replays keeping the
// webhook-id; bad input changing nothing; the discord format.
func TestWebhookSubscriptions(t *testing.T) {
	for _, remote := range []bool{false, true} {
		t.Run(map[bool]string{false: "SQLite", true: "LibSQL"}[remote], func(t *testing.T) {
			p := hookEnv(t, remote)
			p.duel(t, "before") // in the log before anyone subscribed: never delivered
			rc := startReceiver(t)
			std, stdSecret := p.subscribe(t, rc.URL+"/standard", "standard", "match.confirmed", "match.resolved")
			disc, discSecret := p.subscribe(t, rc.URL+"/discord", "discord", "tournament.status")
			assert.True(t, strings.HasPrefix(std, "wh_"))
			view := p.mustDo(t, "GET", "/api/v1/admin/webhooks/"+std, p.admin, nil, 200)
			assert.NotContains(t, view, "secret", "the secret is shown once")
			assert.Equal(t, []any{"match.confirmed", "match.resolved"}, view["events"])

			p.duel(t, "cup")
			// Made after the cup's events, before the job ran: it starts
			// at the head, hears none of them and hears what follows.
			late, lateSecret := p.subscribe(t, rc.URL+"/late", "standard", "tournament.status")
			later := p.tournamentBody("later", "playoffs_only", 2)
			delete(later, "groupCount")
			delete(later, "advancePerGroup")
			p.mustDo(t, "POST", "/api/v1/admin/tournaments", p.admin, later, 201)
			p.mustDo(t, "POST", "/api/v1/admin/tournaments/later/status", p.admin, map[string]any{"status": "registration_open"}, 200)
			p.tick(t)
			all := rc.got()
			var got []delivery
			for _, d := range all {
				if d.path != "/late" {
					got = append(got, d)
					continue
				}
				verifyStandard(t, lateSecret, d)
				assert.Equal(t, "later", *decodeStandard(t, d).Data.Tournament, "a subscription hears nothing from before it")
			}
			assert.Len(t, p.deliveries(t, late), 1)
			p.mustDo(t, "DELETE", "/api/v1/admin/webhooks/"+late, p.admin, nil, 204)
			require.NotEmpty(t, got)
			log := readLog(t, p, 1000)
			bySeq := map[float64]map[string]any{}
			for _, e := range log {
				bySeq[e["seq"].(float64)] = e
			}
			secrets := map[string]string{"standard": stdSecret, "discord": discSecret}
			types := map[string]int{}
			for _, d := range got {
				path := strings.TrimPrefix(d.path, "/")
				verifyStandard(t, secrets[path], d)
				if path == "discord" {
					body := decodePayload(t, d) // the alert webhooks' Discord shape
					assert.Regexp(t, `^tournament\.status in (cup|later)$`, body.Content)
					require.Len(t, body.Embeds, 1)
					assert.Equal(t, body.Content, body.Embeds[0].Title)
					assert.Regexp(t, `/tournaments/(cup|later)$`, body.Embeds[0].URL)
					assert.NotEmpty(t, body.Embeds[0].Timestamp)
					assert.Equal(t, "tournament.status", body.Arena.Event)
					assert.Equal(t, d.header.Get("webhook-id"), body.Arena.IdempotencyKey)
					types["discord"]++
					continue
				}
				ev := decodeStandard(t, d)
				types[ev.Type]++
				assert.Equal(t, ev.Data.At, ev.Timestamp)
				want := bySeq[float64(ev.Data.Seq)]
				require.NotNil(t, want, "the delivered event is in the log")
				assert.Equal(t, want["hash"], ev.Data.Hash, "the delivered event is the log's")
				assert.Equal(t, "cup", *ev.Data.Tournament, "nothing from before the subscription")
				assert.Equal(t, core.SubscriptionWebhookID(std, ev.Data.Seq), d.header.Get("webhook-id"))
			}
			assert.Equal(t, 1, types["match.confirmed"])
			assert.Equal(t, 1, types["match.resolved"])
			assert.Positive(t, types["discord"])
			secrets["late"] = lateSecret
			t.Run("StandardWebhooksNPM", func(t *testing.T) { verifyWithNode(t, secrets, all) })

			p.tick(t)
			assert.Len(t, rc.got(), len(all), "a sent delivery goes out once")
			list := p.deliveries(t, std)
			require.Len(t, list, 2)
			for _, d := range list {
				assert.Equal(t, "sent", d["state"])
				assert.Equal(t, float64(1), d["attempts"])
				assert.Equal(t, float64(http.StatusNoContent), d["lastStatus"])
				assert.NotNil(t, d["latencyMs"])
				assert.NotNil(t, d["sentAt"])
			}

			t.Run("RetriesWithBackoff", func(t *testing.T) {
				flaky := startReceiver(t)
				id, secret := p.subscribe(t, flaky.URL+"/flaky", "standard", "match.confirmed")
				flaky.failing(true)
				p.duel(t, "flaky")
				p.tick(t)
				require.Len(t, flaky.got(), 1)
				d := p.deliveries(t, id)[0]
				assert.Equal(t, "pending", d["state"])
				assert.Equal(t, float64(500), d["lastStatus"])
				p.tick(t)
				assert.Len(t, flaky.got(), 1, "not due before the backoff")
				p.Now = p.Now.Add(core.WebhookRetry(1))
				p.tick(t)
				require.Len(t, flaky.got(), 2, "retried after WebhookRetry(1)")
				p.Now = p.Now.Add(core.WebhookRetry(2) - time.Second)
				p.tick(t)
				assert.Len(t, flaky.got(), 2, "the wait doubles")
				flaky.failing(false)
				p.Now = p.Now.Add(time.Second)
				p.tick(t)
				all := flaky.got()
				require.Len(t, all, 3)
				for _, got := range all {
					// Signed when sent, with the machine's clock: the library's
					// tolerance holds although the service clock moved on.
					verifyStandard(t, secret, got)
					assert.Equal(t, all[0].header.Get("webhook-id"), got.header.Get("webhook-id"), "one webhook-id on every attempt")
					assert.Equal(t, string(all[0].body), string(got.body), "the same body on every attempt")
				}
				d = p.deliveries(t, id)[0]
				assert.Equal(t, "sent", d["state"])
				assert.Equal(t, float64(3), d["attempts"])
				p.mustDo(t, "DELETE", "/api/v1/admin/webhooks/"+id, p.admin, nil, 204)
			})

			t.Run("GivesUpThenReplayDelivers", func(t *testing.T) {
				dead := startReceiver(t)
				id, _ := p.subscribe(t, dead.URL+"/dead", "standard", "match.confirmed")
				dead.failing(true)
				p.duel(t, "dead")
				for range core.WebhookMaxAttempts + 1 {
					p.tick(t)
					p.Now = p.Now.Add(core.WebhookMaxRetry)
				}
				require.Len(t, dead.got(), core.WebhookMaxAttempts, "given up after the last attempt")
				d := p.deliveries(t, id)[0]
				assert.Equal(t, "failed", d["state"])
				assert.Equal(t, float64(core.WebhookMaxAttempts), d["attempts"])
				assert.Equal(t, float64(500), d["lastStatus"])
				dead.failing(false)
				p.mustDo(t, "POST", fmt.Sprintf("/api/v1/admin/webhooks/%s/deliveries/%.0f/replay", id, d["id"]), p.admin, nil, 202)
				p.tick(t)
				all := dead.got()
				require.Len(t, all, core.WebhookMaxAttempts+1)
				assert.Equal(t, all[0].header.Get("webhook-id"), all[len(all)-1].header.Get("webhook-id"))
				d = p.deliveries(t, id)[0]
				assert.Equal(t, "sent", d["state"])
				assert.Equal(t, float64(1), d["attempts"], "a replay counts its attempts afresh")
				p.mustDo(t, "DELETE", "/api/v1/admin/webhooks/"+id, p.admin, nil, 204)
			})

			t.Run("ReplayDuringASendStands", func(t *testing.T) {
				// The receiver holds the first attempt until the replay
				// is in; the attempt's outcome must not overwrite it.
				var mu sync.Mutex
				var got []delivery
				arrived, release := make(chan struct{}), make(chan struct{})
				slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					body, _ := io.ReadAll(r.Body)
					mu.Lock()
					got = append(got, delivery{path: r.URL.Path, body: body, header: r.Header.Clone()})
					first := len(got) == 1
					mu.Unlock()
					if first {
						close(arrived)
						<-release
					}
					w.WriteHeader(http.StatusNoContent)
				}))
				t.Cleanup(slow.Close)
				id, secret := p.subscribe(t, slow.URL+"/slow", "standard", "match.confirmed")
				p.duel(t, "slow")
				ticked := make(chan int, 1)
				go func() {
					status, _ := p.do(t, "POST", "x.test", "/__dev/tick", "", nil)
					ticked <- status
				}()
				select {
				case <-arrived:
				case <-time.After(10 * time.Second):
					t.Fatal("the delivery was not attempted")
				}
				d := p.deliveries(t, id)[0]
				require.Equal(t, "pending", d["state"])
				require.Equal(t, float64(1), d["attempts"], "the attempt under way is claimed")
				p.mustDo(t, "POST", fmt.Sprintf("/api/v1/admin/webhooks/%s/deliveries/%.0f/replay", id, d["id"]), p.admin, nil, 202)
				close(release)
				require.Equal(t, http.StatusOK, <-ticked)
				d = p.deliveries(t, id)[0]
				assert.Equal(t, "pending", d["state"], "the replay stands: the answer to the attempt before it is not recorded over it")
				assert.Equal(t, float64(0), d["attempts"])
				p.tick(t)
				mu.Lock()
				sent := append([]delivery(nil), got...)
				mu.Unlock()
				require.Len(t, sent, 2, "the replay went out")
				assert.Equal(t, sent[0].header.Get("webhook-id"), sent[1].header.Get("webhook-id"))
				verifyStandard(t, secret, sent[1])
				d = p.deliveries(t, id)[0]
				assert.Equal(t, "sent", d["state"])
				assert.Equal(t, float64(1), d["attempts"])
				p.mustDo(t, "DELETE", "/api/v1/admin/webhooks/"+id, p.admin, nil, 204)
			})

			t.Run("PauseThenResumeMissesNothing", func(t *testing.T) {
				before := len(rc.got())
				paused := p.mustDo(t, "PATCH", "/api/v1/admin/webhooks/"+std, p.admin, map[string]any{"paused": true}, 200)
				assert.Equal(t, true, paused["paused"])
				p.duel(t, "quiet")
				p.tick(t)
				for _, d := range since(rc, before) {
					assert.NotEqual(t, "/standard", d.path, "a paused subscription sends nothing")
				}
				pending := 0
				for _, d := range p.deliveries(t, std) {
					if d["state"] == "pending" {
						pending++
					}
				}
				assert.Equal(t, 2, pending, "a paused subscription still queues")
				before = len(rc.got())
				p.mustDo(t, "PATCH", "/api/v1/admin/webhooks/"+std, p.admin, map[string]any{"paused": false}, 200)
				p.tick(t)
				resumed := 0
				for _, d := range since(rc, before) {
					if d.path == "/standard" {
						verifyStandard(t, stdSecret, d)
						assert.Equal(t, "quiet", *decodeStandard(t, d).Data.Tournament)
						resumed++
					}
				}
				assert.Equal(t, 2, resumed, "resuming delivers what was missed")
			})

			t.Run("ReplayKeepsTheWebhookID", func(t *testing.T) {
				sent := map[string]string{}
				first := int64(1 << 62)
				for _, d := range rc.got() {
					if d.path == "/standard" {
						sent[d.header.Get("webhook-id")] = string(d.body)
						first = min(first, decodeStandard(t, d).Data.Seq)
					}
				}
				require.Len(t, sent, 10, "cup, flaky, dead, slow and quiet: each confirmed and resolved")
				before := len(rc.got())
				out := p.mustDo(t, "POST", "/api/v1/admin/webhooks/"+std+"/replay", p.admin, map[string]any{"after": first - 1}, 202)
				assert.Equal(t, float64(10), out["replayed"], "every delivered event since the seq")
				p.tick(t)
				again := since(rc, before)
				require.Len(t, again, 10)
				for _, d := range again {
					verifyStandard(t, stdSecret, d)
					body, known := sent[d.header.Get("webhook-id")]
					assert.True(t, known, "a replay keeps the webhook-id")
					assert.Equal(t, body, string(d.body), "and the body")
				}
				one := p.deliveries(t, std)[0]
				p.mustDo(t, "POST", fmt.Sprintf("/api/v1/admin/webhooks/%s/deliveries/%.0f/replay", disc, one["id"]), p.admin, nil, 404)
				before = len(rc.got())
				p.mustDo(t, "POST", fmt.Sprintf("/api/v1/admin/webhooks/%s/deliveries/%.0f/replay", std, one["id"]), p.admin, nil, 202)
				p.tick(t)
				again = since(rc, before)
				require.Len(t, again, 1)
				assert.Equal(t, one["webhookId"], again[0].header.Get("webhook-id"))
			})

			t.Run("BadInputChangesNothing", func(t *testing.T) {
				before := p.mustDo(t, "GET", "/api/v1/admin/webhooks", p.admin, nil, 200)
				for _, c := range []struct {
					body  map[string]any
					field string
				}{
					{map[string]any{"url": "https://10.0.0.1/x", "events": []string{"match.live"}}, "url"},
					{map[string]any{"url": "ftp://hooks.example.com/", "events": []string{"match.live"}}, "url"},
					{map[string]any{"url": "https://hooks.example.com/", "events": []string{"match.nope"}}, "events"},
					{map[string]any{"url": "https://hooks.example.com/", "events": []string{}}, "events"},
					{map[string]any{"url": "https://hooks.example.com/"}, "events"},
					{map[string]any{"events": []string{"match.live"}}, "url"},
					{map[string]any{"url": "https://hooks.example.com/", "events": []string{"match.live"}, "format": "xml"}, "format"},
				} {
					out := p.mustDo(t, "POST", "/api/v1/admin/webhooks", p.admin, c.body, 422)
					assert.Equal(t, "invalid_field", out["error"])
					assert.Equal(t, c.field, out["field"], "%v", c.body)
				}
				p.mustDo(t, "POST", "/api/v1/admin/webhooks", p.admin, map[string]any{"url": "https://hooks.example.com/", "events": []string{"match.live"}, "secret": "x"}, 422)
				out := p.mustDo(t, "PATCH", "/api/v1/admin/webhooks/"+std, p.admin, map[string]any{"events": []string{"nope"}}, 422)
				assert.Equal(t, "events", out["field"])
				p.mustDo(t, "PATCH", "/api/v1/admin/webhooks/"+std, p.admin, map[string]any{"format": "discord"}, 422)
				p.mustDo(t, "POST", "/api/v1/admin/webhooks/"+std+"/replay", p.admin, map[string]any{"after": -1}, 422)
				p.mustDo(t, "POST", "/api/v1/admin/webhooks/"+std+"/replay", p.admin, map[string]any{}, 422)
				for _, c := range []struct{ method, path string }{
					{"GET", "/api/v1/admin/webhooks/wh_nope"},
					{"PATCH", "/api/v1/admin/webhooks/wh_nope"},
					{"DELETE", "/api/v1/admin/webhooks/wh_nope"},
					{"GET", "/api/v1/admin/webhooks/wh_nope/deliveries"},
					{"POST", "/api/v1/admin/webhooks/wh_nope/replay"},
					{"POST", "/api/v1/admin/webhooks/" + std + "/deliveries/999999/replay"},
					{"POST", "/api/v1/admin/webhooks/" + std + "/deliveries/x/replay"},
				} {
					var body any
					if c.method != "GET" && c.method != "DELETE" {
						body = map[string]any{"paused": true}
						if strings.HasSuffix(c.path, "/replay") && strings.Contains(c.path, "wh_nope") {
							body = map[string]any{"after": 0}
						}
						if strings.Contains(c.path, "/deliveries/") {
							body = nil
						}
					}
					out := p.mustDo(t, c.method, c.path, p.admin, body, 404)
					assert.Equal(t, "not_found", out["error"], c.path)
				}
				p.mustDo(t, "GET", "/api/v1/admin/webhooks", "", nil, 401)
				assert.Equal(t, before, p.mustDo(t, "GET", "/api/v1/admin/webhooks", p.admin, nil, 200), "nothing changed")
			})

			t.Run("ArenaWebhookIsASubscription", func(t *testing.T) {
				p.mustDo(t, "PUT", "/api/v1/admin/settings", p.admin, map[string]any{"webhookUrl": rc.URL + "/alerts"}, 200)
				list := p.mustDo(t, "GET", "/api/v1/admin/webhooks", p.admin, nil, 200)["webhooks"].([]any)
				require.Len(t, list, 3)
				first := list[0].(map[string]any)
				assert.Equal(t, core.ArenaAlertsSubscription, first["id"])
				assert.Equal(t, "discord", first["format"])
				assert.Equal(t, rc.URL+"/alerts", first["url"])
				assert.Equal(t, first, p.mustDo(t, "GET", "/api/v1/admin/webhooks/arena-alerts", p.admin, nil, 200))
				out := p.mustDo(t, "PATCH", "/api/v1/admin/webhooks/arena-alerts", p.admin, map[string]any{"paused": true}, 422)
				assert.Equal(t, "id", out["field"], "edited in the settings")
				p.mustDo(t, "DELETE", "/api/v1/admin/webhooks/arena-alerts", p.admin, nil, 204)
				p.mustDo(t, "GET", "/api/v1/admin/webhooks/arena-alerts", p.admin, nil, 404)
				assert.Len(t, p.mustDo(t, "GET", "/api/v1/admin/webhooks", p.admin, nil, 200)["webhooks"], 2)
			})

			p.mustDo(t, "DELETE", "/api/v1/admin/webhooks/"+disc, p.admin, nil, 204)
			p.mustDo(t, "GET", "/api/v1/admin/webhooks/"+disc, p.admin, nil, 404)
		})
	}
}

// TestWebhookKickedByWrites: with Config.WebhookKick (the native server)
// a decision reaches a subscription without waiting for the scheduled
// job, verified by the Standard Webhooks library; without it nothing is
// sent before the job runs.
func TestWebhookKickedByWrites(t *testing.T) {
	for _, kick := range []time.Duration{0, 20 * time.Millisecond} {
		t.Run(map[bool]string{false: "Off", true: "On"}[kick > 0], func(t *testing.T) {
			o := testOptions()
			o.Now = time.Now().UTC().Truncate(time.Second)
			o.Config = func(c *server.Config) { c.WebhookKick = kick }
			p := alphaOn(t, &testEnv{arenatest.New(t, o)}, false)
			rc := startReceiver(t)
			hook := p.mustDo(t, "POST", "/api/v1/admin/webhooks", p.admin, map[string]any{"url": rc.URL + "/hook",
				"events": []string{"match.confirmed"}}, 201)
			p.duel(t, "kicked")
			confirmed := func() []delivery {
				var out []delivery
				for _, d := range rc.got() {
					if decodeStandard(t, d).Type == "match.confirmed" {
						out = append(out, d)
					}
				}
				return out
			}
			if kick == 0 {
				time.Sleep(200 * time.Millisecond)
				assert.Empty(t, rc.got(), "nothing before the scheduled job")
				p.tick(t)
			}
			require.Eventually(t, func() bool { return len(confirmed()) == 1 }, 5*time.Second, 10*time.Millisecond)
			verifyStandard(t, hook["secret"].(string), confirmed()[0])
			p.tick(t)
			assert.Len(t, confirmed(), 1, "the job does not send it again")
		})
	}
}
