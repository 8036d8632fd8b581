package server_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBodyBreaksOff sends requests whose body stops short of its
// Content-Length, the client then going away or the server's read timing
// out: each answers 400 invalid_json, and nothing is logged as an error.
func TestBodyBreaksOff(t *testing.T) {
	env := newTestEnv(t, true)
	status, body := env.do(t, "POST", "ops.test", "/api/v1/operator/arenas", operatorToken, map[string]any{
		"slug": "alpha", "name": "Alpha", "hosts": []string{"alpha.test"}, "plan": "indie", "appIds": []string{"480"},
	})
	require.Equal(t, http.StatusCreated, status, body)
	admin := body["adminToken"].(string)
	ts := httptest.NewUnstartedServer(env.Server)
	ts.Config.ReadTimeout = 300 * time.Millisecond
	ts.Start()
	defer ts.Close()

	routes := []struct{ name, method, path, auth string }{
		{"Result", "POST", "/api/v1/matches/1/result", "Platform MOCK:76561198000000001"},
		{"Consent", "POST", "/api/v1/me/referee-consent", "Platform MOCK:76561198000000001"},
		{"Settings", "PUT", "/api/v1/admin/settings", "Bearer " + admin},
		{"DevClock", "POST", "/__dev/clock", ""},
	}
	for _, route := range routes {
		for _, clientGone := range []bool{true, false} {
			name := route.name + map[bool]string{true: "ClientGone", false: "ReadTimeout"}[clientGone]
			t.Run(name, func(t *testing.T) {
				conn, err := net.Dial("tcp", ts.Listener.Addr().String())
				require.NoError(t, err)
				defer conn.Close()
				fmt.Fprintf(conn, "%s %s HTTP/1.1\r\nHost: alpha.test\r\nAuthorization: %s\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{\"matchId\": 1, \"gra",
					route.method, route.path, route.auth)
				if clientGone {
					require.NoError(t, conn.(*net.TCPConn).CloseWrite())
				}
				require.NoError(t, conn.SetReadDeadline(time.Now().Add(5*time.Second)))
				res, err := http.ReadResponse(bufio.NewReader(conn), nil)
				require.NoError(t, err)
				raw, _ := io.ReadAll(res.Body)
				assert.Equal(t, http.StatusBadRequest, res.StatusCode, string(raw))
				assert.JSONEq(t, `{"error":"invalid_json"}`, string(raw))
			})
		}
	}
	assert.NotContains(t, env.Logs.String(), "level=ERROR")
}

// TestBodyMustBeAnObject: a body that is JSON but not an object (null,
// an array, a number, a string) is 400 invalid_json on every route that
// reads one, and changes nothing (null once minted an API key).
func TestBodyMustBeAnObject(t *testing.T) {
	p := newProtocolEnv(t)
	player := "Platform MOCK:76561198000000001"
	routes := []struct{ name, method, host, path, auth string }{
		{"CreateArena", "POST", "ops.test", "/api/v1/operator/arenas", operatorToken},
		{"PatchArena", "PATCH", "ops.test", "/api/v1/operator/arenas/alpha", operatorToken},
		{"Settings", "PUT", "alpha.test", "/api/v1/admin/settings", p.admin},
		{"Season", "POST", "alpha.test", "/api/v1/admin/seasons", p.admin},
		{"Tournament", "POST", "alpha.test", "/api/v1/admin/tournaments", p.admin},
		{"APIKey", "POST", "alpha.test", "/api/v1/admin/api-keys", p.admin},
		{"AdminToken", "POST", "alpha.test", "/api/v1/admin/admin-tokens", p.admin},
		{"Title", "POST", "alpha.test", "/api/v1/admin/titles", p.admin},
		{"Domain", "POST", "alpha.test", "/api/v1/admin/domains", p.admin},
		{"Consent", "POST", "alpha.test", "/api/v1/me/referee-consent", player},
		{"CasualRecording", "POST", "alpha.test", "/api/v1/me/recordings/init", player},
		{"Respond", "POST", "alpha.test", "/api/v1/title-challenges/1/respond", player},
		{"Result", "POST", "alpha.test", "/api/v1/matches/1/result", player},
	}
	for _, route := range routes {
		for _, body := range []string{"null", "[]", "[{}]", "3", `"x"`, " null "} {
			t.Run(route.name+"/"+body, func(t *testing.T) {
				auth := route.auth
				if !strings.HasPrefix(auth, "Platform ") {
					auth = "Bearer " + auth
				}
				status, out := p.Do(t, route.method, "http://"+route.host+route.path, auth, body)
				if route.name == "Result" && status == 404 {
					return // rule 2 (the match) comes before the body
				}
				assert.Equal(t, http.StatusBadRequest, status, out)
				assert.Equal(t, "invalid_json", out["error"])
			})
		}
	}
	keys := p.mustDo(t, "GET", "/api/v1/admin/api-keys", p.admin, nil, 200)
	assert.Empty(t, keys["apiKeys"], "no API key was minted")
	tokens := p.mustDo(t, "GET", "/api/v1/admin/admin-tokens", p.admin, nil, 200)
	assert.Len(t, tokens["adminTokens"], 1, "no admin token was minted")
	_, arenas := p.do(t, "GET", "ops.test", "/api/v1/operator/arenas", operatorToken, nil)
	assert.Len(t, arenas["arenas"], 1, "no arena was created")
}
