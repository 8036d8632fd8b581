package server_test

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAdminTokens(t *testing.T) {
	e := newTestEnv(t, false)
	first := e.createArena(t, "alpha", "alpha.test")
	betaAdmin := e.createArena(t, "beta", "beta.test")
	works := func(token string) bool {
		status, _ := e.do(t, "GET", "alpha.test", "/api/v1/admin/admin-tokens", token, nil)
		return status == http.StatusOK
	}
	mint := func(t *testing.T, label string) (id, token string) {
		t.Helper()
		out := e.mustDo(t, "POST", "/api/v1/admin/admin-tokens", first, map[string]any{"label": label}, 201)
		return out["id"].(string), out["token"].(string)
	}
	revoke := func(by, id string) (int, map[string]any) {
		return e.do(t, "DELETE", "alpha.test", "/api/v1/admin/admin-tokens/"+id, by, nil)
	}

	t.Run("MintShowsTheTokenOnce", func(t *testing.T) {
		out := e.mustDo(t, "POST", "/api/v1/admin/admin-tokens", first, map[string]any{"label": "deploy script"}, 201)
		token := out["token"].(string)
		assert.Regexp(t, `^admkey_[0-9a-f]{8}_[A-Za-z0-9_-]+$`, token)
		assert.Equal(t, strings.Split(token, "_")[1], out["id"])
		assert.Equal(t, "deploy script", out["label"])
		assert.Equal(t, "2026-11-01T12:00:00Z", out["createdAt"])
		assert.True(t, works(token), "the new token administers the arena")
		list := e.mustDo(t, "GET", "/api/v1/admin/admin-tokens", token, nil, 200)
		assert.NotContains(t, fmt.Sprint(list), token, "never listed with its secret")
		assert.NotContains(t, fmt.Sprint(list), "hash")
		var labels []any
		for _, raw := range list["adminTokens"].([]any) {
			labels = append(labels, raw.(map[string]any)["label"])
			assert.Nil(t, raw.(map[string]any)["revokedAt"])
		}
		assert.Equal(t, []any{"operator", "deploy script"}, labels, "the operator's token first, oldest first")
	})
	t.Run("ErrBadLabel", func(t *testing.T) {
		status, out := e.do(t, "POST", "alpha.test", "/api/v1/admin/admin-tokens", first, map[string]any{"label": strings.Repeat("é", 101)})
		assert.Equal(t, http.StatusUnprocessableEntity, status)
		assert.Equal(t, map[string]any{"error": "invalid_field", "field": "label"}, out)
		status, out = e.do(t, "POST", "alpha.test", "/api/v1/admin/admin-tokens", first, map[string]any{"name": "x"})
		assert.Equal(t, http.StatusUnprocessableEntity, status)
		assert.Equal(t, "unknown_field", out["error"])
	})
	t.Run("RevokeEndsItAtOnce", func(t *testing.T) {
		id, token := mint(t, "laptop")
		status, _ := revoke(first, id)
		require.Equal(t, http.StatusNoContent, status)
		assert.False(t, works(token))
		status, _ = revoke(first, id)
		assert.Equal(t, http.StatusNoContent, status, "revoking twice is fine")
		for _, raw := range e.mustDo(t, "GET", "/api/v1/admin/admin-tokens", first, nil, 200)["adminTokens"].([]any) {
			if k := raw.(map[string]any); k["id"] == id {
				assert.Equal(t, "2026-11-01T12:00:00Z", k["revokedAt"])
			}
		}
	})
	t.Run("ErrUnknownToken", func(t *testing.T) {
		status, out := revoke(first, "0badc0de")
		assert.Equal(t, http.StatusNotFound, status)
		assert.Equal(t, "not_found", out["error"])
	})
	t.Run("ErrAnotherArenasToken", func(t *testing.T) {
		status, _ := e.do(t, "POST", "alpha.test", "/api/v1/admin/admin-tokens", betaAdmin, map[string]any{})
		assert.Equal(t, http.StatusUnauthorized, status)
		id := strings.Split(betaAdmin, "_")[1]
		status, _ = revoke(first, id)
		assert.Equal(t, http.StatusNotFound, status, "beta's token is not alpha's to revoke")
		status, _ = e.do(t, "GET", "beta.test", "/api/v1/admin/admin-tokens", betaAdmin, nil)
		assert.Equal(t, http.StatusOK, status)
	})
	t.Run("TheTokenInUseMayRevokeItself", func(t *testing.T) {
		id, token := mint(t, "leaving")
		status, _ := revoke(token, id)
		assert.Equal(t, http.StatusNoContent, status)
		assert.False(t, works(token))
	})
	t.Run("ErrLastAdminToken", func(t *testing.T) {
		// Revoke everything but the operator's token, then that one.
		var keep string
		for _, raw := range e.mustDo(t, "GET", "/api/v1/admin/admin-tokens", first, nil, 200)["adminTokens"].([]any) {
			k := raw.(map[string]any)
			if k["label"] == "operator" {
				keep = k["id"].(string)
			} else if k["revokedAt"] == nil {
				status, _ := revoke(first, k["id"].(string))
				require.Equal(t, http.StatusNoContent, status)
			}
		}
		status, out := revoke(first, keep)
		assert.Equal(t, http.StatusConflict, status)
		assert.Equal(t, map[string]any{"error": "last_admin_token"}, out)
		assert.True(t, works(first), "the arena keeps its last token")
	})
	t.Run("RacingRevocationsLeaveOne", func(t *testing.T) {
		for range 5 {
			_, a := mint(t, "a")
			_, b := mint(t, "b")
			// Now three tokens: revoke the operator's in three racing requests
			// along with a and b, each by another token.
			tokens := []string{first, a, b}
			ids := make([]string, len(tokens))
			for i, tok := range tokens {
				ids[i] = strings.Split(tok, "_")[1]
			}
			var wg sync.WaitGroup
			for i := range tokens {
				wg.Add(1)
				go func() {
					defer wg.Done()
					revoke(tokens[(i+1)%len(tokens)], ids[i])
				}()
			}
			wg.Wait()
			left := 0
			for _, tok := range tokens {
				if works(tok) {
					left++
					first = tok
				}
			}
			require.Equal(t, 1, left, "exactly one token stays in force")
		}
	})
}
