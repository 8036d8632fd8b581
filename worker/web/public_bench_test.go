package web_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"arena/worker/arenatest"
	"arena/worker/server"
)

// pubBenchSite serves the demo arena in process for benchmarks (no
// network: the benchmarks measure server time; no rate limits) with a
// 64-player groups_playoffs cup (8 groups of 8, the top 4 of each into a
// bracket of 32) played up to the middle of the playoffs: the groups and
// the first round decided, half of the round of 16 too.
func pubBenchSite(b *testing.B, opts ...func(*arenatest.Options)) *arenatest.Arena {
	b.Helper()
	o := arenatest.Options{NoRateLimits: true, InProcess: true}
	for _, f := range opts {
		f(&o)
	}
	e := arenatest.New(b, o)
	e.OpenCup(b, arenatest.Cup{Slug: "big-cup", Name: "Big Cup", Format: "groups_playoffs", MaxPlayers: 64,
		Players: arenatest.CupPlayers(64), Seeded: true, Fields: map[string]any{"groupCount": 8, "advancePerGroup": 4}})
	e.SetStatus(b, "big-cup", "registration_closed", "group_stage")
	e.ResolveScheduled(b, "big-cup", -1)
	e.SetStatus(b, "big-cup", "playoffs")
	e.ResolveScheduled(b, "big-cup", 16)
	e.ResolveScheduled(b, "big-cup", 4)
	return e
}

// pubBenchPage measures one page through the whole handler (tenant lookup,
// store queries, rendering), asking for it as a visitor.
func pubBenchPage(b *testing.B, e *arenatest.Arena, path string) {
	b.Helper()
	size := 0
	b.ReportAllocs()
	for b.Loop() {
		req := httptest.NewRequest("GET", path, nil)
		req.Host = arenatest.DemoHost
		w := httptest.NewRecorder()
		e.Handler.ServeHTTP(w, req)
		if w.Code != http.StatusOK {
			b.Fatalf("%s: %d", path, w.Code)
		}
		size = w.Body.Len()
	}
	b.ReportMetric(float64(size), "bytes/page")
}

// BenchmarkTournamentPage64 renders the page of a 64-player groups_playoffs
// tournament in its playoffs: 8 group tables with 224 matches, a bracket
// of 32 plus the small final, as the native server serves it (the results
// built once per write to the arena, server.Memo). Target: under 5 ms per
// page.
func BenchmarkTournamentPage64(b *testing.B) {
	e := pubBenchSite(b)
	pubBenchPage(b, e, "/tournaments/big-cup")
}

// BenchmarkTournamentPage64Cold is the same page built from the database
// on every request, as a server that is not its databases' only writer
// builds it (no Memo, no host cache): the worst case, for comparison.
func BenchmarkTournamentPage64Cold(b *testing.B) {
	e := pubBenchSite(b, func(o *arenatest.Options) {
		o.Config = func(c *server.Config) { c.SoleWriter = false }
	})
	pubBenchPage(b, e, "/tournaments/big-cup")
}

// BenchmarkPublicPages measures the other public pages with the 64-player
// cup running beside the demo data.
func BenchmarkPublicPages(b *testing.B) {
	e := pubBenchSite(b)
	final := e.MatchBySlot(b, "big-cup", "FINAL")
	for _, p := range []struct{ name, path string }{
		{"Home", "/"},
		{"Tournaments", "/tournaments"},
		{"Match", final.Path("")},
		{"Player", "/players/" + arenatest.CupPlayer(1)},
		{"Ladder", "/ladder"},
		{"LadderAll", "/ladder?season=all"},
		{"TournamentCompleted16", "/tournaments/autumn-open"},
		{"ResultsPoll64", "/tournaments/big-cup/live"},
		{"Embed64", "/tournaments/big-cup/embed"},
		{"BracketSVG64", "/tournaments/big-cup/bracket.svg"},
	} {
		b.Run(p.name, func(b *testing.B) { pubBenchPage(b, e, p.path) })
	}
}
