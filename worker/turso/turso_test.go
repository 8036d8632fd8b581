package turso_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/worker/turso"
)

// platformAPI answers like the Turso Platform API for database and token
// creation, recording what it was asked.
type platformAPI struct {
	databases map[string]bool
	calls     []string
}

func (api *platformAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	api.calls = append(api.calls, r.Method+" "+r.URL.RequestURI())
	if r.Header.Get("Authorization") != "Bearer platform-token" {
		w.WriteHeader(http.StatusUnauthorized)
		_ = json.NewEncoder(w).Encode(map[string]string{"error": "invalid token"})
		return
	}
	switch {
	case r.Method == "POST" && r.URL.Path == "/v1/organizations/acme/databases":
		var body struct{ Name, Group string }
		_ = json.NewDecoder(r.Body).Decode(&body)
		if api.databases[body.Name] {
			w.WriteHeader(http.StatusConflict)
			_ = json.NewEncoder(w).Encode(map[string]string{"error": "database with name " + body.Name + " already exists"})
			return
		}
		api.databases[body.Name] = true
		_ = json.NewEncoder(w).Encode(map[string]any{"database": map[string]string{
			"DbId": "0eb771dd-6906-11ee-8553-eaa7715aeaf2", "Hostname": body.Name + "-acme.turso.io", "Name": body.Name,
		}})
	case r.Method == "DELETE" && strings.HasPrefix(r.URL.Path, "/v1/organizations/acme/databases/"):
		// Documented answer: 200 {"database": "<name>"}; 404 for an unknown name.
		name := strings.TrimPrefix(r.URL.Path, "/v1/organizations/acme/databases/")
		if !api.databases[name] {
			w.WriteHeader(http.StatusNotFound)
			_ = json.NewEncoder(w).Encode(map[string]string{"error": "could not find database with name " + name})
			return
		}
		delete(api.databases, name)
		_ = json.NewEncoder(w).Encode(map[string]string{"database": name})
	case r.Method == "POST" && r.URL.Path == "/v1/organizations/acme/databases/arena-demo/auth/tokens":
		_ = json.NewEncoder(w).Encode(map[string]string{"jwt": "eyJhbGciOiJFZERTQSJ9.db-token"})
	default:
		w.WriteHeader(http.StatusNotFound)
		_ = json.NewEncoder(w).Encode(map[string]string{"error": "not found"})
	}
}

func TestProvisionDatabase(t *testing.T) {
	api := &platformAPI{databases: map[string]bool{}}
	srv := httptest.NewServer(api)
	defer srv.Close()
	p := &turso.Provisioner{BaseURL: srv.URL, Organization: "acme", Group: "default", APIToken: "platform-token", Client: srv.Client()}

	t.Run("CreatesDatabaseAndToken", func(t *testing.T) {
		url, token, err := p.ProvisionDatabase(context.Background(), "demo")
		require.NoError(t, err)
		assert.Equal(t, "libsql://arena-demo-acme.turso.io", url)
		assert.Equal(t, "eyJhbGciOiJFZERTQSJ9.db-token", token)
		assert.Equal(t, []string{
			"POST /v1/organizations/acme/databases",
			"POST /v1/organizations/acme/databases/arena-demo/auth/tokens?expiration=never&authorization=full-access",
		}, api.calls)
	})
	t.Run("ErrDatabaseExists", func(t *testing.T) {
		_, _, err := p.ProvisionDatabase(context.Background(), "demo")
		require.Error(t, err)
		assert.Contains(t, err.Error(), "status 409: database with name arena-demo already exists")
	})
	t.Run("ErrBadAPIToken", func(t *testing.T) {
		bad := *p
		bad.APIToken = "wrong"
		_, _, err := bad.ProvisionDatabase(context.Background(), "other")
		require.Error(t, err)
		assert.Contains(t, err.Error(), "status 401")
	})
}

func TestRemoveDatabase(t *testing.T) {
	api := &platformAPI{databases: map[string]bool{"arena-demo": true}}
	srv := httptest.NewServer(api)
	defer srv.Close()
	p := &turso.Provisioner{BaseURL: srv.URL, Organization: "acme", Group: "default", APIToken: "platform-token", Client: srv.Client()}

	t.Run("DeletesTheSlugsDatabase", func(t *testing.T) {
		require.NoError(t, p.RemoveDatabase(context.Background(), "demo", "libsql://arena-demo-acme.turso.io"))
		assert.False(t, api.databases["arena-demo"])
		assert.Equal(t, []string{"DELETE /v1/organizations/acme/databases/arena-demo"}, api.calls)
	})
	t.Run("GoneIsNoError", func(t *testing.T) {
		assert.NoError(t, p.RemoveDatabase(context.Background(), "demo", ""))
	})
	t.Run("ErrBadAPIToken", func(t *testing.T) {
		bad := *p
		bad.APIToken = "wrong"
		err := bad.RemoveDatabase(context.Background(), "demo", "")
		require.Error(t, err)
		assert.Contains(t, err.Error(), "status 401")
	})
}
