package openapitest_test

import (
	"net/http"
	"strings"
)

// example is one canned response of the fake server: what a conforming
// service answers to method and path.
type example struct {
	name   string
	method string
	path   string
	status int
	header http.Header // added to Content-Type: application/json when body is set
	body   string
}

// publicHeaders are the caching headers every public 200 carries.
func publicHeaders() http.Header {
	return http.Header{"Etag": {`"v1-abc123"`}, "Cache-Control": {"public, max-age=30"}}
}

// Realistic bodies, built from shared parts. fill replaces the
// placeholders below.
var fill = strings.NewReplacer(
	"$P1", `{"platformId":"76561198000000001","personaName":"Ada","avatarUrl":"https://avatars.example/ada.jpg"}`,
	"$P2", `{"platformId":"76561198000000002","personaName":"Bo","avatarUrl":""}`,
	"$T0", `"2026-10-01T00:00:00Z"`,
	"$T1", `"2026-10-11T18:00:00.5+02:00"`,
	"$MC", `{"id":7,"stage":"group","round":"Round 1","bracketSlot":null,"status":"confirmed","opensAt":"2026-10-11T18:00:00Z","closesAt":"2026-10-11T20:00:00Z","player1":{"platformId":"76561198000000001","personaName":"Ada","avatarUrl":""},"player2":{"platformId":"76561198000000002","personaName":"Bo","avatarUrl":""},"winner":{"platformId":"76561198000000001","personaName":"Ada","avatarUrl":""},"score":{"p1":2,"p2":0},"resultSource":"game_client"}`,
	"$MS", `{"id":9,"stage":"final","round":"Final","bracketSlot":"FINAL","status":"scheduled","opensAt":"2026-10-20T18:00:00Z","closesAt":"2026-10-20T20:00:00Z","player1":null,"player2":null,"winner":null,"score":null,"resultSource":null}`,
	"$ARENA", `{"slug":"demo","name":"Demo Arena","hosts":["demo.localhost","localhost"],"plan":"free","appIds":["480"],"identity":"arena","hasPublisherKey":false,"refereeEnabled":false,"gracePeriodSeconds":86400,"database":"file:arenas/demo.db","createdAt":"2026-11-01T12:00:00Z","updatedAt":"2026-11-01T12:00:00.123456789Z"}`,
	"$ADMINARENA", `{"slug":"demo","name":"Demo Arena","hosts":["demo.localhost","localhost"],"plan":"free","appIds":["480"],"identity":"arena","hasPublisherKey":false,"refereeEnabled":false,"gracePeriodSeconds":86400,"database":"file:arenas/demo.db","rateLimits":{"anonymousPerMinute":60,"keyPerMinute":0},"createdAt":"2026-11-01T12:00:00Z","updatedAt":"2026-11-01T12:00:00Z"}`,
	"$AMATCH", `{"id":7,"stage":"playoff","round":"Semifinals","bracketSlot":"SF1","status":"confirmed","p1PlatformId":"76561198000000001","p2PlatformId":"76561198000000002","opensAt":"2026-10-11T18:00:00Z","closesAt":"2026-10-11T20:00:00Z","sessionNonce":"n0nce","winner":"76561198000000001","score":{"p1":1,"p2":0}}`,
)

const summaryJSON = `"slug":"autumn-cup","name":"Autumn Cup","description":"Weekly cup","format":"groups_playoffs","registrationOpensAt":$T0,"registrationClosesAt":$T0,"startsAt":$T1,"maxPlayers":16`

const detailJSON = `"playerCount":2,"players":[$P1,$P2],
	"groups":[{"name":"Group A","standings":[
		{"rank":1,"player":$P1,"played":1,"wins":1,"losses":0,"scoreDiff":2,"points":3,"separatedBy":"points"},
		{"rank":2,"player":$P2,"played":1,"wins":0,"losses":1,"scoreDiff":-2,"points":0,"separatedBy":""}],
		"matches":[$MC]}],
	"bracket":[{"label":"Semifinals","side":"left","matches":[$MC]},{"label":"Final","side":"center","matches":[$MS]}],
	"podium":[{"rank":1,"player":$P1}]`

const adminFieldsJSON = `"id":3,"environment":"demo","season":"2026-autumn","teamMinPlayers":1,"teamMaxPlayers":1,"groupCount":2,"advancePerGroup":2,"smallFinal":true,"matchWindowMinutes":120,"cast":{"handMode":"delayed","delaySeconds":120},"allowSpectators":true`

const liveMatchJSON = `{"matchId":7,"gameSeed":3735928559,"slot":1,"sessionNonce":"9f2c1e","p1PlatformId":"76561198000000001","p2PlatformId":"76561198000000002","opponentPlatformId":"76561198000000002","tournament":{"slug":"autumn-cup","name":"Autumn Cup"},"windowClosesAt":"2026-10-11T20:00:00Z","allowSpectators":true,"cast":{"handMode":"hidden","delaySeconds":0},"casters":[{"platformId":"76561198000000003","streamUrl":"https://twitch.tv/caster","source":"community"}],"casterPlatformId":"76561198000000003","streamUrl":"https://twitch.tv/caster","p1Roster":["76561198000000001"],"p2Roster":["76561198000000002"],"teamMinPlayers":1,"teamMaxPlayers":1,"resultProtocol":"svc.result.v3","refereeM0":{"enabled":true,"consentComplete":false,"traceProtocol":"svc.gameplay.v1","captureProtocol":"svc.capture.v1"}}`

// conformingExamples answer every documented operation at least once,
// with bodies a conforming service may send.
func conformingExamples() []example {
	seasonJSON := `{"slug":"2026-autumn","name":"Autumn 2026","startsAt":"2026-09-01T00:00:00Z","endsAt":"2026-12-01T00:00:00Z"}`
	return []example{
		{"health", "GET", "/healthz", 200, nil, `{"status":"ok"}`},
		{"meta", "GET", "/api/v1", 200, publicHeaders(), `{"api":"arena","version":"1","tenant":{"slug":"demo","name":"Demo Arena"},"authenticated":false,"endpoints":["GET /api/v1","GET /api/v1/tournaments"],"futureField":{"x":1}}`},
		{"meta not modified", "GET", "/api/v1", 304, publicHeaders(), ``},
		{"openapi document", "GET", "/api/v1/openapi.json", 200, publicHeaders(), `{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{}}`},
		{"tournaments", "GET", "/api/v1/tournaments", 200, publicHeaders(), `{"tournaments":[{` + summaryJSON + `,"status":"registration_open"}]}`},
		{"tournament", "GET", "/api/v1/tournaments/autumn-cup", 200, publicHeaders(), `{` + summaryJSON + `,"status":"playoffs",` + detailJSON + `}`},
		{"tournament not found", "GET", "/api/v1/tournaments/nope", 404, nil, `{"error":"tournament_not_found"}`},
		{"ladder", "GET", "/api/v1/ladder", 200, publicHeaders(), `{"season":` + seasonJSON + `,"seasons":[` + seasonJSON + `],"ladder":[{"rank":1,"player":$P1,"points":170,"tournaments":2}]}`},
		{"ladder all seasons", "GET", "/api/v1/ladder?season=all", 200, publicHeaders(), `{"season":{"slug":"all","name":"All seasons","startsAt":null,"endsAt":null},"seasons":[],"ladder":[]}`},
		{"ladder without season", "GET", "/api/v1/ladder", 200, publicHeaders(), `{"season":null,"seasons":[],"ladder":[]}`},
		{"ladder rate limited", "GET", "/api/v1/ladder", 429, http.Header{"Retry-After": {"12"}, "Ratelimit-Limit": {"60"}, "Ratelimit-Remaining": {"0"}, "Ratelimit-Reset": {"12"}}, `{"error":"rate_limited"}`},
		{"player", "GET", "/api/v1/players/76561198000000001", 200, publicHeaders(), `{"player":$P1,"stats":{"matchesPlayed":3,"wins":2,"losses":1,"winRate":67,"trophies":[{"rank":1,"tournamentId":3,"tournament":{"slug":"autumn-cup","name":"Autumn Cup"}}]}}`},
		{"player bad id", "GET", "/api/v1/players/123", 400, nil, `{"error":"invalid_steam_id"}`},

		{"create arena", "POST", "/api/v1/operator/arenas", 201, nil, `{"arena":$ARENA,"adminToken":"admkey_0123abcd_c2VjcmV0LXNlY3JldC1zZWNyZXQ"}`},
		{"create arena host taken", "POST", "/api/v1/operator/arenas", 409, nil, `{"error":"host_taken","field":"hosts"}`},
		{"create arena provisioning failed", "POST", "/api/v1/operator/arenas", 502, nil, `{"error":"provisioning_failed"}`},
		{"list arenas", "GET", "/api/v1/operator/arenas", 200, nil, `{"arenas":[$ARENA]}`},

		{"settings", "PUT", "/api/v1/admin/settings", 200, nil, `{"arena":$ADMINARENA,"placementPoints":{"tiers":[{"through":1,"points":100},{"through":2,"points":70}],"played":5}}`},
		{"season", "POST", "/api/v1/admin/seasons", 201, nil, seasonJSON},
		{"create tournament", "POST", "/api/v1/admin/tournaments", 201, nil, `{` + summaryJSON + `,"status":"draft","playerCount":0,"players":[],"groups":[],"bracket":[],"podium":[],` + adminFieldsJSON + `}`},
		{"admin tournament", "GET", "/api/v1/admin/tournaments/autumn-cup", 200, nil, `{` + summaryJSON + `,"status":"playoffs",` + detailJSON + `,` + adminFieldsJSON + `}`},
		{"tournament status", "POST", "/api/v1/admin/tournaments/autumn-cup/status", 200, nil, `{` + summaryJSON + `,"status":"registration_open","playerCount":0,"players":[],"groups":[],"bracket":[],"podium":[],` + strings.Replace(adminFieldsJSON, `"season":"2026-autumn"`, `"season":null`, 1) + `}`},
		{"tournament status illegal", "POST", "/api/v1/admin/tournaments/autumn-cup/status", 409, nil, `{"error":"invalid_transition"}`},
		{"registration", "POST", "/api/v1/admin/tournaments/autumn-cup/registrations", 201, nil, `{"registration":{"platformId":"76561198000000001","personaName":"Ada","seed":null,"roster":[],"registeredAt":"2026-10-02T10:00:00Z"}}`},
		{"registration full", "POST", "/api/v1/admin/tournaments/autumn-cup/registrations", 409, nil, `{"error":"tournament_full"}`},
		{"matches", "GET", "/api/v1/admin/tournaments/autumn-cup/matches", 200, nil, `{"matches":[$AMATCH,{"id":9,"stage":"final","round":"Final","bracketSlot":"FINAL","status":"scheduled","p1PlatformId":null,"p2PlatformId":null,"opensAt":"2026-10-20T18:00:00Z","closesAt":"2026-10-20T20:00:00Z"}]}`},
		{"reschedule", "PATCH", "/api/v1/admin/matches/7", 200, nil, `$AMATCH`},
		{"resolve", "POST", "/api/v1/admin/matches/7/resolve", 200, nil, `$AMATCH`},
		{"resolve twice", "POST", "/api/v1/admin/matches/7/resolve", 409, nil, `{"error":"already_resolved"}`},
		{"admin match", "GET", "/api/v1/admin/matches/7", 200, nil, `{"id":7,"stage":"playoff","round":"Semifinals","bracketSlot":"SF1","status":"disputed","p1PlatformId":"76561198000000001","p2PlatformId":"76561198000000002","opensAt":"2026-10-11T18:00:00Z","closesAt":"2026-10-11T20:00:00Z","sessionNonce":"n0nce","winner":null,"score":null,"submissions":[{"matchId":7,"side":1,"submitterId":"76561198000000001","appId":"480","result":"{\"matchId\":7,\"sessionNonce\":\"n0nce\",\"winner\":\"76561198000000001\"}","resultHash":"` + strings.Repeat("ab", 32) + `","winner":"76561198000000001","winnerSide":"76561198000000001","clientRole":"host","endedAt":"2026-10-11T18:40:00Z","receivedAt":"2026-10-11T18:41:00Z"}]}`},
		{"admin queue", "GET", "/api/v1/admin/queue", 200, nil, `{"matches":[$AMATCH]}`},
		{"create api key", "POST", "/api/v1/admin/api-keys", 201, nil, `{"id":"0a1b2c3d","key":"apikey_0a1b2c3d_s3cr3t-Value_x","label":"stats site","createdAt":"2026-11-01T12:00:00Z"}`},
		{"list api keys", "GET", "/api/v1/admin/api-keys", 200, nil, `{"apiKeys":[{"id":"0a1b2c3d","label":"stats site","createdAt":"2026-11-01T12:00:00Z","revokedAt":null},{"id":"ffffffff","label":"old","createdAt":"2026-10-01T12:00:00Z","revokedAt":"2026-10-02T12:00:00Z"}]}`},
		{"revoke api key", "DELETE", "/api/v1/admin/api-keys/0a1b2c3d", 204, nil, ``},
		{"add domain", "POST", "/api/v1/admin/domains", 201, nil, `{"hostname":"play.example.com","status":"pending","sslStatus":"pending_validation","active":false,"verification":[{"type":"TXT","name":"_cf-custom-hostname.play.example.com","value":"5a1e"}],"createdAt":"2026-11-01T12:00:00Z","updatedAt":"2026-11-01T12:00:00Z"}`},
		{"domain taken", "POST", "/api/v1/admin/domains", 409, nil, `{"error":"host_taken"}`},
		{"list domains", "GET", "/api/v1/admin/domains", 200, nil, `{"domains":[{"hostname":"play.example.com","status":"active","sslStatus":"active","active":true,"verification":[],"createdAt":"2026-11-01T12:00:00Z","updatedAt":"2026-11-01T12:05:00Z"}]}`},
		{"delete domain", "DELETE", "/api/v1/admin/domains/play.example.com", 204, nil, ``},
		{"admin unauthorized", "GET", "/api/v1/admin/api-keys", 401, nil, `{"error":"unauthorized"}`},
		{"unknown arena", "GET", "/api/v1/admin/api-keys", 404, nil, `{"error":"arena_not_found"}`},

		{"live match", "GET", "/api/v1/me/live-match", 200, nil, liveMatchJSON},
		{"no live match", "GET", "/api/v1/me/live-match", 204, nil, ``},
		{"upcoming match", "GET", "/api/v1/me/upcoming-match", 200, nil, `{"matchId":7,"slot":2,"opponentPlatformId":"76561198000000001","opponentName":"Ada","tournament":{"slug":"autumn-cup","name":"Autumn Cup"},"windowOpensAt":"2026-10-11T18:00:00Z","windowClosesAt":"2026-10-11T20:00:00Z","windowOpen":false,"selfReady":false,"opponentReady":true}`},
		{"no upcoming match", "GET", "/api/v1/me/upcoming-match", 204, nil, ``},
		{"ready", "POST", "/api/v1/matches/7/ready", 200, nil, `{"status":"live","live":true,"opponentReady":true}`},
		{"ready too early", "POST", "/api/v1/matches/7/ready", 409, nil, `{"error":"window_not_open"}`},
		{"result", "POST", "/api/v1/matches/7/result", 200, nil, `{"status":"pending","matchStatus":"awaiting_result"}`},
		{"result mismatch", "POST", "/api/v1/matches/7/result", 422, nil, `{"error":"hash_mismatch"}`},
		{"result no ticket", "POST", "/api/v1/matches/7/result", 401, nil, `{"error":"missing_ticket"}`},
		{"consent", "POST", "/api/v1/me/referee-consent", 200, nil, `{"granted":true}`},

		{"mock sign-in", "POST", "/auth/mock", 303, http.Header{"Location": {"/"}, "Set-Cookie": {"arena_session=abc.def; Path=/; HttpOnly; SameSite=Lax"}}, ``},
		{"mock sign-in refused", "POST", "/auth/mock", 422, http.Header{"Content-Type": {"text/html; charset=utf-8"}}, `<!DOCTYPE html><p>Enter 17 digits.</p>`},

		{"dev clock", "POST", "/__dev/clock", 200, nil, `{"now":"2026-11-01T13:00:00Z"}`},
		{"dev tick", "POST", "/__dev/tick", 200, nil, `{"ranAt":"2026-11-01T13:00:00Z","arenas":1,"failed":[],"jobs":{"grace":1}}`},
		{"dev stream live", "POST", "/__dev/stream-live", 200, nil, `{"live":["alice","bob"]}`},
		{"dev off", "POST", "/__dev/tick", 404, nil, `{"error":"not_found"}`},
	}
}

// exampleHeader names the example a request to fakeServer wants.
const exampleHeader = "X-Example"

// fakeServer answers a request with the example its X-Example header
// names, when method and path (query included) fit it.
func fakeServer(examples []example) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for _, ex := range examples {
			if ex.name != r.Header.Get(exampleHeader) || ex.method != r.Method || ex.path != r.URL.RequestURI() {
				continue
			}
			for k, vs := range ex.header {
				w.Header()[k] = vs
			}
			if ex.body != "" && w.Header().Get("Content-Type") == "" {
				w.Header().Set("Content-Type", "application/json")
			}
			w.WriteHeader(ex.status)
			_, _ = w.Write([]byte(fill.Replace(ex.body)))
			return
		}
		http.Error(w, "no example", http.StatusTeapot)
	})
}
