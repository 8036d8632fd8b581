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
func liveHeaders() http.Header {
	return http.Header{"Content-Type": {"text/event-stream"}, "Cache-Control": {"no-store"}}
}

func textHeaders() http.Header {
	return http.Header{"Content-Type": {"text/plain; charset=utf-8"}, "Etag": {`"v1-abc123"`}, "Cache-Control": {"public, max-age=10"}}
}

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
	"$MC", `{"id":7,"stage":"group","round":"Round 1","bracketSlot":null,"status":"confirmed","opensAt":"2026-10-11T18:00:00Z","closesAt":"2026-10-11T20:00:00Z","player1":{"platformId":"76561198000000001","personaName":"Ada","avatarUrl":""},"player2":{"platformId":"76561198000000002","personaName":"Bo","avatarUrl":""},"winner":{"platformId":"76561198000000001","personaName":"Ada","avatarUrl":""},"score":{"p1":2,"p2":0},"resultSource":"game_client","bestOf":1,"seriesScore":{"p1":1,"p2":0},"games":[{"game":1,"status":"confirmed","winner":{"platformId":"76561198000000001","personaName":"Ada","avatarUrl":""},"resultSource":"game_client","score":{"p1":2,"p2":0},"decidedAt":"2026-10-11T18:40:00Z"}]}`,
	"$MS", `{"id":9,"stage":"final","round":"Final","bracketSlot":"FINAL","status":"scheduled","opensAt":"2026-10-20T18:00:00Z","closesAt":"2026-10-20T20:00:00Z","player1":null,"player2":null,"winner":null,"score":null,"resultSource":null,"bestOf":3,"seriesScore":{"p1":0,"p2":0},"games":[]}`,
	"$ARENA", `{"slug":"demo","name":"Demo Arena","hosts":["demo.localhost","localhost"],"plan":"free","appIds":["480"],"identity":"arena","hasPublisherKey":false,"refereeEnabled":false,"gracePeriodSeconds":86400,"database":"file:arenas/demo.db","defaultLocale":"en","createdAt":"2026-11-01T12:00:00Z","updatedAt":"2026-11-01T12:00:00.123456789Z"}`,
	"$ADMINARENA", `{"slug":"demo","name":"Demo Arena","hosts":["demo.localhost","localhost"],"plan":"free","appIds":["480"],"identity":"arena","hasPublisherKey":false,"refereeEnabled":false,"gracePeriodSeconds":86400,"database":"file:arenas/demo.db","rateLimits":{"anonymousPerMinute":60,"keyPerMinute":0},"defaultLocale":"en","createdAt":"2026-11-01T12:00:00Z","updatedAt":"2026-11-01T12:00:00Z"}`,
	"$REC", `{"id":3,"matchId":7,"game":1,"scope":"full","visibility":"arena","gameBuild":"1.2.3","durationMs":61000,"byteSize":183211,"state":"ready","uploaderPlatformId":"76561198000000001","createdAt":"2026-11-01T12:00:00Z","readyAt":"2026-11-01T12:01:00Z"}`,
	"$AMATCH", `{"id":7,"stage":"playoff","round":"Semifinals","bracketSlot":"SF1","status":"confirmed","p1PlatformId":"76561198000000001","p2PlatformId":"76561198000000002","opensAt":"2026-10-11T18:00:00Z","closesAt":"2026-10-11T20:00:00Z","sessionNonce":"n0nce","winner":"76561198000000001","score":{"p1":1,"p2":0},"bestOf":1,"seriesScore":{"p1":1,"p2":0},"games":[{"game":1,"status":"confirmed","winner":"76561198000000001","resultSource":"admin","score":{"p1":1,"p2":0},"decidedAt":"2026-10-11T19:00:00Z"}]}`,
)

const summaryJSON = `"slug":"autumn-cup","name":"Autumn Cup","description":"Weekly cup","format":"groups_playoffs","registrationOpensAt":$T0,"registrationClosesAt":$T0,"startsAt":$T1,"maxPlayers":16`

const detailJSON = `"playerCount":2,"checkInMinutes":0,"bestOf":1,"groupBestOf":1,"finalBestOf":3,"pacing":"scheduled","gracePeriodMinutes":0,"players":[$P1,$P2],
	"groups":[{"name":"Group A","standings":[
		{"rank":1,"player":$P1,"played":1,"wins":1,"losses":0,"scoreDiff":2,"points":3,"separatedBy":"points"},
		{"rank":2,"player":$P2,"played":1,"wins":0,"losses":1,"scoreDiff":-2,"points":0,"separatedBy":""}],
		"matches":[$MC]}],
	"bracket":[{"label":"Semifinals","side":"left","matches":[$MC]},{"label":"Final","side":"center","matches":[$MS]}],
	"podium":[{"rank":1,"player":$P1}]`

const adminFieldsJSON = `"id":3,"environment":"demo","season":"2026-autumn","teamMinPlayers":1,"teamMaxPlayers":1,"groupCount":2,"advancePerGroup":2,"smallFinal":true,"matchWindowMinutes":120,"cast":{"handMode":"delayed","delaySeconds":120},"allowSpectators":true,"swissRounds":0,"topCut":0,"seedFromRatings":false`

const liveMatchJSON = `{"matchId":7,"gameSeed":3735928559,"slot":1,"sessionNonce":"9f2c1e","p1PlatformId":"76561198000000001","p2PlatformId":"76561198000000002","opponentPlatformId":"76561198000000002","tournament":{"slug":"autumn-cup","name":"Autumn Cup"},"windowClosesAt":"2026-10-11T20:00:00Z","allowSpectators":true,"cast":{"handMode":"hidden","delaySeconds":0},"casters":[{"platformId":"76561198000000003","streamUrl":"https://twitch.tv/caster","source":"community"}],"casterPlatformId":"76561198000000003","streamUrl":"https://twitch.tv/caster","p1Roster":["76561198000000001"],"p2Roster":["76561198000000002"],"teamMinPlayers":1,"teamMaxPlayers":1,"resultProtocol":"svc.result.v3","game":2,"bestOf":3,"seriesScore":{"p1":1,"p2":0},"refereeM0":{"enabled":true,"consentComplete":false,"traceProtocol":"svc.gameplay.v1","captureProtocol":"svc.capture.v1"}}`

const heldTitleJSON = `{"id":1,"slug":"world","name":"World Title","environment":"demo","holder":$P1,"reign":{"since":$T0,"defenses":1},"clockExpiresAt":"2026-10-03T00:00:00Z","pendingChallenge":{"id":4,"challenger":$P2,"at":$T1,"status":"pending"},"match":null,"volunteers":[],"lineage":[{"player":$P2,"since":"2026-09-20T00:00:00Z","until":"2026-09-25T00:00:00Z","defenses":0,"ended":"stripped"},{"player":$P1,"since":$T0,"until":null,"defenses":1,"ended":null}],"retiredAt":null,"bestOf":1}`

const vacantTitleJSON = `{"id":2,"slug":"rookie-belt","name":"Rookie Belt","environment":"rec","holder":null,"reign":null,"clockExpiresAt":null,"pendingChallenge":null,"match":{"id":9,"kind":"coronation","status":"scheduled","player1":$P1,"player2":$P2,"opensAt":$T0,"closesAt":"2026-10-03T00:00:00Z"},"volunteers":[{"player":$P1,"at":$T0},{"player":$P2,"at":$T0}],"lineage":[],"retiredAt":null,"bestOf":1}`

const challengeJSON = `{"id":4,"titleId":1,"challenger":$P2,"holder":$P1,"status":"pending","at":$T1,"respondedAt":null,"matchId":null}`

// conformingExamples answer every documented operation at least once,
// with bodies a conforming service may send.
func conformingExamples() []example {
	seasonJSON := `{"slug":"2026-autumn","name":"Autumn 2026","startsAt":"2026-09-01T00:00:00Z","endsAt":"2026-12-01T00:00:00Z"}`
	return []example{
		{"health", "GET", "/healthz", 200, nil, `{"status":"ok"}`},
		{"meta", "GET", "/api/v1", 200, publicHeaders(), `{"api":"arena","version":"1","tenant":{"slug":"demo","name":"Demo Arena"},"authenticated":false,"endpoints":["GET /api/v1","GET /api/v1/tournaments"],"log":{"publicKey":"11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=","origin":"arena.example/log","verifierKey":"arena.example/log+0a1b2c3d+AdWqmAGCsQq31Uv+08lkDjoO4XLz2qYjJa8CGmj3B1Ea"},"futureField":{"x":1}}`},
		{"meta not modified", "GET", "/api/v1", 304, publicHeaders(), ``},
		{"openapi document", "GET", "/api/v1/openapi.json", 200, publicHeaders(), `{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{}}`},
		{"tournaments", "GET", "/api/v1/tournaments", 200, publicHeaders(), `{"tournaments":[{` + summaryJSON + `,"status":"registration_open"}]}`},
		{"tournament", "GET", "/api/v1/tournaments/autumn-cup", 200, publicHeaders(), `{` + summaryJSON + `,"status":"playoffs",` + detailJSON + `}`},
		{"tournament not found", "GET", "/api/v1/tournaments/nope", 404, nil, `{"error":"tournament_not_found"}`},
		{"ladder", "GET", "/api/v1/ladder", 200, publicHeaders(), `{"season":` + seasonJSON + `,"seasons":[` + seasonJSON + `],"ladder":[{"rank":1,"player":$P1,"points":170,"tournaments":2}]}`},
		{"ladder all seasons", "GET", "/api/v1/ladder?season=all", 200, publicHeaders(), `{"season":{"slug":"all","name":"All seasons","startsAt":null,"endsAt":null},"seasons":[],"ladder":[]}`},
		{"ladder without season", "GET", "/api/v1/ladder", 200, publicHeaders(), `{"season":null,"seasons":[],"ladder":[]}`},
		{"ladder rate limited", "GET", "/api/v1/ladder", 429, http.Header{"Retry-After": {"12"}, "Ratelimit-Limit": {"60"}, "Ratelimit-Remaining": {"0"}, "Ratelimit-Reset": {"12"}}, `{"error":"rate_limited"}`},
		{"player", "GET", "/api/v1/players/76561198000000001", 200, publicHeaders(), `{"player":$P1,"stats":{"matchesPlayed":3,"wins":2,"losses":1,"winRate":67,"trophies":[{"rank":1,"tournamentId":3,"tournament":{"slug":"autumn-cup","name":"Autumn Cup"}}]},"rating":{"rating":1464.05,"deviation":151.52,"volatility":0.059996,"matches":3}}`},
		{"player bad id", "GET", "/api/v1/players/123", 400, nil, `{"error":"invalid_steam_id"}`},
		{"events", "GET", "/api/v1/events?after=0&limit=2", 200, publicHeaders(), `{"events":[{"seq":1,"at":"2026-10-01T12:00:00.000Z","type":"tournament.status","tournament":"autumn-cup","matchId":null,"data":{"from":"draft","to":"registration_open"},"prevHash":"0000000000000000000000000000000000000000000000000000000000000000","hash":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"},{"seq":2,"at":"2026-10-11T18:30:00.000Z","type":"match.submission","tournament":"autumn-cup","matchId":7,"data":{"platformId":"76561198000000001","resultHash":"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb","side":1},"prevHash":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","hash":"cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc"}],"next":2}`},
		{"events bad limit", "GET", "/api/v1/events?limit=0", 422, nil, `{"error":"invalid_field","field":"limit"}`},
		{"arena live", "GET", "/api/v1/live", 200, liveHeaders(), "retry: 1000\n\n"},
		{"tournament live", "GET", "/api/v1/tournaments/autumn-cup/live?after=1", 200, liveHeaders(), "retry: 1000\n\nid: 2\nevent: match.submission\ndata: {\"seq\":2}\n\n"},
		{"match live", "GET", "/api/v1/matches/7/live", 200, liveHeaders(), "retry: 1000\n\n"},
		{"live bad cursor", "GET", "/api/v1/live?after=x", 422, nil, `{"error":"invalid_field","field":"after"}`},
		{"live cursor ahead", "GET", "/api/v1/matches/7/live", 422, nil, `{"error":"invalid_field","field":"Last-Event-ID"}`},
		{"live too many streams", "GET", "/api/v1/tournaments/autumn-cup/live", 429, nil, `{"error":"too_many_streams"}`},
		{"live rate limited", "GET", "/api/v1/live", 429, http.Header{"Retry-After": {"12"}, "Ratelimit-Limit": {"60"}, "Ratelimit-Remaining": {"0"}, "Ratelimit-Reset": {"12"}}, `{"error":"rate_limited"}`},
		{"push key", "GET", "/api/v1/push/key", 200, publicHeaders(), `{"publicKey":"BPz2Ivr3rLM8tQqzxa9bMzYQeq3s86IxC5jE0pd0Z2Y-k6NzO6Gvf3GhNj6G2LxSqKq4sVvXwq1K3fY5Fv1Ac3c"}`},
		{"discord ping", "POST", "/discord/interactions", 200, nil, `{"type":1}`},
		{"discord bad signature", "POST", "/discord/interactions", 401, nil, `{"error":"unauthorized"}`},
		{"events head", "GET", "/api/v1/events/head", 200, publicHeaders(), `{"seq":2,"hash":"cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc","at":"2026-10-11T18:30:00.000Z","signature":"c2lnbmF0dXJl"}`},
		{"match", "GET", "/api/v1/matches/7", 200, publicHeaders(), `{"id":7,"stage":"playoff","round":"Semifinals","bracketSlot":"SF1","status":"confirmed","opensAt":"2026-10-11T18:00:00Z","closesAt":"2026-10-11T20:00:00Z","player1":$P1,"player2":$P2,"winner":$P1,"score":{"p1":2,"p2":1},"resultSource":"game_client","bestOf":3,"seriesScore":{"p1":2,"p2":1},"games":[{"game":1,"status":"confirmed","winner":$P1,"resultSource":"game_client","score":{"p1":3,"p2":1},"decidedAt":"2026-10-11T18:31:00Z"},{"game":2,"status":"confirmed","winner":$P2,"resultSource":"game_client","score":null,"decidedAt":"2026-10-11T18:52:00Z"},{"game":3,"status":"confirmed","winner":$P1,"resultSource":"player_report","score":null,"decidedAt":"2026-10-11T19:20:00Z"}],"tournament":{"slug":"autumn-cup","name":"Autumn Cup"}}`},
		{"title match", "GET", "/api/v1/matches/9", 200, publicHeaders(), `{"id":9,"stage":"title","round":"Coronation","bracketSlot":null,"status":"live","opensAt":"2026-10-11T18:00:00Z","closesAt":"2026-10-13T18:00:00Z","player1":$P1,"player2":$P2,"winner":null,"score":null,"resultSource":null,"bestOf":1,"seriesScore":{"p1":0,"p2":0},"games":[{"game":1,"status":"live","winner":null,"resultSource":null,"score":null,"decidedAt":null}],"tournament":null}`},
		{"match not found", "GET", "/api/v1/matches/0", 404, nil, `{"error":"match_not_found"}`},
		{"match receipt", "GET", "/api/v1/matches/7/receipt", 200, textHeaders(), "c2sp.org/tlog-proof@v1\nextra e30=\nindex 1\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n\narena.example/log\n2\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n\n— arena.example/log AAAAAA==\n"},
		{"match receipt undecided", "GET", "/api/v1/matches/9/receipt", 404, nil, `{"error":"match_not_decided"}`},
		{"log checkpoint", "GET", "/log/checkpoint", 200, textHeaders(), "arena.example/log\n2\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n\n— arena.example/log AAAAAA==\n"},
		{"log full tile", "GET", "/log/tile/entries/000", 200, http.Header{"Content-Type": {"application/octet-stream"}, "Etag": {`"v1-abc123"`}, "Cache-Control": {"public, max-age=31536000, immutable"}}, "\x00\x02{}"},
		{"log tile", "GET", "/log/tile/0/000.p/2", 200, http.Header{"Content-Type": {"application/octet-stream"}, "Etag": {`"v1-abc123"`}, "Cache-Control": {"public, max-age=10"}}, "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"},
		{"log tile not held", "GET", "/log/tile/0/001", 404, nil, `{"error":"not_found"}`},
		{"casters", "GET", "/api/v1/casters", 200, publicHeaders(), `{"casters":[{"platformId":"76561198000000018","streamLogin":"sophie_casts","streamUrl":"https://www.twitch.tv/sophie_casts","live":true,"matches":[7]},{"platformId":null,"streamLogin":"arena_official","streamUrl":"https://www.twitch.tv/arena_official","live":false,"matches":[]}]}`},

		{"create arena", "POST", "/api/v1/operator/arenas", 201, nil, `{"arena":$ARENA,"adminToken":"admkey_0123abcd_c2VjcmV0LXNlY3JldC1zZWNyZXQ"}`},
		{"create arena host taken", "POST", "/api/v1/operator/arenas", 409, nil, `{"error":"host_taken","field":"hosts"}`},
		{"create arena provisioning failed", "POST", "/api/v1/operator/arenas", 502, nil, `{"error":"provisioning_failed"}`},
		{"list arenas", "GET", "/api/v1/operator/arenas", 200, nil, `{"arenas":[$ARENA]}`},

		{"settings", "PUT", "/api/v1/admin/settings", 200, nil, `{"arena":$ADMINARENA,"placementPoints":{"tiers":[{"through":1,"points":100},{"through":2,"points":70}],"played":5},"ratingPeriodHours":24,"alerts":{"webhookUrl":null,"webhookSecret":null,"webhookDisabled":false,"upcomingAlertMinutes":30,"staleMatchMinutes":20},"discord":{"applicationId":"","publicKey":"","botTokenSet":false,"clientSecretSet":false,"interactionsUrl":"http://localhost/discord/interactions","redirectUrl":"http://localhost/discord/callback"}}`},
		{"season", "POST", "/api/v1/admin/seasons", 201, nil, seasonJSON},
		{"seasons", "GET", "/api/v1/admin/seasons", 200, nil, `{"seasons":[` + seasonJSON + `]}`},
		{"edit season", "PATCH", "/api/v1/admin/seasons/2026-autumn", 200, nil, seasonJSON},
		{"edit tournament", "PATCH", "/api/v1/admin/tournaments/autumn-cup", 200, nil, `{` + summaryJSON + `,"status":"playoffs",` + detailJSON + `,` + adminFieldsJSON + `}`},
		{"remove registration", "DELETE", "/api/v1/admin/tournaments/autumn-cup/registrations/76561198000000001", 200, nil, `{"platformId":"76561198000000001","outcome":"disqualified","matchesForfeited":2}`},
		{"create tournament", "POST", "/api/v1/admin/tournaments", 201, nil, `{` + summaryJSON + `,"status":"draft","playerCount":0,"checkInMinutes":30,"bestOf":1,"groupBestOf":1,"finalBestOf":3,"pacing":"scheduled","gracePeriodMinutes":0,"groupFormat":"gsl","players":[],"groups":[],"bracket":[],"podium":[],` + adminFieldsJSON + `}`},
		{"admin tournament", "GET", "/api/v1/admin/tournaments/autumn-cup", 200, nil, `{` + summaryJSON + `,"status":"playoffs",` + detailJSON + `,` + adminFieldsJSON + `}`},
		{"tournament status", "POST", "/api/v1/admin/tournaments/autumn-cup/status", 200, nil, `{` + summaryJSON + `,"status":"registration_open","playerCount":0,"checkInMinutes":0,"bestOf":1,"groupBestOf":1,"finalBestOf":3,"pacing":"scheduled","gracePeriodMinutes":0,"players":[],"groups":[],"bracket":[],"podium":[],` + strings.Replace(adminFieldsJSON, `"season":"2026-autumn"`, `"season":null`, 1) + `}`},
		{"tournament status illegal", "POST", "/api/v1/admin/tournaments/autumn-cup/status", 409, nil, `{"error":"invalid_transition"}`},
		{"registration", "POST", "/api/v1/admin/tournaments/autumn-cup/registrations", 201, nil, `{"registration":{"platformId":"76561198000000001","personaName":"Ada","seed":null,"roster":[],"registeredAt":"2026-10-02T10:00:00Z"}}`},
		{"registration full", "POST", "/api/v1/admin/tournaments/autumn-cup/registrations", 409, nil, `{"error":"tournament_full"}`},
		{"registrations", "POST", "/api/v1/admin/tournaments/autumn-cup/registrations", 201, nil, `{"registrations":[{"platformId":"76561198000000001","personaName":"Ada","seed":1,"roster":["76561198000000001"],"registeredAt":"2026-10-02T10:00:00Z"},{"platformId":"76561198000000002","personaName":"Player 0002","seed":null,"roster":["76561198000000002"],"registeredAt":"2026-10-02T10:00:00Z"}]}`},
		{"registrations refused", "POST", "/api/v1/admin/tournaments/autumn-cup/registrations", 400, nil, `{"error":"invalid_steam_id","field":"platformId","index":3}`},
		{"matches", "GET", "/api/v1/admin/tournaments/autumn-cup/matches", 200, nil, `{"matches":[$AMATCH,{"id":9,"stage":"final","round":"Final","bracketSlot":"FINAL","status":"scheduled","p1PlatformId":null,"p2PlatformId":null,"opensAt":"2026-10-20T18:00:00Z","closesAt":"2026-10-20T20:00:00Z","bestOf":3,"seriesScore":{"p1":0,"p2":0},"games":[]}]}`},
		{"reschedule", "PATCH", "/api/v1/admin/matches/7", 200, nil, `$AMATCH`},
		{"resolve", "POST", "/api/v1/admin/matches/7/resolve", 200, nil, `$AMATCH`},
		{"resolve twice", "POST", "/api/v1/admin/matches/7/resolve", 409, nil, `{"error":"already_resolved"}`},
		{"accept report", "POST", "/api/v1/admin/matches/7/accept-report", 409, nil, `{"error":"no_report"}`},
		{"admin match", "GET", "/api/v1/admin/matches/7", 200, nil, `{"id":7,"stage":"playoff","round":"Semifinals","bracketSlot":"SF1","status":"disputed","p1PlatformId":"76561198000000001","p2PlatformId":"76561198000000002","opensAt":"2026-10-11T18:00:00Z","closesAt":"2026-10-11T20:00:00Z","sessionNonce":"n0nce","winner":null,"score":null,"bestOf":1,"seriesScore":{"p1":0,"p2":0},"games":[{"game":1,"status":"disputed","winner":null,"resultSource":null,"score":null,"decidedAt":null}],"submissions":[{"matchId":7,"side":1,"submitterId":"76561198000000001","appId":"480","result":"{\"matchId\":7,\"sessionNonce\":\"n0nce\",\"winner\":\"76561198000000001\"}","resultHash":"` + strings.Repeat("ab", 32) + `","winner":"76561198000000001","winnerSide":"76561198000000001","clientRole":"host","endedAt":"2026-10-11T18:40:00Z","receivedAt":"2026-10-11T18:41:00Z"}]}`},
		{"admin queue", "GET", "/api/v1/admin/queue", 200, nil, `{"matches":[{"id":8,"stage":"playoff","round":"Semifinals","bracketSlot":"SF2","status":"live","p1PlatformId":"76561198000000003","p2PlatformId":"76561198000000004","opensAt":"2026-10-11T18:00:00Z","closesAt":"2026-10-11T20:00:00Z","sessionNonce":"n0nce","winner":null,"score":null,"bestOf":3,"seriesScore":{"p1":1,"p2":0},"games":[{"game":1,"status":"confirmed","winner":"76561198000000003","resultSource":"game_client","score":null,"decidedAt":"2026-10-11T18:40:00Z"},{"game":2,"status":"live","winner":null,"resultSource":null,"score":null,"decidedAt":null}],"attention":"stale"}]}`},
		{"seeds by rating", "POST", "/api/v1/admin/tournaments/autumn-cup/seeds", 200, nil, `{"seeds":[{"platformId":"76561198000000002","seed":1,"rating":1712.4},{"platformId":"76561198000000001","seed":2,"rating":null}]}`},
		{"seeds locked", "POST", "/api/v1/admin/tournaments/autumn-cup/seeds", 409, nil, `{"error":"seeds_locked"}`},
		{"admin check in", "POST", "/api/v1/admin/tournaments/autumn-cup/check-in", 200, nil, `{"platformId":"76561198000000002","checkedIn":false}`},
		{"admin check in not registered", "POST", "/api/v1/admin/tournaments/autumn-cup/check-in", 403, nil, `{"error":"not_registered"}`},
		{"admin check in closed", "POST", "/api/v1/admin/tournaments/autumn-cup/check-in", 409, nil, `{"error":"check_in_closed"}`},
		{"stage started withdrawing", "POST", "/api/v1/admin/tournaments/autumn-cup/status", 200, nil, `{` + summaryJSON + `,"status":"playoffs","playerCount":2,"checkInMinutes":30,"bestOf":1,"groupBestOf":1,"finalBestOf":3,"pacing":"scheduled","gracePeriodMinutes":0,"players":[$P1,$P2],"groups":[],"bracket":[],"podium":[],` + adminFieldsJSON + `,"withdrawn":["76561198000000003"]}`},
		{"reopen", "POST", "/api/v1/admin/matches/7/reopen", 200, nil, `{"id":7,"stage":"playoff","round":"Semifinals","bracketSlot":"SF1","status":"scheduled","p1PlatformId":"76561198000000001","p2PlatformId":"76561198000000002","opensAt":"2026-10-11T21:00:00Z","closesAt":"2026-10-11T23:00:00Z","winner":null,"score":null,"resultSource":null,"bestOf":1,"seriesScore":{"p1":0,"p2":0},"games":[]}`},
		{"reopen downstream", "POST", "/api/v1/admin/matches/7/reopen", 409, nil, `{"error":"downstream_started"}`},
		{"open round", "POST", "/api/v1/admin/tournaments/autumn-cup/open-round", 200, nil, `{"opened":[9,10]}`},
		{"open round unknown", "POST", "/api/v1/admin/tournaments/autumn-cup/open-round", 404, nil, `{"error":"round_not_found","field":"round"}`},
		{"create api key", "POST", "/api/v1/admin/api-keys", 201, nil, `{"id":"0a1b2c3d","key":"apikey_0a1b2c3d_s3cr3t-Value_x","label":"stats site","createdAt":"2026-11-01T12:00:00Z"}`},
		{"list api keys", "GET", "/api/v1/admin/api-keys", 200, nil, `{"apiKeys":[{"id":"0a1b2c3d","label":"stats site","createdAt":"2026-11-01T12:00:00Z","revokedAt":null},{"id":"ffffffff","label":"old","createdAt":"2026-10-01T12:00:00Z","revokedAt":"2026-10-02T12:00:00Z"}]}`},
		{"revoke api key", "DELETE", "/api/v1/admin/api-keys/0a1b2c3d", 204, nil, ``},
		{"create admin token", "POST", "/api/v1/admin/admin-tokens", 201, nil, `{"id":"0a1b2c3d","token":"admkey_0a1b2c3d_s3cr3t-Value_x","label":"deploy","createdAt":"2026-11-01T12:00:00Z"}`},
		{"list admin tokens", "GET", "/api/v1/admin/admin-tokens", 200, nil, `{"adminTokens":[{"id":"ffffffff","label":"operator","createdAt":"2026-10-01T12:00:00Z","revokedAt":null},{"id":"0a1b2c3d","label":"deploy","createdAt":"2026-11-01T12:00:00Z","revokedAt":"2026-11-02T12:00:00Z"}]}`},
		{"revoke admin token", "DELETE", "/api/v1/admin/admin-tokens/0a1b2c3d", 204, nil, ``},
		{"revoke the last admin token", "DELETE", "/api/v1/admin/admin-tokens/ffffffff", 409, nil, `{"error":"last_admin_token"}`},
		{"add domain", "POST", "/api/v1/admin/domains", 201, nil, `{"hostname":"play.example.com","status":"pending","sslStatus":"pending_validation","active":false,"verification":[{"type":"TXT","name":"_cf-custom-hostname.play.example.com","value":"5a1e"}],"createdAt":"2026-11-01T12:00:00Z","updatedAt":"2026-11-01T12:00:00Z"}`},
		{"domain taken", "POST", "/api/v1/admin/domains", 409, nil, `{"error":"host_taken"}`},
		{"list domains", "GET", "/api/v1/admin/domains", 200, nil, `{"domains":[{"hostname":"play.example.com","status":"active","sslStatus":"active","active":true,"verification":[],"createdAt":"2026-11-01T12:00:00Z","updatedAt":"2026-11-01T12:05:00Z"}]}`},
		{"delete domain", "DELETE", "/api/v1/admin/domains/play.example.com", 204, nil, ``},
		{"too many webhooks", "POST", "/api/v1/admin/webhooks", 409, nil, `{"error":"too_many_subscriptions"}`},
		{"create webhook", "POST", "/api/v1/admin/webhooks", 201, nil, `{"id":"wh_5a1e","kind":"events","url":"https://hooks.example.com/arena","format":"standard","events":["match.confirmed"],"paused":false,"disabled":false,"cursor":41,"createdAt":"2026-11-01T12:00:00Z","secret":"whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"}`},
		{"list webhooks", "GET", "/api/v1/admin/webhooks", 200, nil, `{"webhooks":[{"id":"arena-alerts","kind":"alerts","url":"https://discord.com/api/webhooks/1/x","format":"discord","events":[],"paused":false,"disabled":false,"cursor":0,"createdAt":"2026-11-01T12:00:00Z"}]}`},
		{"get webhook", "GET", "/api/v1/admin/webhooks/wh_5a1e", 200, nil, `{"id":"wh_5a1e","kind":"events","url":"https://hooks.example.com/arena","format":"discord","events":["tournament.status"],"paused":true,"disabled":false,"cursor":41,"createdAt":"2026-11-01T12:00:00Z"}`},
		{"edit webhook", "PATCH", "/api/v1/admin/webhooks/wh_5a1e", 200, nil, `{"id":"wh_5a1e","kind":"events","url":"https://hooks.example.com/arena","format":"standard","events":["match.confirmed"],"paused":true,"disabled":false,"cursor":41,"createdAt":"2026-11-01T12:00:00Z"}`},
		{"delete webhook", "DELETE", "/api/v1/admin/webhooks/wh_5a1e", 204, nil, ``},
		{"webhook deliveries", "GET", "/api/v1/admin/webhooks/wh_5a1e/deliveries", 200, nil, `{"deliveries":[{"id":3,"seq":42,"webhookId":"msg_5a1e_42","state":"sent","attempts":2,"lastStatus":204,"latencyMs":31,"nextAttemptAt":"2026-11-01T12:01:30Z","createdAt":"2026-11-01T12:00:00Z","lastAttemptAt":"2026-11-01T12:00:30Z","sentAt":"2026-11-01T12:00:30Z"},{"id":4,"seq":43,"webhookId":"msg_5a1e_43","state":"pending","attempts":0,"lastStatus":0,"latencyMs":null,"nextAttemptAt":"2026-11-01T12:00:00Z","createdAt":"2026-11-01T12:00:00Z","lastAttemptAt":null,"sentAt":null}]}`},
		{"replay webhook", "POST", "/api/v1/admin/webhooks/wh_5a1e/replay", 202, nil, `{"replayed":2}`},
		{"test webhook", "POST", "/api/v1/admin/webhooks/wh_5a1e/test", 200, nil,
			`{"webhookId":"test_0a1b2c3d4e5f60718293a4b5","delivered":false,"status":500,"durationMs":41,"problem":"answered 500 Internal Server Error"}`},
		{"replay delivery", "POST", "/api/v1/admin/webhooks/wh_5a1e/deliveries/3/replay", 202, nil, `{"replayed":1}`},
		{"webhook not found", "POST", "/api/v1/admin/webhooks/wh_none/deliveries/3/replay", 404, nil, `{"error":"not_found"}`},
		{"admin unauthorized", "GET", "/api/v1/admin/api-keys", 401, nil, `{"error":"unauthorized"}`},
		{"unknown arena", "GET", "/api/v1/admin/api-keys", 404, nil, `{"error":"arena_not_found"}`},

		{"live match", "GET", "/api/v1/me/live-match", 200, nil, liveMatchJSON},
		{"no live match", "GET", "/api/v1/me/live-match", 204, nil, ``},
		{"upcoming match", "GET", "/api/v1/me/upcoming-match", 200, nil, `{"matchId":7,"slot":2,"opponentPlatformId":"76561198000000001","opponentName":"Ada","tournament":{"slug":"autumn-cup","name":"Autumn Cup"},"windowOpensAt":"2026-10-11T18:00:00Z","windowClosesAt":"2026-10-11T20:00:00Z","windowOpen":false,"selfReady":false,"opponentReady":true,"game":1,"bestOf":1,"seriesScore":{"p1":0,"p2":0}}`},
		{"no upcoming match", "GET", "/api/v1/me/upcoming-match", 204, nil, ``},
		{"ready", "POST", "/api/v1/matches/7/ready", 200, nil, `{"status":"live","live":true,"opponentReady":true}`},
		{"ready too early", "POST", "/api/v1/matches/7/ready", 409, nil, `{"error":"window_not_open"}`},
		{"result", "POST", "/api/v1/matches/7/result", 200, nil, `{"status":"pending","matchStatus":"awaiting_result"}`},
		{"result mismatch", "POST", "/api/v1/matches/7/result", 422, nil, `{"error":"hash_mismatch"}`},
		{"result no ticket", "POST", "/api/v1/matches/7/result", 401, nil, `{"error":"missing_ticket"}`},
		{"consent", "POST", "/api/v1/me/referee-consent", 200, nil, `{"granted":true}`},
		{"check in", "POST", "/api/v1/tournaments/autumn-cup/check-in", 200, nil, `{"checkedIn":true}`},
		{"check in closed", "POST", "/api/v1/tournaments/autumn-cup/check-in", 409, nil, `{"error":"check_in_closed"}`},
		{"check in not registered", "POST", "/api/v1/tournaments/autumn-cup/check-in", 403, nil, `{"error":"not_registered"}`},
		{"titles", "GET", "/api/v1/titles", 200, nil, `{"titles":[` + heldTitleJSON + `,` + vacantTitleJSON + `]}`},
		{"public titles", "GET", "/api/v1/public/titles", 200, publicHeaders(), `{"titles":[` + heldTitleJSON + `]}`},
		{"challenge", "POST", "/api/v1/titles/1/challenge", 201, nil, challengeJSON},
		{"challenge vacant title", "POST", "/api/v1/titles/2/challenge", 409, nil, `{"error":"title_vacant_use_coronation"}`},
		{"accept", "POST", "/api/v1/title-challenges/4/respond", 200, nil, strings.Replace(strings.Replace(challengeJSON, `"pending"`, `"accepted"`, 1), `"matchId":null`, `"matchId":12`, 1)},
		{"respond not holder", "POST", "/api/v1/title-challenges/4/respond", 403, nil, `{"error":"not_holder"}`},
		{"volunteer", "POST", "/api/v1/titles/2/volunteer", 201, nil, `{"titleId":2,"volunteer":$P2,"position":2,"matchId":9}`},
		{"volunteer held title", "POST", "/api/v1/titles/1/volunteer", 409, nil, `{"error":"title_already_held"}`},
		{"create title", "POST", "/api/v1/admin/titles", 201, nil, `{"id":3,"slug":"new-belt","name":"New Belt","environment":"demo","holder":null,"reign":null,"clockExpiresAt":null,"pendingChallenge":null,"match":null,"volunteers":[],"lineage":[],"retiredAt":null,"bestOf":1}`},
		{"retire title", "POST", "/api/v1/admin/titles/1/retire", 200, nil, strings.Replace(heldTitleJSON, `"retiredAt":null`, `"retiredAt":"2026-11-01T12:00:00Z"`, 1)},
		{"arena caster", "POST", "/api/v1/admin/matches/7/casters", 201, nil, `{"matchId":7,"casters":[{"platformId":null,"streamLogin":"arena_official","streamUrl":"https://www.twitch.tv/arena_official","source":"arena","live":false}]}`},
		{"arena caster refused", "POST", "/api/v1/admin/matches/7/casters", 409, nil, `{"error":"spectators_not_allowed"}`},
		{"recording init", "POST", "/api/v1/matches/7/recording/init", 200, nil, `{"recordingId":3,"upload":{"url":"https://acct.r2.example/arena-recordings/demo/rec/0123.gz?X-Amz-Signature=ab","local":false},"maxBytes":4194304}`},
		{"recording init finalized", "POST", "/api/v1/matches/7/recording/init", 409, nil, `{"error":"recording_ended"}`},
		{"casual init", "POST", "/api/v1/me/recordings/init", 200, nil, `{"recordingId":4,"upload":{"url":"http://localhost:8787/api/v1/objects/demo/rec/0123.gz?expires=1&sig=x","local":true},"maxBytes":2097152}`},
		{"casual quota", "POST", "/api/v1/me/recordings/init", 429, nil, `{"error":"casual_quota_exceeded"}`},
		{"my recordings", "GET", "/api/v1/me/recordings", 200, nil, `{"recordings":[$REC,{"id":4,"matchId":null,"game":null,"scope":"public","visibility":"private","gameBuild":"","durationMs":0,"byteSize":0,"state":"pending","uploaderPlatformId":"76561198000000001","createdAt":"2026-11-01T12:00:00Z","readyAt":null}]}`},
		{"fetch recording", "GET", "/api/v1/recordings/3?token=abc", 200, nil, `{"url":"https://acct.r2.example/arena-recordings/demo/rec/0123.gz?X-Amz-Signature=cd"}`},
		{"fetch over plan", "GET", "/api/v1/recordings/3", 402, nil, `{"error":"plan_size_exceeded"}`},
		{"fetch gated", "GET", "/api/v1/recordings/3", 409, nil, `{"error":"recording_not_released"}`},
		{"finalize", "POST", "/api/v1/recordings/3/finalize", 200, nil, `$REC`},
		{"finalize malformed", "POST", "/api/v1/recordings/3/finalize", 422, nil, `{"error":"invalid_recording","reason":"not_gzip"}`},
		{"finalize too large", "POST", "/api/v1/recordings/3/finalize", 413, nil, `{"error":"recording_too_large"}`},
		{"share", "POST", "/api/v1/recordings/3/share", 200, nil, `{"token":"q1w2e3r4t5y6u7i8o9p0aQ","path":"/api/v1/recordings/3?token=q1w2e3r4t5y6u7i8o9p0aQ"}`},
		{"segment init", "POST", "/api/v1/recordings/3/segments/init", 200, nil, `{"recordingId":3,"seq":0,"upload":{"url":"http://localhost:8787/api/v1/objects/demo/rec/0123-seg-0.gz?expires=1&sig=x","local":true},"maxBytes":4194304}`},
		{"segment init ended", "POST", "/api/v1/recordings/3/segments/init", 409, nil, `{"error":"recording_ended"}`},
		{"segment finalize", "POST", "/api/v1/recordings/3/segments/0/finalize", 200, nil, `{"seq":0,"state":"ready","byteSize":310,"baseTMs":0}`},
		{"segments", "GET", "/api/v1/recordings/3/segments?after=-1", 200, nil, `{"state":"live","segments":[{"seq":0,"url":"http://localhost:8787/api/v1/objects/demo/checked/0123-seg-0-4567.gz?expires=1&sig=y"}]}`},
		{"trace", "POST", "/api/v1/matches/7/gameplay-trace", 200, nil, `{"status":"agreed","training":"usable"}`},
		{"trace inactive", "POST", "/api/v1/matches/7/gameplay-trace", 409, nil, `{"error":"referee_inactive"}`},
		{"upload", "PUT", "/api/v1/objects/demo/rec/0123456789abcdef0123456789abcdef.gz?expires=1&sig=x", 204, nil, ``},
		{"upload expired", "PUT", "/api/v1/objects/demo/rec/0123456789abcdef0123456789abcdef.gz?expires=1&sig=x", 403, nil, `{"error":"url_expired"}`},
		{"upload finalized", "PUT", "/api/v1/objects/demo/rec/0123456789abcdef0123456789abcdef.gz?expires=1&sig=x", 409, nil, `{"error":"recording_finalized"}`},
		{"download", "GET", "/api/v1/objects/demo/rec/0123456789abcdef0123456789abcdef-seg-2.gz?expires=1&sig=x", 200, http.Header{"Content-Type": {"application/gzip"}}, "\x1f\x8b"},
		{"download checked", "GET", "/api/v1/objects/demo/checked/0123456789abcdef0123456789abcdef-seg-2-0123456789abcdef.gz?expires=1&sig=x", 200, http.Header{"Content-Type": {"application/gzip"}}, "\x1f\x8b"},
		{"update arena", "PATCH", "/api/v1/operator/arenas/demo", 200, nil, `$ARENA`},

		{"mock sign-in", "POST", "/auth/mock", 303, http.Header{"Location": {"/"}, "Set-Cookie": {"arena_session=abc.def; Path=/; HttpOnly; SameSite=Lax"}}, ``},
		{"mock sign-in refused", "POST", "/auth/mock", 422, http.Header{"Content-Type": {"text/html; charset=utf-8"}}, `<!DOCTYPE html><p>Enter 17 digits.</p>`},
		{"mock link", "POST", "/stream-provider/link", 303, http.Header{"Location": {"/account?notice=linked"}}, ``},

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
