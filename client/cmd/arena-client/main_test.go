package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
)

const (
	alice = "76561198000000001"
	bob   = "76561198000000002"
)

// newArena answers live-match with a 1v1 match 12 of alice and bob, or
// 204 when live is false, and accepts any result with status pending.
func newArena(t *testing.T, live bool) (*httptest.Server, *[]string) {
	var posted []string
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/v1/me/live-match", func(w http.ResponseWriter, r *http.Request) {
		if !live || r.Header.Get("Authorization") != "Platform MOCK:"+alice {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		_ = json.NewEncoder(w).Encode(map[string]any{
			"matchId": 12, "slot": 1, "sessionNonce": "n", "p1PlatformId": alice, "p2PlatformId": bob,
			"opponentPlatformId": bob, "p1Roster": []string{alice}, "p2Roster": []string{bob},
			"teamMinPlayers": 1, "teamMaxPlayers": 1, "resultProtocol": "svc.result.v3",
		})
	})
	mux.HandleFunc("GET /api/v1/me/upcoming-match", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("POST /api/v1/matches/{id}/result", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		posted = append(posted, string(body))
		_, _ = w.Write([]byte(`{"status":"pending","matchStatus":"awaiting_result"}`))
	})
	mux.HandleFunc("POST /api/v1/matches/{id}/ready", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusConflict)
		_, _ = w.Write([]byte(`{"error":"window_not_open"}`))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv, &posted
}

func TestRun(t *testing.T) {
	tests := []struct {
		name       string
		live       bool
		args       []string
		wantCode   int
		wantOut    string // substring of stdout
		wantErr    string // substring of stderr
		wantPosted int
	}{
		{name: "DiscoverNone", args: []string{"-as", alice, "discover"}, wantCode: 0, wantOut: "no live match"},
		{name: "DiscoverMatch", live: true, args: []string{"-as", alice, "discover"}, wantCode: 0, wantOut: `"sessionNonce": "n"`},
		{name: "UpcomingNone", args: []string{"-as", alice, "upcoming"}, wantCode: 0, wantOut: "no upcoming match"},
		{name: "ReadyRefused", args: []string{"-as", alice, "ready", "-match", "12"}, wantCode: 1, wantErr: "409 window_not_open"},
		{name: "ReadyNeedsMatch", args: []string{"-as", alice, "ready"}, wantCode: 2, wantErr: "-match is required"},
		{name: "Submit", live: true, wantCode: 0, wantPosted: 1,
			args:    []string{"-as", alice, "submit", "-opponent", bob, "-winner", alice, "-result", `{"score":[3,1],"big":12345678901234567890}`, "-role", "host"},
			wantOut: `result:     {"big":12345678901234567890,"matchId":12,"score":[3,1],"sessionNonce":"n","winner":"76561198000000001"}`},
		{name: "SubmitDraw", live: true, args: []string{"-as", alice, "submit", "-opponent", bob}, wantCode: 0, wantOut: "draw: nothing submitted"},
		{name: "SubmitNoMatch", args: []string{"-as", alice, "submit", "-opponent", bob, "-winner", alice}, wantCode: 1, wantErr: "no live match"},
		{name: "SubmitBadResult", live: true, args: []string{"-as", alice, "submit", "-winner", alice, "-result", `[1]`}, wantCode: 2, wantErr: "one JSON object"},
		{name: "MissingAs", args: []string{"discover"}, wantCode: 2, wantErr: "usage:"},
		{name: "UnknownCommand", args: []string{"-as", alice, "dance"}, wantCode: 2, wantErr: `unknown command "dance"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, posted := newArena(t, tt.live)
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), append([]string{"-base", srv.URL + "/"}, tt.args...), &stdout, &stderr)
			assert.Equal(t, tt.wantCode, code, "stderr: %s", stderr.String())
			assert.Contains(t, stdout.String(), tt.wantOut)
			assert.Contains(t, stderr.String(), tt.wantErr)
			assert.Len(t, *posted, tt.wantPosted)
		})
	}
}
