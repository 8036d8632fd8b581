package server_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/core"
	store "arena/sql"
	"arena/sql/libsqltest"
	_ "arena/sql/sqlitedriver"
	"arena/worker/arenatest"
	"arena/worker/server"
)

const operatorToken = "operator-secret-0123456789"

type testEnv struct {
	*arenatest.Arena
}

// newTestEnv serves the JSON API alone (dev routes on with dev) from a
// fresh data directory with local files, like the native binary; opts
// change the config.
func newTestEnv(t *testing.T, dev bool, opts ...func(*server.Config)) *testEnv {
	t.Helper()
	if len(opts) == 0 {
		return newTestEnvWith(t, dev, nil)
	}
	return newTestEnvWith(t, dev, func(c *server.Config) {
		for _, o := range opts {
			o(c)
		}
	})
}

// newTestEnvWith is newTestEnv with the server's configuration adjusted
// by tweak (nil for none).
func newTestEnvWith(t *testing.T, dev bool, tweak func(*server.Config)) *testEnv {
	t.Helper()
	o := testOptions()
	o.NoDev = !dev
	o.Config = tweak
	return &testEnv{arenatest.New(t, o)}
}

// testOptions are the server tests' arena: no website, no arena yet, in
// process, the clock fixed at 2026-11-01 12:00 UTC.
func testOptions() arenatest.Options {
	return arenatest.Options{NoSite: true, NoDemo: true, InProcess: true, OperatorToken: operatorToken,
		Now: time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)}
}

// do sends a request to host with the bearer token (none: "") and
// decodes the JSON answer.
func (e *testEnv) do(t *testing.T, method, host, path, token string, body any) (int, map[string]any) {
	t.Helper()
	auth := ""
	if token != "" {
		auth = "Bearer " + token
	}
	return e.Do(t, method, "http://"+host+path, auth, body)
}

func arenaRequest(slug string, hosts ...string) map[string]any {
	return map[string]any{
		"slug": slug, "name": "Arena " + slug, "hosts": hosts, "plan": "indie",
		"appIds": []string{"480", "481"}, "publisherKey": "publisher-secret-key",
	}
}

// createArena creates an arena through the operator API and returns its
// admin token.
func (e *testEnv) createArena(t *testing.T, slug string, hosts ...string) string {
	t.Helper()
	status, body := e.do(t, "POST", "ops.test", "/api/v1/operator/arenas", operatorToken, arenaRequest(slug, hosts...))
	require.Equal(t, http.StatusCreated, status, body)
	return body["adminToken"].(string)
}

func TestHealth(t *testing.T) {
	env := newTestEnv(t, false)
	status, body := env.do(t, "GET", "anything.test", "/healthz", "", nil)
	assert.Equal(t, http.StatusOK, status)
	assert.Equal(t, "ok", body["status"])
}

func TestTenancy(t *testing.T) {
	env := newTestEnv(t, false)
	env.createArena(t, "alpha", "alpha.test", "play.alpha.test")
	env.createArena(t, "beta", "beta.test")

	cases := []struct {
		name, host, slug string
	}{
		{"PrimaryHost", "alpha.test", "alpha"},
		{"SecondHost", "play.alpha.test", "alpha"},
		{"PortIgnored", "alpha.test:8787", "alpha"},
		{"CaseInsensitive", "ALPHA.Test", "alpha"},
		{"TrailingDot", "beta.test.", "beta"},
		{"OtherArena", "beta.test", "beta"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			status, body := env.do(t, "GET", tc.host, "/api/v1", "", nil)
			require.Equal(t, http.StatusOK, status)
			assert.Equal(t, tc.slug, body["tenant"].(map[string]any)["slug"])
		})
	}
	t.Run("ErrArenaNotFound", func(t *testing.T) {
		status, body := env.do(t, "GET", "nosuch.test", "/api/v1", "", nil)
		assert.Equal(t, http.StatusNotFound, status)
		assert.Equal(t, map[string]any{"error": "arena_not_found"}, body)
	})
}

func TestMeta(t *testing.T) {
	env := newTestEnv(t, false)
	env.createArena(t, "alpha", "alpha.test")
	status, body := env.do(t, "GET", "alpha.test", "/api/v1", "", nil)
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, "arena", body["api"])
	assert.Equal(t, "1", body["version"])
	assert.Equal(t, map[string]any{"slug": "alpha", "name": "Arena alpha"}, body["tenant"])
	assert.Equal(t, false, body["authenticated"])
	assert.Contains(t, body["endpoints"], "GET /api/v1")
}

func TestUnknownRoutes(t *testing.T) {
	env := newTestEnv(t, false)
	t.Run("NotFound", func(t *testing.T) {
		status, body := env.do(t, "GET", "x.test", "/no/such/path", "", nil)
		assert.Equal(t, http.StatusNotFound, status)
		assert.Equal(t, "not_found", body["error"])
	})
	t.Run("MethodNotAllowed", func(t *testing.T) {
		status, body := env.do(t, "DELETE", "x.test", "/healthz", "", nil)
		assert.Equal(t, http.StatusMethodNotAllowed, status)
		assert.Equal(t, "method_not_allowed", body["error"])
	})
	t.Run("DevRoutesClosedWithoutDevMode", func(t *testing.T) {
		status, _ := env.do(t, "POST", "x.test", "/__dev/tick", "", nil)
		assert.Equal(t, http.StatusNotFound, status)
	})
}

func TestOperatorAuth(t *testing.T) {
	env := newTestEnv(t, false)
	for name, token := range map[string]string{"NoToken": "", "WrongToken": "nope", "PrefixOfToken": operatorToken[:10]} {
		t.Run(name, func(t *testing.T) {
			status, body := env.do(t, "GET", "ops.test", "/api/v1/operator/arenas", token, nil)
			assert.Equal(t, http.StatusUnauthorized, status)
			assert.Equal(t, "unauthorized", body["error"])
			status, _ = env.do(t, "POST", "ops.test", "/api/v1/operator/arenas", token, arenaRequest("x", "x.test"))
			assert.Equal(t, http.StatusUnauthorized, status)
		})
	}
}

func TestCreateArena(t *testing.T) {
	env := newTestEnv(t, false)
	req := arenaRequest("alpha", "Alpha.Test", "play.alpha.test")
	req["adminPlatformIds"] = []string{"76561198000000001"}
	req["gracePeriodSeconds"] = 600
	status, body := env.do(t, "POST", "ops.test", "/api/v1/operator/arenas", operatorToken, req)
	require.Equal(t, http.StatusCreated, status, body)

	token := body["adminToken"].(string)
	_, ok := core.ParseToken(core.TokenAdmin, token)
	assert.True(t, ok, "admin token %q has the admkey_<8 hex>_<secret> shape", token)
	arena := body["arena"].(map[string]any)
	assert.Equal(t, "alpha", arena["slug"])
	assert.Equal(t, []any{"alpha.test", "play.alpha.test"}, arena["hosts"])
	assert.Equal(t, "indie", arena["plan"])
	assert.Equal(t, []any{"480", "481"}, arena["appIds"])
	assert.Equal(t, true, arena["hasPublisherKey"])
	assert.Equal(t, float64(600), arena["gracePeriodSeconds"])
	assert.Equal(t, "arena", arena["identity"])

	t.Run("ListShowsNoSecrets", func(t *testing.T) {
		status, body := env.do(t, "GET", "ops.test", "/api/v1/operator/arenas", operatorToken, nil)
		require.Equal(t, http.StatusOK, status)
		raw, _ := json.Marshal(body)
		assert.Contains(t, string(raw), `"slug":"alpha"`)
		assert.NotContains(t, string(raw), "publisher-secret-key")
		assert.NotContains(t, string(raw), token)
		assert.NotContains(t, string(raw), "adminToken")
	})
	t.Run("LogsShowNoSecrets", func(t *testing.T) {
		logs := env.Logs.String()
		assert.Contains(t, logs, "path=/api/v1/operator/arenas status=201")
		assert.NotContains(t, logs, operatorToken)
		assert.NotContains(t, logs, token)
		assert.NotContains(t, logs, "publisher-secret-key")
	})
}

// TestCreateArenaAppIDsAsNumbers: platform AppIDs are integers, so the
// operator may send them as JSON numbers (DESIGN: numbers or decimal
// strings everywhere).
func TestCreateArenaAppIDsAsNumbers(t *testing.T) {
	env := newTestEnv(t, false)
	req := arenaRequest("numbers", "numbers.test")
	req["appIds"] = []any{480, "481"}
	status, body := env.do(t, "POST", "ops.test", "/api/v1/operator/arenas", operatorToken, req)
	require.Equal(t, http.StatusCreated, status, body)
	assert.Equal(t, []any{"480", "481"}, body["arena"].(map[string]any)["appIds"])
}

func TestCreateArenaBadInput(t *testing.T) {
	env := newTestEnv(t, false)
	env.createArena(t, "taken", "taken.test")

	with := func(key string, value any) map[string]any {
		r := arenaRequest("fresh", "fresh.test")
		if value == nil {
			delete(r, key)
		} else {
			r[key] = value
		}
		return r
	}
	cases := []struct {
		name   string
		body   any
		status int
		code   string
		field  string
	}{
		{"InvalidJSON", `{"slug":`, 400, "invalid_json", ""},
		{"EmptyBody", ``, 400, "invalid_json", ""},
		{"NotAnObject", `[1,2]`, 400, "invalid_json", ""},
		{"TrailingData", `{"slug":"a"} {}`, 400, "invalid_json", ""},
		{"MissingSlug", with("slug", nil), 422, "invalid_field", "slug"},
		{"BadSlug", with("slug", "Not A Slug"), 422, "invalid_field", "slug"},
		{"MissingName", with("name", nil), 422, "invalid_field", "name"},
		{"BlankName", with("name", "   "), 422, "invalid_field", "name"},
		{"MissingHosts", with("hosts", nil), 422, "invalid_field", "hosts"},
		{"EmptyHosts", with("hosts", []string{}), 422, "invalid_field", "hosts"},
		{"HostWithPort", with("hosts", []string{"fresh.test:80"}), 422, "invalid_field", "hosts"},
		{"HostWithPath", with("hosts", []string{"fresh.test/x"}), 422, "invalid_field", "hosts"},
		{"DuplicateHostInRequest", with("hosts", []string{"a.test", "A.test"}), 422, "invalid_field", "hosts"},
		{"BadPlan", with("plan", "platinum"), 422, "invalid_field", "plan"},
		{"PlanWrongType", with("plan", 3), 422, "invalid_field", "plan"},
		{"MissingAppIDs", with("appIds", nil), 422, "invalid_field", "appIds"},
		{"BadAppID", with("appIds", []string{"abc"}), 422, "invalid_field", "appIds"},
		{"BadAdminPlatformID", with("adminPlatformIds", []string{"123"}), 400, "invalid_steam_id", "adminPlatformIds"},
		{"NegativeGrace", with("gracePeriodSeconds", -1), 422, "invalid_field", "gracePeriodSeconds"},
		{"UnknownField", with("colour", "red"), 422, "unknown_field", "colour"},
		{"BadDatabaseURL", with("databaseUrl", "ftp://x"), 422, "invalid_field", "databaseUrl"},
		{"UnreachableDatabase", with("databaseUrl", "http://127.0.0.1:1"), 422, "database_unreachable", "databaseUrl"},
		{"DuplicateSlug", with("slug", "taken"), 409, "slug_taken", ""},
		{"DuplicateHost", with("hosts", []string{"fresh.test", "TAKEN.test"}), 409, "host_taken", "hosts"},
		{"BodyTooLarge", `{"name":"` + strings.Repeat("x", 2<<20) + `"}`, 413, "body_too_large", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			status, body := env.do(t, "POST", "ops.test", "/api/v1/operator/arenas", operatorToken, tc.body)
			assert.Equal(t, tc.status, status, body)
			assert.Equal(t, tc.code, body["error"])
			if tc.field != "" {
				assert.Equal(t, tc.field, body["field"])
			}
		})
	}
	t.Run("NothingChanged", func(t *testing.T) {
		_, body := env.do(t, "GET", "ops.test", "/api/v1/operator/arenas", operatorToken, nil)
		assert.Len(t, body["arenas"], 1)
		status, _ := env.do(t, "GET", "fresh.test", "/api/v1", "", nil)
		assert.Equal(t, http.StatusNotFound, status)
	})
}

func TestAdminSettings(t *testing.T) {
	env := newTestEnv(t, false)
	alphaToken := env.createArena(t, "alpha", "alpha.test")
	betaToken := env.createArena(t, "beta", "beta.test")

	t.Run("Updates", func(t *testing.T) {
		status, body := env.do(t, "PUT", "alpha.test", "/api/v1/admin/settings", alphaToken, map[string]any{
			"name": "Alpha Prime", "appIds": []string{"730"}, "refereeEnabled": true,
			"gracePeriodSeconds": 120, "publisherKey": "new-secret", "identity": "alpha-id",
		})
		require.Equal(t, http.StatusOK, status, body)
		arena := body["arena"].(map[string]any)
		assert.Equal(t, "Alpha Prime", arena["name"])
		assert.Equal(t, "indie", arena["plan"])
		assert.Equal(t, []any{"730"}, arena["appIds"])
		assert.Equal(t, true, arena["refereeEnabled"])
		assert.Equal(t, float64(120), arena["gracePeriodSeconds"])
		assert.Equal(t, "alpha-id", arena["identity"])
		raw, _ := json.Marshal(body)
		assert.NotContains(t, string(raw), "new-secret")

		_, meta := env.do(t, "GET", "alpha.test", "/api/v1", "", nil)
		assert.Equal(t, "Alpha Prime", meta["tenant"].(map[string]any)["name"])
	})
	t.Run("AppIDsAsNumbers", func(t *testing.T) {
		status, body := env.do(t, "PUT", "alpha.test", "/api/v1/admin/settings", alphaToken, map[string]any{"appIds": []any{480, "730"}})
		require.Equal(t, http.StatusOK, status, body)
		assert.Equal(t, []any{"480", "730"}, body["arena"].(map[string]any)["appIds"])
		status, body = env.do(t, "PUT", "alpha.test", "/api/v1/admin/settings", alphaToken, map[string]any{"appIds": []any{4.5}})
		assert.Equal(t, http.StatusUnprocessableEntity, status)
		assert.Equal(t, "appIds", body["field"])
		status, body = env.do(t, "PUT", "alpha.test", "/api/v1/admin/settings", alphaToken, map[string]any{"appIds": []any{true}})
		assert.Equal(t, http.StatusUnprocessableEntity, status)
		assert.Equal(t, "appIds", body["field"])
		status, body = env.do(t, "PUT", "alpha.test", "/api/v1/admin/settings", alphaToken, map[string]any{"appIds": []any{730}})
		require.Equal(t, http.StatusOK, status, body)
	})
	t.Run("AbsentFieldsKeepTheirValue", func(t *testing.T) {
		status, body := env.do(t, "PUT", "alpha.test", "/api/v1/admin/settings", alphaToken, map[string]any{"name": "Alpha"})
		require.Equal(t, http.StatusOK, status)
		assert.Equal(t, "indie", body["arena"].(map[string]any)["plan"])
	})
	authCases := map[string]string{
		"NoToken":            "",
		"Malformed":          "admkey_nothex_x",
		"UnknownID":          "admkey_00000000_abcdef",
		"RightIDWrongSecret": alphaToken[:len("admkey_")+9] + "wrongsecret",
		"OtherArenasToken":   betaToken,
		"OperatorToken":      operatorToken,
	}
	for name, token := range authCases {
		t.Run("Unauthorized"+name, func(t *testing.T) {
			status, body := env.do(t, "PUT", "alpha.test", "/api/v1/admin/settings", token, map[string]any{"name": "Hacked"})
			assert.Equal(t, http.StatusUnauthorized, status)
			assert.Equal(t, "unauthorized", body["error"])
		})
	}
	badInput := []struct {
		name, field string
		body        any
	}{
		{"EmptyAppIDs", "appIds", map[string]any{"appIds": []string{}}},
		{"EmptyName", "name", map[string]any{"name": ""}},
		{"GraceTooLong", "gracePeriodSeconds", map[string]any{"gracePeriodSeconds": 10_000_000}},
		{"RefereeWrongType", "refereeEnabled", map[string]any{"refereeEnabled": "yes"}},
	}
	for _, tc := range badInput {
		t.Run("Err"+tc.name, func(t *testing.T) {
			status, body := env.do(t, "PUT", "alpha.test", "/api/v1/admin/settings", alphaToken, tc.body)
			assert.Equal(t, http.StatusUnprocessableEntity, status, body)
			assert.Equal(t, tc.field, body["field"])
		})
	}
	t.Run("ErrPlanIsTheOperators", func(t *testing.T) {
		for _, plan := range []string{"studio", "gold"} {
			status, body := env.do(t, "PUT", "alpha.test", "/api/v1/admin/settings", alphaToken, map[string]any{"plan": plan, "name": "Sneaky"})
			assert.Equal(t, http.StatusForbidden, status)
			assert.Equal(t, "operator_only", body["error"])
			assert.Equal(t, "plan", body["field"])
		}
	})
	t.Run("BadInputChangedNothing", func(t *testing.T) {
		_, meta := env.do(t, "GET", "alpha.test", "/api/v1", "", nil)
		assert.Equal(t, "Alpha", meta["tenant"].(map[string]any)["name"])
	})
}

func TestDevRoutes(t *testing.T) {
	env := newTestEnv(t, true)
	env.createArena(t, "alpha", "alpha.test")
	t.Run("ClockAdvances", func(t *testing.T) {
		status, body := env.do(t, "POST", "x.test", "/__dev/clock", "", map[string]any{"advanceSeconds": 3600})
		require.Equal(t, http.StatusOK, status, body)
		assert.Equal(t, "2026-11-01T13:00:00Z", body["now"])
	})
	t.Run("ErrNegativeAdvance", func(t *testing.T) {
		status, _ := env.do(t, "POST", "x.test", "/__dev/clock", "", map[string]any{"advanceSeconds": -5})
		assert.Equal(t, http.StatusUnprocessableEntity, status)
	})
	t.Run("TickRunsScheduledJobs", func(t *testing.T) {
		status, body := env.do(t, "POST", "x.test", "/__dev/tick", "", nil)
		require.Equal(t, http.StatusOK, status)
		assert.Equal(t, float64(1), body["arenas"])
		assert.Contains(t, env.Logs.String(), "scheduled jobs ran")
	})
	t.Run("StreamLive", func(t *testing.T) {
		status, body := env.do(t, "POST", "x.test", "/__dev/stream-live", "", map[string]any{"logins": []string{"Caster_One", "b"}})
		require.Equal(t, http.StatusOK, status)
		assert.Equal(t, []any{"b", "caster_one"}, body["live"])
	})
}

// TestRemoteArenaDatabase creates an arena whose database is a real libSQL
// server reached over HTTP, and uses it.
func TestRemoteArenaDatabase(t *testing.T) {
	env := newTestEnv(t, false)
	url := libsqltest.Start(t)
	req := arenaRequest("remote", "remote.test")
	req["databaseUrl"] = url
	status, body := env.do(t, "POST", "ops.test", "/api/v1/operator/arenas", operatorToken, req)
	require.Equal(t, http.StatusCreated, status, body)
	token := body["adminToken"].(string)
	assert.Equal(t, url, body["arena"].(map[string]any)["database"])

	req2 := arenaRequest("remote2", "remote2.test")
	req2["databaseUrl"] = url
	status, body = env.do(t, "POST", "ops.test", "/api/v1/operator/arenas", operatorToken, req2)
	assert.Equal(t, http.StatusConflict, status)
	assert.Equal(t, "database_in_use", body["error"], "two arenas never share a database")

	status, _ = env.do(t, "PUT", "remote.test", "/api/v1/admin/settings", token, map[string]any{"name": "Remote!"})
	assert.Equal(t, http.StatusOK, status)
	_, meta := env.do(t, "GET", "remote.test", "/api/v1", "", nil)
	assert.Equal(t, "Remote!", meta["tenant"].(map[string]any)["name"])

	db, err := store.Open(url, "")
	require.NoError(t, err)
	defer db.Close()
	var hash string
	require.NoError(t, db.QueryRow("SELECT hash FROM admin_tokens").Scan(&hash))
	assert.Equal(t, core.HashToken(token), hash, "only the SHA-256 of the admin token is stored")
}

// TestLazyDirectoryMigration starts from a directory database with no
// schema, as a fresh edge deployment does.
func TestLazyDirectoryMigration(t *testing.T) {
	o := testOptions()
	o.LazyDirectory = true
	env := &testEnv{arenatest.New(t, o)}
	status, body := env.do(t, "GET", "x.test", "/api/v1", "", nil)
	assert.Equal(t, http.StatusNotFound, status)
	assert.Equal(t, "arena_not_found", body["error"])
	env.createArena(t, "alpha", "alpha.test")
}

// TestLazyDirectoryMigrationOfAnUpdate starts from a directory one
// migration behind (a deployment updated without running migrate): the
// first query that needs the new columns migrates it.
func TestLazyDirectoryMigrationOfAnUpdate(t *testing.T) {
	env := newTestEnv(t, false)
	env.createArena(t, "alpha", "alpha.test")
	db := env.Server.Directory().DB()
	for _, stmt := range []string{
		"ALTER TABLE arenas DROP COLUMN creating",
		"ALTER TABLE arenas DROP COLUMN database_provisioned",
		"DELETE FROM schema_migrations WHERE name = 'arena_creation'",
	} {
		_, err := db.Exec(stmt)
		require.NoError(t, err, stmt)
	}
	env.createArena(t, "beta", "beta.test")
	for _, host := range []string{"alpha.test", "beta.test"} {
		status, _ := env.do(t, "GET", host, "/api/v1", "", nil)
		assert.Equal(t, http.StatusOK, status, host)
	}
}
