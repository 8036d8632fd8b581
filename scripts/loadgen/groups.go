package main

import (
	"fmt"
	"os"
	"sync/atomic"
	"time"
)

// adminMatch is what the admin match list says of a match.
type adminMatch struct {
	ID           int64   `json:"id"`
	Status       string  `json:"status"`
	Round        string  `json:"round"`
	P1PlatformID *string `json:"p1PlatformId"`
	P2PlatformID *string `json:"p2PlatformId"`
	SessionNonce *string `json:"sessionNonce"`
	Winner       *string `json:"winner"`
	ResultSource *string `json:"resultSource"`
}

// groupsScenario plays the group stage of a groups_playoffs tournament of
// players in groups: for each round, the dev clock opens the round's
// windows, both sides of each match ready (untimed), then both submit (the
// timed part). Every match is then read back: confirmed, with the winner
// and score its sides submitted (the winner alternates between p1 and p2
// by match id). Returns submissions per second over the timed parts; any
// failure or wrong outcome exits non-zero after the report.
func (g *gen) groupsScenario(players, groups, rounds, conc int) float64 {
	slug := fmt.Sprintf("bench-groups-%d", time.Now().UnixNano()%1e9)
	now := g.serviceNow()
	window := 60 // minutes
	start := time.Now()
	g.admincall("POST", "/api/v1/admin/tournaments", map[string]any{
		"slug": slug, "name": slug, "format": "groups_playoffs", "maxPlayers": players,
		"groupCount": groups, "advancePerGroup": 1,
		"registrationOpensAt":  now.Add(-time.Hour).Format(time.RFC3339),
		"registrationClosesAt": now.Add(time.Hour).Format(time.RFC3339),
		"startsAt":             now.Add(2 * time.Hour).Format(time.RFC3339), "matchWindowMinutes": window,
	}, nil)
	g.admincall("POST", "/api/v1/admin/tournaments/"+slug+"/status", map[string]any{"status": "registration_open"}, nil)
	ids := make([]match, players)
	g.run(ids, conc, func(_ match, _ func(time.Duration)) {
		id := fmt.Sprintf("7656119%010d", g.seq.Add(1))
		g.admincall("POST", "/api/v1/admin/tournaments/"+slug+"/registrations", map[string]any{"platformId": id}, nil)
	})
	g.admincall("POST", "/api/v1/admin/tournaments/"+slug+"/status", map[string]any{"status": "registration_closed"}, nil)
	g.admincall("POST", "/api/v1/admin/tournaments/"+slug+"/status", map[string]any{"status": "group_stage"}, nil)
	byRound := map[string][]match{}
	var order []string
	for _, m := range g.adminMatches(slug) {
		if m.P1PlatformID == nil || m.P2PlatformID == nil {
			continue
		}
		if _, ok := byRound[m.Round]; !ok {
			order = append(order, m.Round)
		}
		byRound[m.Round] = append(byRound[m.Round], match{id: m.ID, p1: *m.P1PlatformID, p2: *m.P2PlatformID})
	}
	if rounds <= 0 || rounds > len(order) {
		rounds = len(order)
	}
	fmt.Printf("loadgen: groups tournament %s: %d players in %d groups, %d rounds of %d matches, set up in %s\n",
		slug, players, groups, rounds, len(byRound[order[0]]), time.Since(start).Round(time.Millisecond))

	// The draw's start is startsAt (2 h ahead): round r opens r windows later.
	g.advance(2 * time.Hour)
	var lat []time.Duration
	var timed, serverCPU, selfCPU time.Duration
	submitted := 0
	want := map[int64]match{}
	for r := 0; r < rounds; r++ {
		if r > 0 {
			g.advance(time.Duration(window) * time.Minute)
		}
		ms := byRound[order[r]]
		g.run(ms, conc, func(m match, rec func(time.Duration)) {
			g.ready(m, m.p1, rec)
			g.ready(m, m.p2, rec)
		})
		nonces := map[int64]string{}
		for _, m := range g.adminMatches(slug) {
			if m.SessionNonce != nil {
				nonces[m.ID] = *m.SessionNonce
			}
		}
		for i := range ms {
			ms[i].nonce = nonces[ms[i].id]
			want[ms[i].id] = ms[i]
		}
		server0, self0 := g.cpuTimes()
		l, elapsed := g.run(ms, conc, func(m match, rec func(time.Duration)) {
			res, hash := result(m.id, m.nonce, winnerOf(m), scoreOf(m))
			g.submit(m, m.p1, res, hash, "pending", rec)
			g.submit(m, m.p2, res, hash, "confirmed", rec)
		})
		server1, self1 := g.cpuTimes()
		serverCPU, selfCPU = serverCPU+server1-server0, selfCPU+self1-self0
		lat = append(lat, l...)
		timed += elapsed
		submitted += 2 * len(ms)
	}
	rate := report("submissions", submitted, timed, lat, 1)
	if g.pid != 0 {
		per := func(d time.Duration) float64 { return float64(d.Microseconds()) / float64(submitted) }
		fmt.Printf("submissions CPU  server %.0f µs, load generator %.0f µs per submission (%.2f cores busy of the timed %s)\n",
			per(serverCPU), per(selfCPU), (serverCPU+selfCPU).Seconds()/timed.Seconds(), timed.Round(time.Millisecond))
	}

	// Read every match back: confirmed by the game client with the winner
	// both sides named, and both sides' stored results the bytes sent.
	var checks []match
	for _, m := range want {
		checks = append(checks, m)
	}
	var wrong atomic.Int64
	g.run(checks, conc, func(w match, rec func(time.Duration)) {
		var got struct {
			adminMatch
			Submissions []struct {
				Side       int    `json:"side"`
				Result     string `json:"result"`
				ResultHash string `json:"resultHash"`
			} `json:"submissions"`
		}
		g.admincall("GET", fmt.Sprintf("/api/v1/admin/matches/%d", w.id), nil, &got)
		res, hash := result(w.id, w.nonce, winnerOf(w), scoreOf(w))
		ok := got.Status == "confirmed" && got.Winner != nil && *got.Winner == winnerOf(w) &&
			got.ResultSource != nil && *got.ResultSource == "game_client" && len(got.Submissions) == 2
		for _, sub := range got.Submissions {
			ok = ok && sub.Result == res && sub.ResultHash == hash
		}
		if !ok {
			if wrong.Add(1) <= 5 {
				fmt.Fprintf(os.Stderr, "loadgen: match %d read back wrong: status %s, winner %v, source %v, %d submissions\n",
					w.id, got.Status, deref(got.Winner), deref(got.ResultSource), len(got.Submissions))
			}
		}
	})
	fmt.Printf("loadgen: read back %d matches: %d wrong\n", len(checks), wrong.Load())
	g.failures.Add(wrong.Load())
	return rate
}

// winnerOf is the side a match's submissions name the winner: p1 for
// even ids, p2 for odd ones.
func winnerOf(m match) string {
	if m.id%2 == 0 {
		return m.p1
	}
	return m.p2
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

// scoreOf is the game's own score in a match's result (the service stores
// it verbatim, never reads it): 3-1 to the winner.
func scoreOf(m match) [2]int {
	if winnerOf(m) == m.p1 {
		return [2]int{3, 1}
	}
	return [2]int{1, 3}
}

func (g *gen) adminMatches(slug string) []adminMatch {
	var list struct {
		Matches []adminMatch `json:"matches"`
	}
	g.admincall("GET", "/api/v1/admin/tournaments/"+slug+"/matches", nil, &list)
	return list.Matches
}

// serviceNow is the server's clock (the dev clock may have been moved).
func (g *gen) serviceNow() time.Time {
	var out struct {
		Now time.Time `json:"now"`
	}
	g.admincall("POST", "/__dev/clock", map[string]any{"advanceSeconds": 0}, &out)
	return out.Now
}

// advance moves the server's dev clock forward by d.
func (g *gen) advance(d time.Duration) {
	g.admincall("POST", "/__dev/clock", map[string]any{"advanceSeconds": int64(d / time.Second)}, nil)
}
