package server_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"

	"arena/worker/arenatest"
)

// BenchmarkSubmitResult: both sides' result submissions of one live match
// per op, 16 goroutines per CPU, through the whole handler in process (no
// network), on playoffs matches made live beforehand. ns/op is the
// server's time per match (two submissions).
func BenchmarkSubmitResult(b *testing.B) {
	a := arenatest.New(b, arenatest.Options{NoSite: true, InProcess: true, NoRateLimits: true})
	type live struct {
		id            int64
		p1, p2, nonce string
	}
	var matches []live
	for cup := 0; len(matches) < b.N; cup++ {
		slug := fmt.Sprintf("bench-%d", cup)
		players := make([]string, 512)
		for i := range players {
			players[i] = fmt.Sprintf("7656119%05d%05d", cup, i)
		}
		a.OpenCup(b, arenatest.Cup{Slug: slug, MaxPlayers: 512, Players: players, Fields: map[string]any{"matchWindowMinutes": 600}})
		a.SetStatus(b, slug, "registration_closed", "playoffs")
		for _, m := range a.Playable(b, slug) {
			a.Game(b, http.MethodPost, fmt.Sprintf("/api/v1/matches/%d/ready", m.ID), *m.P1, nil, http.StatusOK)
			a.Game(b, http.MethodPost, fmt.Sprintf("/api/v1/matches/%d/ready", m.ID), *m.P2, nil, http.StatusOK)
		}
		for _, m := range a.Matches(b, slug) {
			if m.SessionNonce != "" && m.Status == "live" {
				matches = append(matches, live{m.ID, *m.P1, *m.P2, m.SessionNonce})
			}
		}
	}
	var next atomic.Int64
	b.SetParallelism(16)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			m := matches[next.Add(1)-1]
			res := fmt.Sprintf(`{"matchId":%d,"score":[3,1],"sessionNonce":%q,"winner":%q}`, m.id, m.nonce, m.p1)
			sum := sha256.Sum256([]byte(res))
			body := map[string]any{"protocol": "svc.result.v3", "result": res, "resultHash": hex.EncodeToString(sum[:]), "clientRole": "host"}
			path := fmt.Sprintf("/api/v1/matches/%d/result", m.id)
			if out := a.Game(b, http.MethodPost, path, m.p1, body, http.StatusOK); out["status"] != "pending" {
				b.Errorf("match %d: first side %v", m.id, out)
			}
			if out := a.Game(b, http.MethodPost, path, m.p2, body, http.StatusOK); out["status"] != "confirmed" {
				b.Errorf("match %d: second side %v", m.id, out)
			}
		}
	})
}
