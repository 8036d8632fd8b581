package server_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/core"
	"arena/worker/server"
)

// TestHangingReceiverHoldsNoOtherArena: arena alpha's webhook receiver
// never answers; in the same scheduled run arena zulu's window-close
// forfeit is decided and its delivery arrives, signed with the machine's
// clock (the Standard Webhooks library checks its timestamp), long before
// alpha's call gives up. Arenas run one after another used to make zulu
// wait for alpha's every call.
func TestHangingReceiverHoldsNoOtherArena(t *testing.T) {
	p := newProtocolEnv(t)
	release := make(chan struct{})
	var once sync.Once
	free := func() { once.Do(func() { close(release) }) }
	hanging := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(hanging.Close)
	t.Cleanup(free)
	p.subscribe(t, hanging.URL+"/never", "standard", "match.confirmed")
	p.duel(t, "slow") // alpha has a delivery for the hanging receiver

	// Arena zulu: a final whose window closes with one side ready.
	status, body := p.do(t, "POST", "ops.test", "/api/v1/operator/arenas", operatorToken, map[string]any{
		"slug": "zulu", "name": "Zulu", "hosts": []string{"zulu.test"}, "plan": "indie", "appIds": []string{"480"}})
	require.Equal(t, 201, status, body)
	zulu := body["adminToken"].(string)
	admin := func(method, path string, in any, want int) map[string]any {
		t.Helper()
		status, out := p.do(t, method, "zulu.test", path, zulu, in)
		require.Equal(t, want, status, "%s %s: %v", method, path, out)
		return out
	}
	cup := p.tournamentBody("close", "playoffs_only", 2)
	delete(cup, "groupCount")
	delete(cup, "advancePerGroup")
	delete(cup, "smallFinal")
	admin("POST", "/api/v1/admin/tournaments", cup, 201)
	base := "/api/v1/admin/tournaments/close"
	admin("POST", base+"/status", map[string]any{"status": "registration_open"}, 200)
	for i := 1; i <= 2; i++ {
		admin("POST", base+"/registrations", map[string]any{"platformId": playerID(i)}, 201)
	}
	admin("POST", base+"/status", map[string]any{"status": "registration_closed"}, 200)
	admin("POST", base+"/status", map[string]any{"status": "playoffs"}, 200)
	final := admin("GET", base+"/matches", nil, 200)["matches"].([]any)[0].(map[string]any)
	status, out := p.Do(t, "POST", fmt.Sprintf("http://zulu.test/api/v1/matches/%.0f/ready", final["id"]), "Platform MOCK:"+playerID(1), nil)
	require.Equal(t, 200, status, out)
	healthy := startReceiver(t)
	sub := admin("POST", "/api/v1/admin/webhooks", map[string]any{"url": healthy.URL + "/zulu", "events": []string{"match.forfeited"}, "format": "standard"}, 201)

	p.Now = p.Now.Add(2 * time.Hour) // the final's window closed
	done := make(chan struct{})
	start := time.Now()
	go func() {
		defer close(done)
		p.do(t, "POST", "zulu.test", "/__dev/tick", "", nil)
	}()
	deadline := time.After(core.WebhookTimeout / 2)
	for len(healthy.got()) == 0 {
		select {
		case <-deadline:
			free()
			<-done
			t.Fatalf("zulu's delivery did not arrive within %s while alpha's receiver hung", core.WebhookTimeout/2)
		case <-time.After(20 * time.Millisecond):
		}
	}
	took := time.Since(start)
	got := healthy.got()[0]
	verifyStandard(t, sub["secret"].(string), got)
	assert.Contains(t, string(got.body), `"type":"match.forfeited"`)
	status, m := p.Do(t, "GET", fmt.Sprintf("http://zulu.test/api/v1/matches/%.0f", final["id"]), "", nil)
	require.Equal(t, 200, status)
	assert.Equal(t, "forfeited", m["status"], "zulu's window-close forfeit was decided")
	t.Logf("zulu's delivery arrived %s into the run, alpha's receiver still hanging", took)
	free()
	<-done
}

// TestSubscriptionsCap: an arena has at most core.MaxSubscriptions, even
// when they are created at once.
func TestSubscriptionsCap(t *testing.T) {
	p := newProtocolEnv(t)
	rc := startReceiver(t)
	var wg sync.WaitGroup
	statuses := make([]int, core.MaxSubscriptions+10)
	for i := range statuses {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i], _ = p.do(t, "POST", "alpha.test", "/api/v1/admin/webhooks", p.admin,
				map[string]any{"url": fmt.Sprintf("%s/%d", rc.URL, i), "events": []string{"match.confirmed"}, "format": "standard"})
		}()
	}
	wg.Wait()
	count := map[int]int{}
	for _, s := range statuses {
		count[s]++
	}
	assert.Equal(t, map[int]int{201: core.MaxSubscriptions, 409: 10}, count)
	status, out := p.do(t, "POST", "alpha.test", "/api/v1/admin/webhooks", p.admin,
		map[string]any{"url": rc.URL + "/one-more", "events": []string{"match.confirmed"}, "format": "standard"})
	assert.Equal(t, 409, status)
	assert.Equal(t, "too_many_subscriptions", out["error"])
	list := p.mustDo(t, "GET", "/api/v1/admin/webhooks", p.admin, nil, 200)["webhooks"].([]any)
	assert.Len(t, list, core.MaxSubscriptions)
}

// TestNoAnswerRecordsNoTimer: a delivery whose connection is refused
// records neither a status nor a latency (the delivery log times no
// network).
func TestNoAnswerRecordsNoTimer(t *testing.T) {
	p := newProtocolEnv(t)
	closed := httptest.NewServer(http.NotFoundHandler())
	url := closed.URL
	closed.Close() // nothing listens there now
	id, _ := p.subscribe(t, url+"/gone", "standard", "match.confirmed")
	p.duel(t, "refused")
	p.tick(t)
	d := p.deliveries(t, id)[0]
	assert.Equal(t, float64(1), d["attempts"])
	assert.Equal(t, "pending", d["state"])
	assert.Nil(t, d["latencyMs"], "no latency for a connection that got no answer")
	assert.Contains(t, []any{nil, float64(0)}, d["lastStatus"])
}

// TestWebhookDialControl: the sender connects to no address the registry
// refuses, nor to the machine's own (a public name can resolve to it),
// whatever the name it was given; loopback only in dev mode.
func TestWebhookDialControl(t *testing.T) {
	own := []netip.Addr{netip.MustParseAddr("93.184.216.34")}
	prod, dev := server.WebhookDialControl(own, false), server.WebhookDialControl(own, true)
	for _, tc := range []struct {
		address   string
		prod, dev bool // allowed
	}{
		{"1.1.1.1:443", true, true},
		{"[2606:4700:4700::1111]:443", true, true},
		{"93.184.216.34:443", false, false}, // this machine's own public address
		{"127.0.0.1:8787", false, true},
		{"[::1]:8787", false, true},
		{"169.254.169.254:80", false, false},
		{"[64:ff9b::a9fe:a9fe]:80", false, false}, // NAT64 to the metadata service
		{"[2002:a9fe:a9fe::1]:80", false, false},  // 6to4
		{"[::ffff:10.0.0.1]:80", false, false},
		{"198.18.0.1:80", false, false},
		{"0.0.0.0:80", false, false},
	} {
		assert.Equal(t, tc.prod, prod("tcp", tc.address, nil) == nil, "production %s", tc.address)
		assert.Equal(t, tc.dev, dev("tcp", tc.address, nil) == nil, "dev %s", tc.address)
	}
}

// TestBacklogDrainsInARun: 1,000 due deliveries (10 subscriptions, 100
// events each) to receivers that answer go out in one scheduled run (50
// a run used to leave a backlog for hours).
func TestBacklogDrainsInARun(t *testing.T) {
	p := newProtocolEnv(t)
	rc := startReceiver(t)
	for i := range 10 {
		p.subscribe(t, fmt.Sprintf("%s/%d", rc.URL, i), "standard", "registration.added")
	}
	body := p.tournamentBody("crowd", "playoffs_only", 128)
	delete(body, "groupCount")
	delete(body, "advancePerGroup")
	p.mustDo(t, "POST", "/api/v1/admin/tournaments", p.admin, body, 201)
	p.mustDo(t, "POST", "/api/v1/admin/tournaments/crowd/status", p.admin, map[string]any{"status": "registration_open"}, 200)
	for i := 1; i <= 100; i++ {
		p.mustDo(t, "POST", "/api/v1/admin/tournaments/crowd/registrations", p.admin, map[string]any{"platformId": playerID(i)}, 201)
	}
	start := time.Now()
	p.tick(t)
	took := time.Since(start)
	assert.Len(t, rc.got(), 1000, "the whole backlog in one run")
	t.Logf("1,000 deliveries to 10 subscriptions in one run: %s", took)
}
