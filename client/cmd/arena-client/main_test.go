package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
		stdin      string
		wantCode   int
		wantOut    string // stdout, exactly
		wantErr    string // substring of stderr
		wantPosted int
		wantBody   string // substring of the posted body
	}{
		{name: "DiscoverNone", args: []string{"-as", alice, "discover"}, wantOut: `{"none":true}`},
		{name: "LiveNone", args: []string{"--as", alice, "live"}, wantOut: `{"none":true}`},
		{name: "LiveMatch", live: true, args: []string{"--as", alice, "live"},
			wantOut: `{"matchId":12,"slot":1,"sessionNonce":"n","p1PlatformId":"76561198000000001","p2PlatformId":"76561198000000002","opponentPlatformId":"76561198000000002","tournament":{"slug":"","name":""},"windowClosesAt":"","allowSpectators":false,"cast":{"handMode":"","delaySeconds":0},"casters":null,"casterPlatformId":null,"streamUrl":null,"p1Roster":["76561198000000001"],"p2Roster":["76561198000000002"],"teamMinPlayers":1,"teamMaxPlayers":1,"resultProtocol":"svc.result.v3","game":0,"bestOf":0,"seriesScore":{"p1":0,"p2":0}}`},
		{name: "UpcomingNone", args: []string{"-as", alice, "upcoming"}, wantOut: `{"none":true}`},
		{name: "ReadyRefused", args: []string{"-as", alice, "ready", "-match", "12"}, wantCode: 1, wantOut: `{"error":"window_not_open"}`, wantErr: "409 window_not_open"},
		{name: "MatchLeadingZero", args: []string{"-as", alice, "ready", "-match", "012"}, wantCode: 2, wantOut: `{"error":"usage"}`, wantErr: "not a match id"},
		{name: "MatchHex", args: []string{"-as", alice, "submit", "--match", "0xc", "--opponent", bob, "--winner", alice}, wantCode: 2, wantOut: `{"error":"usage"}`, wantErr: "not a match id"},
		{name: "MatchSigned", args: []string{"canonical", "--match", "+12", "--nonce", "n", "--winner", alice}, wantCode: 2, wantOut: `{"error":"usage"}`, wantErr: "not a match id"},
		{name: "TitleLeadingZero", args: []string{"-as", alice, "volunteer", "-title", "010"}, wantCode: 2, wantOut: `{"error":"usage"}`, wantErr: "not a decimal number"},
		{name: "SeqOctal", args: []string{"-as", alice, "segments", "-recording", "3", "-seq", "010"}, wantCode: 2, wantOut: `{"error":"usage"}`, wantErr: "not a decimal number"},
		{name: "ReadyNeedsMatch", args: []string{"-as", alice, "ready"}, wantCode: 2, wantOut: `{"error":"usage"}`, wantErr: "--match is required"},
		{name: "Submit", live: true, wantPosted: 1, wantOut: `{"status":"pending","matchStatus":"awaiting_result"}`,
			args:     []string{"-as", alice, "submit", "-opponent", bob, "-winner", alice, "-result", `{"score":[3,1],"big":"12345678901234567890"}`, "-role", "host"},
			wantErr:  `result:     {"big":"12345678901234567890","matchId":12,"score":[3,1],"sessionNonce":"n","winner":"76561198000000001"}`,
			wantBody: `"clientRole":"host"`},
		{name: "SubmitStdinScoreMatch", live: true, wantPosted: 1, wantOut: `{"status":"pending","matchStatus":"awaiting_result"}`,
			args:     []string{"--as", alice, "submit", "--match", "12", "--opponent", bob, "--winner", alice, "--score", "3,1"},
			stdin:    `{"rounds":[{"w":1}],"é":"😀"}`,
			wantErr:  `result:     {"matchId":12,"rounds":[{"w":1}],"sessionNonce":"n","winner":"76561198000000001","é":"😀"}`,
			wantBody: `"score":{"p1":3,"p2":1}`},
		{name: "SubmitOtherMatch", live: true, args: []string{"--as", alice, "submit", "--match", "13", "--opponent", bob, "--winner", alice, "--result", "{}"},
			wantCode: 1, wantOut: `{"error":"match_mismatch"}`},
		{name: "SubmitBadScore", live: true, args: []string{"--as", alice, "submit", "--opponent", bob, "--winner", alice, "--score", "3"},
			wantCode: 2, wantOut: `{"error":"usage"}`, wantErr: "--score must be P1,P2"},
		{name: "SubmitDraw", live: true, args: []string{"-as", alice, "submit", "-opponent", bob, "-result", "{}"}, wantOut: `{"status":"draw"}`},
		{name: "SubmitNoMatch", args: []string{"-as", alice, "submit", "-opponent", bob, "-winner", alice, "-result", "{}"}, wantCode: 1, wantOut: `{"error":"no_live_match"}`},
		{name: "SubmitNotAnObject", live: true, args: []string{"-as", alice, "submit", "-opponent", bob, "-winner", alice, "-result", `[1]`},
			wantCode: 1, wantOut: `{"error":"not_object"}`},
		{name: "SubmitUnsafeInteger", live: true, args: []string{"-as", alice, "submit", "-opponent", bob, "-winner", alice},
			stdin: `{"replayId":9007199254740993}`, wantCode: 1, wantOut: `{"error":"unsafe_integer"}`},
		{name: "Canonical", args: []string{"canonical", "--match", "42", "--nonce", "nonce-abc", "--winner", alice}, stdin: `{"😀":1,"` + "\ue000" + `":2,"a":1.0}`,
			wantOut: `{"canonical":"{\"a\":1,\"matchId\":42,\"sessionNonce\":\"nonce-abc\",\"winner\":\"76561198000000001\",\"😀\":1,\"` + "\ue000" + `\":2}","sha256":"` +
				hashOf(`{"a":1,"matchId":42,"sessionNonce":"nonce-abc","winner":"76561198000000001","😀":1,"`+"\ue000"+`":2}`) + `"}`},
		{name: "CanonicalRefuses", args: []string{"canonical", "--match", "42", "--nonce", "n", "--winner", alice}, stdin: `{"a":1,"a":2}`,
			wantCode: 2, wantOut: `{"error":"duplicate_key"}`},
		{name: "CanonicalMissingNonce", args: []string{"canonical", "--match", "42", "--winner", alice}, stdin: `{}`,
			wantCode: 2, wantOut: `{"error":"invalid_nonce"}`},
		{name: "MissingAs", args: []string{"discover"}, wantCode: 2, wantErr: "usage:"},
		{name: "UnknownCommand", args: []string{"-as", alice, "dance"}, wantCode: 2, wantErr: `unknown command "dance"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, posted := newArena(t, tt.live)
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), append([]string{"-base", srv.URL + "/"}, tt.args...), strings.NewReader(tt.stdin), &stdout, &stderr)
			assert.Equal(t, tt.wantCode, code, "stderr: %s", stderr.String())
			if tt.wantOut != "" {
				assert.Equal(t, tt.wantOut+"\n", stdout.String())
			}
			assert.Contains(t, stderr.String(), tt.wantErr)
			require.Len(t, *posted, tt.wantPosted)
			if tt.wantBody != "" {
				assert.Contains(t, (*posted)[0], tt.wantBody)
			}
		})
	}
}

// TestCanonicalVectors runs the shared vectors through the canonical
// command, as the other clients' command lines are run.
func TestCanonicalVectors(t *testing.T) {
	data, err := os.ReadFile("../../testdata/vectors.json")
	require.NoError(t, err)
	var doc struct {
		Vectors []struct {
			Name, Input, SessionNonce, Winner, Canonical, SHA256, Refuse string
			MatchID                                                      int64
		}
	}
	require.NoError(t, json.Unmarshal(data, &doc))
	require.NotEmpty(t, doc.Vectors)
	for _, v := range doc.Vectors {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), []string{"canonical", "--match", strconv.FormatInt(v.MatchID, 10), "--nonce", v.SessionNonce, "--winner", v.Winner},
			strings.NewReader(v.Input), &stdout, &stderr)
		var out map[string]string
		require.NoError(t, json.Unmarshal(stdout.Bytes(), &out), v.Name)
		if v.MatchID <= 0 { // --match takes [1-9][0-9]* only: a usage error before any canonical form
			assert.Equal(t, 2, code, v.Name)
			assert.Equal(t, map[string]string{"error": "usage"}, out, v.Name)
			continue
		}
		if v.Refuse != "" {
			assert.Equal(t, 2, code, v.Name)
			assert.Equal(t, map[string]string{"error": v.Refuse}, out, v.Name)
			continue
		}
		assert.Equal(t, 0, code, v.Name)
		assert.Equal(t, map[string]string{"canonical": v.Canonical, "sha256": v.SHA256}, out, v.Name)
	}
}

func TestBackoffScale(t *testing.T) {
	t.Setenv("ARENA_CLIENT_BACKOFF_SCALE", "0")
	fails := 0
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/v1/me/live-match", func(w http.ResponseWriter, r *http.Request) {
		_ = json.NewEncoder(w).Encode(map[string]any{
			"matchId": 12, "slot": 1, "sessionNonce": "n", "p1PlatformId": alice, "p2PlatformId": bob,
			"opponentPlatformId": bob, "teamMaxPlayers": 1, "resultProtocol": "svc.result.v3",
		})
	})
	mux.HandleFunc("POST /api/v1/matches/{id}/result", func(w http.ResponseWriter, r *http.Request) {
		fails++
		w.WriteHeader(http.StatusServiceUnavailable)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	var stdout, stderr bytes.Buffer
	start := time.Now()
	code := run(context.Background(), []string{"--base", srv.URL, "--as", alice, "submit", "--opponent", bob, "--winner", alice, "--result", "{}"},
		strings.NewReader(""), &stdout, &stderr)
	assert.Equal(t, 1, code)
	assert.Equal(t, `{"error":"retries_exhausted"}`+"\n", stdout.String())
	assert.Equal(t, 3, fails)
	assert.Less(t, time.Since(start), 4*time.Second, "scale 0 must not wait the 4 s and 8 s backoffs")

	t.Setenv("ARENA_CLIENT_BACKOFF_SCALE", "fast")
	stdout.Reset()
	assert.Equal(t, 2, run(context.Background(), []string{"--base", srv.URL, "--as", alice, "live"}, strings.NewReader(""), &stdout, &stderr))
}

func hashOf(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// TestSubmitSeriesLine: in a series the submit line carries the game, the
// series' length and its score after the game; matchStatus scheduled
// says the series goes on. --game needs --match.
func TestSubmitSeriesLine(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/v1/me/live-match", func(w http.ResponseWriter, r *http.Request) {
		_ = json.NewEncoder(w).Encode(map[string]any{
			"matchId": 12, "slot": 1, "sessionNonce": "n-2", "p1PlatformId": alice, "p2PlatformId": bob,
			"opponentPlatformId": bob, "p1Roster": []string{alice}, "p2Roster": []string{bob},
			"teamMinPlayers": 1, "teamMaxPlayers": 1, "resultProtocol": "svc.result.v3",
			"game": 2, "bestOf": 3, "seriesScore": map[string]int{"p1": 1, "p2": 0},
		})
	})
	mux.HandleFunc("POST /api/v1/matches/{id}/result", func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`{"status":"confirmed","matchStatus":"scheduled"}`))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"--base", srv.URL, "--as", alice, "submit", "--match", "12", "--game", "2",
		"--opponent", bob, "--winner", bob, "--result", "{}"}, strings.NewReader(""), &stdout, &stderr)
	require.Equal(t, 0, code, stderr.String())
	assert.Equal(t, `{"status":"confirmed","matchStatus":"scheduled","game":2,"bestOf":3,"seriesScore":{"p1":1,"p2":1}}`+"\n", stdout.String())

	stdout.Reset()
	code = run(context.Background(), []string{"--base", srv.URL, "--as", alice, "submit", "--game", "2",
		"--opponent", bob, "--winner", bob, "--result", "{}"}, strings.NewReader(""), &stdout, &stderr)
	assert.Equal(t, 2, code)
	assert.Equal(t, `{"error":"usage"}`+"\n", stdout.String())
}
