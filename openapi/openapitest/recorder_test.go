package openapitest_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"arena/openapi/openapitest"
)

// failureLog is a testing.TB that records failures instead of failing,
// so tests can assert that mismatches are reported.
type failureLog struct {
	testing.TB
	mu     sync.Mutex
	errors []string
}

func (f *failureLog) Helper() {}

func (f *failureLog) Errorf(format string, args ...any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.errors = append(f.errors, fmt.Sprintf(format, args...))
}

func (f *failureLog) Fatalf(format string, args ...any) {
	f.Errorf(format, args...)
	f.TB.Fatalf("unexpected Fatalf: "+format, args...)
}

func (f *failureLog) failures() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.errors)
}

// serve sends the named example's request through h and checks the fake
// server answered it (not its 418 fallback).
func serve(t *testing.T, h http.Handler, ex example) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(ex.method, ex.path, nil)
	req.Header.Set(exampleHeader, ex.name)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	if w.Code != ex.status {
		t.Fatalf("fake server answered %s %s (%s) with %d, want %d", ex.method, ex.path, ex.name, w.Code, ex.status)
	}
	return w
}

func TestRecorderAcceptsConformingResponsesAndCoversEveryOperation(t *testing.T) {
	examples := conformingExamples()
	rec := openapitest.NewRecorder(t)
	if got := rec.Uncovered(); !slices.Equal(got, openapitest.Operations()) {
		t.Fatalf("before any request Uncovered() = %v, want every operation", got)
	}
	h := rec.Handler(fakeServer(examples))
	for _, ex := range examples {
		t.Run(ex.name, func(t *testing.T) {
			w := serve(t, h, ex)
			if want := fill.Replace(ex.body); w.Body.String() != want {
				t.Errorf("the wrapper changed the body: got %q, want %q", w.Body.String(), want)
			}
		})
	}
	if missing := rec.Uncovered(); len(missing) > 0 {
		t.Errorf("operations without a conforming example: %v", missing)
	}
	if got, want := rec.Covered(), openapitest.Operations(); !slices.Equal(got, want) {
		t.Errorf("Covered() = %v, want %v", got, want)
	}
}

// broken returns the conforming example named name, changed by edit.
func broken(t *testing.T, name string, edit func(ex *example)) example {
	t.Helper()
	for _, ex := range conformingExamples() {
		if ex.name == name {
			ex.header = ex.header.Clone()
			ex.body = fill.Replace(ex.body)
			edit(&ex)
			return ex
		}
	}
	t.Fatalf("no example %q", name)
	return example{}
}

// replace edits the body, failing when old is not in it (so a test
// cannot silently stop breaking anything).
func replace(t *testing.T, old, new string) func(ex *example) {
	return func(ex *example) {
		t.Helper()
		if !strings.Contains(ex.body, old) {
			t.Fatalf("example %q has no %q", ex.name, old)
		}
		ex.body = strings.Replace(ex.body, old, new, 1)
	}
}

func TestRecorderReportsNonconformingResponses(t *testing.T) {
	cases := []struct {
		name string
		ex   example
		want []string // substrings of the one failure
	}{
		{"UnknownMatchStatus", broken(t, "tournament", replace(t, `"status":"confirmed"`, `"status":"pending"`)),
			[]string{"getTournament", "at /groups/0/matches/0/status: value must be one of", "(schema #/components/schemas/MatchStatus/enum)"}},
		{"DraftInPublicList", broken(t, "tournaments", replace(t, `"registration_open"`, `"draft"`)),
			[]string{"at /tournaments/0/status"}},
		{"PlayerIdTooShort", broken(t, "ladder", replace(t, `"76561198000000001"`, `"7656119800000000"`)),
			[]string{"at /ladder/0/player/platformId", "does not match pattern"}},
		{"UndecidedPlayerAsEmptyObject", broken(t, "tournament", replace(t, `"player1":null`, `"player1":{}`)),
			[]string{"at /bracket/1/matches/0/player1: missing properties"}},
		{"MissingRequiredField", broken(t, "live match", replace(t, `,"resultProtocol":"svc.result.v3"`, ``)),
			[]string{"missing property 'resultProtocol'"}},
		{"NullableMirrorAbsent", broken(t, "live match", replace(t, `"casterPlatformId":"76561198000000003",`, ``)),
			[]string{"missing property 'casterPlatformId'"}},
		{"SeedAsString", broken(t, "live match", replace(t, `"gameSeed":3735928559`, `"gameSeed":"3735928559"`)),
			[]string{"at /gameSeed"}},
		{"SlotThree", broken(t, "upcoming match", replace(t, `"slot":2`, `"slot":3`)),
			[]string{"at /slot"}},
		{"WinRateOver100", broken(t, "player", replace(t, `"winRate":67`, `"winRate":101`)),
			[]string{"at /stats/winRate"}},
		{"WinRateFraction", broken(t, "player", replace(t, `"winRate":67`, `"winRate":66.7`)),
			[]string{"at /stats/winRate"}},
		{"NotADateTime", broken(t, "tournaments", replace(t, `"startsAt":"2026-10-11T18:00:00.5+02:00"`, `"startsAt":"11 Oct 2026"`)),
			[]string{"at /tournaments/0/startsAt", "date-time"}},
		{"SettingsWithoutRateLimits", broken(t, "settings", replace(t, `"rateLimits":{"anonymousPerMinute":60,"keyPerMinute":0},`, ``)),
			[]string{"at /arena: missing property 'rateLimits'"}},
		{"SettingsWithoutPlacementPoints", broken(t, "settings", replace(t, `,"placementPoints":{"tiers":[{"through":1,"points":100},{"through":2,"points":70}],"played":5}`, ``)),
			[]string{"at /: missing property 'placementPoints'"}},
		{"UndocumentedErrorCode", broken(t, "tournament not found", replace(t, `tournament_not_found`, `not_found`)),
			[]string{"at /error"}},
		{"ErrorWithoutCode", broken(t, "player bad id", replace(t, `{"error":"invalid_steam_id"}`, `{"message":"bad id"}`)),
			[]string{"missing property 'error'"}},
		{"BodyNotJSON", broken(t, "health", replace(t, `{"status":"ok"}`, `ok`)),
			[]string{"body: not JSON"}},
		{"TrailingData", broken(t, "health", replace(t, `{"status":"ok"}`, `{"status":"ok"}{}`)),
			[]string{"body: not JSON"}},
		{"WrongContentType", broken(t, "health", func(ex *example) { ex.header = http.Header{"Content-Type": {"text/plain; charset=utf-8"}} }),
			[]string{`Content-Type "text/plain; charset=utf-8": want application/json`}},
		{"BodyOnNoContent", broken(t, "no live match", replace(t, ``, `{}`)),
			[]string{"none is documented, got 2 bytes"}},
		{"MissingETag", broken(t, "meta", func(ex *example) { ex.header.Del("Etag") }),
			[]string{"header ETag: missing"}},
		{"WeakETag", broken(t, "meta", func(ex *example) { ex.header.Set("Etag", `W/"v1"`) }),
			[]string{"header ETag", "does not match pattern"}},
		{"NotModifiedWithoutETag", broken(t, "meta not modified", func(ex *example) { ex.header.Del("Etag") }),
			[]string{"header ETag: missing"}},
		{"RateLimitedWithoutRetryAfter", broken(t, "ladder rate limited", func(ex *example) { ex.header.Del("Retry-After") }),
			[]string{"header Retry-After: missing"}},
		{"RateLimitResetNotInteger", broken(t, "ladder rate limited", func(ex *example) { ex.header.Set("Ratelimit-Reset", "soon") }),
			[]string{`header RateLimit-Reset "soon"`, "want integer"}},
		{"RateLimitedWrongCode", broken(t, "ladder rate limited", replace(t, `rate_limited`, `too_many_requests`)),
			[]string{"at /error"}},
		{"UndocumentedStatus", broken(t, "health", func(ex *example) { ex.status = http.StatusTeapot }),
			[]string{"status 418 is not documented (documented: 200, 500)"}},
		{"UndocumentedPath", broken(t, "health", func(ex *example) { ex.path = "/api/v1/nothing/here" }),
			[]string{"no documented operation matches this path"}},
		{"UndocumentedMethod", broken(t, "tournaments", func(ex *example) { ex.method = http.MethodDelete }),
			[]string{"no documented operation for DELETE on this path (documented: GET)"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			log := &failureLog{TB: t}
			rec := openapitest.NewRecorder(log)
			// The example is already filled; serve it verbatim.
			serve(t, rec.Handler(rawServer(tc.ex)), tc.ex)
			got := log.failures()
			if len(got) != 1 {
				t.Fatalf("want 1 failure, got %d: %q", len(got), got)
			}
			for _, want := range tc.want {
				if !strings.Contains(got[0], want) {
					t.Errorf("failure does not mention %q:\n%s", want, got[0])
				}
			}
		})
	}
}

// rawServer answers every request with ex as it is (no placeholders).
func rawServer(ex example) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for k, vs := range ex.header {
			w.Header()[k] = vs
		}
		if ex.body != "" && w.Header().Get("Content-Type") == "" {
			w.Header().Set("Content-Type", "application/json")
		}
		w.WriteHeader(ex.status)
		_, _ = io.WriteString(w, ex.body)
	})
}

func TestRecorderAllowUndocumented(t *testing.T) {
	notFound := example{name: "unknown route", method: "GET", path: "/nowhere", status: 404, body: `{"error":"not_found"}`}
	wrongMethod := example{name: "wrong method", method: "PUT", path: "/healthz", status: 405, body: `{"error":"method_not_allowed"}`}
	teapot := example{name: "teapot", method: "GET", path: "/healthz", status: 418, body: `{"error":"teapot"}`}

	t.Run("Skipped", func(t *testing.T) {
		log := &failureLog{TB: t}
		rec := openapitest.NewRecorder(log)
		rec.AllowUndocumented()
		serve(t, rec.Handler(rawServer(notFound)), notFound)
		serve(t, rec.Handler(rawServer(wrongMethod)), wrongMethod)
		if got := log.failures(); len(got) != 0 {
			t.Errorf("undocumented routes failed despite AllowUndocumented: %q", got)
		}
		if got := rec.Covered(); len(got) != 0 {
			t.Errorf("Covered() = %v after undocumented routes only", got)
		}
	})
	t.Run("DocumentedOperationsStillChecked", func(t *testing.T) {
		log := &failureLog{TB: t}
		rec := openapitest.NewRecorder(log)
		rec.AllowUndocumented()
		serve(t, rec.Handler(rawServer(teapot)), teapot)
		if got := log.failures(); len(got) != 1 || !strings.Contains(got[0], "status 418 is not documented") {
			t.Errorf("want the undocumented status reported, got %q", got)
		}
	})
	t.Run("FailedByDefault", func(t *testing.T) {
		log := &failureLog{TB: t}
		rec := openapitest.NewRecorder(log)
		serve(t, rec.Handler(rawServer(notFound)), notFound)
		if got := log.failures(); len(got) != 1 {
			t.Errorf("want the undocumented route reported, got %q", got)
		}
	})
}

func TestRecorderRoundTripper(t *testing.T) {
	examples := conformingExamples()
	srv := httptest.NewServer(fakeServer(examples))
	defer srv.Close()
	log := &failureLog{TB: t}
	rec := openapitest.NewRecorder(log)
	client := &http.Client{Transport: rec.RoundTripper(srv.Client().Transport)}

	get := func(name, method, path string) string {
		t.Helper()
		req, err := http.NewRequest(method, srv.URL+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set(exampleHeader, name)
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}

	body := get("ladder all seasons", "GET", "/api/v1/ladder?season=all")
	if !strings.Contains(body, `"slug":"all"`) {
		t.Errorf("the client got %q after validation, want the ladder body", body)
	}
	get("tournament", "GET", "/api/v1/tournaments/autumn-cup")
	if got := log.failures(); len(got) != 0 {
		t.Fatalf("conforming responses failed: %q", got)
	}
	if got, want := rec.Covered(), []string{"getLadder", "getTournament"}; !slices.Equal(got, want) {
		t.Errorf("Covered() = %v, want %v", got, want)
	}

	get("no such example", "GET", "/healthz") // the fake answers 418
	if got := log.failures(); len(got) != 1 || !strings.Contains(got[0], "status 418 is not documented") {
		t.Errorf("want the 418 reported, got %q", got)
	}
}

func TestRecorderIsSafeForConcurrentUse(t *testing.T) {
	examples := conformingExamples()
	rec := openapitest.NewRecorder(t)
	h := rec.Handler(fakeServer(examples))
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for _, ex := range examples {
				req := httptest.NewRequest(ex.method, ex.path, nil)
				req.Header.Set(exampleHeader, ex.name)
				h.ServeHTTP(httptest.NewRecorder(), req)
			}
		})
	}
	wg.Wait()
	if missing := rec.Uncovered(); len(missing) > 0 {
		t.Errorf("Uncovered() = %v", missing)
	}
}
