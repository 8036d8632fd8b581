package server_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/core"
	store "arena/sql"
	"arena/worker/arenatest"
	"arena/worker/server"
)

// receiver is a webhook endpoint: it records every delivery and answers
// the statuses queued in answers (200 when none is left).
type receiver struct {
	*httptest.Server
	mu         sync.Mutex
	deliveries []delivery
	answers    []int
	failAll    bool // answer 500 to everything
}

type delivery struct {
	path   string
	body   []byte
	header http.Header
}

func startReceiver(t *testing.T) *receiver {
	rc := &receiver{}
	rc.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		rc.deliveries = append(rc.deliveries, delivery{path: r.URL.Path, body: body, header: r.Header.Clone()})
		status := http.StatusNoContent
		if rc.failAll {
			status = http.StatusInternalServerError
		} else if len(rc.answers) > 0 {
			status, rc.answers = rc.answers[0], rc.answers[1:]
		}
		rc.mu.Unlock()
		w.WriteHeader(status)
	}))
	t.Cleanup(rc.Close)
	return rc
}

func (rc *receiver) answer(statuses ...int) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.answers = append(rc.answers, statuses...)
}

func (rc *receiver) got() []delivery {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]delivery(nil), rc.deliveries...)
}

// payload is a delivery's body as a receiver reads it.
type payload struct {
	Content string `json:"content"`
	Embeds  []struct {
		Title     string `json:"title"`
		URL       string `json:"url"`
		Timestamp string `json:"timestamp"`
	} `json:"embeds"`
	Arena struct {
		Slug       string `json:"slug"`
		Event      string `json:"event"`
		MatchID    int64  `json:"matchId"`
		Tournament *struct {
			Slug string `json:"slug"`
			Name string `json:"name"`
		} `json:"tournament"`
		At             string `json:"at"`
		IdempotencyKey string `json:"idempotencyKey"`
	} `json:"arena"`
}

func decodePayload(t *testing.T, d delivery) payload {
	t.Helper()
	var p payload
	require.NoError(t, json.Unmarshal(d.body, &p), string(d.body))
	return p
}

// verify checks a delivery's signature as a receiver does.
func verify(secret string, d delivery) bool {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write(d.body)
	return hmac.Equal([]byte(d.header.Get("X-Arena-Signature")), []byte("sha256="+hex.EncodeToString(mac.Sum(nil))))
}

// arenaWebhook sets the demo arena's webhook and returns its secret.
func arenaWebhook(t *testing.T, a *arenatest.Arena, to string) string {
	t.Helper()
	out := a.Admin(t, "PUT", "/api/v1/admin/settings", map[string]any{"webhookUrl": to}, 200)
	alerts := out["alerts"].(map[string]any)
	assert.Equal(t, to, alerts["webhookUrl"])
	return alerts["webhookSecret"].(string)
}

// decide resolves the Winter Cup's first open match through the admin.
func decide(t *testing.T, a *arenatest.Arena) arenatest.AdminMatch {
	t.Helper()
	m := a.Playable(t, "winter-cup")[0]
	a.Admin(t, "POST", fmt.Sprintf("/api/v1/admin/matches/%d/resolve", m.ID), map[string]any{"winner": *m.P1}, 200)
	return m
}

func TestWebhookURLs(t *testing.T) {
	a := arenatest.New(t, arenatest.Options{})
	for _, bad := range []string{"http://hooks.example.com/x", "https://10.0.0.1/x", "https://192.168.1.4/x", "https://169.254.169.254/latest", "ftp://x.example/", "https://[fd00::1]/x", "not a url"} {
		out := a.Admin(t, "PUT", "/api/v1/admin/settings", map[string]any{"webhookUrl": bad}, 422)
		assert.Equal(t, "webhookUrl", out["field"], bad)
	}
	arenaWebhook(t, a, "https://hooks.example.com/x")
	arenaWebhook(t, a, "http://127.0.0.1:9/x") // dev mode: loopback too

	prod := arenatest.New(t, arenatest.Options{NoDev: true})
	prod.Admin(t, "PUT", "/api/v1/admin/settings", map[string]any{"webhookUrl": "http://127.0.0.1:9/x"}, 422)
	prod.Admin(t, "PUT", "/api/v1/admin/settings", map[string]any{"webhookUrl": "https://localhost/x"}, 422)
	assert.Equal(t, 422, prod.SignedIn(t, arenatest.Blaise).Post(t, "/account/webhook", url.Values{"url": {"https://127.0.0.1/x"}}).Status)
}

func TestArenaWebhookDeliveries(t *testing.T) {
	a := arenatest.New(t, arenatest.Options{})
	a.OpenCup(t, arenatest.Cup{Slug: "hooks", MaxPlayers: 4, Players: arenatest.CupPlayers(4)})
	a.SetStatus(t, "hooks", "registration_closed", "playoffs")
	rc := startReceiver(t)
	secret := arenaWebhook(t, a, rc.URL+"/hook")
	a.Tick(t) // the demo's own events (statuses, upcoming matches) go out first
	sent := len(rc.got())
	require.Positive(t, sent)

	m := decide(t, a)
	assert.Equal(t, sent, len(rc.got()), "never sent on the request's path")
	a.Tick(t)
	got := rc.got()
	require.Equal(t, sent+1, len(got))
	d := got[sent]
	p := decodePayload(t, d)
	t.Run("DiscordCompatibleWithTheArenaObject", func(t *testing.T) {
		assert.Equal(t, "result_confirmed", p.Arena.Event)
		assert.Equal(t, "demo", p.Arena.Slug)
		assert.Equal(t, m.ID, p.Arena.MatchID)
		require.NotNil(t, p.Arena.Tournament)
		assert.Equal(t, "winter-cup", p.Arena.Tournament.Slug)
		assert.Contains(t, p.Content, "Result in Winter Cup")
		require.Len(t, p.Embeds, 1)
		assert.Equal(t, fmt.Sprintf("http://localhost/matches/%d", m.ID), p.Embeds[0].URL)
		assert.NotEmpty(t, p.Arena.At)
		assert.Len(t, p.Arena.IdempotencyKey, 32)
		assert.Equal(t, p.Arena.IdempotencyKey, d.header.Get("Idempotency-Key"))
		assert.Equal(t, "application/json", d.header.Get("Content-Type"))
	})
	t.Run("SignatureVerifies", func(t *testing.T) {
		assert.True(t, verify(secret, d))
		assert.False(t, verify("whsec_other", d))
	})
	t.Run("RetriedWithBackoffAfter500", func(t *testing.T) {
		rc.answer(http.StatusInternalServerError)
		m2 := decide(t, a)
		a.Tick(t)
		require.Equal(t, sent+2, len(rc.got()))
		a.Tick(t)
		assert.Equal(t, sent+2, len(rc.got()), "not before its backoff")
		a.Advance(t, core.WebhookFirstRetry)
		a.Tick(t)
		got := rc.got()
		require.Equal(t, sent+3, len(got))
		first, retry := got[sent+1], got[sent+2]
		assert.Equal(t, first.body, retry.body, "the same bytes")
		assert.Equal(t, m2.ID, decodePayload(t, retry).Arena.MatchID)
		a.Advance(t, time.Hour)
		a.Tick(t)
		for _, d := range rc.got()[sent+3:] {
			assert.NotEqual(t, first.body, d.body, "delivered once it succeeded")
		}
	})
	t.Run("TurnedOffAfterRepeatedFailureAndTheAdminsTold", func(t *testing.T) {
		bad := startReceiver(t)
		bad.failAll = true
		arenaWebhook(t, a, bad.URL+"/down")
		semis := a.Matches(t, "hooks")
		a.Admin(t, "POST", fmt.Sprintf("/api/v1/admin/matches/%d/resolve", semis[0].ID), map[string]any{"winner": *semis[0].P1}, 200)
		for range core.WebhookMaxAttempts + 1 {
			a.Tick(t)
			a.Advance(t, core.WebhookMaxRetry)
		}
		attempts := map[string]int{}
		for _, d := range bad.got() {
			attempts[decodePayload(t, d).Arena.IdempotencyKey]++
		}
		most := 0
		for _, n := range attempts {
			most = max(most, n)
		}
		assert.Equal(t, core.WebhookMaxAttempts, most, "each delivery is tried at most WebhookMaxAttempts times")
		calls := len(bad.got())
		a.Admin(t, "POST", fmt.Sprintf("/api/v1/admin/matches/%d/resolve", semis[1].ID), map[string]any{"winner": *semis[1].P1}, 200)
		a.Tick(t)
		assert.Equal(t, calls, len(bad.got()), "a turned-off webhook gets nothing")
		assert.Contains(t, inbox(t, a, arenatest.Ada), "webhook was turned off")
		out := a.Admin(t, "PUT", "/api/v1/admin/settings", map[string]any{"name": "Demo Arena"}, 200)
		assert.Equal(t, true, out["alerts"].(map[string]any)["webhookDisabled"])
		admin := a.SignedIn(t, arenatest.Ada).Get(t, "/admin/settings")
		assert.Contains(t, admin.Body, "turned off after repeated failed deliveries")
		arenaWebhook(t, a, rc.URL+"/hook") // saving it again turns it back on
		before := len(rc.got())
		final := a.MatchBySlot(t, "hooks", "FINAL")
		a.Admin(t, "POST", fmt.Sprintf("/api/v1/admin/matches/%d/resolve", final.ID), map[string]any{"winner": *final.P1}, 200)
		a.Tick(t)
		assert.Greater(t, len(rc.got()), before)
	})
}

// crashAfterSend is the arena store with a crash injected between a
// delivery's send and its mark: DeliverySent fails, as if the process
// died right after the receiver answered.
type crashAfterSend struct {
	*store.Arena
}

func (crashAfterSend) DeliverySent(context.Context, int64, int, time.Time) error {
	return errors.New("injected crash before the delivery was marked sent")
}

func TestWebhookCrashBetweenSendAndMark(t *testing.T) {
	a := arenatest.New(t, arenatest.Options{})
	rc := startReceiver(t)
	arenaWebhook(t, a, rc.URL+"/hook")
	a.Tick(t)
	sent := len(rc.got())
	decide(t, a)
	ctx := context.Background()
	tenant, st := demoTenant(t, a), demoStore(t, a)
	require.NoError(t, func() error {
		_, err := core.RunAlerts(ctx, st, tenant.Arena, a.Server.Now())
		return err
	}())
	_, err := core.DeliverWebhooks(ctx, crashAfterSend{st}, st, server.NewWebhookSender(nil, true), a.Server.Now())
	require.Error(t, err)
	require.Equal(t, sent+1, len(rc.got()))

	a.Tick(t)
	assert.Equal(t, sent+1, len(rc.got()), "the claimed attempt waits for its backoff")
	a.Advance(t, core.WebhookFirstRetry)
	a.Tick(t)
	got := rc.got()
	require.Equal(t, sent+2, len(got), "sent again after the crash")
	first, again := got[sent], got[sent+1]
	assert.Equal(t, first.body, again.body)
	assert.Equal(t, decodePayload(t, first).Arena.IdempotencyKey, decodePayload(t, again).Arena.IdempotencyKey,
		"the same idempotency key: the receiver can tell it is the same delivery")
	a.Advance(t, time.Hour)
	a.Tick(t)
	for _, d := range rc.got()[sent+2:] {
		assert.NotEqual(t, first.body, d.body, "marked sent: never a third time")
	}
}

func TestAlerts(t *testing.T) {
	a := arenatest.New(t, arenatest.Options{})
	rc := startReceiver(t)
	charles := a.SignedIn(t, arenatest.Charles)
	charles.PostOK(t, "/account/webhook", url.Values{"url": {rc.URL + "/mine"}})
	account := charles.Get(t, "/account").Body
	require.Contains(t, account, "whsec_")

	t.Run("UpcomingOncePerMatchWithTheLeadTime", func(t *testing.T) {
		a.Admin(t, "PUT", "/api/v1/admin/settings", map[string]any{"upcomingAlertMinutes": 120}, 200)
		a.Admin(t, "PUT", "/api/v1/admin/settings", map[string]any{"upcomingAlertMinutes": 5000}, 422)
		a.Tick(t)
		a.Tick(t)
		m := a.Playable(t, "winter-cup")[0]
		body := inbox(t, a, *m.P1)
		assert.Equal(t, 1, strings.Count(body, fmt.Sprintf("/matches/%d\"", m.ID)), "once per match")
		assert.Contains(t, body, "Your match against "+html.EscapeString(a.PlayerName(t, *m.P2))+" in Winter Cup: the window opens at",
			"the player reads of their own match in the second person")
	})
	t.Run("FollowedPlayerLiveAndResultAndTheUnreadCount", func(t *testing.T) {
		m := a.Playable(t, "winter-cup")[1]
		charles.PostOK(t, "/follow/player/"+*m.P2, nil)
		before := len(rc.got())
		a.ReadyBoth(t, m)
		a.Tick(t)
		assert.Contains(t, inbox(t, a, arenatest.Charles), "Live now in Winter Cup")
		a.Admin(t, "POST", fmt.Sprintf("/api/v1/admin/matches/%d/resolve", m.ID), map[string]any{"winner": *m.P2}, 200)
		a.Tick(t)
		page := charles.Get(t, "/")
		assert.Contains(t, page.Body, "unread-count")
		assert.Contains(t, inbox(t, a, arenatest.Charles), "Result in Winter Cup", "a follower reads the third person")
		p1, p2 := html.EscapeString(a.PlayerName(t, *m.P1)), html.EscapeString(a.PlayerName(t, *m.P2))
		assert.Contains(t, inbox(t, a, *m.P2), "You beat "+p1+" in Winter Cup.")
		assert.Contains(t, inbox(t, a, *m.P1), p2+" beat you in Winter Cup.")
		assert.NotContains(t, inbox(t, a, arenatest.Charles), "beat you in Winter Cup", "nobody else reads another's line")
		var mine []string
		for _, d := range rc.got()[before:] {
			assert.Equal(t, decodePayload(t, d).Arena.Event, d.header.Get("X-Arena-Event"))
			mine = append(mine, decodePayload(t, d).Arena.Event)
		}
		assert.Equal(t, []string{"match_live", "result_confirmed"}, mine, "the player's own webhook gets their alerts")
		charles.PostOK(t, "/alerts/read", nil)
		assert.NotContains(t, charles.Get(t, "/").Body, "unread-count")
	})
	t.Run("DisputedResultsAlertThePlayers", func(t *testing.T) {
		m := a.Playable(t, "winter-cup")[0]
		p1, p2 := a.ReadyBoth(t, m)
		p1.Report(t, m, *m.P1)
		p2.PostOK(t, m.Path("report/dispute"), nil)
		a.Tick(t)
		assert.Contains(t, inbox(t, a, *m.P1), "Your match against "+html.EscapeString(a.PlayerName(t, *m.P2))+" in Winter Cup is disputed.")
		assert.Contains(t, inbox(t, a, *m.P2), "Your match against "+html.EscapeString(a.PlayerName(t, *m.P1))+" in Winter Cup is disputed.")
	})
}
