package story

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func websiteSteps() []step {
	return []step{
		{"VisitorsReadThePages", func(t *testing.T, w *world) {
			for path, wants := range map[string][]string{
				"/":                     {"The Story Arena", "Story Cup"},
				"/tournaments":          {"Story Cup"},
				"/tournaments/" + cup:   {"Podium", players[0].name, players[2].name},
				"/players/" + player(1): {players[0].name},
				"/ladder":               {"The Story Arena"},
			} {
				for range 2 { // the second visit may come from a cache: the same page
					a := w.page(t, path, "")
					require.Equal(t, http.StatusOK, a.status, "GET %s", path)
					assert.True(t, strings.HasPrefix(a.header.Get("Content-Type"), "text/html"), path)
					for _, want := range wants {
						assert.Contains(t, string(a.body), want, "GET %s", path)
					}
					assert.NotContains(t, string(a.body), `action="/signout"`, "GET %s: an anonymous page", path)
				}
			}
			a := w.page(t, "/tournaments/nope", "")
			assert.Equal(t, http.StatusNotFound, a.status)
		}},
		{"ASignedInPlayerSeesTheirOwnPages", func(t *testing.T, w *world) {
			session := w.signIn(t, player(1))
			page := w.page(t, "/", session)
			require.Equal(t, http.StatusOK, page.status)
			assert.Contains(t, string(page.body), `action="/signout"`, "the front page, signed in")
			anon := w.page(t, "/", "")
			assert.NotContains(t, string(anon.body), `action="/signout"`, "the anonymous front page stays anonymous")
		}},
	}
}

// signIn signs the player in on the story arena's site (mock sign-in)
// and returns the session's Cookie header.
func (w *world) signIn(t *testing.T, id string) string {
	t.Helper()
	a := w.do(t, request{method: "POST", path: "/auth/mock", body: url.Values{"platformId": {id}}})
	require.Equal(t, http.StatusSeeOther, a.status, "%s", a.body)
	for _, c := range (&http.Response{Header: a.header}).Cookies() {
		if c.Name == "arena_session" {
			return c.Name + "=" + c.Value
		}
	}
	t.Fatal("the sign-in sets no session cookie")
	return ""
}
