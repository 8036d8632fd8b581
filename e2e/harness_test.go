//go:build !js

package e2e

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	_ "arena/sql/sqlitedriver"
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

// browser starts a fresh headless Chromium profile (a new person) and
// returns its context; it closes when the test ends.
func browser(t *testing.T) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium(t)),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900),
	)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(allocCtx)
	t.Cleanup(func() {
		cancel()
		cancelAlloc()
	})
	// Start the browser now, without a deadline (a deadline on the first run
	// would bound the whole browser's life).
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate("about:blank")))
	return ctx
}

// within runs steps with a time limit. On failure it saves what the page
// looked like as testdata-artifacts/<test>-failure.png.
func within(t *testing.T, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := chromedp.Do(c, steps...); err != nil {
		save(t, ctx, strings.ReplaceAll(t.Name(), "/", "-")+"-failure.png")
		require.NoError(t, err)
	}
}

// text reads the text of the first node matching sel (waiting for it).
func text(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	return run(t, ctx, chromedp.Text(chromedp.CSS(sel)))
}

// texts reads the text of every node matching sel now, in page order
// (none: empty).
func texts(t *testing.T, ctx context.Context, sel string) []string {
	t.Helper()
	js, err := json.Marshal(sel)
	require.NoError(t, err)
	return run(t, ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll(`+string(js)+`), n => n.innerText.trim())`))
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
// the repository root.
func screenshot(t *testing.T, ctx context.Context, what ...string) {
	t.Helper()
	name := strings.ReplaceAll(t.Name(), "/", "-")
	for _, w := range what {
		name += "-" + w
	}
	require.NoError(t, save(t, ctx, name+".png"))
}

func save(t *testing.T, ctx context.Context, name string) error {
	c, cancel := context.WithTimeout(ctx, 10*time.Second)
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
