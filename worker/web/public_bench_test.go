package web_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"
)

// pubBenchSite is newSiteEnv for benchmarks: the demo arena served
// in-process (no network: the benchmarks measure server time).
func pubBenchSite(b *testing.B) *siteEnv {
	b.Helper()
	e, _ := buildSiteEnv(b, siteOptions{noRateLimits: true, inProcess: true})
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
