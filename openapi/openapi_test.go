package openapi_test

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"arena/i18n"
	"arena/openapi"
	"arena/openapi/openapitest"
)

func TestDocumentIsValidOpenAPI31(t *testing.T) {
	if err := openapitest.CheckDocument(openapi.Document()); err != nil {
		t.Fatalf("openapi.json is not a valid OpenAPI 3.1 document:\n%v", err)
	}
}

// document is the parsed document with helpers to follow references.
type document map[string]any

func parse(t *testing.T) document {
	t.Helper()
	var d document
	if err := json.Unmarshal(openapi.Document(), &d); err != nil {
		t.Fatalf("openapi.json: %v", err)
	}
	return d
}

// deref follows a local $ref chain from v.
func (d document) deref(v any) map[string]any {
	m, _ := v.(map[string]any)
	for m != nil {
		ref, ok := m["$ref"].(string)
		if !ok || len(m) != 1 {
			return m
		}
		var cur any = map[string]any(d)
		for _, tok := range strings.Split(strings.TrimPrefix(ref, "#/"), "/") {
			tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
			cur = cur.(map[string]any)[tok]
		}
		m, _ = cur.(map[string]any)
	}
	return m
}

// operation is one method on one path.
type operation struct {
	method, path string
	op           map[string]any
}

func (d document) operations() []operation {
	var ops []operation
	paths := d["paths"].(map[string]any)
	for _, p := range slices.Sorted(maps.Keys(paths)) {
		item := paths[p].(map[string]any)
		for _, m := range []string{"get", "put", "post", "delete", "patch"} {
			if op, ok := item[m].(map[string]any); ok {
				ops = append(ops, operation{strings.ToUpper(m), p, op})
			}
		}
	}
	return ops
}

func (o operation) String() string { return o.method + " " + o.path }

func (o operation) id() string { s, _ := o.op["operationId"].(string); return s }

// responses returns the operation's responses by status, references
// resolved.
func (d document) responses(o operation) map[string]map[string]any {
	out := map[string]map[string]any{}
	for status, r := range o.op["responses"].(map[string]any) {
		out[status] = d.deref(r)
	}
	return out
}

// errorCodes returns the codes an error response documents: the enum
// (or const) on its error property.
func (d document) errorCodes(resp map[string]any) []string {
	schema := resp["content"].(map[string]any)["application/json"].(map[string]any)["schema"].(map[string]any)
	errProp := schema["properties"].(map[string]any)["error"].(map[string]any)
	if c, ok := errProp["const"].(string); ok {
		return []string{c}
	}
	var codes []string
	for _, c := range errProp["enum"].([]any) {
		codes = append(codes, c.(string))
	}
	return codes
}

func (d document) securityNames(o operation) []string {
	var names []string
	sec, ok := o.op["security"].([]any)
	if !ok {
		return []string{"<inherited>"}
	}
	for _, req := range sec {
		keys := slices.Sorted(maps.Keys(req.(map[string]any)))
		if len(keys) == 0 {
			names = append(names, "<none>")
		}
		names = append(names, keys...)
	}
	return names
}

// The endpoints the document describes: exactly these, with these ids
// and security schemes ("<none>" is anonymous access).
var endpoints = []struct {
	method, path, id string
	security         []string
}{
	{"GET", "/healthz", "getHealth", nil},
	{"GET", "/api/v1", "getMeta", []string{"<none>", "apiKey"}},
	{"GET", "/api/v1/openapi.json", "getOpenAPIDocument", []string{"<none>", "apiKey"}},
	{"GET", "/api/v1/tournaments", "listTournaments", []string{"<none>", "apiKey"}},
	{"GET", "/api/v1/tournaments/{slug}", "getTournament", []string{"<none>", "apiKey"}},
	{"GET", "/api/v1/ladder", "getLadder", []string{"<none>", "apiKey"}},
	{"GET", "/api/v1/players/{platformId}", "getPlayer", []string{"<none>", "apiKey"}},
	{"GET", "/api/v1/matches/{id}", "getMatch", []string{"<none>", "apiKey"}},
	{"GET", "/api/v1/events", "listEvents", []string{"<none>", "apiKey"}},
	{"GET", "/api/v1/live", "arenaLive", []string{"<none>", "apiKey"}},
	{"GET", "/api/v1/tournaments/{slug}/live", "tournamentLive", []string{"<none>", "apiKey"}},
	{"GET", "/api/v1/matches/{id}/live", "matchLive", []string{"<none>", "apiKey"}},
	{"GET", "/api/v1/events/head", "getEventsHead", []string{"<none>", "apiKey"}},
	{"GET", "/api/v1/push/key", "getPushKey", []string{"<none>", "apiKey"}},
	{"POST", "/discord/interactions", "discordInteraction", []string{"<none>"}},
	{"GET", "/api/v1/matches/{id}/receipt", "getMatchReceipt", []string{"<none>", "apiKey"}},
	{"GET", "/log/checkpoint", "getLogCheckpoint", []string{"<none>", "apiKey"}},
	{"GET", "/log/tile/{level}/{index}", "getLogTile", []string{"<none>", "apiKey"}},
	{"GET", "/log/tile/{level}/{partial}/{width}", "getLogPartialTile", []string{"<none>", "apiKey"}},
	{"GET", "/api/v1/public/titles", "listPublicTitles", []string{"<none>", "apiKey"}},
	{"GET", "/api/v1/casters", "listCasters", []string{"<none>", "apiKey"}},
	{"POST", "/api/v1/operator/arenas", "createArena", []string{"operatorToken"}},
	{"GET", "/api/v1/operator/arenas", "listArenas", []string{"operatorToken"}},
	{"PUT", "/api/v1/admin/settings", "updateSettings", []string{"adminToken"}},
	{"POST", "/api/v1/admin/seasons", "createSeason", []string{"adminToken"}},
	{"GET", "/api/v1/admin/seasons", "listSeasons", []string{"adminToken"}},
	{"PATCH", "/api/v1/admin/seasons/{slug}", "editSeason", []string{"adminToken"}},
	{"POST", "/api/v1/admin/tournaments", "createTournament", []string{"adminToken"}},
	{"GET", "/api/v1/admin/tournaments/{slug}", "getAdminTournament", []string{"adminToken"}},
	{"PATCH", "/api/v1/admin/tournaments/{slug}", "editTournament", []string{"adminToken"}},
	{"POST", "/api/v1/admin/tournaments/{slug}/status", "setTournamentStatus", []string{"adminToken"}},
	{"POST", "/api/v1/admin/tournaments/{slug}/registrations", "createRegistration", []string{"adminToken"}},
	{"POST", "/api/v1/admin/tournaments/{slug}/seeds", "seedTournament", []string{"adminToken"}},
	{"POST", "/api/v1/admin/tournaments/{slug}/check-in", "setCheckIn", []string{"adminToken"}},
	{"POST", "/api/v1/admin/tournaments/{slug}/open-round", "openRound", []string{"adminToken"}},
	{"DELETE", "/api/v1/admin/tournaments/{slug}/registrations/{platformId}", "removeRegistration", []string{"adminToken"}},
	{"GET", "/api/v1/admin/tournaments/{slug}/matches", "listTournamentMatches", []string{"adminToken"}},
	{"PATCH", "/api/v1/admin/matches/{id}", "updateMatch", []string{"adminToken"}},
	{"POST", "/api/v1/admin/matches/{id}/resolve", "resolveMatch", []string{"adminToken"}},
	{"POST", "/api/v1/admin/matches/{id}/reopen", "reopenMatch", []string{"adminToken"}},
	{"POST", "/api/v1/admin/matches/{id}/accept-report", "acceptReport", []string{"adminToken"}},
	{"GET", "/api/v1/admin/matches/{id}", "getAdminMatch", []string{"adminToken"}},
	{"POST", "/api/v1/admin/matches/{id}/casters", "addArenaCaster", []string{"adminToken"}},
	{"GET", "/api/v1/admin/queue", "getAdminQueue", []string{"adminToken"}},
	{"POST", "/api/v1/admin/api-keys", "createApiKey", []string{"adminToken"}},
	{"GET", "/api/v1/admin/api-keys", "listApiKeys", []string{"adminToken"}},
	{"DELETE", "/api/v1/admin/api-keys/{id}", "revokeApiKey", []string{"adminToken"}},
	{"POST", "/api/v1/admin/admin-tokens", "createAdminToken", []string{"adminToken"}},
	{"GET", "/api/v1/admin/admin-tokens", "listAdminTokens", []string{"adminToken"}},
	{"DELETE", "/api/v1/admin/admin-tokens/{id}", "revokeAdminToken", []string{"adminToken"}},
	{"POST", "/api/v1/admin/titles", "createTitle", []string{"adminToken"}},
	{"POST", "/api/v1/admin/titles/{id}/retire", "retireTitle", []string{"adminToken"}},
	{"POST", "/api/v1/admin/domains", "addDomain", []string{"adminToken"}},
	{"GET", "/api/v1/admin/domains", "listDomains", []string{"adminToken"}},
	{"DELETE", "/api/v1/admin/domains/{hostname}", "deleteDomain", []string{"adminToken"}},
	{"POST", "/api/v1/admin/webhooks", "createWebhook", []string{"adminToken"}},
	{"GET", "/api/v1/admin/webhooks", "listWebhooks", []string{"adminToken"}},
	{"GET", "/api/v1/admin/webhooks/{id}", "getWebhook", []string{"adminToken"}},
	{"PATCH", "/api/v1/admin/webhooks/{id}", "editWebhook", []string{"adminToken"}},
	{"DELETE", "/api/v1/admin/webhooks/{id}", "deleteWebhook", []string{"adminToken"}},
	{"GET", "/api/v1/admin/webhooks/{id}/deliveries", "listWebhookDeliveries", []string{"adminToken"}},
	{"POST", "/api/v1/admin/webhooks/{id}/replay", "replayWebhook", []string{"adminToken"}},
	{"POST", "/api/v1/admin/webhooks/{id}/test", "testWebhook", []string{"adminToken"}},
	{"POST", "/api/v1/admin/webhooks/{id}/deliveries/{deliveryId}/replay", "replayWebhookDelivery", []string{"adminToken"}},
	{"GET", "/api/v1/me/live-match", "getLiveMatch", []string{"platformTicket"}},
	{"GET", "/api/v1/me/upcoming-match", "getUpcomingMatch", []string{"platformTicket"}},
	{"POST", "/api/v1/matches/{id}/ready", "markReady", []string{"platformTicket"}},
	{"POST", "/api/v1/matches/{id}/result", "submitResult", []string{"platformTicket"}},
	{"POST", "/api/v1/me/referee-consent", "setRefereeConsent", []string{"platformTicket"}},
	{"POST", "/api/v1/tournaments/{slug}/check-in", "checkIn", []string{"platformTicket"}},
	{"GET", "/api/v1/titles", "listTitles", []string{"platformTicket"}},
	{"POST", "/api/v1/titles/{id}/challenge", "challengeTitle", []string{"platformTicket"}},
	{"POST", "/api/v1/title-challenges/{id}/respond", "respondToChallenge", []string{"platformTicket"}},
	{"POST", "/api/v1/titles/{id}/volunteer", "volunteerForTitle", []string{"platformTicket"}},
	{"PATCH", "/api/v1/operator/arenas/{slug}", "updateArena", []string{"operatorToken"}},
	{"POST", "/api/v1/matches/{id}/recording/init", "initMatchRecording", []string{"platformTicket"}},
	{"POST", "/api/v1/me/recordings/init", "initCasualRecording", []string{"platformTicket"}},
	{"GET", "/api/v1/me/recordings", "listMyRecordings", []string{"platformTicket"}},
	{"GET", "/api/v1/recordings/{id}", "fetchRecording", []string{"<none>", "platformTicket"}},
	{"POST", "/api/v1/recordings/{id}/finalize", "finalizeRecording", []string{"platformTicket"}},
	{"POST", "/api/v1/recordings/{id}/share", "shareRecording", []string{"platformTicket"}},
	{"POST", "/api/v1/recordings/{id}/segments/init", "initSegment", []string{"platformTicket"}},
	{"POST", "/api/v1/recordings/{id}/segments/{seq}/finalize", "finalizeSegment", []string{"platformTicket"}},
	{"GET", "/api/v1/recordings/{id}/segments", "listSegments", []string{"<none>", "platformTicket"}},
	{"POST", "/api/v1/matches/{id}/gameplay-trace", "submitGameplayTrace", []string{"platformTicket"}},
	{"PUT", "/api/v1/objects/{arena}/rec/{object}", "uploadObject", nil},
	{"GET", "/api/v1/objects/{arena}/rec/{object}", "downloadObject", nil},
	{"GET", "/api/v1/objects/{arena}/checked/{object}", "downloadCheckedObject", nil},
	{"POST", "/auth/mock", "signInMock", nil},
	{"POST", "/stream-provider/link", "linkStreamMock", nil},
	{"POST", "/__dev/clock", "devAdvanceClock", nil},
	{"POST", "/__dev/tick", "devTick", nil},
	{"POST", "/__dev/stream-live", "devSetStreamLive", nil},
}

func TestDocumentDescribesExactlyTheEndpoints(t *testing.T) {
	d := parse(t)
	got := map[string]operation{}
	for _, o := range d.operations() {
		got[o.String()] = o
	}
	for _, e := range endpoints {
		key := e.method + " " + e.path
		o, ok := got[key]
		if !ok {
			t.Errorf("%s is not documented", key)
			continue
		}
		delete(got, key)
		if o.id() != e.id {
			t.Errorf("%s: operationId %q, want %q", key, o.id(), e.id)
		}
		if sec := d.securityNames(o); !slices.Equal(sec, e.security) {
			t.Errorf("%s: security %v, want %v", key, sec, e.security)
		}
	}
	for key := range got {
		t.Errorf("%s is documented but not expected here: add it to the endpoints table", key)
	}
}

func TestEveryOperationIsDescribedWithItsErrors(t *testing.T) {
	d := parse(t)
	for _, o := range d.operations() {
		if s, _ := o.op["summary"].(string); s == "" {
			t.Errorf("%s: no summary", o)
		}
		if tags, _ := o.op["tags"].([]any); len(tags) != 1 {
			t.Errorf("%s: want exactly one tag, got %v", o, tags)
		}
		responses := d.responses(o)
		if _, ok := responses["500"]; !ok {
			t.Errorf("%s: no 500 response", o)
		}
		for status, r := range responses {
			content, _ := r["content"].(map[string]any)
			if _, html := content["text/html"]; html && (o.path == "/auth/mock" || o.path == "/stream-provider/link") {
				continue // a website route answers pages, not JSON errors
			}
			if status >= "400" {
				schema, _ := content["application/json"].(map[string]any)["schema"].(map[string]any)
				if schema["$ref"] != "#/components/schemas/Error" {
					t.Errorf("%s %s: error body is not the Error schema", o, status)
				} else if len(d.errorCodes(r)) == 0 {
					t.Errorf("%s %s: no error codes listed", o, status)
				}
			}
			if status == "204" || status == "304" {
				if content != nil {
					t.Errorf("%s %s: documents a body", o, status)
				}
			}
		}
	}
}

// logContentTypes are the public reads that answer the transparency
// log's own formats (docs/events.md), not JSON.
var logContentTypes = map[string]string{
	"getMatchReceipt":   "text/plain",
	"getLogCheckpoint":  "text/plain",
	"getLogTile":        "application/octet-stream",
	"getLogPartialTile": "application/octet-stream",
}

func TestPublicAPIContract(t *testing.T) {
	d := parse(t)
	for _, o := range d.operations() {
		if tags := o.op["tags"].([]any); tags[0] != "public" {
			continue
		}
		r := d.responses(o)
		ok200 := r["200"]
		want := "application/json"
		if ct, ok := logContentTypes[o.id()]; ok {
			want = ct
		}
		if _, found := ok200["content"].(map[string]any)[want]; !found {
			t.Errorf("%s: 200 is not %s", o, want)
		}
		for _, h := range []string{"ETag", "Cache-Control"} {
			for _, status := range []string{"200", "304"} {
				hdr := d.deref(r[status]["headers"].(map[string]any)[h])
				if hdr == nil || hdr["required"] != true {
					t.Errorf("%s %s: header %s not required", o, status, h)
				}
			}
		}
		limited, ok := r["429"]
		if !ok {
			t.Errorf("%s: no 429", o)
			continue
		}
		if codes := d.errorCodes(limited); !slices.Equal(codes, []string{"rate_limited"}) {
			t.Errorf("%s 429: codes %v", o, codes)
		}
		for _, h := range []string{"Retry-After", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"} {
			if hdr := d.deref(limited["headers"].(map[string]any)[h]); hdr == nil || hdr["required"] != true {
				t.Errorf("%s 429: header %s not required", o, h)
			}
		}
	}
}

// The error codes each operation answers with, per status: spec sections
// 4.1, 4.2 and 7 and the automation contracts of DESIGN.md.
func TestErrorCodes(t *testing.T) {
	cases := []struct {
		id     string
		status string
		codes  []string
	}{
		{"submitResult", "401", []string{"missing_ticket"}},
		{"submitResult", "503", []string{"platform_unavailable", "database_unavailable"}},
		{"getTournament", "503", []string{"database_unavailable"}},
		{"updateSettings", "503", []string{"database_unavailable"}},
		{"submitResult", "403", []string{"not_participant"}},
		{"submitResult", "404", []string{"match_not_found", "arena_not_found"}},
		{"submitResult", "409", []string{"already_resolved", "not_live", "already_submitted"}},
		{"submitResult", "422", []string{"unsupported_protocol", "invalid_result", "invalid_resultHash", "hash_mismatch", "result_not_for_match", "invalid_winner", "invalid_field", "unknown_field"}},
		{"markReady", "403", []string{"not_participant"}},
		{"markReady", "409", []string{"opponent_undecided", "past_ready_phase", "window_not_open", "window_closed"}},
		{"getLiveMatch", "401", []string{"missing_ticket"}},
		{"getTournament", "404", []string{"tournament_not_found", "arena_not_found"}},
		{"getPlayer", "400", []string{"invalid_steam_id"}},
		{"getPlayer", "404", []string{"player_not_found", "arena_not_found"}},
		{"getLadder", "429", []string{"rate_limited"}},
		{"arenaLive", "429", []string{"rate_limited", "too_many_streams"}},
		{"tournamentLive", "429", []string{"rate_limited", "too_many_streams"}},
		{"matchLive", "429", []string{"rate_limited", "too_many_streams"}},
		{"createArena", "400", []string{"invalid_json", "invalid_steam_id"}},
		{"createArena", "401", []string{"unauthorized"}},
		{"createArena", "409", []string{"slug_taken", "host_taken", "database_in_use"}},
		{"createArena", "413", []string{"body_too_large"}},
		{"createArena", "422", []string{"invalid_field", "unknown_field", "database_unreachable", "database_url_required"}},
		{"createArena", "502", []string{"provisioning_failed"}},
		{"createTournament", "422", []string{"invalid_field", "unknown_field", "season_not_found"}},
		{"revokeApiKey", "404", []string{"not_found", "arena_not_found"}},
		{"setTournamentStatus", "409", []string{"invalid_transition", "too_few_entrants", "matches_unresolved"}},
		{"createRegistration", "400", []string{"invalid_json", "invalid_steam_id"}},
		{"createRegistration", "404", []string{"tournament_not_found", "arena_not_found"}},
		{"createRegistration", "409", []string{"tournament_full", "registration_closed", "already_registered"}},
		{"createRegistration", "422", []string{"invalid_field", "unknown_field", "invalid_roster"}},
		{"resolveMatch", "404", []string{"match_not_found", "arena_not_found"}},
		{"resolveMatch", "409", []string{"already_resolved", "game_not_current"}},
		{"createWebhook", "409", []string{"too_many_subscriptions"}},
		{"reopenMatch", "409", []string{"downstream_started", "invalid_transition"}},
		{"openRound", "404", []string{"tournament_not_found", "round_not_found", "arena_not_found"}},
		{"resolveMatch", "422", []string{"invalid_winner", "invalid_field", "unknown_field"}},
		{"updateSettings", "401", []string{"unauthorized"}},
		{"devTick", "404", []string{"not_found"}},
		{"challengeTitle", "404", []string{"title_not_found", "arena_not_found"}},
		{"challengeTitle", "409", []string{"title_vacant_use_coronation", "cannot_challenge_self", "challenge_pending", "title_retired"}},
		{"respondToChallenge", "403", []string{"not_holder"}},
		{"respondToChallenge", "404", []string{"challenge_not_found", "arena_not_found"}},
		{"respondToChallenge", "409", []string{"challenge_not_pending", "title_clock_expired", "title_retired"}},
		{"volunteerForTitle", "409", []string{"title_already_held", "already_volunteered", "coronation_pending", "title_retired"}},
		{"createTitle", "409", []string{"slug_taken"}},
		{"retireTitle", "404", []string{"title_not_found", "arena_not_found"}},
		{"finalizeRecording", "422", []string{"upload_missing", "invalid_recording", "header_mismatch"}},
		{"finalizeRecording", "413", []string{"recording_too_large"}},
		{"fetchRecording", "402", []string{"plan_size_exceeded"}},
		{"initSegment", "409", []string{"recording_ended"}},
		{"initCasualRecording", "429", []string{"casual_quota_exceeded"}},
		{"submitGameplayTrace", "409", []string{"referee_inactive", "not_live", "already_submitted"}},
		{"uploadObject", "403", []string{"invalid_signature", "url_expired"}},
		{"updateArena", "422", []string{"invalid_field", "unknown_field"}},
	}
	d := parse(t)
	byID := map[string]operation{}
	for _, o := range d.operations() {
		byID[o.id()] = o
	}
	for _, tc := range cases {
		o, ok := byID[tc.id]
		if !ok {
			t.Errorf("no operation %s", tc.id)
			continue
		}
		r, ok := d.responses(o)[tc.status]
		if !ok {
			t.Errorf("%s: no %s response", tc.id, tc.status)
			continue
		}
		if got := d.errorCodes(r); !slices.Equal(got, tc.codes) {
			t.Errorf("%s %s: codes %v, want %v", tc.id, tc.status, got, tc.codes)
		}
	}
}

// Clients must tolerate added fields, so no response schema closes its
// objects; operator, admin and dev request bodies are strict like the
// server (422 unknown_field). Two requests stay open: a game client's
// result (its extra fields are the result's own) and a Discord
// interaction (Discord adds fields as it likes).
func TestResponseSchemasStayOpen(t *testing.T) {
	d := parse(t)
	schemas := d["components"].(map[string]any)["schemas"].(map[string]any)
	requests := map[string]bool{}
	for _, o := range d.operations() {
		if rb, ok := o.op["requestBody"].(map[string]any); ok {
			body, ok := rb["content"].(map[string]any)["application/json"].(map[string]any)
			if !ok {
				continue // a website form
			}
			s := body["schema"].(map[string]any)
			name := strings.TrimPrefix(s["$ref"].(string), "#/components/schemas/")
			requests[name] = true
			open := name == "ResultSubmission" || name == "DiscordInteraction"
			if closed := schemas[name].(map[string]any)["additionalProperties"] == false; closed == open {
				t.Errorf("%s: request schema %s closed=%v", o, name, closed)
			}
		}
	}
	for name, s := range schemas {
		if requests[name] {
			continue
		}
		var walk func(path string, v any)
		walk = func(path string, v any) {
			switch v := v.(type) {
			case map[string]any:
				if v["additionalProperties"] == false || v["unevaluatedProperties"] == false {
					t.Errorf("response schema %s closes its object at %s", name, path)
				}
				for k, c := range v {
					walk(path+"/"+k, c)
				}
			case []any:
				for _, c := range v {
					walk(path, c)
				}
			}
		}
		walk(name, s)
	}
}

// TestLocaleEnumsAreTheLocales: every schema's defaultLocale lists the
// languages the service has catalogs for (i18n.Locales), in their order:
// the document repeats the list, and this keeps it the same.
func TestLocaleEnumsAreTheLocales(t *testing.T) {
	d := parse(t)
	schemas := d["components"].(map[string]any)["schemas"].(map[string]any)
	seen := 0
	for name, s := range schemas {
		props, _ := s.(map[string]any)["properties"].(map[string]any)
		p, ok := props["defaultLocale"].(map[string]any)
		if !ok {
			continue
		}
		seen++
		var enum []string
		for _, v := range p["enum"].([]any) {
			enum = append(enum, v.(string))
		}
		if !slices.Equal(enum, i18n.Locales) {
			t.Errorf("%s.defaultLocale lists %v; i18n.Locales are %v", name, enum, i18n.Locales)
		}
	}
	if seen == 0 {
		t.Fatal("no schema has a defaultLocale")
	}
}
