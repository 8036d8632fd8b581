package story

import (
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	store "arena/sql"
	_ "arena/sql/sqlitedriver"
	"arena/worker/cloudflare"
	"arena/worker/cloudflare/cloudflaretest"
	"arena/worker/objects"
	"arena/worker/platform"
	"arena/worker/server"
	"arena/worker/web"
)

// target is where the story runs.
type target struct {
	name          string
	base          string   // origin the requests go to (the host header picks the arena)
	operatorToken string   // the operator API's token
	databases     []string // arena database URLs to use, one per arena; none: the service provisions
	// tick runs the scheduled jobs once (the cron trigger on the edge).
	tick func(ctx context.Context) error
	// activateDomain has the custom domains provider (the Cloudflare API's
	// twin) report a hostname active; nil when the target has no provider
	// (domains are then active at once).
	activateDomain func(ctx context.Context, hostname string) error
}

// newTarget is the deployment named by ARENA_STORY_BASE (with
// ARENA_STORY_OPERATOR_TOKEN, and ARENA_STORY_DATABASES: comma-separated
// libSQL URLs, one per arena the story creates), or else a native server
// in this process.
func newTarget(t *testing.T) *target {
	if base := os.Getenv("ARENA_STORY_BASE"); base != "" {
		tg := &target{
			name:          "remote " + base,
			base:          strings.TrimSuffix(base, "/"),
			operatorToken: os.Getenv("ARENA_STORY_OPERATOR_TOKEN"),
		}
		if dbs := os.Getenv("ARENA_STORY_DATABASES"); dbs != "" {
			tg.databases = strings.Split(dbs, ",")
		}
		if twin := os.Getenv("ARENA_STORY_CLOUDFLARE_TWIN"); twin != "" {
			tg.activateDomain = func(ctx context.Context, hostname string) error {
				return post(ctx, twin+cloudflaretest.ActivatePath, url.Values{"hostname": {hostname}})
			}
		}
		tg.tick = func(ctx context.Context) error {
			// wrangler dev --test-scheduled runs the cron trigger on this path.
			req, err := http.NewRequestWithContext(ctx, "GET", tg.base+"/__scheduled?cron=*+*+*+*+*", nil)
			if err != nil {
				return err
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				return err
			}
			defer res.Body.Close()
			body, _ := io.ReadAll(res.Body)
			if res.StatusCode != http.StatusOK {
				return fmt.Errorf("cron trigger: %d %s", res.StatusCode, body)
			}
			return nil
		}
		return tg
	}
	return startNative(t)
}

// post sends a form and requires a 2xx answer.
func post(ctx context.Context, u string, form url.Values) error {
	req, err := http.NewRequestWithContext(ctx, "POST", u, strings.NewReader(form.Encode()))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode >= 300 {
		return fmt.Errorf("POST %s: %s", u, res.Status)
	}
	return nil
}

// startNative serves the service from this process over real HTTP, set
// up as the native binary sets itself up (local files, memory caches),
// with the Cloudflare API's twin as the custom domains provider.
func startNative(t *testing.T) *target {
	t.Helper()
	twin := cloudflaretest.Start(t)
	dir := t.TempDir()
	open := store.OpenIn(dir)
	dirDB, err := open("file:directory.db", "")
	require.NoError(t, err)
	_, err = store.Migrate(context.Background(), dirDB, store.DirectoryMigrations)
	require.NoError(t, err)
	sessionKey := []byte("story-session-key-32-bytes-long!")
	srv := server.New(server.Config{
		Directory: dirDB, OperatorToken: "story-operator", Provisioner: store.LocalProvisioner{Dir: dir},
		OpenDB: open, Clock: time.Now, Random: rand.Reader, Logger: slog.New(slog.DiscardHandler),
		RateLimiter: server.NewMemoryRateLimiter(), SoleWriter: true, Tickets: &platform.Verifier{},
		CustomHostnames: &cloudflare.CustomHostnames{BaseURL: twin.URL, APIToken: twin.Token, ZoneID: twin.ZoneID},
		Objects:         objects.Local{Dir: filepath.Join(dir, "objects")}, ObjectRouteKey: sessionKey,
		// The push steps' push-service twin listens on loopback.
		LoopbackCallouts: true,
	})
	web.Register(srv, web.Config{SessionKey: sessionKey})
	hs := httptest.NewServer(srv)
	t.Cleanup(func() {
		hs.Close()
		srv.Close()
		dirDB.Close()
	})
	return &target{
		name: "native", base: hs.URL, operatorToken: "story-operator",
		tick: func(ctx context.Context) error { _, err := srv.RunScheduled(ctx); return err },
		activateDomain: func(_ context.Context, hostname string) error {
			twin.Activate(hostname)
			return nil
		},
	}
}
