//go:build !js

package e2e

import (
	"context"
	"crypto/rand"
	"log/slog"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	store "arena/sql"
	_ "arena/sql/sqlitedriver"
	"arena/worker/platform"
	"arena/worker/server"
	"arena/worker/web"
)

// arena is the native server with the site and the seeded demo arena,
// served on 127.0.0.1 (one of the demo arena's hosts).
type arena struct {
	URL        string
	AdminToken string
	srv        *server.Server
}

func startArena(t *testing.T) *arena {
	t.Helper()
	dir := t.TempDir()
	open := store.OpenIn(dir)
	dirDB, err := open("file:directory.db", "")
	require.NoError(t, err)
	_, err = store.Migrate(context.Background(), dirDB, store.DirectoryMigrations)
	require.NoError(t, err)
	srv := server.New(server.Config{
		Directory: dirDB, OperatorToken: "operator", Provisioner: store.LocalProvisioner{Dir: dir},
		OpenDB: open, Clock: time.Now, Random: rand.Reader, Logger: slog.New(slog.DiscardHandler),
		RateLimiter: server.NewMemoryRateLimiter(), SoleWriter: true, Tickets: &platform.Verifier{},
		Dev: server.NewDevControls(),
	})
	web.Register(srv, web.Config{SessionKey: []byte("browser-test-session-key")})
	token, err := srv.SeedDemo(context.Background())
	require.NoError(t, err)
	hs := httptest.NewServer(srv)
	t.Cleanup(func() {
		hs.Close()
		srv.Close()
		dirDB.Close()
	})
	return &arena{URL: hs.URL, AdminToken: token, srv: srv}
}

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
		save(t, ctx, filepath.Base(t.Name())+"-failure.png")
		require.NoError(t, err)
	}
}

// text reads the text of the first node matching sel.
func text(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	s, err := chromedp.Run(c, chromedp.Text(chromedp.CSS(sel)))
	require.NoError(t, err)
	return s
}

// screenshot saves the page as testdata-artifacts/<test>.png at the
// repository root.
func screenshot(t *testing.T, ctx context.Context) {
	t.Helper()
	require.NoError(t, save(t, ctx, filepath.Base(t.Name())+".png"))
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
