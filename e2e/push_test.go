//go:build !js

package e2e

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/serviceworker"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/core"
	"arena/worker/arenatest"
)

// stubPushService stands in for Chromium's own push service (Google's,
// out of reach here): the page's PushManager answers subscribe with a
// subscription at the twin's endpoint, its P-256 key pair and secret made
// by the page's WebCrypto as a browser makes them; the private half is
// left on window.arenaPushDevice for the test to read the pushes with.
// It checks the applicationServerKey it is given is a P-256 point.
const stubPushService = `(() => {
  const endpoint = %q;
  const b64 = (buf) => btoa(String.fromCharCode(...new Uint8Array(buf))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  // The subscription outlives the page, as a browser keeps it.
  const make = (d) => d && {
    endpoint,
    toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh: d.p256dh, auth: d.auth } }),
    unsubscribe: async () => { localStorage.removeItem("arenaPushDevice"); return true; },
  };
  const saved = () => JSON.parse(localStorage.getItem("arenaPushDevice") || "null");
  PushManager.prototype.getSubscription = async function () { return make(saved()); };
  PushManager.prototype.subscribe = async function (options) {
    const key = new Uint8Array(options.applicationServerKey);
    if (key.length !== 65 || key[0] !== 4 || options.userVisibleOnly !== true) throw new DOMException("bad applicationServerKey", "InvalidAccessError");
    await crypto.subtle.importKey("raw", key, { name: "ECDH", namedCurve: "P-256" }, false, []);
    const pair = await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"]);
    const jwk = await crypto.subtle.exportKey("jwk", pair.privateKey);
    const d = { p256dh: b64(await crypto.subtle.exportKey("raw", pair.publicKey)), auth: b64(crypto.getRandomValues(new Uint8Array(16))), privateKey: jwk.d, serverKey: b64(key) };
    localStorage.setItem("arenaPushDevice", JSON.stringify(d));
    return make(d);
  };
})()`

// TestNotificationsThroughTheServiceWorker: a player turns notifications
// on from the account page in Chromium (the real /sw.js registered, the
// permission asked), check-in opens, the service's push reaches the push
// service twin encrypted, and, decrypted as the browser's push service
// would hand it over, is delivered to the service worker, which shows it;
// turning it off forgets the device.
func TestNotificationsThroughTheServiceWorker(t *testing.T) {
	t.Parallel()
	a := newArena(t)
	svc := arenatest.StartPushService(t)
	ctx := browser(t)
	recordPolicyViolations(t, ctx)
	endpoint := svc.URL + "/push/chromium"
	within(t, ctx, chromedp.Func(func(ctx context.Context, target *chromedp.Target) error {
		_, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
			Source: strings.Replace(stubPushService, "%q", jsString(t, endpoint), 1)})
		return err
	}))
	_, err := chromedp.CallBrowser(ctx, cdpbrowser.SetPermission, cdpbrowser.SetPermissionParams{
		Permission: &cdpbrowser.PermissionDescriptor{Name: "notifications"}, Setting: cdpbrowser.PermissionSettingGranted,
		Origin: a.URL, BrowserContextID: chromedp.FromContext(ctx).BrowserContextID})
	require.NoError(t, err)
	var mu sync.Mutex
	var registration serviceworker.RegistrationID
	require.NoError(t, chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*serviceworker.EventWorkerRegistrationUpdated); ok {
			for _, r := range e.Registrations {
				if !r.IsDeleted && strings.HasPrefix(r.ScopeURL, a.URL) {
					mu.Lock()
					registration = r.RegistrationID
					mu.Unlock()
				}
			}
		}
	}))
	_, err = chromedp.Call(ctx, serviceworker.Enable, struct{}{})
	require.NoError(t, err)

	signIn(t, ctx, a.URL, arenatest.Blaise)
	openPage(t, ctx, a.URL+"/account")
	waitFor(t, ctx, "the button once the service worker is registered", `!document.querySelector("#push .push-on").hidden`, seen)
	within(t, ctx, chromedp.Click(chromedp.CSS("#push .push-on")))
	waitFor(t, ctx, "the account page again, the device listed", `location.search.includes("notice=push_on") && document.querySelector(".push-devices li.this-device") !== null`, seen)
	assert.Equal(t, "Notifications are on for this device.", text(t, ctx, "#push .push-status"))
	assert.True(t, shown(t, ctx, "#push .push-off"))
	assert.Contains(t, text(t, ctx, ".push-devices li.this-device .device"), "Chrome on Linux")

	var dev struct{ PrivateKey, Auth, ServerKey string }
	require.NoError(t, json.Unmarshal([]byte(eval[string](t, ctx, `localStorage.getItem("arenaPushDevice") || "{}"`)), &dev))
	require.NotEmpty(t, dev.PrivateKey, "the page subscribed")
	device, err := svc.Adopt("chromium", dev.PrivateKey, dev.Auth, dev.ServerKey)
	require.NoError(t, err)

	a.OpenCup(t, arenatest.Cup{Slug: "sw-cup", MaxPlayers: 2, Players: []string{arenatest.Blaise, arenatest.Charles},
		Fields: map[string]any{"checkInMinutes": 180}})
	a.Tick(t)
	var plain []byte
	for _, m := range svc.Messages() {
		if m.Device != "chromium" {
			continue
		}
		p, err := device.Open(m.Body)
		require.NoError(t, err)
		if strings.Contains(string(p), "sw-cup") {
			plain = p
		}
	}
	require.NotNil(t, plain, "check-in's push reached the push service: %v", svc.Refused())
	mu.Lock()
	reg := registration
	mu.Unlock()
	require.NotEmpty(t, reg, "the service worker's registration")
	// The push is delivered again every 2 s until it shows: one delivered
	// while the worker is still starting is not dispatched (its tag makes
	// the deliveries one notification).
	var shownNow []struct{ Title, Body, Tag, URL string }
	deadline := time.Now().Add(15 * time.Second)
	for try := 0; len(shownNow) == 0; try++ {
		if try%20 == 0 {
			_, err = chromedp.Call(ctx, serviceworker.DeliverPushMessage, serviceworker.DeliverPushMessageParams{Origin: a.URL, RegistrationID: reg, Data: string(plain)})
			require.NoError(t, err)
		}
		time.Sleep(100 * time.Millisecond)
		got := run(t, ctx, chromedp.Evaluate[string](`navigator.serviceWorker.ready.then(r => r.getNotifications()).then(n => JSON.stringify(n.map(x => ({title: x.title, body: x.body, tag: x.tag, url: x.data && x.data.url}))))`, chromedp.EvalAwaitPromise))
		require.NoError(t, json.Unmarshal([]byte(got), &shownNow))
		require.False(t, len(shownNow) == 0 && time.Now().After(deadline), "the service worker showed no notification")
	}
	require.Len(t, shownNow, 1)
	var sent core.PushPayload
	require.NoError(t, json.Unmarshal(plain, &sent))
	assert.Equal(t, "Demo Arena", shownNow[0].Title)
	assert.Equal(t, sent.Body, shownNow[0].Body)
	assert.Contains(t, shownNow[0].Body, "Check-in is open for Cup sw-cup")
	assert.Equal(t, sent.Tag, shownNow[0].Tag)
	assert.Equal(t, "/tournaments/sw-cup", shownNow[0].URL)

	within(t, ctx, chromedp.Click(chromedp.CSS("#push .push-off")))
	waitFor(t, ctx, "the account page again, no device", `location.search.includes("notice=push_off") && document.querySelector(".push-devices") === null`, seen)
	assert.Equal(t, "null", eval[string](t, ctx, `String(localStorage.getItem("arenaPushDevice"))`), "the browser unsubscribed")
	assert.Empty(t, policyViolations(t, ctx))
}
