package web_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/worker/arenatest"
)

func TestAdminTitlesPage(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	admin := e.SignedIn(t, arenatest.Ada)
	t.Run("OnlyAdmins", func(t *testing.T) {
		assert.Equal(t, http.StatusForbidden, e.SignedIn(t, arenatest.Blaise).Get(t, "/admin/titles").Status)
		assert.Equal(t, http.StatusSeeOther, e.Browser(t).Post(t, "/admin/titles", url.Values{"slug": {"x"}, "name": {"X"}}).Status)
	})
	t.Run("Lists", func(t *testing.T) {
		p := admin.Get(t, "/admin/titles")
		require.Equal(t, http.StatusOK, p.Status)
		assert.Contains(t, p.Body, "Arena Champion")
		assert.Contains(t, p.Body, "Rookie Belt")
		assert.Contains(t, p.Body, `action="/admin/titles/1/retire"`)
	})
	cases := []struct {
		name   string
		form   url.Values
		status int
		want   string
	}{
		{"ErrSlug", url.Values{"slug": {"Bad Slug"}, "name": {"X"}}, 422, "Use 1 to 40 lowercase letters"},
		{"ErrName", url.Values{"slug": {"belt"}, "name": {""}}, 422, "Enter a name."},
		{"ErrSlugTaken", url.Values{"slug": {"winter-cup"}, "name": {"Winter Belt"}}, 409, "A title or a tournament already has this slug."},
		{"Created", url.Values{"slug": {"beta-belt"}, "name": {"Beta Belt"}, "environment": {"beta"}}, 303, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := admin.Post(t, "/admin/titles", tc.form)
			require.Equal(t, tc.status, p.Status, p.Notices())
			assert.Contains(t, p.Body, tc.want)
		})
	}
	titles := e.API(t, http.MethodGet, "/api/v1/public/titles", "", nil, http.StatusOK)["titles"].([]any)
	require.Len(t, titles, 3)
	assert.Equal(t, map[string]any{"slug": "beta-belt", "environment": "beta"},
		map[string]any{"slug": titles[2].(map[string]any)["slug"], "environment": titles[2].(map[string]any)["environment"]})
	t.Run("Retire", func(t *testing.T) {
		assert.Equal(t, "/admin/titles?done=title-retired", admin.PostOK(t, "/admin/titles/2/retire", nil))
		rookie := e.API(t, http.MethodGet, "/api/v1/public/titles", "", nil, http.StatusOK)["titles"].([]any)[1].(map[string]any)
		assert.NotNil(t, rookie["retiredAt"])
		assert.Equal(t, []any{}, rookie["volunteers"])
		assert.Equal(t, http.StatusNotFound, admin.Post(t, "/admin/titles/99/retire", nil).Status)
	})
}
