package web_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/core"
	"arena/worker/arenatest"
)

func utcField(t time.Time) string { return t.UTC().Format("2006-01-02T15:04") }

// adminTournamentForm is a valid create form: registration open from an
// hour ago for a day.
func adminTournamentForm(e *arenatest.Arena, slug, format string, max int) url.Values {
	f := url.Values{
		"slug": {slug}, "name": {"Cup " + slug}, "description": {"Rules: be kind."}, "format": {format},
		"maxPlayers": {fmt.Sprint(max)}, "registrationOpensAt": {utcField(e.Now.Add(-time.Hour))},
		"registrationClosesAt": {utcField(e.Now.Add(24 * time.Hour))}, "startsAt": {utcField(e.Now.Add(48 * time.Hour))},
		"environment": {"demo"}, "season": {""}, "teamMinPlayers": {"1"}, "teamMaxPlayers": {"1"},
		"matchWindowMinutes": {"60"}, "handMode": {"hidden"}, "delaySeconds": {"0"}, "allowSpectators": {"on"},
	}
	return f
}

// adminStep moves a tournament one step through its confirmation page.
func adminStep(t *testing.T, c *arenatest.Browser, slug, to string) {
	t.Helper()
	page := c.Get(t, "/admin/tournaments/"+slug+"/status?to="+to)
	require.Equal(t, http.StatusOK, page.Status, page.Notices())
	require.Contains(t, page.Body, `name="to" value="`+to+`"`)
	c.PostOK(t, "/admin/tournaments/"+slug+"/status", url.Values{"to": {to}})
}

func TestAdminAccess(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
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
		"/admin/settings/admins", "/admin/settings/admins/" + arenatest.Ada + "/remove",
	}

	t.Run("VisitorIsSentToSignIn", func(t *testing.T) {
		c := e.Browser(t)
		for _, p := range pages {
			resp := c.Get(t, p)
			assert.Equal(t, http.StatusSeeOther, resp.Status, p)
			assert.Equal(t, "/signin?next="+url.QueryEscape(p), resp.Location, p)
		}
		for _, p := range forms {
			res := c.Post(t, p, url.Values{"label": {"x"}})
			assert.Equal(t, http.StatusSeeOther, res.Status, p)
			assert.Equal(t, "/signin?next=%2Fadmin", res.Location, p)
		}
	})
	t.Run("PlayerIsForbidden", func(t *testing.T) {
		c := e.SignedIn(t, arenatest.Blaise)
		for _, p := range pages {
			page := c.Get(t, p)
			assert.Equal(t, http.StatusForbidden, page.Status, p)
			assert.Contains(t, page.Body, "for the arena&#39;s admins", p)
		}
		for _, p := range forms {
			res := c.Post(t, p, url.Values{"label": {"x"}, "adminPlatformId": {arenatest.Blaise}, "name": {"Taken over"}})
			assert.Equal(t, http.StatusForbidden, res.Status, p)
		}
		admin := e.SignedIn(t, arenatest.Ada)
		body := admin.Get(t, "/admin/api-keys").Body
		assert.Contains(t, body, "No keys yet.", "the player minted nothing")
		body = admin.Get(t, "/admin/settings").Body
		assert.NotContains(t, body, "Taken over")
		status := c.Get(t, "/admin").Status
		assert.Equal(t, http.StatusForbidden, status, "the player did not make themselves an admin")
	})
	t.Run("AdminSeesEveryPage", func(t *testing.T) {
		c := e.SignedIn(t, arenatest.Ada)
		for _, p := range pages {
			shown := c.Get(t, p)
			assert.Equal(t, http.StatusOK, shown.Status, p)
			assert.Contains(t, shown.Body, `<nav class="admin-nav"`, p)
		}
		view := c.Get(t, "/admin")
		require.Equal(t, http.StatusOK, view.Status)
		assert.Contains(t, view.Body, `href="/admin"`, "the layout links the admin pages")
		assert.Contains(t, view.Body, "Spring Invitational")
		assert.Contains(t, view.Body, "Winter Cup")
		view = c.Get(t, "/admin/tournaments/nope")
		assert.Equal(t, http.StatusNotFound, view.Status)
		view = c.Get(t, "/admin/matches/999999")
		assert.Equal(t, http.StatusNotFound, view.Status)
		for _, action := range []string{"resolve", "reopen", "accept-report", "window"} {
			form := url.Values{"winner": {arenatest.Ada}, "opensAt": {"2030-01-01T10:00"}, "closesAt": {"2030-01-01T11:00"}}
			gone := c.Post(t, "/admin/matches/999999/"+action, form)
			assert.Equal(t, http.StatusNotFound, gone.Status, action)
			assert.Contains(t, gone.Body, "There is no such match.", action)
		}
	})
}

func TestAdminTournamentForm(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	c := e.SignedIn(t, arenatest.Ada)

	t.Run("NewFormNamesTheZone", func(t *testing.T) {
		page := c.Get(t, "/admin/tournaments/new")
		require.Equal(t, http.StatusOK, page.Status)
		assert.Contains(t, page.Body, `type="datetime-local"`)
		assert.Contains(t, page.Body, `<label for="registrationOpensAt">Registration opens</label>`)
		assert.Contains(t, page.Body, `<input type="hidden" name="registrationOpensAtOffset" value="0">`)
		assert.Contains(t, page.Body, `Time in <span data-zone-hint>UTC</span>`, "UTC until the script names the viewer's zone")
		assert.Contains(t, page.Body, `<option value="season-1" dir="auto" translate="no">Season 1</option>`)
	})
	t.Run("ErrFieldsAreMarked", func(t *testing.T) {
		f := adminTournamentForm(e, "Bad Slug", "groups_playoffs", 1)
		f.Set("name", " ")
		f.Set("description", "Keep me as typed")
		f.Set("registrationClosesAt", utcField(e.Now.Add(-2*time.Hour)))
		f.Set("matchWindowMinutes", "2")
		f.Set("handMode", "sideways")
		f.Set("season", "no-such-season")
		res := c.Post(t, "/admin/tournaments", f)
		require.Equal(t, http.StatusUnprocessableEntity, res.Status)
		for field, msg := range map[string]string{
			"slug":                 "Use 1 to 40 lowercase letters, digits and inner hyphens.",
			"name":                 "Enter a name.",
			"maxPlayers":           "Enter a whole number from 2 to 1024.",
			"registrationClosesAt": "Registration must close after it opens.",
			"matchWindowMinutes":   "Enter a whole number from 5 to 20160.",
			"handMode":             "Choose hidden, delayed or shown.",
			"season":               "There is no such season.",
		} {
			assert.Contains(t, res.Body, `<p class="field-error" id="err-`+field+`">`+html.EscapeString(msg)+`</p>`, field)
			assert.Contains(t, res.Body, `aria-describedby="err-`+field+`"`, field)
		}
		assert.Contains(t, res.Body, "Keep me as typed", "the form comes back as typed")
		assert.Contains(t, res.Body, `value="Bad Slug"`)
		status := c.Get(t, "/admin/tournaments/bad-slug").Status
		assert.Equal(t, http.StatusNotFound, status)
	})
	t.Run("ErrCrossFieldRules", func(t *testing.T) {
		f := adminTournamentForm(e, "cross", "groups_playoffs", 4)
		f.Set("startsAt", utcField(e.Now))
		f.Set("teamMinPlayers", "3")
		f.Set("teamMaxPlayers", "2")
		f.Set("groupCount", "3")
		res := c.Post(t, "/admin/tournaments", f)
		require.Equal(t, http.StatusUnprocessableEntity, res.Status)
		assert.Contains(t, res.Body, "The tournament cannot start before registration closes.")
		assert.Contains(t, res.Body, "At most must not be below at least.")
		assert.Contains(t, res.Body, "Too many groups: each needs at least two of the 4 sides.")

		f = adminTournamentForm(e, "cross", "playoffs_only", 4)
		f.Set("groupCount", "2")
		res = c.Post(t, "/admin/tournaments", f)
		require.Equal(t, http.StatusUnprocessableEntity, res.Status)
		assert.Contains(t, res.Body, `id="err-groupCount">Only for groups then playoffs: leave it empty.`)
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
		loc := c.PostOK(t, "/admin/tournaments", f)
		assert.Equal(t, "/admin/tournaments/cup-one?done=created", loc)
		view := c.Get(t, loc)
		require.Equal(t, http.StatusOK, view.Status)
		assert.Contains(t, view.Body, "Tournament created as a draft")
		assert.Contains(t, view.Body, `<span class="badge status-draft">Draft</span>`)
		assert.Contains(t, view.Body, `value="`+utcField(e.Now.Add(-time.Hour))+`"`, "times shown in UTC")

		got := e.Admin(t, "GET", "/api/v1/admin/tournaments/cup-one", nil, http.StatusOK)
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

		dash := c.Get(t, "/admin").Body
		assert.Contains(t, dash, `href="/admin/tournaments/cup-one"`, "the dashboard lists drafts")
	})
	t.Run("ErrSlugTaken", func(t *testing.T) {
		res := c.Post(t, "/admin/tournaments", adminTournamentForm(e, "cup-one", "playoffs_only", 4))
		assert.Equal(t, http.StatusConflict, res.Status)
		assert.Contains(t, res.Body, `id="err-slug">Another tournament has this slug.`)
	})
	t.Run("EditsTheDraft", func(t *testing.T) {
		f := adminTournamentForm(e, "cup-1", "playoffs_only", 16)
		f.Set("name", "Cup One, renamed")
		loc := c.PostOK(t, "/admin/tournaments/cup-one", f)
		assert.Equal(t, "/admin/tournaments/cup-1?done=saved", loc)
		answer := c.Get(t, loc)
		require.Equal(t, http.StatusOK, answer.Status)
		assert.Contains(t, answer.Body, "Cup One, renamed")
		answer = c.Get(t, "/admin/tournaments/cup-one")
		assert.Equal(t, http.StatusNotFound, answer.Status, "the slug moved")
		got := e.Admin(t, "GET", "/api/v1/admin/tournaments/cup-1", nil, http.StatusOK)
		assert.Equal(t, "playoffs_only", got["format"])
		assert.Equal(t, float64(0), got["groupCount"])
		assert.Equal(t, true, got["allowSpectators"])
	})
	t.Run("ErrEditIsChecked", func(t *testing.T) {
		f := adminTournamentForm(e, "cup-1", "playoffs_only", 16)
		f.Set("maxPlayers", "5000")
		res := c.Post(t, "/admin/tournaments/cup-1", f)
		assert.Equal(t, http.StatusUnprocessableEntity, res.Status)
		assert.Contains(t, res.Body, `id="err-maxPlayers">Enter a whole number from 2 to 1024.`)
		assert.Contains(t, res.Body, `value="5000"`)
		got := e.Admin(t, "GET", "/api/v1/admin/tournaments/cup-1", nil, http.StatusOK)
		assert.Equal(t, float64(16), got["maxPlayers"], "nothing changed")
	})
	t.Run("ErrOnlyDraftsAreEdited", func(t *testing.T) {
		adminStep(t, c, "cup-1", "registration_open")
		f := adminTournamentForm(e, "cup-1", "playoffs_only", 16)
		f.Set("name", "Too late")
		res := c.Post(t, "/admin/tournaments/cup-1", f)
		assert.Equal(t, http.StatusConflict, res.Status)
		assert.Contains(t, res.Body, "Only drafts can be edited: this tournament is registration open. Nothing was changed.")
		assert.NotContains(t, res.Body, `action="/admin/tournaments/cup-1" class="admin-form"`, "no edit form")
		got := e.Admin(t, "GET", "/api/v1/admin/tournaments/cup-1", nil, http.StatusOK)
		assert.Equal(t, "Cup One, renamed", got["name"])
	})
}

// seedInput is the seed field of a side in the seed editor, with its value.
func seedInput(id, value string) string {
	return `name="seed-` + id + `" type="number" min="1" max="4096" value="` + value + `"`
}

func TestAdminLifecycle(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	c := e.SignedIn(t, arenatest.Ada)
	p := func(i int) string { return fmt.Sprintf("765611980000001%02d", i) }
	c.PostOK(t, "/admin/tournaments", adminTournamentForm(e, "bracket-cup", "playoffs_only", 4))
	base := "/admin/tournaments/bracket-cup"

	t.Run("ConfirmationSaysWhatTheStepDoes", func(t *testing.T) {
		shown := c.Get(t, base+"/status?to=registration_open")
		require.Equal(t, http.StatusOK, shown.Status)
		assert.Contains(t, shown.Body, "The tournament becomes public.")
		assert.Contains(t, shown.Body, "Its settings can no longer be edited.")
		assert.Contains(t, shown.Body, `<form method="post" action="/admin/tournaments/bracket-cup/status">`)
		page := c.Get(t, base).Body
		assert.Contains(t, page, `href="/admin/tournaments/bracket-cup/status?to=registration_open"`)
		assert.Contains(t, page, `href="/admin/tournaments/bracket-cup/status?to=cancelled"`)
		assert.NotContains(t, page, `status?to=playoffs"`, "only legal steps are offered")
	})
	t.Run("ErrIllegalStep", func(t *testing.T) {
		view := c.Get(t, base+"/status?to=playoffs")
		assert.Equal(t, http.StatusConflict, view.Status)
		assert.Contains(t, view.Body, "The tournament cannot go from draft to playoffs in one step.")
		assert.NotContains(t, view.Body, `name="to"`)
		res := c.Post(t, base+"/status", url.Values{"to": {"registration_closed"}})
		assert.Equal(t, http.StatusConflict, res.Status)
		assert.Contains(t, res.Body, "The tournament cannot go from draft to registration closed in one step.")
		view = c.Get(t, base+"/status?to=bogus")
		assert.Equal(t, http.StatusNotFound, view.Status)
	})
	adminStep(t, c, "bracket-cup", "registration_open")

	t.Run("RegistersSides", func(t *testing.T) {
		c.PostOK(t, base+"/registrations", url.Values{"platformId": {p(1)}, "personaName": {"Alice"}, "seed": {"3"}})
		c.PostOK(t, base+"/registrations", url.Values{"platformId": {p(2)}, "personaName": {"Bob"}})
		loc := c.PostOK(t, base+"/registrations", url.Values{"platformId": {p(3)}, "personaName": {"Carol"}, "seed": {"1"}})
		assert.Equal(t, base+"?done=registered#registrations", loc)
		body := c.Get(t, loc).Body
		assert.Contains(t, body, "Side registered.")
		for _, name := range []string{"Alice", "Bob", "Carol"} {
			assert.Contains(t, body, name)
		}
		assert.Contains(t, body, seedInput(p(1), "3"))
		assert.Contains(t, body, seedInput(p(2), ""))
		assert.Contains(t, body, seedInput(p(3), "1"))
	})
	t.Run("ErrRegistration", func(t *testing.T) {
		res := c.Post(t, base+"/registrations", url.Values{"platformId": {"123"}, "seed": {"0"}})
		assert.Equal(t, http.StatusUnprocessableEntity, res.Status)
		assert.Contains(t, res.Body, `id="err-platformId">Enter a 17-digit account id.`)
		assert.Contains(t, res.Body, `id="err-seed">Enter a whole number from 1 to 4096.`)
		assert.Contains(t, res.Body, `value="123"`)
		res = c.Post(t, base+"/registrations", url.Values{"platformId": {p(1)}})
		assert.Equal(t, http.StatusConflict, res.Status)
		assert.Contains(t, res.Body, "This player (or one of the roster) is already on a side.")
	})
	t.Run("SetsSeeds", func(t *testing.T) {
		res := c.Post(t, base+"/seeds", url.Values{"seed-" + p(1): {"1"}, "seed-" + p(2): {"2"}, "seed-" + p(3): {"1"}})
		assert.Equal(t, http.StatusUnprocessableEntity, res.Status)
		assert.Contains(t, res.Body, "is already given to")
		body := c.Get(t, base).Body
		assert.Contains(t, body, seedInput(p(1), "3"), "nothing changed")

		loc := c.PostOK(t, base+"/seeds", url.Values{"seed-" + p(1): {"1"}, "seed-" + p(2): {"2"}, "seed-" + p(3): {""}})
		body = c.Get(t, loc).Body
		assert.Contains(t, body, "Seeds saved.")
		assert.Contains(t, body, seedInput(p(1), "1"))
		assert.Contains(t, body, seedInput(p(2), "2"))
		assert.Contains(t, body, seedInput(p(3), ""))
	})
	adminStep(t, c, "bracket-cup", "registration_closed")

	t.Run("SeedsChangeUntilTheDraw", func(t *testing.T) {
		body := c.Get(t, base+"/status?to=playoffs").Body
		assert.Contains(t, body, "Seeds the bracket from the 3 sides&#39; registration seeds")
		c.PostOK(t, base+"/seeds", url.Values{"seed-" + p(3): {"3"}})
		adminStep(t, c, "bracket-cup", "playoffs")
		res := c.Post(t, base+"/seeds", url.Values{"seed-" + p(3): {"2"}})
		assert.Equal(t, http.StatusConflict, res.Status)
		assert.Contains(t, res.Body, "they are fixed once the groups or the bracket are drawn")
		body = c.Get(t, base).Body
		assert.NotContains(t, body, `name="seed-`, "no seed editor after the draw")
		assert.Contains(t, body, "Playoffs")
		assert.Contains(t, body, "bye", "the top seed's bye")
	})
	t.Run("ErrMatchesUnresolved", func(t *testing.T) {
		res := c.Post(t, base+"/status", url.Values{"to": {"completed"}})
		assert.Equal(t, http.StatusConflict, res.Status)
		assert.Contains(t, res.Body, "Not yet: some matches are not resolved.")
	})
	t.Run("ErrTooFewEntrants", func(t *testing.T) {
		c.PostOK(t, "/admin/tournaments", adminTournamentForm(e, "solo-cup", "playoffs_only", 4))
		adminStep(t, c, "solo-cup", "registration_open")
		c.PostOK(t, "/admin/tournaments/solo-cup/registrations", url.Values{"platformId": {p(9)}})
		adminStep(t, c, "solo-cup", "registration_closed")
		res := c.Post(t, "/admin/tournaments/solo-cup/status", url.Values{"to": {"playoffs"}})
		assert.Equal(t, http.StatusConflict, res.Status)
		assert.Contains(t, res.Body, "Too few sides to draw: 1 registered.")
	})
	t.Run("CancelsForGood", func(t *testing.T) {
		answer := c.Get(t, "/admin/tournaments/solo-cup/status?to=cancelled")
		require.Equal(t, http.StatusOK, answer.Status)
		assert.Contains(t, answer.Body, "This cannot be undone.")
		adminStep(t, c, "solo-cup", "cancelled")
		answer = c.Get(t, "/admin/tournaments/solo-cup")
		assert.Contains(t, answer.Body, "This tournament is over: no further step.")
		answer = c.Get(t, "/admin/tournaments/solo-cup/status?to=registration_open")
		assert.Equal(t, http.StatusConflict, answer.Status)
		assert.Contains(t, answer.Body, "This tournament is cancelled: nothing can follow.")
	})
	t.Run("GroupStageThenForfeit", func(t *testing.T) {
		f := adminTournamentForm(e, "group-cup", "groups_playoffs", 4)
		f.Set("groupCount", "1")
		c.PostOK(t, "/admin/tournaments", f)
		adminStep(t, c, "group-cup", "registration_open")
		for i := 11; i <= 14; i++ {
			c.PostOK(t, "/admin/tournaments/group-cup/registrations", url.Values{"platformId": {p(i)}})
		}
		adminStep(t, c, "group-cup", "registration_closed")
		body := c.Get(t, "/admin/tournaments/group-cup/status?to=group_stage").Body
		assert.Contains(t, body, "Draws the 4 sides into 1 groups by seed")
		adminStep(t, c, "group-cup", "group_stage")
		res := c.Post(t, "/admin/tournaments/group-cup/status", url.Values{"to": {"playoffs"}})
		assert.Equal(t, http.StatusConflict, res.Status)
		assert.Contains(t, res.Body, "Not yet: some matches are not resolved.")

		list := e.Admin(t, "GET", "/api/v1/admin/tournaments/group-cup/matches", nil, http.StatusOK)
		matches := list["matches"].([]any)
		require.Len(t, matches, 6, "a round robin of four")
		m := matches[0].(map[string]any)
		id := fmt.Sprintf("%.0f", m["id"])
		loc := c.PostOK(t, "/admin/matches/"+id+"/resolve", url.Values{"winner": {m["p2PlatformId"].(string)}, "forfeit": {"on"}})
		body = c.Get(t, loc).Body
		assert.Contains(t, body, "Forfeited")
		list = e.Admin(t, "GET", "/api/v1/admin/tournaments/group-cup/matches", nil, http.StatusOK)
		got := list["matches"].([]any)[0].(map[string]any)
		assert.Equal(t, "forfeited", got["status"])
		assert.Equal(t, "admin", got["resultSource"])
		assert.Equal(t, m["p2PlatformId"], got["winner"])
	})
}

// adminDispute plays a match to a dispute: both sides ready, each side's
// client names itself the winner. It returns the two result strings.
func adminDispute(t *testing.T, e *arenatest.Arena, id, a, b string) [2]string {
	t.Helper()
	for _, side := range []string{a, b} {
		e.Game(t, "POST", "/api/v1/matches/"+id+"/ready", side, nil, http.StatusOK)
	}
	live := e.Game(t, "GET", "/api/v1/me/live-match", a, nil, http.StatusOK)
	var results [2]string
	for i, side := range []string{a, b} {
		res := fmt.Sprintf(`{"matchId":%s,"sessionNonce":%q,"winner":%q}`, id, live["sessionNonce"], side)
		sum := sha256.Sum256([]byte(res))
		role := []string{"host", "guest"}[i]
		e.Game(t, "POST", "/api/v1/matches/"+id+"/result", side, map[string]any{
			"protocol": "svc.result.v3", "result": res, "resultHash": hex.EncodeToString(sum[:]),
			"clientRole": role, "endedAt": "2026-11-20T12:30:00Z",
		}, http.StatusOK)
		results[i] = res
	}
	return results
}

func TestAdminResolveDispute(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	c := e.SignedIn(t, arenatest.Ada)
	a, b := "76561198000000101", "76561198000000102"
	c.PostOK(t, "/admin/tournaments", adminTournamentForm(e, "duel", "playoffs_only", 2))
	adminStep(t, c, "duel", "registration_open")
	c.PostOK(t, "/admin/tournaments/duel/registrations", url.Values{"platformId": {a}, "personaName": {"Ann"}})
	c.PostOK(t, "/admin/tournaments/duel/registrations", url.Values{"platformId": {b}, "personaName": {"Ben"}})
	adminStep(t, c, "duel", "registration_closed")
	adminStep(t, c, "duel", "playoffs")
	list := e.Admin(t, "GET", "/api/v1/admin/tournaments/duel/matches", nil, http.StatusOK)
	final := list["matches"].([]any)[0].(map[string]any)
	id := fmt.Sprintf("%.0f", final["id"])
	results := adminDispute(t, e, id, a, b)
	page := "/admin/matches/" + id

	t.Run("QueueListsTheDispute", func(t *testing.T) {
		body := c.Get(t, "/admin").Body
		assert.Contains(t, body, `href="`+page+`"`)
		assert.Contains(t, body, "<bdi>Ann</bdi> vs <bdi>Ben</bdi>")
		assert.Contains(t, body, `<span class="badge disputed">Disputed</span>`)
	})
	t.Run("SubmissionsSideBySide", func(t *testing.T) {
		shown := c.Get(t, page)
		require.Equal(t, http.StatusOK, shown.Status)
		for _, res := range results {
			assert.Contains(t, shown.Body, `<pre class="admin-result">`+html.EscapeString(res)+`</pre>`)
			sum := sha256.Sum256([]byte(res))
			assert.Contains(t, shown.Body, hex.EncodeToString(sum[:]))
		}
		assert.Contains(t, shown.Body, "The submissions differ.")
		assert.Contains(t, shown.Body, "<dd>host</dd>")
		assert.Contains(t, shown.Body, "<dd>guest</dd>")
		assert.Contains(t, shown.Body, `datetime="2026-11-20T12:30:00Z"`, "the client's endedAt")
		assert.Contains(t, shown.Body, `name="winner" value="`+a+`"`)
		assert.Contains(t, shown.Body, `name="winner" value="`+b+`"`)
		assert.NotContains(t, shown.Body, "Players' reports", "no reports, no section")
	})
	t.Run("ErrResolveForm", func(t *testing.T) {
		res := c.Post(t, page+"/resolve", url.Values{"scoreP1": {"2"}})
		assert.Equal(t, http.StatusUnprocessableEntity, res.Status)
		assert.Contains(t, res.Body, `id="err-winner">Choose the winner.`)
		assert.Contains(t, res.Body, `id="err-scoreP2">Give both scores, or neither.`)
		res = c.Post(t, page+"/resolve", url.Values{"winner": {"76561198000000009"}})
		assert.Equal(t, http.StatusUnprocessableEntity, res.Status)
		assert.Contains(t, res.Body, "The winner must be one of the two sides.")
	})
	t.Run("ResolvesOnce", func(t *testing.T) {
		loc := c.PostOK(t, page+"/resolve", url.Values{"winner": {b}, "scoreP1": {"1"}, "scoreP2": {"2"}})
		assert.Equal(t, page+"?done=resolved", loc)
		body := c.Get(t, loc).Body
		assert.Contains(t, body, "Match resolved.")
		assert.Contains(t, body, "This match is resolved.")
		assert.NotContains(t, body, `name="winner"`)
		list := e.Admin(t, "GET", "/api/v1/admin/tournaments/duel/matches", nil, http.StatusOK)
		got := list["matches"].([]any)[0].(map[string]any)
		assert.Equal(t, "confirmed", got["status"])
		assert.Equal(t, "admin", got["resultSource"])
		assert.Equal(t, b, got["winner"])
		assert.Equal(t, map[string]any{"p1": float64(1), "p2": float64(2)}, got["score"])

		res := c.Post(t, page+"/resolve", url.Values{"winner": {a}})
		assert.Equal(t, http.StatusConflict, res.Status)
		assert.Contains(t, res.Body, "This match is already resolved. Nothing was changed.")
		list = e.Admin(t, "GET", "/api/v1/admin/tournaments/duel/matches", nil, http.StatusOK)
		assert.Equal(t, b, list["matches"].([]any)[0].(map[string]any)["winner"])

		body = c.Get(t, "/admin/tournaments/duel").Body
		assert.Contains(t, body, `<span class="badge status-completed">Completed</span>`, "the final completes the tournament")
		body = c.Get(t, "/admin").Body
		assert.NotContains(t, body, `href="`+page+`"`, "the queue is empty again")
	})
}

var apiKeyPattern = regexp.MustCompile(`apikey_[0-9a-f]{8}_[A-Za-z0-9_-]+`)

func TestAdminAPIKeys(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	c := e.SignedIn(t, arenatest.Ada)
	authenticated := func(key string) any {
		meta := e.API(t, "GET", "/api/v1", "Bearer "+key, nil, http.StatusOK)
		return meta["authenticated"]
	}

	t.Run("ErrLabelTooLong", func(t *testing.T) {
		res := c.Post(t, "/admin/api-keys", url.Values{"label": {strings.Repeat("x", 101)}})
		assert.Equal(t, http.StatusUnprocessableEntity, res.Status)
		assert.Contains(t, res.Body, `id="err-label">At most 100 characters.`)
		assert.NotRegexp(t, apiKeyPattern, res.Body)
	})
	res := c.Post(t, "/admin/api-keys", url.Values{"label": {"Stats site"}})
	require.Equal(t, http.StatusCreated, res.Status)
	key := apiKeyPattern.FindString(res.Body)
	require.NotEmpty(t, key, "the new key is shown")
	id := strings.Split(key, "_")[1]

	t.Run("ShownOnce", func(t *testing.T) {
		page := c.Get(t, "/admin/api-keys")
		require.Equal(t, http.StatusOK, page.Status)
		assert.Contains(t, page.Body, "Stats site")
		assert.Contains(t, page.Body, id)
		assert.NotContains(t, page.Body, key)
		assert.NotRegexp(t, apiKeyPattern, page.Body)
	})
	t.Run("Authenticates", func(t *testing.T) {
		assert.Equal(t, true, authenticated(key))
	})
	t.Run("Revokes", func(t *testing.T) {
		loc := c.PostOK(t, "/admin/api-keys/"+id+"/revoke", nil)
		body := c.Get(t, loc).Body
		assert.Contains(t, body, "API key revoked")
		assert.NotContains(t, body, `action="/admin/api-keys/`+id+`/revoke"`)
		assert.Equal(t, false, authenticated(key))
	})
	t.Run("ErrUnknownKey", func(t *testing.T) {
		res := c.Post(t, "/admin/api-keys/0badc0de/revoke", nil)
		assert.Equal(t, http.StatusNotFound, res.Status)
	})
}

var adminTokenPattern = regexp.MustCompile(`admkey_[0-9a-f]{8}_[A-Za-z0-9_-]+`)

func TestAdminTokensPage(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	c := e.SignedIn(t, arenatest.Ada)
	works := func(token string) bool {
		status, _ := e.Do(t, "GET", "/api/v1/admin/admin-tokens", "Bearer "+token, nil)
		return status == http.StatusOK
	}

	t.Run("ListsTheOperatorsToken", func(t *testing.T) {
		view := c.Get(t, "/admin/admin-tokens")
		require.Equal(t, http.StatusOK, view.Status)
		assert.Contains(t, view.Body, "<h1>Admin tokens</h1>")
		assert.Contains(t, view.Body, `<a href="/admin/admin-tokens" aria-current="page">Admin tokens</a>`, "beside API keys in the menu")
		assert.Contains(t, view.Body, strings.Split(e.AdminToken, "_")[1])
		assert.Contains(t, view.Body, "<td><bdi>operator</bdi></td>")
		assert.NotRegexp(t, adminTokenPattern, view.Body)
	})
	t.Run("ErrLabelTooLong", func(t *testing.T) {
		res := c.Post(t, "/admin/admin-tokens", url.Values{"label": {strings.Repeat("x", 101)}})
		assert.Equal(t, http.StatusUnprocessableEntity, res.Status)
		assert.Contains(t, res.Body, `id="err-label">At most 100 characters.`)
		assert.Contains(t, res.Body, "No token was minted")
		assert.NotRegexp(t, adminTokenPattern, res.Body)
	})
	res := c.Post(t, "/admin/admin-tokens", url.Values{"label": {"Deploy script"}})
	require.Equal(t, http.StatusCreated, res.Status, res.Notices())
	token := adminTokenPattern.FindString(res.Body)
	require.NotEmpty(t, token, "the new token is shown")
	id := strings.Split(token, "_")[1]

	t.Run("ShownOnceAndWorks", func(t *testing.T) {
		body := c.Get(t, "/admin/admin-tokens").Body
		assert.Contains(t, body, "Deploy script")
		assert.Contains(t, body, id)
		assert.NotContains(t, body, token)
		assert.True(t, works(token))
	})
	t.Run("Revokes", func(t *testing.T) {
		loc := c.PostOK(t, "/admin/admin-tokens/"+id+"/revoke", nil)
		body := c.Get(t, loc).Body
		assert.Contains(t, body, "Admin token revoked")
		assert.NotContains(t, body, `action="/admin/admin-tokens/`+id+`/revoke"`)
		assert.False(t, works(token))
	})
	t.Run("ErrLastAdminToken", func(t *testing.T) {
		res := c.Post(t, "/admin/admin-tokens/"+strings.Split(e.AdminToken, "_")[1]+"/revoke", nil)
		assert.Equal(t, http.StatusConflict, res.Status)
		assert.Contains(t, res.Body, "last admin token: mint another one before revoking it")
		assert.True(t, works(e.AdminToken))
	})
	t.Run("ErrUnknownToken", func(t *testing.T) {
		res := c.Post(t, "/admin/admin-tokens/0badc0de/revoke", nil)
		assert.Equal(t, http.StatusNotFound, res.Status)
	})
}

func TestAdminSettings(t *testing.T) {
	platform := newOpenIDEnv(t) // storing a publisher key moves the arena to platform sign-in
	e := platform.Arena
	c := e.SignedIn(t, arenatest.Ada)
	form := func() url.Values {
		return url.Values{
			"name": {"Renamed Arena"}, "plan": {"indie"}, "refereeEnabled": {"on"}, "gracePeriodSeconds": {"7200"},
			"appIds": {"480\n1234"}, "identity": {"my-game"}, "publisherKey": {""},
			"anonymousPerMinute": {"30"}, "keyPerMinute": {"300"},
			"through": {"1", "2", "4", "", ""}, "points": {"100", "60", "30", "", ""}, "played": {"5"},
		}
	}
	arena := func() map[string]any {
		out := e.API(t, "GET", "/api/v1/operator/arenas", "Bearer "+e.OperatorToken, nil, http.StatusOK)
		for _, a := range out["arenas"].([]any) {
			if a := a.(map[string]any); a["slug"] == "demo" {
				return a
			}
		}
		t.Fatal("no demo arena")
		return nil
	}
	metaName := func() any {
		meta := e.API(t, "GET", "/api/v1", "", nil, http.StatusOK)
		return meta["tenant"].(map[string]any)["name"]
	}

	t.Run("ShowsTheSettings", func(t *testing.T) {
		page := c.Get(t, "/admin/settings")
		require.Equal(t, http.StatusOK, page.Status)
		assert.Contains(t, page.Body, `value="Demo Arena"`)
		assert.Contains(t, page.Body, "Ada Lovelace")
		assert.Contains(t, page.Body, "No key is stored")
	})
	t.Run("ErrFieldsAreMarked", func(t *testing.T) {
		f := form()
		f.Set("name", "")
		f.Set("appIds", "480\nabc")
		f.Set("gracePeriodSeconds", "-1")
		f["through"] = []string{"4", "2"}
		f["points"] = []string{"10", "20"}
		res := c.Post(t, "/admin/settings", f)
		assert.Equal(t, http.StatusUnprocessableEntity, res.Status)
		assert.Contains(t, res.Body, `id="err-name">Enter the arena&#39;s name.`)
		assert.Contains(t, res.Body, `id="err-appIds">abc is not an AppID`)
		assert.Contains(t, res.Body, `id="err-gracePeriodSeconds">Enter a whole number from 0 to 604800.`)
		assert.Contains(t, res.Body, `id="err-placementPoints">Row 2: places must go up from row to row.`)
		assert.Equal(t, "Demo Arena", metaName(), "nothing changed")
	})
	t.Run("SavesEverySetting", func(t *testing.T) {
		loc := c.PostOK(t, "/admin/settings", form())
		body := c.Get(t, loc).Body
		assert.Contains(t, body, "Settings saved.")
		assert.Equal(t, "Renamed Arena", metaName(), "the public meta object shows the name")
		a := arena()
		assert.Equal(t, "studio", a["plan"], "the plan is the operator's: the form's plan changes nothing")
		assert.Contains(t, body, "Plan: <strong>Studio</strong> (set by the operator)")
		assert.Equal(t, true, a["refereeEnabled"])
		assert.Equal(t, float64(7200), a["gracePeriodSeconds"])
		assert.Regexp(t, `id="gracePeriodSeconds" name="gracePeriodSeconds" type="number" min="0" required value="2"`, body, "7200 seconds shown as 2 hours")
		assert.Contains(t, body, `<option value="hours" selected>hours</option>`)
		f := form()
		f.Set("gracePeriodSeconds", "90")
		f.Set("gracePeriodSecondsUnit", "minutes")
		c.PostOK(t, "/admin/settings", f)
		assert.Equal(t, float64(5400), arena()["gracePeriodSeconds"], "typed in minutes")
		c.PostOK(t, "/admin/settings", form())
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
		c.PostOK(t, "/admin/settings", f)
		assert.Equal(t, true, arena()["hasPublisherKey"])
		status := c.Get(t, "/admin/settings").Status
		assert.Equal(t, http.StatusSeeOther, status, "the session signed in with a typed id ended")
		c = e.Browser(t)
		platform.platformSignIn(t, c, e.URL, arenatest.Ada)
		body := c.Get(t, "/admin/settings").Body
		assert.NotContains(t, body, "pk-secret-123")
		assert.Contains(t, body, "A key is stored")

		c.PostOK(t, "/admin/settings", form())
		assert.Equal(t, true, arena()["hasPublisherKey"], "empty keeps the key")

		f = form()
		f.Set("publisherKey", "other")
		f.Set("removePublisherKey", "on")
		res := c.Post(t, "/admin/settings", f)
		assert.Equal(t, http.StatusUnprocessableEntity, res.Status)
		assert.Contains(t, res.Body, "Enter a new key or remove the stored one, not both.")

		f = form()
		f.Set("removePublisherKey", "on")
		c.PostOK(t, "/admin/settings", f)
		assert.Equal(t, false, arena()["hasPublisherKey"])
	})
	t.Run("AdminPlayers", func(t *testing.T) {
		player := e.SignedIn(t, arenatest.Blaise)
		status := player.Get(t, "/admin").Status
		require.Equal(t, http.StatusForbidden, status)

		res := c.Post(t, "/admin/settings/admins", url.Values{"adminPlatformId": {"123"}})
		assert.Equal(t, http.StatusUnprocessableEntity, res.Status)
		assert.Contains(t, res.Body, `id="err-adminPlatformId">Enter a 17-digit account id.`)

		loc := c.PostOK(t, "/admin/settings/admins", url.Values{"adminPlatformId": {arenatest.Blaise}})
		assert.Equal(t, "/admin/settings?done=admin-added#admins", loc)
		status = player.Get(t, "/admin").Status
		assert.Equal(t, http.StatusOK, status, "the new admin sees the pages")
		loc = c.PostOK(t, "/admin/settings/admins", url.Values{"adminPlatformId": {arenatest.Blaise}})
		body := c.Get(t, loc).Body
		assert.Contains(t, body, "That player already is an admin.")
		assert.Contains(t, body, "Blaise Pascal")

		res = c.Post(t, "/admin/settings/admins/"+arenatest.Ada+"/remove", nil)
		assert.Equal(t, http.StatusConflict, res.Status)
		assert.Contains(t, res.Body, "You cannot remove yourself")

		c.PostOK(t, "/admin/settings/admins/"+arenatest.Blaise+"/remove", nil)
		status = player.Get(t, "/admin").Status
		assert.Equal(t, http.StatusForbidden, status, "removed")
		res = c.Post(t, "/admin/settings/admins/"+arenatest.Blaise+"/remove", nil)
		assert.Equal(t, http.StatusNotFound, res.Status)
		assert.Contains(t, res.Body, "That player is not an admin.")
	})
}

func TestAdminFormsRefuseCrossSite(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	c := e.SignedIn(t, arenatest.Ada)
	list := e.Admin(t, "GET", "/api/v1/admin/tournaments/winter-cup/matches", nil, http.StatusOK)
	match := list["matches"].([]any)[len(list["matches"].([]any))-1].(map[string]any)
	matchPath := fmt.Sprintf("/admin/matches/%.0f", match["id"])
	res := c.Post(t, "/admin/api-keys", url.Values{"label": {"kept"}})
	require.Equal(t, http.StatusCreated, res.Status)
	keyID := strings.Split(apiKeyPattern.FindString(res.Body), "_")[1]

	for _, tc := range []struct {
		path string
		form url.Values
	}{
		{"/admin/tournaments", adminTournamentForm(e, "xsite", "playoffs_only", 4)},
		{"/admin/tournaments/spring-invitational", adminTournamentForm(e, "spring-invitational", "playoffs_only", 4)},
		{"/admin/tournaments/spring-invitational/status", url.Values{"to": {"cancelled"}}},
		{"/admin/tournaments/spring-invitational/registrations", url.Values{"platformId": {"76561198000000199"}}},
		{"/admin/tournaments/spring-invitational/seeds", url.Values{"seed-" + arenatest.Ada: {"9"}}},
		{matchPath + "/resolve", url.Values{"winner": {fmt.Sprint(match["p1PlatformId"])}}},
		{"/admin/api-keys", url.Values{"label": {"xsite"}}},
		{"/admin/api-keys/" + keyID + "/revoke", nil},
		{"/admin/settings", url.Values{"name": {"Hijacked"}}},
		{"/admin/settings/admins", url.Values{"adminPlatformId": {arenatest.Blaise}}},
		{"/admin/settings/admins/" + arenatest.Ada + "/remove", nil},
	} {
		assert.Equal(t, http.StatusForbidden, c.PostCrossSite(t, tc.path, tc.form).Status, tc.path)
	}

	status := c.Get(t, "/admin/tournaments/xsite").Status
	assert.Equal(t, http.StatusNotFound, status, "no tournament created")
	body := c.Get(t, "/admin/tournaments/spring-invitational").Body
	assert.Contains(t, body, `<span class="badge status-registration_open">Registration open</span>`, "not cancelled")
	assert.NotContains(t, body, "76561198000000199", "nobody registered")
	list = e.Admin(t, "GET", "/api/v1/admin/tournaments/winter-cup/matches", nil, http.StatusOK)
	after := list["matches"].([]any)[len(list["matches"].([]any))-1].(map[string]any)
	assert.Equal(t, match["status"], after["status"], "match not resolved")
	body = c.Get(t, "/admin/api-keys").Body
	assert.NotContains(t, body, "xsite")
	assert.Contains(t, body, `action="/admin/api-keys/`+keyID+`/revoke"`, "key not revoked")
	meta := e.API(t, "GET", "/api/v1", "", nil, http.StatusOK)
	assert.Equal(t, "Demo Arena", meta["tenant"].(map[string]any)["name"])
	player := e.SignedIn(t, arenatest.Blaise)
	status = player.Get(t, "/admin").Status
	assert.Equal(t, http.StatusForbidden, status, "no admin added")
}

// Issue 25 point 3: the new-tournament form's registration window starts
// now, so opening registration lets players in at once; a tournament
// published before its window opens says when it opens (not
// "Registration open"), and its organizer is told why nobody can register
// yet and how to open it now.
func TestRegistrationOpenMeansOpen(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	admin := e.SignedIn(t, arenatest.Ada)
	now := e.ServiceNow(t)
	form := admin.Get(t, "/admin/tournaments/new").Body
	opens := regexp.MustCompile(`id="registrationOpensAt" name="registrationOpensAt" type="datetime-local" value="([^"]+)"`).FindStringSubmatch(form)
	require.NotNil(t, opens, "the form's registration opening")
	at, err := time.Parse("2006-01-02T15:04", opens[1])
	require.NoError(t, err)
	assert.False(t, at.After(now), "registration opens at once by default, not at %s (now %s)", at, now)

	e.Admin(t, "POST", "/api/v1/admin/tournaments", map[string]any{
		"slug": "later", "name": "Later Cup", "format": "playoffs_only", "maxPlayers": 8,
		"registrationOpensAt":  now.Add(time.Hour).Format(time.RFC3339),
		"registrationClosesAt": now.Add(48 * time.Hour).Format(time.RFC3339),
		"startsAt":             now.Add(72 * time.Hour).Format(time.RFC3339),
	}, http.StatusCreated)
	confirm := admin.Get(t, "/admin/tournaments/later/status?to=registration_open").Body
	assert.Contains(t, confirm, "nobody can register, not even from the admin pages", "the step says what opening early means")
	e.SetStatus(t, "later", "registration_open")
	page := e.Browser(t).Get(t, "/tournaments/later").Body
	head := pubBetween(t, page, `<header class="page-head">`, "</header>")
	assert.NotContains(t, head, ">Registration open<", "the badge does not claim an open registration")
	assert.Contains(t, head, "Registration opens")
	assert.Contains(t, page, "Registration opens <span>")

	manage := admin.Get(t, "/admin/tournaments/later").Body
	assert.Contains(t, manage, "its registration window opens", "the admin is told why nobody can register yet")
	refused := admin.Post(t, "/admin/tournaments/later/registrations", url.Values{"platformId": {arenatest.CupPlayer(1)}})
	assert.Contains(t, refused.Body, "the registration window opens "+core.FormatTime(now.Add(time.Hour), nil))
}
