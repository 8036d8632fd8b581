package server_test

import (
	"context"
	"crypto/ecdh"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/core"
	"arena/worker/arenatest"
)

func TestPushKey(t *testing.T) {
	a := arenatest.New(t, arenatest.Options{})
	key := a.API(t, "GET", "/api/v1/push/key", "", nil, 200)["publicKey"].(string)
	raw, err := base64.RawURLEncoding.DecodeString(key)
	require.NoError(t, err, "base64url without padding, as applicationServerKey takes it")
	_, err = ecdh.P256().NewPublicKey(raw)
	require.NoError(t, err, "an uncompressed P-256 point")
	assert.Len(t, raw, 65)
	assert.Equal(t, key, a.API(t, "GET", "/api/v1/push/key", "", nil, 200)["publicKey"], "drawn once")
	other := a.API(t, "GET", "http://"+arenatest.DemoHost+"/api/v1", "", nil, 200)
	assert.NotContains(t, fmt.Sprint(other), key[:20], "the key is not in the API's description")
}

// pushed is a push as the device read it.
type pushed struct {
	to      string // the account whose device it reached
	payload core.PushPayload
}

// pushWatch reads what the twin took since the last read, decrypted for
// each device.
type pushWatch struct {
	svc     *arenatest.PushService
	devices map[string]*arenatest.PushDevice // by account
	seen    int
	about   string // only the pushes whose text names it (the demo's own news aside)
}

func (w *pushWatch) next(t *testing.T) []pushed {
	t.Helper()
	msgs := w.svc.Messages()
	require.Empty(t, w.svc.Refused(), "every push is well made")
	var out []pushed
	for _, m := range msgs[w.seen:] {
		if m.Status != http.StatusCreated {
			continue
		}
		var who string
		for id, d := range w.devices {
			if d.Name == m.Device {
				who = id
			}
		}
		plain, err := w.devices[who].Open(m.Body)
		require.NoError(t, err, "the device reads its push")
		var p pushed
		p.to = who
		require.NoError(t, json.Unmarshal(plain, &p.payload), string(plain))
		if w.about == "" || strings.Contains(p.payload.Body, w.about) {
			out = append(out, p)
		}
	}
	w.seen = len(msgs)
	return out
}

// only asserts the pushes are one each, of kind, to exactly who.
func only(t *testing.T, got []pushed, kind core.PushKind, who ...string) []pushed {
	t.Helper()
	var to []string
	for _, p := range got {
		assert.Equal(t, kind, p.payload.Kind, "%s: %s", p.to, p.payload.Body)
		to = append(to, p.to)
	}
	slices.Sort(to)
	who = slices.Clone(who)
	slices.Sort(who)
	assert.Equal(t, who, to, "once to each of them and to nobody else")
	return got
}

// TestPushesReachThePeopleTheyConcern follows a night of a cup with every
// device subscribed through the account page: each kind of push reaches
// the people it speaks to, once, and nobody else (a follower reads it in
// the inbox only).
func TestPushesReachThePeopleTheyConcern(t *testing.T) {
	a := arenatest.New(t, arenatest.Options{})
	svc := arenatest.StartPushService(t)
	key := a.API(t, "GET", "/api/v1/push/key", "", nil, 200)["publicKey"].(string)
	players := arenatest.CupPlayers(6)
	a.OpenCup(t, arenatest.Cup{Slug: "push-cup", MaxPlayers: 8, Players: players, Fields: map[string]any{"checkInMinutes": 60}})
	a.Tick(t) // the demo's own news goes out before any device exists
	w := &pushWatch{svc: svc, devices: map[string]*arenatest.PushDevice{}, about: "Cup push-cup"}
	for i, id := range append(slices.Clone(players), arenatest.Ada, arenatest.Blaise) {
		d := svc.NewDevice(fmt.Sprintf("device-%d", i), key)
		page := a.SignedIn(t, id).Post(t, "/account/push", d.Form("Phone"))
		require.Equal(t, http.StatusSeeOther, page.Status, page.Body)
		w.devices[id] = d
	}
	blaise := a.SignedIn(t, arenatest.Blaise)
	cup, err := demoTenant(t, a).Tournament(context.Background(), "push-cup")
	require.NoError(t, err)
	require.Equal(t, http.StatusSeeOther, blaise.Post(t, fmt.Sprintf("/follow/tournament/%d", cup.ID), nil).Status)

	t.Run("CheckInOpen", func(t *testing.T) {
		a.Advance(t, time.Hour+time.Minute)
		a.Tick(t)
		got := only(t, w.next(t), core.PushCheckIn, players...)
		assert.Contains(t, got[0].payload.Body, "Check-in is open for Cup push-cup")
		assert.Equal(t, "Demo Arena", got[0].payload.Title)
		assert.Equal(t, "/tournaments/push-cup", got[0].payload.URL)
		a.Tick(t)
		assert.Empty(t, w.next(t), "once")
	})
	for _, id := range players[:4] {
		require.Equal(t, http.StatusSeeOther, a.SignedIn(t, id).Post(t, "/tournaments/push-cup/check-in", nil).Status)
	}
	var semis []arenatest.AdminMatch
	t.Run("AtTheStartWithdrawnOrToPlay", func(t *testing.T) {
		a.SetStatus(t, "push-cup", "registration_closed", "playoffs")
		a.Tick(t)
		kinds := map[core.PushKind][]pushed{}
		for _, p := range w.next(t) {
			kinds[p.payload.Kind] = append(kinds[p.payload.Kind], p)
		}
		missed := only(t, kinds[core.PushCheckIn], core.PushCheckIn, players[4:]...)
		assert.Equal(t, "You were withdrawn from Cup push-cup: you did not check in before it started.", missed[0].payload.Body)
		for _, p := range only(t, kinds[core.PushMatchWindow], core.PushMatchWindow, players[:4]...) {
			assert.Contains(t, p.payload.Body, "Your match against", p.to)
		}
		assert.Len(t, kinds, 2)
	})
	semis = a.Playable(t, "push-cup")
	require.Len(t, semis, 2)
	m := semis[0]
	p1, p2 := a.SignedIn(t, *m.P1), a.SignedIn(t, *m.P2)
	t.Run("OpponentReady", func(t *testing.T) {
		require.Equal(t, http.StatusSeeOther, p1.Post(t, m.Path("ready"), nil).Status)
		a.Tick(t)
		got := only(t, w.next(t), core.PushOpponentReady, *m.P2)
		assert.Equal(t, fmt.Sprintf("/matches/%d", m.ID), got[0].payload.URL)
		assert.Contains(t, got[0].payload.Body, "is ready for your match in Cup push-cup: ready up to start it.")
		assert.Contains(t, inbox(t, a, *m.P2), "is ready for your match")
	})
	require.Equal(t, http.StatusSeeOther, p2.Post(t, m.Path("ready"), nil).Status)
	t.Run("ResultToConfirm", func(t *testing.T) {
		require.Equal(t, http.StatusSeeOther, p1.Report(t, m, *m.P1).Status)
		a.Tick(t)
		got := only(t, w.next(t), core.PushResultToConfirm, *m.P2)
		assert.Contains(t, got[0].payload.Body, "reported the result of your match in Cup push-cup: confirm it or dispute it.")
	})
	t.Run("DisputeNeedsTheAdmin", func(t *testing.T) {
		require.Equal(t, http.StatusSeeOther, p2.Post(t, m.Path("report/dispute"), nil).Status)
		a.Tick(t)
		got := only(t, w.next(t), core.PushNeedsYou, arenatest.Ada)
		assert.Contains(t, got[0].payload.Body, "A dispute needs your decision in Cup push-cup")
		assert.Contains(t, inbox(t, a, arenatest.Blaise), "Disputed in Cup push-cup", "a follower reads it in the inbox")
	})
	t.Run("DisputeDecided", func(t *testing.T) {
		a.Admin(t, "POST", fmt.Sprintf("/api/v1/admin/matches/%d/resolve", m.ID), map[string]any{"winner": *m.P2}, 200)
		a.Tick(t)
		got := only(t, w.next(t), core.PushDisputeDecided, *m.P1, *m.P2)
		for _, p := range got {
			want := "You beat"
			if p.to == *m.P1 {
				want = "beat you"
			}
			assert.Contains(t, p.payload.Body, want, p.to)
		}
		a.Tick(t)
		assert.Empty(t, w.next(t), "nothing twice")
	})

	m2 := semis[1]
	t.Run("AKindTurnedOffIsNotPushed", func(t *testing.T) {
		page := a.SignedIn(t, *m2.P2).Post(t, "/account/push/kinds", url.Values{"kind": {"check_in", "match_window", "result_to_confirm", "dispute_decided", "needs_you"}})
		require.Equal(t, http.StatusSeeOther, page.Status, page.Body)
		require.Equal(t, http.StatusSeeOther, a.SignedIn(t, *m2.P1).Post(t, m2.Path("ready"), nil).Status)
		a.Tick(t)
		assert.Empty(t, w.next(t))
		assert.Contains(t, inbox(t, a, *m2.P2), "is ready for your match", "still in the inbox")
		account := a.SignedIn(t, *m2.P2).Get(t, "/account")
		assert.NotContains(t, account.Body, `value="opponent_ready" checked`)
		assert.Contains(t, account.Body, `value="needs_you" checked`)
	})
	t.Run("AnUnknownKindIsRefused", func(t *testing.T) {
		page := a.SignedIn(t, *m2.P2).Post(t, "/account/push/kinds", url.Values{"kind": {"everything"}})
		assert.Equal(t, http.StatusUnprocessableEntity, page.Status)
		assert.Contains(t, a.SignedIn(t, *m2.P2).Get(t, "/account").Body, `value="needs_you" checked`, "nothing changed")
	})
	t.Run("RetriedAfter500", func(t *testing.T) {
		require.Equal(t, http.StatusSeeOther, a.SignedIn(t, *m2.P2).Post(t, m2.Path("ready"), nil).Status)
		svc.Answer(w.devices[*m2.P2].Name, http.StatusInternalServerError)
		require.Equal(t, http.StatusSeeOther, a.SignedIn(t, *m2.P1).Report(t, m2, *m2.P1).Status)
		a.Tick(t)
		assert.Empty(t, w.next(t), "the push service failed")
		a.Tick(t)
		assert.Empty(t, w.next(t), "not before its backoff")
		a.Advance(t, core.WebhookFirstRetry)
		a.Tick(t)
		only(t, w.next(t), core.PushResultToConfirm, *m2.P2)
	})
	t.Run("ReadByThirdPartyCode", func(t *testing.T) {
		var ours []string
		for _, m := range svc.Messages() {
			for _, d := range w.devices {
				if d.Name == m.Device {
					plain, err := d.Open(m.Body)
					require.NoError(t, err)
					ours = append(ours, string(plain))
				}
			}
		}
		require.NotEmpty(t, ours)
		assert.Equal(t, ours, arenatest.ReadPushesWithNode(t, svc), "http_ece reads what the devices read")
		for _, m := range svc.Messages() {
			assert.Equal(t, 0, (len(m.Body)-86-16)%256, "the plaintext padded to a multiple of 256 bytes")
			assert.Equal(t, "3600", m.Header.Get("TTL"))
			assert.Contains(t, []string{"high", "normal"}, m.Header.Get("Urgency"))
		}
	})
	t.Run("AGoneDeviceIsForgotten", func(t *testing.T) {
		svc.Answer(w.devices[arenatest.Ada].Name, http.StatusGone)
		require.Equal(t, http.StatusSeeOther, a.SignedIn(t, *m2.P2).Post(t, m2.Path("report/dispute"), nil).Status)
		a.Tick(t)
		assert.Empty(t, w.next(t))
		account := a.SignedIn(t, arenatest.Ada).Get(t, "/account")
		assert.NotContains(t, account.Body, w.devices[arenatest.Ada].Endpoint, "the device is gone from the account")
		toAda := func() int {
			n := 0
			for _, m := range svc.Messages() {
				if m.Device == w.devices[arenatest.Ada].Name {
					n++
				}
			}
			return n
		}
		calls := toAda()
		a.Advance(t, time.Hour) // the demo's matches go overdue: news for the admin
		a.Tick(t)
		assert.Equal(t, calls, toAda(), "nothing more is sent to it")
		assert.Contains(t, inbox(t, a, arenatest.Ada), "Overdue in Winter Cup", "news that would have been pushed")
	})
}

// TestPushDevices: the account page's devices, the refusals of a bad
// subscription (nothing stored), the cap, and removing a device.
func TestPushDevices(t *testing.T) {
	a := arenatest.New(t, arenatest.Options{})
	svc := arenatest.StartPushService(t)
	key := a.API(t, "GET", "/api/v1/push/key", "", nil, 200)["publicKey"].(string)
	b := a.SignedIn(t, arenatest.Blaise)
	d := svc.NewDevice("phone", key)
	for name, bad := range map[string]url.Values{
		"endpoint": {"endpoint": {"https://10.0.0.1/push/x"}},
		"p256dh":   {"p256dh": {"AAAA"}},
		"auth":     {"auth": {"c2hvcnQ"}},
	} {
		form := d.Form("Phone")
		for k, v := range bad {
			form[k] = v
		}
		page := b.Post(t, "/account/push", form)
		assert.Equal(t, http.StatusUnprocessableEntity, page.Status, name)
	}
	assert.NotContains(t, b.Get(t, "/account").Body, "push-devices", "nothing stored")
	page := a.Browser(t).Post(t, "/account/push", d.Form("Phone"))
	assert.Contains(t, page.Location, "/signin", "a visitor is sent to sign in first")

	require.Equal(t, http.StatusSeeOther, b.Post(t, "/account/push", d.Form("Chrome on Android")).Status)
	require.Equal(t, http.StatusSeeOther, b.Post(t, "/account/push", d.Form("Chrome on Android")).Status, "again: the same device")
	account := b.Get(t, "/account").Body
	assert.Equal(t, 1, strings.Count(account, "Chrome on Android"))
	for i := 1; i < core.MaxPushSubscriptions; i++ {
		more := svc.NewDevice(fmt.Sprintf("more-%d", i), key)
		require.Equal(t, http.StatusSeeOther, b.Post(t, "/account/push", more.Form("Tablet")).Status)
	}
	extra := svc.NewDevice("extra", key)
	page = b.Post(t, "/account/push", extra.Form("One too many"))
	assert.Equal(t, http.StatusConflict, page.Status)
	assert.Contains(t, page.Body, "at most 10 devices")

	// Another account signed in on the phone takes it over.
	c := a.SignedIn(t, arenatest.Charles)
	require.Equal(t, http.StatusSeeOther, c.Post(t, "/account/push", d.Form("Shared phone")).Status)
	assert.NotContains(t, b.Get(t, "/account").Body, "Chrome on Android")
	assert.Contains(t, c.Get(t, "/account").Body, "Shared phone")
	require.Equal(t, http.StatusSeeOther, b.Post(t, "/account/push", extra.Form("One more")).Status, "a free place again")

	// Removing by endpoint (the page script) and by another account does
	// nothing to Charles's device; removing it by its own account does.
	require.Equal(t, http.StatusSeeOther, b.Post(t, "/account/push/remove", url.Values{"endpoint": {d.Endpoint}}).Status)
	assert.Contains(t, c.Get(t, "/account").Body, "Shared phone")
	require.Equal(t, http.StatusSeeOther, c.Post(t, "/account/push/remove", url.Values{"endpoint": {d.Endpoint}}).Status)
	assert.NotContains(t, c.Get(t, "/account").Body, "Shared phone")
}

// TestOverdueMatchesArePushedToTheAdmins: a match whose window closes
// with nothing reported is pushed to the arena's admins (needs_you), once
// each, and to nobody else; the admin who turned needs_you off is not.
func TestOverdueMatchesArePushedToTheAdmins(t *testing.T) {
	a := arenatest.New(t, arenatest.Options{})
	svc := arenatest.StartPushService(t)
	key := a.API(t, "GET", "/api/v1/push/key", "", nil, 200)["publicKey"].(string)
	players := arenatest.CupPlayers(4)
	a.OpenCup(t, arenatest.Cup{Slug: "late-cup", MaxPlayers: 4, Players: players})
	a.SetStatus(t, "late-cup", "registration_closed", "playoffs")
	a.Tick(t)
	second := arenatest.Charles
	w := &pushWatch{svc: svc, devices: map[string]*arenatest.PushDevice{}, about: "Cup late-cup"}
	for i, id := range append(slices.Clone(players), arenatest.Ada, second) {
		d := svc.NewDevice(fmt.Sprintf("device-%d", i), key)
		require.Equal(t, http.StatusSeeOther, a.SignedIn(t, id).Post(t, "/account/push", d.Form("Phone")).Status)
		w.devices[id] = d
	}
	// Charles is made an admin, then turns needs_you off.
	require.Equal(t, http.StatusSeeOther, a.SignedIn(t, arenatest.Ada).Post(t, "/admin/settings/admins", url.Values{"adminPlatformId": {second}}).Status)
	require.Equal(t, http.StatusSeeOther, a.SignedIn(t, second).Post(t, "/account/push/kinds", url.Values{"kind": {"check_in"}}).Status)
	a.Advance(t, 24*time.Hour)
	a.Tick(t)
	got := w.next(t)
	var overdue []pushed
	for _, p := range got {
		if strings.HasPrefix(p.payload.Body, "Overdue in Cup late-cup") || strings.HasPrefix(p.payload.Body, "Window closing in Cup late-cup") {
			overdue = append(overdue, p)
		}
	}
	require.NotEmpty(t, overdue, "%v", got)
	for _, p := range overdue {
		assert.Equal(t, arenatest.Ada, p.to, "to the admin who takes them: %s", p.payload.Body)
		assert.Equal(t, core.PushNeedsYou, p.payload.Kind)
		assert.True(t, strings.HasPrefix(p.payload.URL, "/admin/matches/"), p.payload.URL)
	}
	assert.Len(t, overdue, 2, "one for each of the two semifinals")
	a.Tick(t)
	assert.Empty(t, w.next(t), "once")
}

// TestAHangingPushServiceHoldsNoOther: a push service that does not
// answer costs the run one timeout, while the other service's devices
// get their pushes in that same run; the held pushes go out once it
// answers again, after their backoff.
func TestAHangingPushServiceHoldsNoOther(t *testing.T) {
	a := arenatest.New(t, arenatest.Options{})
	key := a.API(t, "GET", "/api/v1/push/key", "", nil, 200)["publicKey"].(string)
	slow, fast := arenatest.StartPushService(t), arenatest.StartPushService(t)
	players := arenatest.CupPlayers(4)
	a.OpenCup(t, arenatest.Cup{Slug: "hang-cup", MaxPlayers: 4, Players: players, Fields: map[string]any{"checkInMinutes": 180}})
	for i, id := range players {
		svc := fast
		if i < 2 {
			svc = slow
		}
		d := svc.NewDevice(fmt.Sprintf("device-%d", i), key)
		require.Equal(t, http.StatusSeeOther, a.SignedIn(t, id).Post(t, "/account/push", d.Form("Phone")).Status)
	}
	slow.Hang()
	a.Tick(t)
	assert.Len(t, fast.Messages(), 2, "the answering service's devices got theirs in the same run")
	assert.Empty(t, slow.Messages())
	assert.Positive(t, slow.Held())
	slow.Release()
	a.Tick(t)
	assert.Empty(t, slow.Messages(), "not before its backoff")
	a.Advance(t, core.WebhookFirstRetry)
	a.Tick(t)
	assert.Len(t, slow.Messages(), 2, "once it answers again")
	for _, m := range slow.Messages() {
		assert.Equal(t, http.StatusCreated, m.Status)
	}
	assert.Len(t, fast.Messages(), 2, "nothing twice")
}
