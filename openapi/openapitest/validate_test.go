package openapitest_test

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"arena/openapi/openapitest"
)

var jsonHeader = http.Header{"Content-Type": {"application/json; charset=utf-8"}}

func TestValidateResponse(t *testing.T) {
	t.Run("Conforming", func(t *testing.T) {
		log := &failureLog{TB: t}
		openapitest.ValidateResponse(log, "GET", "/healthz", 200, jsonHeader, []byte(`{"status":"ok"}`+"\n"))
		if got := log.failures(); len(got) != 0 {
			t.Errorf("conforming response failed: %q", got)
		}
	})
	t.Run("NamesThePointer", func(t *testing.T) {
		log := &failureLog{TB: t}
		body := `{"player":{"platformId":"76561198000000001","personaName":"Ada","avatarUrl":""},` +
			`"stats":{"matchesPlayed":1,"wins":1,"losses":0,"winRate":100,"trophies":[{"rank":"1","tournamentId":3,"tournament":{"slug":"cup","name":"Cup"}}]}}`
		openapitest.ValidateResponse(log, "GET", "/api/v1/players/76561198000000001", 200,
			http.Header{"Content-Type": {"application/json"}, "Etag": {`"x"`}, "Cache-Control": {"no-cache"}}, []byte(body))
		got := log.failures()
		if len(got) != 1 {
			t.Fatalf("want 1 failure, got %q", got)
		}
		for _, want := range []string{"GET /api/v1/players/76561198000000001 (getPlayer, /api/v1/players/{platformId}) answered 200",
			"at /stats/trophies/0/rank: got string, want integer", "body: {"} {
			if !strings.Contains(got[0], want) {
				t.Errorf("failure does not mention %q:\n%s", want, got[0])
			}
		}
	})
	t.Run("NilHeader", func(t *testing.T) {
		log := &failureLog{TB: t}
		openapitest.ValidateResponse(log, "GET", "/healthz", 200, nil, []byte(`{"status":"ok"}`))
		if got := log.failures(); len(got) != 1 || !strings.Contains(got[0], `Content-Type "": want application/json`) {
			t.Errorf("want a missing Content-Type reported, got %q", got)
		}
	})
}

func TestCheckResponseFindsTheOperation(t *testing.T) {
	cases := []struct {
		name, method, path string
		status             int
		header             http.Header
		body               string
		wantID             string
	}{
		{"Root", "GET", "/api/v1", 304, http.Header{"Etag": {`"a"`}, "Cache-Control": {"no-cache"}}, "", "getMeta"},
		{"Template", "GET", "/api/v1/tournaments/spring-cup", 404, jsonHeader, `{"error":"tournament_not_found"}`, "getTournament"},
		{"QueryIgnored", "GET", "/api/v1/ladder?season=all", 404, jsonHeader, `{"error":"arena_not_found"}`, "getLadder"},
		{"LowerCaseMethod", "post", "/api/v1/matches/12/result", 401, jsonHeader, `{"error":"missing_ticket"}`, "submitResult"},
		{"NonIntegerIdStillRoutes", "POST", "/api/v1/matches/abc/ready", 404, jsonHeader, `{"error":"match_not_found"}`, "markReady"},
		{"DeepTemplate", "POST", "/api/v1/admin/tournaments/cup/registrations", 422, jsonHeader, `{"error":"invalid_roster","field":"roster"}`, "createRegistration"},
		{"Patch", "PATCH", "/api/v1/admin/matches/3", 409, jsonHeader, `{"error":"already_resolved"}`, "updateMatch"},
		{"Delete", "DELETE", "/api/v1/admin/api-keys/0a1b2c3d", 204, nil, "", "revokeApiKey"},
		{"HeadFallsBackToGetWithoutBody", "HEAD", "/api/v1/tournaments", 200, http.Header{"Content-Type": {"application/json"}, "Etag": {`"a"`}, "Cache-Control": {"no-cache"}}, "", "listTournaments"},
		{"Dev", "POST", "/__dev/clock", 422, jsonHeader, `{"error":"unknown_field","field":"advance"}`, "devAdvanceClock"},
		{"Operator", "POST", "/api/v1/operator/arenas", 422, jsonHeader, `{"error":"database_unreachable","field":"databaseUrl"}`, "createArena"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			id, err := openapitest.CheckResponse(tc.method, tc.path, tc.status, tc.header, []byte(tc.body))
			if err != nil {
				t.Fatalf("CheckResponse: %v", err)
			}
			if id != tc.wantID {
				t.Errorf("operation %q, want %q", id, tc.wantID)
			}
		})
	}
}

func TestCheckResponseUndocumented(t *testing.T) {
	cases := []struct{ name, method, path string }{
		{"UnknownPath", "GET", "/api/v2"},
		{"TrailingSlash", "GET", "/api/v1/tournaments/"},
		{"EmptyParameter", "GET", "/api/v1/players/"},
		{"WrongMethod", "POST", "/api/v1/ladder"},
		{"ExtraSegment", "GET", "/api/v1/tournaments/cup/extra"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			id, err := openapitest.CheckResponse(tc.method, tc.path, 404, jsonHeader, []byte(`{"error":"not_found"}`))
			if !errors.Is(err, openapitest.ErrUndocumented) {
				t.Fatalf("CheckResponse = %q, %v; want ErrUndocumented", id, err)
			}
			if id != "" {
				t.Errorf("operation %q for an undocumented route", id)
			}
		})
	}
}
