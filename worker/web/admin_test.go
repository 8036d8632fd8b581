package web_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The demo arena's first admin and a player who is not an admin.
const (
	adminID  = "76561198000000001"
	playerID = "76561198000000002"
)

// adminSignIn signs the browser in as the account through POST /auth/mock.
func adminSignIn(t *testing.T, e *siteEnv, c *http.Client, id string) {
	t.Helper()
	e.acctSignIn(t, c, id)
}

// adminBrowser is a browser signed in as the account.
func adminBrowser(t *testing.T, e *siteEnv, id string) *http.Client {
	c := e.browser(t)
	adminSignIn(t, e, c, id)
	return c
}

// adminResult is an answer to a form: status, redirect target, page.
type adminResult struct {
	status   int
	location string
	body     string
}

// adminPost submits a form from the site itself.
func adminPost(t *testing.T, e *siteEnv, c *http.Client, path string, form url.Values) adminResult {
	t.Helper()
	resp := e.post(t, c, path, form)
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return adminResult{status: resp.StatusCode, location: resp.Header.Get("Location"), body: string(b)}
}

// adminPostOK submits a form that must succeed with a redirect, and
// returns the redirect's target.
func adminPostOK(t *testing.T, e *siteEnv, c *http.Client, path string, form url.Values) string {
	t.Helper()
	res := adminPost(t, e, c, path, form)
	require.Equal(t, http.StatusSeeOther, res.status, "%s: %s", path, adminNoticeText(res.body))
	return res.location
}

var noticePattern = regexp.MustCompile(`<p class="notice[^"]*"[^>]*>([^<]*)</p>`)

// adminNoticeText returns a page's notices, for failure messages.
func adminNoticeText(body string) string {
	var out []string
	for _, m := range noticePattern.FindAllStringSubmatch(body, -1) {
		out = append(out, m[1])
	}
	return strings.Join(out, " | ")
}

// adminCrossSite submits a form from another site.
func adminCrossSite(t *testing.T, e *siteEnv, c *http.Client, path string, form url.Values) int {
	t.Helper()
	req, err := http.NewRequest("POST", e.http.URL+path, strings.NewReader(form.Encode()))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", "https://evil.example")
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	resp, err := c.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	return resp.StatusCode
}

// adminAPI calls the JSON API with an Authorization header.
func adminAPI(t *testing.T, e *siteEnv, method, path, authorization string, body any) (int, map[string]any) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		require.NoError(t, err)
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, e.http.URL+path, rd)
	require.NoError(t, err)
	if authorization != "" {
		req.Header.Set("Authorization", authorization)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	var out map[string]any
	if len(raw) > 0 {
		require.NoError(t, json.Unmarshal(raw, &out), string(raw))
	}
	return resp.StatusCode, out
}

func utcField(t time.Time) string { return t.UTC().Format("2006-01-02T15:04") }

// adminTournamentForm is a valid create form: registration open from an
// hour ago for a day.
func adminTournamentForm(e *siteEnv, slug, format string, max int) url.Values {
	f := url.Values{
		"slug": {slug}, "name": {"Cup " + slug}, "description": {"Rules: be kind."}, "format": {format},
		"maxPlayers": {fmt.Sprint(max)}, "registrationOpensAt": {utcField(e.now.Add(-time.Hour))},
		"registrationClosesAt": {utcField(e.now.Add(24 * time.Hour))}, "startsAt": {utcField(e.now.Add(48 * time.Hour))},
		"environment": {"demo"}, "season": {""}, "teamMinPlayers": {"1"}, "teamMaxPlayers": {"1"},
		"matchWindowMinutes": {"60"}, "handMode": {"hidden"}, "delaySeconds": {"0"}, "allowSpectators": {"on"},
	}
	return f
}

// adminStep moves a tournament one step through its confirmation page.
func adminStep(t *testing.T, e *siteEnv, c *http.Client, slug, to string) {
	t.Helper()
	status, body := e.get(t, c, "/admin/tournaments/"+slug+"/status?to="+to)
	require.Equal(t, http.StatusOK, status, adminNoticeText(body))
	require.Contains(t, body, `name="to" value="`+to+`"`)
	adminPostOK(t, e, c, "/admin/tournaments/"+slug+"/status", url.Values{"to": {to}})
}

func TestAdminAccess(t *testing.T) {
	e := newSiteEnv(t)
	pages := []string{
		"/admin", "/admin/tournaments/new", "/admin/tournaments/spring-invitational",
		"/admin/tournaments/spring-invitational/status?to=registration_closed", "/admin/matches/1",
		"/admin/api-keys", "/admin/admin-tokens", "/admin/settings",
	}
	forms := []string{
		"/admin/tournaments", "/admin/tournaments/spring-invitational", "/admin/tournaments/spring-invitational/status",
		"/admin/tournaments/spring-invitational/registrations", "/admin/tournaments/spring-invitational/seeds",
		"/admin/matches/1/resolve", "/admin/api-keys", "/admin/api-keys/00000000/revoke", "/admin/admin-tokens",
		"/admin/admin-tokens/00000000/revoke", "/admin/settings",
		"/admin/settings/admins", "/admin/settings/admins/" + adminID + "/remove",
	}

	t.Run("VisitorIsSentToSignIn", func(t *testing.T) {
		c := e.browser(t)
		for _, p := range pages {
			resp, err := c.Get(e.http.URL + p)
			require.NoError(t, err)
			resp.Body.Close()
			assert.Equal(t, http.StatusSeeOther, resp.StatusCode, p)
			assert.Equal(t, "/signin?next="+url.QueryEscape(p), resp.Header.Get("Location"), p)
		}
		for _, p := range forms {
			res := adminPost(t, e, c, p, url.Values{"label": {"x"}})
			assert.Equal(t, http.StatusSeeOther, res.status, p)
			assert.Equal(t, "/signin?next=%2Fadmin", res.location, p)
		}
	})
	t.Run("PlayerIsForbidden", func(t *testing.T) {
		c := adminBrowser(t, e, playerID)
		for _, p := range pages {
			status, body := e.get(t, c, p)
			assert.Equal(t, http.StatusForbidden, status, p)
			assert.Contains(t, body, "for the arena&#39;s admins", p)
		}
		for _, p := range forms {
			res := adminPost(t, e, c, p, url.Values{"label": {"x"}, "adminPlatformId": {playerID}, "name": {"Taken over"}})
			assert.Equal(t, http.StatusForbidden, res.status, p)
		}
		admin := adminBrowser(t, e, adminID)
		_, body := e.get(t, admin, "/admin/api-keys")
		assert.Contains(t, body, "No keys yet.", "the player minted nothing")
		_, body = e.get(t, admin, "/admin/settings")
		assert.NotContains(t, body, "Taken over")
		status, _ := e.get(t, c, "/admin")
		assert.Equal(t, http.StatusForbidden, status, "the player did not make themselves an admin")
	})
	t.Run("AdminSeesEveryPage", func(t *testing.T) {
		c := adminBrowser(t, e, adminID)
		for _, p := range pages {
			status, body := e.get(t, c, p)
			assert.Equal(t, http.StatusOK, status, p)
			assert.Contains(t, body, `<nav class="admin-nav"`, p)
		}
		status, body := e.get(t, c, "/admin")
		require.Equal(t, http.StatusOK, status)
		assert.Contains(t, body, `href="/admin"`, "the layout links the admin pages")
		assert.Contains(t, body, "Spring Invitational")
		assert.Contains(t, body, "Winter Cup")
		status, _ = e.get(t, c, "/admin/tournaments/nope")
		assert.Equal(t, http.StatusNotFound, status)
		status, _ = e.get(t, c, "/admin/matches/999999")
		assert.Equal(t, http.StatusNotFound, status)
	})
}

func TestAdminTournamentForm(t *testing.T) {
	e := newSiteEnv(t)
	c := adminBrowser(t, e, adminID)

	t.Run("NewFormSaysUTC", func(t *testing.T) {
		status, body := e.get(t, c, "/admin/tournaments/new")
		require.Equal(t, http.StatusOK, status)
		assert.Contains(t, body, `type="datetime-local"`)
		assert.Contains(t, body, "Registration opens <span class=\"muted\">(UTC)</span>")
		assert.Contains(t, body, `<option value="season-1">Season 1</option>`)
	})
	t.Run("ErrFieldsAreMarked", func(t *testing.T) {
		f := adminTournamentForm(e, "Bad Slug", "groups_playoffs", 1)
		f.Set("name", " ")
		f.Set("description", "Keep me as typed")
		f.Set("registrationClosesAt", utcField(e.now.Add(-2*time.Hour)))
		f.Set("matchWindowMinutes", "2")
		f.Set("handMode", "sideways")
		f.Set("season", "no-such-season")
		res := adminPost(t, e, c, "/admin/tournaments", f)
		require.Equal(t, http.StatusUnprocessableEntity, res.status)
		for field, msg := range map[string]string{
			"slug":                 "Use 1 to 40 lowercase letters, digits and inner hyphens.",
			"name":                 "Enter a name.",
			"maxPlayers":           "Enter a whole number from 2 to 1024.",
			"registrationClosesAt": "Registration must close after it opens.",
			"matchWindowMinutes":   "Enter a whole number from 5 to 20160.",
			"handMode":             "Choose hidden, delayed or shown.",
			"season":               "There is no such season.",
		} {
			assert.Contains(t, res.body, `<p class="field-error" id="err-`+field+`">`+html.EscapeString(msg)+`</p>`, field)
			assert.Contains(t, res.body, `aria-describedby="err-`+field+`"`, field)
		}
		assert.Contains(t, res.body, "Keep me as typed", "the form comes back as typed")
		assert.Contains(t, res.body, `value="Bad Slug"`)
		status, _ := e.get(t, c, "/admin/tournaments/bad-slug")
		assert.Equal(t, http.StatusNotFound, status)
	})
	t.Run("ErrCrossFieldRules", func(t *testing.T) {
		f := adminTournamentForm(e, "cross", "groups_playoffs", 4)
		f.Set("startsAt", utcField(e.now))
		f.Set("teamMinPlayers", "3")
		f.Set("teamMaxPlayers", "2")
		f.Set("groupCount", "3")
		res := adminPost(t, e, c, "/admin/tournaments", f)
		require.Equal(t, http.StatusUnprocessableEntity, res.status)
		assert.Contains(t, res.body, "The tournament cannot start before registration closes.")
		assert.Contains(t, res.body, "At most must not be below at least.")
		assert.Contains(t, res.body, "Too many groups: each needs at least two of the 4 sides.")

		f = adminTournamentForm(e, "cross", "playoffs_only", 4)
		f.Set("groupCount", "2")
		res = adminPost(t, e, c, "/admin/tournaments", f)
		require.Equal(t, http.StatusUnprocessableEntity, res.status)
		assert.Contains(t, res.body, `id="err-groupCount">Only for groups then playoffs: leave it empty.`)
	})
	t.Run("CreatesADraft", func(t *testing.T) {
		f := adminTournamentForm(e, "cup-one", "groups_playoffs", 8)
		f.Set("season", "season-1")
		f.Set("environment", "beta")
		f.Set("groupCount", "2")
		f.Set("advancePerGroup", "1")
		f.Set("smallFinal", "on")
		f.Set("matchWindowMinutes", "90")
		f.Set("handMode", "delayed")
		f.Set("delaySeconds", "120")
		f.Del("allowSpectators")
		loc := adminPostOK(t, e, c, "/admin/tournaments", f)
		assert.Equal(t, "/admin/tournaments/cup-one?done=created", loc)
		status, body := e.get(t, c, loc)
		require.Equal(t, http.StatusOK, status)
		assert.Contains(t, body, "Tournament created as a draft")
		assert.Contains(t, body, `<span class="badge status-draft">Draft</span>`)
		assert.Contains(t, body, `value="`+utcField(e.now.Add(-time.Hour))+`"`, "times shown in UTC")

		status, got := adminAPI(t, e, "GET", "/api/v1/admin/tournaments/cup-one", "Bearer "+e.adminToken, nil)
		require.Equal(t, http.StatusOK, status)
		assert.Equal(t, "Cup cup-one", got["name"])
		assert.Equal(t, "draft", got["status"])
		assert.Equal(t, "groups_playoffs", got["format"])
		assert.Equal(t, float64(8), got["maxPlayers"])
		assert.Equal(t, "beta", got["environment"])
		assert.Equal(t, "season-1", got["season"])
		assert.Equal(t, float64(2), got["groupCount"])
		assert.Equal(t, float64(1), got["advancePerGroup"])
		assert.Equal(t, true, got["smallFinal"])
		assert.Equal(t, float64(90), got["matchWindowMinutes"])
		assert.Equal(t, map[string]any{"handMode": "delayed", "delaySeconds": float64(120)}, got["cast"])
		assert.Equal(t, false, got["allowSpectators"])

		_, dash := e.get(t, c, "/admin")
		assert.Contains(t, dash, `href="/admin/tournaments/cup-one"`, "the dashboard lists drafts")
	})
	t.Run("ErrSlugTaken", func(t *testing.T) {
		res := adminPost(t, e, c, "/admin/tournaments", adminTournamentForm(e, "cup-one", "playoffs_only", 4))
		assert.Equal(t, http.StatusConflict, res.status)
		assert.Contains(t, res.body, `id="err-slug">Another tournament has this slug.`)
	})
	t.Run("EditsTheDraft", func(t *testing.T) {
		f := adminTournamentForm(e, "cup-1", "playoffs_only", 16)
		f.Set("name", "Cup One, renamed")
		loc := adminPostOK(t, e, c, "/admin/tournaments/cup-one", f)
		assert.Equal(t, "/admin/tournaments/cup-1?done=saved", loc)
		status, body := e.get(t, c, loc)
		require.Equal(t, http.StatusOK, status)
		assert.Contains(t, body, "Cup One, renamed")
		status, _ = e.get(t, c, "/admin/tournaments/cup-one")
		assert.Equal(t, http.StatusNotFound, status, "the slug moved")
		_, got := adminAPI(t, e, "GET", "/api/v1/admin/tournaments/cup-1", "Bearer "+e.adminToken, nil)
		assert.Equal(t, "playoffs_only", got["format"])
		assert.Equal(t, float64(0), got["groupCount"])
		assert.Equal(t, true, got["allowSpectators"])
	})
	t.Run("ErrEditIsChecked", func(t *testing.T) {
		f := adminTournamentForm(e, "cup-1", "playoffs_only", 16)
		f.Set("maxPlayers", "5000")
		res := adminPost(t, e, c, "/admin/tournaments/cup-1", f)
		assert.Equal(t, http.StatusUnprocessableEntity, res.status)
		assert.Contains(t, res.body, `id="err-maxPlayers">Enter a whole number from 2 to 1024.`)
		assert.Contains(t, res.body, `value="5000"`)
		_, got := adminAPI(t, e, "GET", "/api/v1/admin/tournaments/cup-1", "Bearer "+e.adminToken, nil)
		assert.Equal(t, float64(16), got["maxPlayers"], "nothing changed")
	})
	t.Run("ErrOnlyDraftsAreEdited", func(t *testing.T) {
		adminStep(t, e, c, "cup-1", "registration_open")
		f := adminTournamentForm(e, "cup-1", "playoffs_only", 16)
		f.Set("name", "Too late")
		res := adminPost(t, e, c, "/admin/tournaments/cup-1", f)
		assert.Equal(t, http.StatusConflict, res.status)
		assert.Contains(t, res.body, "Only drafts can be edited: this tournament is registration open. Nothing was changed.")
		assert.NotContains(t, res.body, `action="/admin/tournaments/cup-1" class="admin-form"`, "no edit form")
		_, got := adminAPI(t, e, "GET", "/api/v1/admin/tournaments/cup-1", "Bearer "+e.adminToken, nil)
		assert.Equal(t, "Cup One, renamed", got["name"])
	})
}

// seedInput is the seed field of a side in the seed editor, with its value.
func seedInput(id, value string) string {
	return `name="seed-` + id + `" type="number" min="1" max="4096" value="` + value + `"`
}

func TestAdminLifecycle(t *testing.T) {
	e := newSiteEnv(t)
	c := adminBrowser(t, e, adminID)
	p := func(i int) string { return fmt.Sprintf("765611980000001%02d", i) }
	adminPostOK(t, e, c, "/admin/tournaments", adminTournamentForm(e, "bracket-cup", "playoffs_only", 4))
	base := "/admin/tournaments/bracket-cup"

	t.Run("ConfirmationSaysWhatTheStepDoes", func(t *testing.T) {
		status, body := e.get(t, c, base+"/status?to=registration_open")
		require.Equal(t, http.StatusOK, status)
		assert.Contains(t, body, "The tournament becomes public.")
		assert.Contains(t, body, "Its settings can no longer be edited.")
		assert.Contains(t, body, `<form method="post" action="/admin/tournaments/bracket-cup/status">`)
		_, page := e.get(t, c, base)
		assert.Contains(t, page, `href="/admin/tournaments/bracket-cup/status?to=registration_open"`)
		assert.Contains(t, page, `href="/admin/tournaments/bracket-cup/status?to=cancelled"`)
		assert.NotContains(t, page, `status?to=playoffs"`, "only legal steps are offered")
	})
	t.Run("ErrIllegalStep", func(t *testing.T) {
		status, body := e.get(t, c, base+"/status?to=playoffs")
		assert.Equal(t, http.StatusConflict, status)
		assert.Contains(t, body, "The tournament cannot go from draft to playoffs in one step.")
		assert.NotContains(t, body, `name="to"`)
		res := adminPost(t, e, c, base+"/status", url.Values{"to": {"registration_closed"}})
		assert.Equal(t, http.StatusConflict, res.status)
		assert.Contains(t, res.body, "The tournament cannot go from draft to registration closed in one step.")
		status, _ = e.get(t, c, base+"/status?to=bogus")
		assert.Equal(t, http.StatusNotFound, status)
	})
	adminStep(t, e, c, "bracket-cup", "registration_open")

	t.Run("RegistersSides", func(t *testing.T) {
		adminPostOK(t, e, c, base+"/registrations", url.Values{"platformId": {p(1)}, "personaName": {"Alice"}, "seed": {"3"}})
		adminPostOK(t, e, c, base+"/registrations", url.Values{"platformId": {p(2)}, "personaName": {"Bob"}})
		loc := adminPostOK(t, e, c, base+"/registrations", url.Values{"platformId": {p(3)}, "personaName": {"Carol"}, "seed": {"1"}})
		assert.Equal(t, base+"?done=registered#registrations", loc)
		_, body := e.get(t, c, loc)
		assert.Contains(t, body, "Side registered.")
		for _, name := range []string{"Alice", "Bob", "Carol"} {
			assert.Contains(t, body, name)
		}
		assert.Contains(t, body, seedInput(p(1), "3"))
		assert.Contains(t, body, seedInput(p(2), ""))
		assert.Contains(t, body, seedInput(p(3), "1"))
	})
	t.Run("ErrRegistration", func(t *testing.T) {
		res := adminPost(t, e, c, base+"/registrations", url.Values{"platformId": {"123"}, "seed": {"0"}})
		assert.Equal(t, http.StatusUnprocessableEntity, res.status)
		assert.Contains(t, res.body, `id="err-platformId">Enter a 17-digit account id.`)
		assert.Contains(t, res.body, `id="err-seed">Enter a whole number from 1 to 4096.`)
		assert.Contains(t, res.body, `value="123"`)
		res = adminPost(t, e, c, base+"/registrations", url.Values{"platformId": {p(1)}})
		assert.Equal(t, http.StatusConflict, res.status)
		assert.Contains(t, res.body, "This player (or one of the roster) is already on a side.")
	})
	t.Run("SetsSeeds", func(t *testing.T) {
		res := adminPost(t, e, c, base+"/seeds", url.Values{"seed-" + p(1): {"1"}, "seed-" + p(2): {"2"}, "seed-" + p(3): {"1"}})
		assert.Equal(t, http.StatusUnprocessableEntity, res.status)
		assert.Contains(t, res.body, "is already given to")
		_, body := e.get(t, c, base)
		assert.Contains(t, body, seedInput(p(1), "3"), "nothing changed")

		loc := adminPostOK(t, e, c, base+"/seeds", url.Values{"seed-" + p(1): {"1"}, "seed-" + p(2): {"2"}, "seed-" + p(3): {""}})
		_, body = e.get(t, c, loc)
		assert.Contains(t, body, "Seeds saved.")
		assert.Contains(t, body, seedInput(p(1), "1"))
		assert.Contains(t, body, seedInput(p(2), "2"))
		assert.Contains(t, body, seedInput(p(3), ""))
	})
	adminStep(t, e, c, "bracket-cup", "registration_closed")

	t.Run("SeedsChangeUntilTheDraw", func(t *testing.T) {
		_, body := e.get(t, c, base+"/status?to=playoffs")
		assert.Contains(t, body, "Seeds the bracket from the 3 sides&#39; registration seeds")
		adminPostOK(t, e, c, base+"/seeds", url.Values{"seed-" + p(3): {"3"}})
		adminStep(t, e, c, "bracket-cup", "playoffs")
		res := adminPost(t, e, c, base+"/seeds", url.Values{"seed-" + p(3): {"2"}})
		assert.Equal(t, http.StatusConflict, res.status)
		assert.Contains(t, res.body, "they are fixed once the groups or the bracket are drawn")
		_, body = e.get(t, c, base)
		assert.NotContains(t, body, `name="seed-`, "no seed editor after the draw")
		assert.Contains(t, body, "Playoffs")
		assert.Contains(t, body, "bye", "the top seed's bye")
	})
	t.Run("ErrMatchesUnresolved", func(t *testing.T) {
		res := adminPost(t, e, c, base+"/status", url.Values{"to": {"completed"}})
		assert.Equal(t, http.StatusConflict, res.status)
		assert.Contains(t, res.body, "Not yet: some matches are not resolved.")
	})
	t.Run("ErrTooFewEntrants", func(t *testing.T) {
		adminPostOK(t, e, c, "/admin/tournaments", adminTournamentForm(e, "solo-cup", "playoffs_only", 4))
		adminStep(t, e, c, "solo-cup", "registration_open")
		adminPostOK(t, e, c, "/admin/tournaments/solo-cup/registrations", url.Values{"platformId": {p(9)}})
		adminStep(t, e, c, "solo-cup", "registration_closed")
		res := adminPost(t, e, c, "/admin/tournaments/solo-cup/status", url.Values{"to": {"playoffs"}})
		assert.Equal(t, http.StatusConflict, res.status)
		assert.Contains(t, res.body, "Too few sides to draw: 1 registered.")
	})
	t.Run("CancelsForGood", func(t *testing.T) {
		status, body := e.get(t, c, "/admin/tournaments/solo-cup/status?to=cancelled")
		require.Equal(t, http.StatusOK, status)
		assert.Contains(t, body, "This cannot be undone.")
		adminStep(t, e, c, "solo-cup", "cancelled")
		_, body = e.get(t, c, "/admin/tournaments/solo-cup")
		assert.Contains(t, body, "This tournament is over: no further step.")
		status, body = e.get(t, c, "/admin/tournaments/solo-cup/status?to=registration_open")
		assert.Equal(t, http.StatusConflict, status)
		assert.Contains(t, body, "This tournament is cancelled: nothing can follow.")
	})
	t.Run("GroupStageThenForfeit", func(t *testing.T) {
		f := adminTournamentForm(e, "group-cup", "groups_playoffs", 4)
		f.Set("groupCount", "1")
		adminPostOK(t, e, c, "/admin/tournaments", f)
		adminStep(t, e, c, "group-cup", "registration_open")
		for i := 11; i <= 14; i++ {
			adminPostOK(t, e, c, "/admin/tournaments/group-cup/registrations", url.Values{"platformId": {p(i)}})
		}
		adminStep(t, e, c, "group-cup", "registration_closed")
		_, body := e.get(t, c, "/admin/tournaments/group-cup/status?to=group_stage")
		assert.Contains(t, body, "Draws the 4 sides into 1 groups by seed")
		adminStep(t, e, c, "group-cup", "group_stage")
		res := adminPost(t, e, c, "/admin/tournaments/group-cup/status", url.Values{"to": {"playoffs"}})
		assert.Equal(t, http.StatusConflict, res.status)
		assert.Contains(t, res.body, "Not yet: some matches are not resolved.")

		_, list := adminAPI(t, e, "GET", "/api/v1/admin/tournaments/group-cup/matches", "Bearer "+e.adminToken, nil)
		matches := list["matches"].([]any)
		require.Len(t, matches, 6, "a round robin of four")
		m := matches[0].(map[string]any)
		id := fmt.Sprintf("%.0f", m["id"])
		loc := adminPostOK(t, e, c, "/admin/matches/"+id+"/resolve", url.Values{"winner": {m["p2PlatformId"].(string)}, "forfeit": {"on"}})
		_, body = e.get(t, c, loc)
		assert.Contains(t, body, "Forfeited")
		_, list = adminAPI(t, e, "GET", "/api/v1/admin/tournaments/group-cup/matches", "Bearer "+e.adminToken, nil)
		got := list["matches"].([]any)[0].(map[string]any)
		assert.Equal(t, "forfeited", got["status"])
		assert.Equal(t, "admin", got["resultSource"])
		assert.Equal(t, m["p2PlatformId"], got["winner"])
	})
}

// adminGame calls the game-client API with a mock platform ticket.
func adminGame(t *testing.T, e *siteEnv, method, path, account string, body any) (int, map[string]any) {
	t.Helper()
	return adminAPI(t, e, method, path, "Platform MOCK:"+account, body)
}

// adminDispute plays a match to a dispute: both sides ready, each side's
// client names itself the winner. It returns the two result strings.
func adminDispute(t *testing.T, e *siteEnv, id, a, b string) [2]string {
	t.Helper()
	for _, side := range []string{a, b} {
		status, out := adminGame(t, e, "POST", "/api/v1/matches/"+id+"/ready", side, nil)
		require.Equal(t, http.StatusOK, status, out)
	}
	status, live := adminGame(t, e, "GET", "/api/v1/me/live-match", a, nil)
	require.Equal(t, http.StatusOK, status, live)
	var results [2]string
	for i, side := range []string{a, b} {
		res := fmt.Sprintf(`{"matchId":%s,"sessionNonce":%q,"winner":%q}`, id, live["sessionNonce"], side)
		sum := sha256.Sum256([]byte(res))
		role := []string{"host", "guest"}[i]
		status, out := adminGame(t, e, "POST", "/api/v1/matches/"+id+"/result", side, map[string]any{
			"protocol": "svc.result.v3", "result": res, "resultHash": hex.EncodeToString(sum[:]),
			"clientRole": role, "endedAt": "2026-11-20T12:30:00Z",
		})
		require.Equal(t, http.StatusOK, status, out)
		results[i] = res
	}
	return results
}

func TestAdminResolveDispute(t *testing.T) {
	e := newSiteEnv(t)
	c := adminBrowser(t, e, adminID)
	a, b := "76561198000000101", "76561198000000102"
	adminPostOK(t, e, c, "/admin/tournaments", adminTournamentForm(e, "duel", "playoffs_only", 2))
	adminStep(t, e, c, "duel", "registration_open")
	adminPostOK(t, e, c, "/admin/tournaments/duel/registrations", url.Values{"platformId": {a}, "personaName": {"Ann"}})
	adminPostOK(t, e, c, "/admin/tournaments/duel/registrations", url.Values{"platformId": {b}, "personaName": {"Ben"}})
	adminStep(t, e, c, "duel", "registration_closed")
	adminStep(t, e, c, "duel", "playoffs")
	_, list := adminAPI(t, e, "GET", "/api/v1/admin/tournaments/duel/matches", "Bearer "+e.adminToken, nil)
	final := list["matches"].([]any)[0].(map[string]any)
	id := fmt.Sprintf("%.0f", final["id"])
	results := adminDispute(t, e, id, a, b)
	page := "/admin/matches/" + id

	t.Run("QueueListsTheDispute", func(t *testing.T) {
		_, body := e.get(t, c, "/admin")
		assert.Contains(t, body, `href="`+page+`"`)
		assert.Contains(t, body, "Ann vs Ben")
		assert.Contains(t, body, `<span class="badge disputed">Disputed</span>`)
	})
	t.Run("SubmissionsSideBySide", func(t *testing.T) {
		status, body := e.get(t, c, page)
		require.Equal(t, http.StatusOK, status)
		for _, res := range results {
			assert.Contains(t, body, `<pre class="admin-result">`+html.EscapeString(res)+`</pre>`)
			sum := sha256.Sum256([]byte(res))
			assert.Contains(t, body, hex.EncodeToString(sum[:]))
		}
		assert.Contains(t, body, "The submissions differ.")
		assert.Contains(t, body, "<dd>host</dd>")
		assert.Contains(t, body, "<dd>guest</dd>")
		assert.Contains(t, body, `datetime="2026-11-20T12:30:00Z"`, "the client's endedAt")
		assert.Contains(t, body, `name="winner" value="`+a+`"`)
		assert.Contains(t, body, `name="winner" value="`+b+`"`)
		assert.NotContains(t, body, "Players' reports", "no reports, no section")
	})
	t.Run("ErrResolveForm", func(t *testing.T) {
		res := adminPost(t, e, c, page+"/resolve", url.Values{"scoreP1": {"2"}})
		assert.Equal(t, http.StatusUnprocessableEntity, res.status)
		assert.Contains(t, res.body, `id="err-winner">Choose the winner.`)
		assert.Contains(t, res.body, `id="err-scoreP2">Give both scores, or neither.`)
		res = adminPost(t, e, c, page+"/resolve", url.Values{"winner": {"76561198000000009"}})
		assert.Equal(t, http.StatusUnprocessableEntity, res.status)
		assert.Contains(t, res.body, "The winner must be one of the two sides.")
	})
	t.Run("ResolvesOnce", func(t *testing.T) {
		loc := adminPostOK(t, e, c, page+"/resolve", url.Values{"winner": {b}, "scoreP1": {"1"}, "scoreP2": {"2"}})
		assert.Equal(t, page+"?done=resolved", loc)
		_, body := e.get(t, c, loc)
		assert.Contains(t, body, "Match resolved. The decision is final.")
		assert.Contains(t, body, "This match is resolved; the decision is final.")
		assert.NotContains(t, body, `name="winner"`)
		_, list := adminAPI(t, e, "GET", "/api/v1/admin/tournaments/duel/matches", "Bearer "+e.adminToken, nil)
		got := list["matches"].([]any)[0].(map[string]any)
		assert.Equal(t, "confirmed", got["status"])
		assert.Equal(t, "admin", got["resultSource"])
		assert.Equal(t, b, got["winner"])
		assert.Equal(t, map[string]any{"p1": float64(1), "p2": float64(2)}, got["score"])

		res := adminPost(t, e, c, page+"/resolve", url.Values{"winner": {a}})
		assert.Equal(t, http.StatusConflict, res.status)
		assert.Contains(t, res.body, "This match is already resolved: the decision is final. Nothing was changed.")
		_, list = adminAPI(t, e, "GET", "/api/v1/admin/tournaments/duel/matches", "Bearer "+e.adminToken, nil)
		assert.Equal(t, b, list["matches"].([]any)[0].(map[string]any)["winner"])

		_, body = e.get(t, c, "/admin/tournaments/duel")
		assert.Contains(t, body, `<span class="badge status-completed">Completed</span>`, "the final completes the tournament")
		_, body = e.get(t, c, "/admin")
		assert.NotContains(t, body, `href="`+page+`"`, "the queue is empty again")
	})
}

var apiKeyPattern = regexp.MustCompile(`apikey_[0-9a-f]{8}_[A-Za-z0-9_-]+`)

func TestAdminAPIKeys(t *testing.T) {
	e := newSiteEnv(t)
	c := adminBrowser(t, e, adminID)
	authenticated := func(key string) any {
		status, meta := adminAPI(t, e, "GET", "/api/v1", "Bearer "+key, nil)
		require.Equal(t, http.StatusOK, status)
		return meta["authenticated"]
	}

	t.Run("ErrLabelTooLong", func(t *testing.T) {
		res := adminPost(t, e, c, "/admin/api-keys", url.Values{"label": {strings.Repeat("x", 101)}})
		assert.Equal(t, http.StatusUnprocessableEntity, res.status)
		assert.Contains(t, res.body, `id="err-label">At most 100 characters.`)
		assert.NotRegexp(t, apiKeyPattern, res.body)
	})
	res := adminPost(t, e, c, "/admin/api-keys", url.Values{"label": {"Stats site"}})
	require.Equal(t, http.StatusCreated, res.status)
	key := apiKeyPattern.FindString(res.body)
	require.NotEmpty(t, key, "the new key is shown")
	id := strings.Split(key, "_")[1]

	t.Run("ShownOnce", func(t *testing.T) {
		status, body := e.get(t, c, "/admin/api-keys")
		require.Equal(t, http.StatusOK, status)
		assert.Contains(t, body, "Stats site")
		assert.Contains(t, body, id)
		assert.NotContains(t, body, key)
		assert.NotRegexp(t, apiKeyPattern, body)
	})
	t.Run("Authenticates", func(t *testing.T) {
		assert.Equal(t, true, authenticated(key))
	})
	t.Run("Revokes", func(t *testing.T) {
		loc := adminPostOK(t, e, c, "/admin/api-keys/"+id+"/revoke", nil)
		_, body := e.get(t, c, loc)
		assert.Contains(t, body, "API key revoked")
		assert.NotContains(t, body, `action="/admin/api-keys/`+id+`/revoke"`)
		assert.Equal(t, false, authenticated(key))
	})
	t.Run("ErrUnknownKey", func(t *testing.T) {
		res := adminPost(t, e, c, "/admin/api-keys/0badc0de/revoke", nil)
		assert.Equal(t, http.StatusNotFound, res.status)
	})
}

var adminTokenPattern = regexp.MustCompile(`admkey_[0-9a-f]{8}_[A-Za-z0-9_-]+`)

func TestAdminTokensPage(t *testing.T) {
	e := newSiteEnv(t)
	c := adminBrowser(t, e, adminID)
	works := func(token string) bool {
		status, _ := adminAPI(t, e, "GET", "/api/v1/admin/admin-tokens", "Bearer "+token, nil)
		return status == http.StatusOK
	}

	t.Run("ListsTheOperatorsToken", func(t *testing.T) {
		status, body := e.get(t, c, "/admin/admin-tokens")
		require.Equal(t, http.StatusOK, status)
		assert.Contains(t, body, "<h1>Admin tokens</h1>")
		assert.Contains(t, body, `<a href="/admin/admin-tokens" aria-current="page">Admin tokens</a>`, "beside API keys in the menu")
		assert.Contains(t, body, strings.Split(e.adminToken, "_")[1])
		assert.Contains(t, body, "<td>operator</td>")
		assert.NotRegexp(t, adminTokenPattern, body)
	})
	t.Run("ErrLabelTooLong", func(t *testing.T) {
		res := adminPost(t, e, c, "/admin/admin-tokens", url.Values{"label": {strings.Repeat("x", 101)}})
		assert.Equal(t, http.StatusUnprocessableEntity, res.status)
		assert.Contains(t, res.body, `id="err-label">At most 100 characters.`)
		assert.Contains(t, res.body, "No token was minted")
		assert.NotRegexp(t, adminTokenPattern, res.body)
	})
	res := adminPost(t, e, c, "/admin/admin-tokens", url.Values{"label": {"Deploy script"}})
	require.Equal(t, http.StatusCreated, res.status, adminNoticeText(res.body))
	token := adminTokenPattern.FindString(res.body)
	require.NotEmpty(t, token, "the new token is shown")
	id := strings.Split(token, "_")[1]

	t.Run("ShownOnceAndWorks", func(t *testing.T) {
		_, body := e.get(t, c, "/admin/admin-tokens")
		assert.Contains(t, body, "Deploy script")
		assert.Contains(t, body, id)
		assert.NotContains(t, body, token)
		assert.True(t, works(token))
	})
	t.Run("Revokes", func(t *testing.T) {
		loc := adminPostOK(t, e, c, "/admin/admin-tokens/"+id+"/revoke", nil)
		_, body := e.get(t, c, loc)
		assert.Contains(t, body, "Admin token revoked")
		assert.NotContains(t, body, `action="/admin/admin-tokens/`+id+`/revoke"`)
		assert.False(t, works(token))
	})
	t.Run("ErrLastAdminToken", func(t *testing.T) {
		res := adminPost(t, e, c, "/admin/admin-tokens/"+strings.Split(e.adminToken, "_")[1]+"/revoke", nil)
		assert.Equal(t, http.StatusConflict, res.status)
		assert.Contains(t, res.body, "last admin token: mint another one before revoking it")
		assert.True(t, works(e.adminToken))
	})
	t.Run("ErrUnknownToken", func(t *testing.T) {
		res := adminPost(t, e, c, "/admin/admin-tokens/0badc0de/revoke", nil)
		assert.Equal(t, http.StatusNotFound, res.status)
	})
}

func TestAdminSettings(t *testing.T) {
	platform := newOpenIDEnv(t) // storing a publisher key moves the arena to platform sign-in
	e := platform.siteEnv
	c := adminBrowser(t, e, adminID)
	form := func() url.Values {
		return url.Values{
			"name": {"Renamed Arena"}, "plan": {"indie"}, "refereeEnabled": {"on"}, "gracePeriodSeconds": {"7200"},
			"appIds": {"480\n1234"}, "identity": {"my-game"}, "publisherKey": {""},
			"anonymousPerMinute": {"30"}, "keyPerMinute": {"300"},
			"through": {"1", "2", "4", "", ""}, "points": {"100", "60", "30", "", ""}, "played": {"5"},
		}
	}
	arena := func() map[string]any {
		status, out := adminAPI(t, e, "GET", "/api/v1/operator/arenas", "Bearer operator", nil)
		require.Equal(t, http.StatusOK, status)
		for _, a := range out["arenas"].([]any) {
			if a := a.(map[string]any); a["slug"] == "demo" {
				return a
			}
		}
		t.Fatal("no demo arena")
		return nil
	}
	metaName := func() any {
		_, meta := adminAPI(t, e, "GET", "/api/v1", "", nil)
		return meta["tenant"].(map[string]any)["name"]
	}

	t.Run("ShowsTheSettings", func(t *testing.T) {
		status, body := e.get(t, c, "/admin/settings")
		require.Equal(t, http.StatusOK, status)
		assert.Contains(t, body, `value="Demo Arena"`)
		assert.Contains(t, body, "Ada Lovelace")
		assert.Contains(t, body, "No key is stored")
	})
	t.Run("ErrFieldsAreMarked", func(t *testing.T) {
		f := form()
		f.Set("name", "")
		f.Set("appIds", "480\nabc")
		f.Set("gracePeriodSeconds", "-1")
		f["through"] = []string{"4", "2"}
		f["points"] = []string{"10", "20"}
		res := adminPost(t, e, c, "/admin/settings", f)
		assert.Equal(t, http.StatusUnprocessableEntity, res.status)
		assert.Contains(t, res.body, `id="err-name">Enter the arena&#39;s name.`)
		assert.Contains(t, res.body, `id="err-appIds">abc is not an AppID`)
		assert.Contains(t, res.body, `id="err-gracePeriodSeconds">Enter a whole number from 0 to 604800.`)
		assert.Contains(t, res.body, `id="err-placementPoints">Row 2: places must go up from row to row.`)
		assert.Equal(t, "Demo Arena", metaName(), "nothing changed")
	})
	t.Run("SavesEverySetting", func(t *testing.T) {
		loc := adminPostOK(t, e, c, "/admin/settings", form())
		_, body := e.get(t, c, loc)
		assert.Contains(t, body, "Settings saved.")
		assert.Equal(t, "Renamed Arena", metaName(), "the public meta object shows the name")
		a := arena()
		assert.Equal(t, "indie", a["plan"])
		assert.Equal(t, true, a["refereeEnabled"])
		assert.Equal(t, float64(7200), a["gracePeriodSeconds"])
		assert.Equal(t, []any{"480", "1234"}, a["appIds"])
		assert.Equal(t, "my-game", a["identity"])
		assert.Equal(t, map[string]any{"anonymousPerMinute": float64(30), "keyPerMinute": float64(300)}, a["rateLimits"])
		assert.Equal(t, false, a["hasPublisherKey"])
		assert.Contains(t, body, `name="through" min="1" max="4096" value="4"`)
		assert.Contains(t, body, `name="points" min="0" max="100000" value="60"`)
		assert.Contains(t, body, `id="played" name="played" type="number" value="5"`)
	})
	t.Run("PublisherKeyIsWriteOnly", func(t *testing.T) {
		f := form()
		f.Set("publisherKey", "pk-secret-123")
		adminPostOK(t, e, c, "/admin/settings", f)
		assert.Equal(t, true, arena()["hasPublisherKey"])
		status, _ := e.get(t, c, "/admin/settings")
		assert.Equal(t, http.StatusSeeOther, status, "the session signed in with a typed id ended")
		c = e.browser(t)
		platform.platformSignIn(t, c, e.http.URL, adminID)
		_, body := e.get(t, c, "/admin/settings")
		assert.NotContains(t, body, "pk-secret-123")
		assert.Contains(t, body, "A key is stored")

		adminPostOK(t, e, c, "/admin/settings", form())
		assert.Equal(t, true, arena()["hasPublisherKey"], "empty keeps the key")

		f = form()
		f.Set("publisherKey", "other")
		f.Set("removePublisherKey", "on")
		res := adminPost(t, e, c, "/admin/settings", f)
		assert.Equal(t, http.StatusUnprocessableEntity, res.status)
		assert.Contains(t, res.body, "Enter a new key or remove the stored one, not both.")

		f = form()
		f.Set("removePublisherKey", "on")
		adminPostOK(t, e, c, "/admin/settings", f)
		assert.Equal(t, false, arena()["hasPublisherKey"])
	})
	t.Run("AdminPlayers", func(t *testing.T) {
		player := adminBrowser(t, e, playerID)
		status, _ := e.get(t, player, "/admin")
		require.Equal(t, http.StatusForbidden, status)

		res := adminPost(t, e, c, "/admin/settings/admins", url.Values{"adminPlatformId": {"123"}})
		assert.Equal(t, http.StatusUnprocessableEntity, res.status)
		assert.Contains(t, res.body, `id="err-adminPlatformId">Enter a 17-digit account id.`)

		loc := adminPostOK(t, e, c, "/admin/settings/admins", url.Values{"adminPlatformId": {playerID}})
		assert.Equal(t, "/admin/settings?done=admin-added#admins", loc)
		status, _ = e.get(t, player, "/admin")
		assert.Equal(t, http.StatusOK, status, "the new admin sees the pages")
		loc = adminPostOK(t, e, c, "/admin/settings/admins", url.Values{"adminPlatformId": {playerID}})
		_, body := e.get(t, c, loc)
		assert.Contains(t, body, "That player already is an admin.")
		assert.Contains(t, body, "Blaise Pascal")

		res = adminPost(t, e, c, "/admin/settings/admins/"+adminID+"/remove", nil)
		assert.Equal(t, http.StatusConflict, res.status)
		assert.Contains(t, res.body, "You cannot remove yourself")

		adminPostOK(t, e, c, "/admin/settings/admins/"+playerID+"/remove", nil)
		status, _ = e.get(t, player, "/admin")
		assert.Equal(t, http.StatusForbidden, status, "removed")
		res = adminPost(t, e, c, "/admin/settings/admins/"+playerID+"/remove", nil)
		assert.Equal(t, http.StatusNotFound, res.status)
		assert.Contains(t, res.body, "That player is not an admin.")
	})
}

func TestAdminFormsRefuseCrossSite(t *testing.T) {
	e := newSiteEnv(t)
	c := adminBrowser(t, e, adminID)
	_, list := adminAPI(t, e, "GET", "/api/v1/admin/tournaments/winter-cup/matches", "Bearer "+e.adminToken, nil)
	match := list["matches"].([]any)[len(list["matches"].([]any))-1].(map[string]any)
	matchPath := fmt.Sprintf("/admin/matches/%.0f", match["id"])
	res := adminPost(t, e, c, "/admin/api-keys", url.Values{"label": {"kept"}})
	require.Equal(t, http.StatusCreated, res.status)
	keyID := strings.Split(apiKeyPattern.FindString(res.body), "_")[1]

	for _, tc := range []struct {
		path string
		form url.Values
	}{
		{"/admin/tournaments", adminTournamentForm(e, "xsite", "playoffs_only", 4)},
		{"/admin/tournaments/spring-invitational", adminTournamentForm(e, "spring-invitational", "playoffs_only", 4)},
		{"/admin/tournaments/spring-invitational/status", url.Values{"to": {"cancelled"}}},
		{"/admin/tournaments/spring-invitational/registrations", url.Values{"platformId": {"76561198000000199"}}},
		{"/admin/tournaments/spring-invitational/seeds", url.Values{"seed-" + adminID: {"9"}}},
		{matchPath + "/resolve", url.Values{"winner": {fmt.Sprint(match["p1PlatformId"])}}},
		{"/admin/api-keys", url.Values{"label": {"xsite"}}},
		{"/admin/api-keys/" + keyID + "/revoke", nil},
		{"/admin/settings", url.Values{"name": {"Hijacked"}}},
		{"/admin/settings/admins", url.Values{"adminPlatformId": {playerID}}},
		{"/admin/settings/admins/" + adminID + "/remove", nil},
	} {
		assert.Equal(t, http.StatusForbidden, adminCrossSite(t, e, c, tc.path, tc.form), tc.path)
	}

	status, _ := e.get(t, c, "/admin/tournaments/xsite")
	assert.Equal(t, http.StatusNotFound, status, "no tournament created")
	_, body := e.get(t, c, "/admin/tournaments/spring-invitational")
	assert.Contains(t, body, `<span class="badge status-registration_open">Registration open</span>`, "not cancelled")
	assert.NotContains(t, body, "76561198000000199", "nobody registered")
	_, list = adminAPI(t, e, "GET", "/api/v1/admin/tournaments/winter-cup/matches", "Bearer "+e.adminToken, nil)
	after := list["matches"].([]any)[len(list["matches"].([]any))-1].(map[string]any)
	assert.Equal(t, match["status"], after["status"], "match not resolved")
	_, body = e.get(t, c, "/admin/api-keys")
	assert.NotContains(t, body, "xsite")
	assert.Contains(t, body, `action="/admin/api-keys/`+keyID+`/revoke"`, "key not revoked")
	_, meta := adminAPI(t, e, "GET", "/api/v1", "", nil)
	assert.Equal(t, "Demo Arena", meta["tenant"].(map[string]any)["name"])
	player := adminBrowser(t, e, playerID)
	status, _ = e.get(t, player, "/admin")
	assert.Equal(t, http.StatusForbidden, status, "no admin added")
}
