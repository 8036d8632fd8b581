package story

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// customHost is the story arena's custom domain.
const customHost = "play.story-arena.example"

func domainSteps() []step {
	return []step{
		{"ACustomDomainRoutesOnceVerified", func(t *testing.T, w *world) {
			ctx := context.Background()
			d := w.adminAPI(t, "POST", "/api/v1/admin/domains", map[string]any{"hostname": customHost}, 201)
			assert.Equal(t, customHost, d["hostname"])
			a := w.do(t, request{method: "POST", path: "/api/v1/admin/domains", host: otherHost, auth: "Bearer " + w.otherAdmin,
				body: map[string]any{"hostname": customHost}})
			assert.Equal(t, http.StatusConflict, a.status)
			assert.Equal(t, "host_taken", a.json(t)["error"])
			if w.target.activateDomain != nil { // a provider verifies it first
				assert.Equal(t, false, d["active"])
				assert.NotEmpty(t, d["verification"], "records for the owner to publish")
				assert.Equal(t, http.StatusNotFound, w.do(t, request{method: "GET", path: "/api/v1", host: customHost}).status)
				require.NoError(t, w.target.tick(ctx))
				assert.Equal(t, http.StatusNotFound, w.do(t, request{method: "GET", path: "/api/v1", host: customHost}).status, "still pending")
				require.NoError(t, w.target.activateDomain(ctx, customHost))
				require.NoError(t, w.target.tick(ctx))
			}
			list := w.adminAPI(t, "GET", "/api/v1/admin/domains", nil, 200)["domains"].([]any)
			require.Len(t, list, 1)
			assert.Equal(t, true, list[0].(map[string]any)["active"])
			meta, _ := w.cachedRead(t, customHost, "/api/v1")
			assert.Equal(t, "story", meta["tenant"].(map[string]any)["slug"])
			page := w.do(t, request{method: "GET", path: "/", host: customHost})
			require.Equal(t, http.StatusOK, page.status)
			assert.True(t, strings.Contains(string(page.body), "The Story Arena"))
		}},
		{"ARemovedDomainStopsRouting", func(t *testing.T, w *world) {
			w.adminAPI(t, "DELETE", "/api/v1/admin/domains/"+customHost, nil, 204)
			a := w.do(t, request{method: "GET", path: "/api/v1", host: customHost})
			assert.Equal(t, http.StatusNotFound, a.status)
			assert.Equal(t, "arena_not_found", a.json(t)["error"])
			assert.Empty(t, w.adminAPI(t, "GET", "/api/v1/admin/domains", nil, 200)["domains"])
		}},
	}
}
