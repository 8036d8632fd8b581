package web_test

import (
	"context"
	"crypto/rand"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	store "arena/sql"
	"arena/worker/platform"
	"arena/worker/server"
	"arena/worker/web"
)

// pubBenchSite is newSiteEnv for benchmarks: the demo arena served
// in-process (no network: the benchmarks measure server time).
func pubBenchSite(b *testing.B) *siteEnv {
	b.Helper()
	dir := b.TempDir()
	open := store.OpenIn(dir)
	dirDB, err := open("file:directory.db", "")
	require.NoError(b, err)
	_, err = store.Migrate(context.Background(), dirDB, store.DirectoryMigrations)
	require.NoError(b, err)
	e := &siteEnv{now: time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC), dev: server.NewDevControls()}
	e.srv = server.New(server.Config{
		Directory: dirDB, OperatorToken: "operator", Provisioner: store.LocalProvisioner{Dir: dir},
		OpenDB: open, Clock: func() time.Time { return e.now }, Random: rand.Reader,
		Logger: slog.New(slog.DiscardHandler), SoleWriter: true, Tickets: &platform.Verifier{}, Dev: e.dev,
	})
	web.Register(e.srv, web.Config{SessionKey: []byte("bench-session-key")})
	e.adminToken, err = e.srv.SeedDemo(context.Background())
	require.NoError(b, err)
	b.Cleanup(func() {
		e.srv.Close()
		dirDB.Close()
	})
	return e
}

// pubBenchPage measures one page through the whole handler (tenant lookup,
// store queries, rendering), asking for it as a visitor.
func pubBenchPage(b *testing.B, e *siteEnv, path string) {
	b.Helper()
	size := 0
	b.ReportAllocs()
	for b.Loop() {
		req := httptest.NewRequest("GET", path, nil)
		req.Host = pubDemoHost
		w := httptest.NewRecorder()
		e.srv.ServeHTTP(w, req)
		if w.Code != http.StatusOK {
			b.Fatalf("%s: %d", path, w.Code)
		}
		size = w.Body.Len()
	}
	b.ReportMetric(float64(size), "bytes/page")
}

// BenchmarkTournamentPage64 renders the page of a 64-player groups_playoffs
// tournament in its playoffs: 8 group tables with 224 matches, a bracket
// of 32 plus the small final. Target: under 5 ms per page.
func BenchmarkTournamentPage64(b *testing.B) {
	e := pubBenchSite(b)
	e.pubSeedBigCup(b, "big-cup")
	pubBenchPage(b, e, "/tournaments/big-cup")
}

// BenchmarkPublicPages measures the other public pages with the 64-player
// cup running beside the demo data.
func BenchmarkPublicPages(b *testing.B) {
	e := pubBenchSite(b)
	base := e.pubSeedBigCup(b, "big-cup")
	list := e.pubAdmin(b, "GET", base+"/matches", nil, http.StatusOK)
	var final map[string]any
	for _, raw := range list["matches"].([]any) {
		if m := raw.(map[string]any); m["bracketSlot"] == "FINAL" {
			final = m
		}
	}
	require.NotNil(b, final)
	for _, p := range []struct{ name, path string }{
		{"Home", "/"},
		{"Tournaments", "/tournaments"},
		{"Match", "/matches/" + pubID(final["id"])},
		{"Player", "/players/" + pubCupPlayer(1)},
		{"Ladder", "/ladder"},
		{"LadderAll", "/ladder?season=all"},
		{"TournamentCompleted16", "/tournaments/autumn-open"},
	} {
		b.Run(p.name, func(b *testing.B) { pubBenchPage(b, e, p.path) })
	}
}
