package server_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// recordingFlows drives the recording, segment, trace, object-route and
// operator-PATCH operations, answers and errors, through the conformance
// recorder (p's handler).
func recordingFlows(t *testing.T, p *protocolEnv) {
	m := p.bracket(t, "recs", "rec", 2)[0]
	live := p.goLive(t, m)
	e := &recordingEnv{protocolEnv: p, match: m, live: live, p1: m["p1PlatformId"].(string), p2: m["p2PlatformId"].(string)}

	p.game(t, "POST", matchPath(m, "recording/init"), playerID(9), map[string]any{"scope": "full"}, "")
	p.game(t, "POST", matchPath(m, "recording/init"), e.p1, map[string]any{"scope": "x"}, "")
	init := e.initRecording(t, e.p1, "full")
	id := int64(init["recordingId"].(float64))
	rec := fmt.Sprintf("/api/v1/recordings/%d", id)
	target := init["upload"].(map[string]any)["url"].(string)
	p.game(t, "POST", rec+"/finalize", e.p1, nil, "") // upload_missing
	e.put(t, target, []byte("x"), "text/plain")       // invalid_signature
	e.put(t, target, []byte("not gzip"), "application/gzip")
	p.game(t, "POST", rec+"/finalize", e.p1, nil, "") // invalid_recording
	p.game(t, "POST", rec+"/segments/init", e.p2, map[string]any{"seq": 0}, "")
	status, _ := e.sendSegment(t, id, e.p1, 0, e.segment(t, "full", 0, nil))
	require.Equal(t, 200, status)
	p.game(t, "POST", rec+"/segments/9/finalize", e.p1, nil, "")
	p.game(t, "GET", rec+"/segments?after=-1", e.p2, nil, "")
	p.game(t, "GET", rec+"/segments?after=x", e.p2, nil, "")
	require.Equal(t, 204, e.put(t, target, e.replay(t, "full", nil), "application/gzip"))
	p.game(t, "POST", rec+"/finalize", e.p1, nil, "")
	e.put(t, target, []byte("swapped"), "application/gzip")                     // recording_finalized
	p.game(t, "POST", rec+"/segments/init", e.p1, map[string]any{"seq": 1}, "") // recording_ended
	p.game(t, "GET", rec, e.p2, nil, "")                                        // not released
	status, share := p.game(t, "POST", rec+"/share", e.p1, nil, "")
	require.Equal(t, 200, status)
	p.game(t, "POST", rec+"/share", e.p2, nil, "")
	p.game(t, "GET", rec, "", nil, "")                     // missing_ticket
	p.game(t, "GET", rec+"/segments?after=0", "", nil, "") // missing_ticket
	e.confirm(t)
	p.Now = p.Now.Add(2 * time.Minute) // past the cast delay
	status, fetched := p.game(t, "GET", rec, e.p1, nil, "")
	require.Equal(t, 200, status)
	e.get(t, fetched["url"].(string))
	e.get(t, target) // an upload URL is no download URL
	p.game(t, "GET", rec+"?token="+share["token"].(string), "", nil, "")
	p.game(t, "GET", "/api/v1/recordings/999", e.p1, nil, "")
	p.game(t, "GET", "/api/v1/me/recordings", e.p1, nil, "")
	p.game(t, "POST", "/api/v1/me/recordings/init", e.p1, map[string]any{"scope": "public"}, "")
	p.mustDo(t, "PUT", "/api/v1/admin/settings", p.admin, map[string]any{"casualRecordingsPerDay": 1}, 200)
	p.game(t, "POST", "/api/v1/me/recordings/init", e.p1, map[string]any{"scope": "public"}, "") // quota

	p.game(t, "POST", matchPath(m, "gameplay-trace"), e.p1, map[string]any{"protocol": "svc.gameplay.v1", "slot": 1, "trace": "{}", "traceHash": "00"}, "")
	p.game(t, "POST", matchPath(m, "gameplay-trace"), playerID(9), map[string]any{"protocol": "svc.gameplay.v1"}, "")

	p.do(t, "PATCH", "ops.test", "/api/v1/operator/arenas/alpha", operatorToken, map[string]any{"plan": "studio"})
	p.do(t, "PATCH", "ops.test", "/api/v1/operator/arenas/alpha", operatorToken, map[string]any{"hosts": []string{"alpha.test", "x.test"}})
	p.do(t, "PATCH", "ops.test", "/api/v1/operator/arenas/alpha", operatorToken, map[string]any{"hosts": []string{}})
	p.do(t, "PATCH", "ops.test", "/api/v1/operator/arenas/nope", operatorToken, map[string]any{"plan": "studio"})
}
