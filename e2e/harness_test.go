//go:build !js

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	_ "arena/sql/sqlitedriver"
	"arena/worker/arenatest"
	"arena/worker/web"
)

// chromium returns Debian's Chromium; the test fails when it is missing and
// ARENA_REQUIRE_BROWSER is set (make test sets it), else it is skipped.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("ARENA_REQUIRE_BROWSER") != "" {
		t.Fatal("chromium is not installed: run `make tools`")
	}
	t.Skip("chromium is not installed: run `make tools`")
	return ""
}

// shared is the one headless Chromium of the package's tests: each test
// opens its own browser contexts (fresh profiles: cookies, storage,
// cache) in it, which costs milliseconds instead of a browser's start.
var shared struct {
	once   sync.Once
	ctx    context.Context
	cancel func()
	err    error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if shared.cancel != nil {
		shared.cancel()
	}
	os.Exit(code)
}

// Viewports of the tests: a desktop and a phone (390 px, an iPhone's).
const (
	desktopWidth = 1280
	phoneWidth   = 390
)

// browser opens a new person's browser (its own cookies) in the shared
// Chromium at desktop width; it closes when the test ends.
func browser(t *testing.T) context.Context {
	t.Helper()
	path := chromium(t)
	shared.once.Do(func() {
		dir, err := os.MkdirTemp("", "arena-e2e-chromium-")
		if err != nil {
			shared.err = err
			return
		}
		opts := append(chromedp.DefaultExecAllocatorOptions[:],
			chromedp.ExecPath(path),
			chromedp.NoSandbox,
			chromedp.DisableGPU,
			chromedp.Flag("disable-background-networking", true),
			chromedp.Flag("disable-quic", true),
			chromedp.Flag("disable-component-update", true),
			chromedp.Flag("disable-sync", true),
			chromedp.UserDataDir(dir),
			chromedp.WindowSize(desktopWidth, 900),
		)
		allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
		ctx, cancel := chromedp.NewContext(allocCtx)
		shared.ctx = ctx
		shared.cancel = func() {
			cancel()
			cancelAlloc()
			os.RemoveAll(dir)
		}
		// Start the browser now, without a deadline (a deadline on the
		// first run would bound the whole browser's life).
		shared.err = chromedp.Do(ctx, chromedp.Navigate("about:blank"))
	})
	require.NoError(t, shared.err)
	ctx, cancel := chromedp.NewContext(shared.ctx, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	// The first run makes the tab, which lives as long as that run's
	// context: no deadline on it.
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(desktopWidth, 900)))
	return ctx
}

// phone opens a new person's browser at a phone's width.
func phone(t *testing.T) context.Context {
	t.Helper()
	ctx := browser(t)
	within(t, ctx, chromedp.EmulateViewport(phoneWidth, 844, chromedp.EmulateMobile))
	return ctx
}

// widths runs f once in a desktop browser and once in a phone's, as
// subtests "desktop" and "phone".
func widths(t *testing.T, f func(t *testing.T, open func(t *testing.T) context.Context)) {
	t.Run("desktop", func(t *testing.T) { f(t, browser) })
	t.Run("phone", func(t *testing.T) { f(t, phone) })
}

// inZone makes the browser's clock read in a time zone (IANA name).
func inZone(t *testing.T, ctx context.Context, zone string) {
	t.Helper()
	within(t, ctx, chromedp.Func(func(ctx context.Context, target *chromedp.Target) error {
		_, err := cdp.Call(ctx, target, emulation.SetTimezoneOverride, emulation.SetTimezoneOverrideParams{TimezoneID: zone})
		return err
	}))
}

// recordPolicyViolations makes every page the browser opens from now on
// keep what its Content-Security-Policy refused (policyViolations reads
// them), from before the page's own first byte is parsed.
func recordPolicyViolations(t *testing.T, ctx context.Context) {
	t.Helper()
	within(t, ctx, chromedp.Func(func(ctx context.Context, target *chromedp.Target) error {
		_, err := cdp.Call(ctx, target, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
			Source: `window.arenaPolicyViolations = []; document.addEventListener("securitypolicyviolation", e => window.arenaPolicyViolations.push(e.violatedDirective + " " + (e.blockedURI || e.sample)))`})
		return err
	}))
}

// policyViolations is what the page's policy refused so far.
func policyViolations(t *testing.T, ctx context.Context) []string {
	t.Helper()
	return eval[[]string](t, ctx, `window.arenaPolicyViolations ?? ["not recorded"]`)
}

// withoutScripts turns JavaScript off in the browser.
func withoutScripts(t *testing.T, ctx context.Context) {
	t.Helper()
	within(t, ctx, chromedp.Func(func(ctx context.Context, target *chromedp.Target) error {
		_, err := cdp.Call(ctx, target, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
		return err
	}))
}

// liveEvery is how often live regions refresh in these tests (10 s in
// production): a change shows up in the other browser within seconds.
const liveEvery = time.Second

// newArena serves the demo arena for a browser test, its live regions
// refreshing every liveEvery.
func newArena(t *testing.T) *arenatest.Arena {
	t.Helper()
	return arenatest.New(t, arenatest.Options{Site: web.Config{LiveEvery: liveEvery}})
}

// within runs steps with a time limit. On failure it saves what the page
// looked like as testdata-artifacts/<test>-failure.png.
func within(t *testing.T, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	if err := chromedp.Do(c, steps...); err != nil {
		save(t, ctx, strings.ReplaceAll(t.Name(), "/", "-")+"-failure.png")
		require.NoError(t, err)
	}
}

// text reads the text of the first node matching sel, as the page shows
// it (waiting for the node).
func text(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	within(t, ctx, chromedp.WaitReady(chromedp.CSS(sel)))
	return eval[string](t, ctx, `(n => (n.innerText ?? n.textContent).trim())(document.querySelector(`+jsString(t, sel)+`))`)
}

// texts reads the text of every node matching sel now, in page order
// (none: empty).
func texts(t *testing.T, ctx context.Context, sel string) []string {
	t.Helper()
	js, err := json.Marshal(sel)
	require.NoError(t, err)
	return run(t, ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll(`+string(js)+`), n => n.innerText.trim())`))
}

// eval evaluates a JavaScript expression on the page.
func eval[T any](t *testing.T, ctx context.Context, js string) T {
	t.Helper()
	return run(t, ctx, chromedp.Evaluate[T](js))
}

// waitText waits until the first node matching sel contains want (live
// regions change without a reload): it fails after wait.
func waitText(t *testing.T, ctx context.Context, sel, want string, wait time.Duration) {
	t.Helper()
	js := fmt.Sprintf(`(() => { const n = document.querySelector(%s); return !!n && n.innerText.includes(%s) })()`, jsString(t, sel), jsString(t, want))
	waitFor(t, ctx, fmt.Sprintf("%s to show %q", sel, want), js, wait)
}

// waitFor waits until the JavaScript expression is true on the page (a
// live region changed, an answer loaded): it asks every 100 ms, through
// navigations, and fails after wait, saying what it waited for.
func waitFor(t *testing.T, ctx context.Context, what, js string, wait time.Duration) {
	t.Helper()
	deadline := time.Now().Add(wait)
	for {
		c, cancel := context.WithTimeout(ctx, time.Second)
		ok, err := chromedp.Run(c, chromedp.Evaluate[bool](js))
		cancel()
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			save(t, ctx, strings.ReplaceAll(t.Name(), "/", "-")+"-failure.png")
			require.FailNow(t, "timed out", "waited %s for %s (last error: %v)", wait, what, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// count is how many nodes match sel now.
func count(t *testing.T, ctx context.Context, sel string) int {
	t.Helper()
	return eval[int](t, ctx, `document.querySelectorAll(`+jsString(t, sel)+`).length`)
}

// attr reads an attribute of the first node matching sel now ("" when
// there is none).
func attr(t *testing.T, ctx context.Context, sel, name string) string {
	t.Helper()
	return eval[string](t, ctx, `(document.querySelector(`+jsString(t, sel)+`)?.getAttribute(`+jsString(t, name)+`)) ?? ""`)
}

// shown reports whether the first node matching sel takes room on the
// page (not display: none, nor inside a closed part).
func shown(t *testing.T, ctx context.Context, sel string) bool {
	t.Helper()
	return eval[bool](t, ctx, `(() => { const n = document.querySelector(`+jsString(t, sel)+`); return !!n && n.getClientRects().length > 0 })()`)
}

// markPage tags the loaded document; stillTheSamePage later tells whether
// the browser kept it (nothing reloaded or navigated meanwhile).
func markPage(t *testing.T, ctx context.Context) {
	t.Helper()
	eval[bool](t, ctx, `(window.arenaTestMark = true)`)
}

func stillTheSamePage(t *testing.T, ctx context.Context) bool {
	t.Helper()
	return eval[bool](t, ctx, `window.arenaTestMark === true`)
}

func jsString(t *testing.T, s string) string {
	t.Helper()
	b, err := json.Marshal(s)
	require.NoError(t, err)
	return string(b)
}

// run runs one action with a time limit and returns its result.
func run[T any](t *testing.T, ctx context.Context, a chromedp.Action[T]) T {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	v, err := chromedp.Run(c, a)
	if err != nil {
		save(t, ctx, strings.ReplaceAll(t.Name(), "/", "-")+"-failure.png")
		require.NoError(t, err)
	}
	return v
}

// screenshot saves the page as testdata-artifacts/<test>[-<what>].png at
// the repository root. A screenshot is for people to look at, not an
// assertion: one that cannot be taken (a long page on a loaded machine can
// take longer than its limit) is logged and the test goes on.
func screenshot(t *testing.T, ctx context.Context, what ...string) {
	t.Helper()
	name := strings.ReplaceAll(t.Name(), "/", "-")
	for _, w := range what {
		name += "-" + w
	}
	if err := save(t, ctx, name+".png"); err != nil {
		t.Logf("screenshot %s not saved: %v", name, err)
	}
}

func save(t *testing.T, ctx context.Context, name string) error {
	c, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	png, err := chromedp.Run(c, chromedp.FullScreenshot(100)) // quality 100: PNG
	if err != nil {
		return err
	}
	dir := filepath.Join("..", "testdata-artifacts")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, name), png, 0o644)
}

// fitsTheScreen reports whether the page needs no sideways panning.
func fitsTheScreen(t *testing.T, ctx context.Context) bool {
	t.Helper()
	return eval[bool](t, ctx, `document.documentElement.scrollWidth <= window.innerWidth`)
}
