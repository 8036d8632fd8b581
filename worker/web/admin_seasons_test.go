package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/worker/arenatest"
)

// TestAdminOrganizerTools drives the organizer's tools on the admin
// pages: the details of a tournament under way, removing and
// disqualifying sides, moving a match window, accepting a disputed report
// with the disputer's reason shown, the warning on one's own match, and
// the seasons page.
func TestAdminOrganizerTools(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	c := e.SignedIn(t, arenatest.Ada)
	players := arenatest.CupPlayers(4)
	e.OpenCup(t, arenatest.Cup{Slug: "org", MaxPlayers: 4, Players: append([]string{arenatest.Ada}, players[1:]...), Seeded: true})

	t.Run("DetailsAndScheduleWhileOpen", func(t *testing.T) {
		page := c.Get(t, "/admin/tournaments/org")
		assert.Contains(t, page.Body, `action="/admin/tournaments/org/details"`)
		assert.Contains(t, page.Body, `id="detailsStartsAt"`, "the schedule can change before the start")
		form := url.Values{
			"detailsName": {"Organizer Cup"}, "detailsDescription": {"Now with rules."},
			"detailsRegistrationOpensAt": {utcField(e.Now.Add(-time.Hour))}, "detailsRegistrationClosesAt": {utcField(e.Now.Add(2 * time.Hour))},
			"detailsStartsAt": {utcField(e.Now.Add(time.Hour))},
		}
		res := c.Post(t, "/admin/tournaments/org/details", form)
		assert.Equal(t, http.StatusUnprocessableEntity, res.Status)
		assert.Contains(t, res.Body, `id="err-detailsStartsAt">The tournament cannot start before registration closes.`)
		form.Set("detailsStartsAt", utcField(e.Now.Add(3*time.Hour)))
		assert.Equal(t, "/admin/tournaments/org?done=details#settings-title", c.PostOK(t, "/admin/tournaments/org/details", form))
		got := e.Admin(t, "GET", "/api/v1/admin/tournaments/org", nil, http.StatusOK)
		assert.Equal(t, "Organizer Cup", got["name"])
		assert.Equal(t, "Now with rules.", got["description"])
		assert.Equal(t, e.Now.Add(2*time.Hour).UTC().Format(time.RFC3339), got["registrationClosesAt"])
		assert.Equal(t, float64(0), got["gracePeriodMinutes"], "left empty: the arena's")
		assert.Regexp(t, `<dt>Grace period</dt>\s*<dd>1 day \(the arena&#39;s\)</dd>`, c.Get(t, "/admin/tournaments/org").Body)
	})

	t.Run("GracePeriodOfItsOwn", func(t *testing.T) {
		form := url.Values{"detailsName": {"Organizer Cup"}, "detailsGracePeriodMinutes": {"200"}, "detailsGracePeriodMinutesUnit": {"hours"}}
		res := c.Post(t, "/admin/tournaments/org/details", form)
		assert.Equal(t, http.StatusUnprocessableEntity, res.Status)
		assert.Contains(t, res.Body, `id="err-detailsGracePeriodMinutes">`)
		assert.Equal(t, float64(0), e.Admin(t, "GET", "/api/v1/admin/tournaments/org", nil, http.StatusOK)["gracePeriodMinutes"], "unchanged")
		form.Set("detailsGracePeriodMinutes", "2")
		assert.Equal(t, "/admin/tournaments/org?done=details#settings-title", c.PostOK(t, "/admin/tournaments/org/details", form))
		assert.Equal(t, float64(120), e.Admin(t, "GET", "/api/v1/admin/tournaments/org", nil, http.StatusOK)["gracePeriodMinutes"])
		page := c.Get(t, "/admin/tournaments/org").Body
		assert.Regexp(t, `<dt>Grace period</dt>\s*<dd>2 hours</dd>`, page)
		assert.Regexp(t, `id="detailsGracePeriodMinutes" name="detailsGracePeriodMinutes" type="number" min="0" value="2"`, page, "shown back in hours")
	})

	t.Run("RemoveBeforeTheDraw", func(t *testing.T) {
		page := c.Get(t, "/admin/tournaments/org/registrations/"+players[3]+"/remove")
		require.Equal(t, http.StatusOK, page.Status)
		assert.Contains(t, page.Body, "Their registration (and their team's roster) is deleted")
		assert.Equal(t, "/admin/tournaments/org?done=removed#registrations",
			c.PostOK(t, "/admin/tournaments/org/registrations/"+players[3]+"/remove", nil))
		assert.Equal(t, 3, e.Tournament(t, "org").PlayerCount)
		assert.Equal(t, http.StatusNotFound, c.Get(t, "/admin/tournaments/org/registrations/"+players[3]+"/remove").Status)
	})

	e.Admin(t, "POST", "/api/v1/admin/tournaments/org/registrations", map[string]any{"platformId": players[3], "seed": 4}, http.StatusCreated)
	e.SetStatus(t, "org", "registration_closed", "playoffs")
	sf1 := e.MatchBySlot(t, "org", "SF1")
	require.Equal(t, arenatest.Ada, *sf1.P1, "Ada, the admin, is seed 1")

	t.Run("WarnsOnTheAdminsOwnMatch", func(t *testing.T) {
		body := c.Get(t, fmt.Sprintf("/admin/matches/%d", sf1.ID)).Body
		assert.Contains(t, body, "You play in this match.")
		assert.NotContains(t, body, "Session nonce", "no debugging field on the page")
	})

	t.Run("MovesTheWindow", func(t *testing.T) {
		path := fmt.Sprintf("/admin/matches/%d/window", sf1.ID)
		res := c.Post(t, path, url.Values{"opensAt": {utcField(e.Now.Add(time.Hour))}, "closesAt": {utcField(e.Now)}})
		assert.Equal(t, http.StatusUnprocessableEntity, res.Status)
		assert.Contains(t, res.Body, `id="err-closesAt">The window must close after it opens.`)
		c.PostOK(t, path, url.Values{"opensAt": {utcField(e.Now.Add(-time.Hour))}, "closesAt": {utcField(e.Now.Add(5 * time.Hour))}})
		assert.Equal(t, e.Now.Add(5*time.Hour).UTC().Format(time.RFC3339), e.Match(t, sf1.ID).ClosesAt)
	})

	t.Run("AcceptsADisputedReport", func(t *testing.T) {
		sf2 := e.MatchBySlot(t, "org", "SF2")
		p1, p2 := e.ReadyBoth(t, sf2)
		p1.Report(t, sf2, *sf2.P1, "3", "1")
		res := p2.Post(t, sf2.Path("report/dispute"), url.Values{"reason": {"My client shows 3-2 for me."}})
		require.Equal(t, http.StatusSeeOther, res.Status, res.Body)
		page := fmt.Sprintf("/admin/matches/%d", sf2.ID)
		body := c.Get(t, page).Body
		assert.Contains(t, body, "My client shows 3-2 for me.", "the disputer's reason reaches the admin")
		assert.Contains(t, body, `href="`+page+`/accept-report"`, "the page links to the confirmation")
		assert.NotContains(t, body, `action="`+page+`/accept-report"`, "no one-click decision")
		confirm := c.Get(t, page+"/accept-report")
		require.Equal(t, http.StatusOK, confirm.Status)
		assert.Contains(t, confirm.Body, "<bdi>Cup Player 2</bdi> beats <bdi>Cup Player 3</bdi>, 3–1, as <bdi>Cup Player 2</bdi> reported.")
		assert.Contains(t, confirm.Body, "Only reopening the match takes it back, and only until a match it feeds starts.")
		assert.Contains(t, confirm.Body, `action="`+page+`/accept-report"`)
		assert.Equal(t, "disputed", e.Match(t, sf2.ID).Status, "asking decides nothing")
		assert.Equal(t, page+"?done=resolved", c.PostOK(t, page+"/accept-report", nil))
		got := e.Match(t, sf2.ID)
		assert.Equal(t, "confirmed", got.Status)
		assert.Equal(t, *sf2.P1, *got.Winner)
		assert.Equal(t, "player_report", *got.ResultSource)
		assert.Equal(t, http.StatusConflict, c.Post(t, page+"/accept-report", nil).Status, "the decision is final")
		assert.Equal(t, http.StatusConflict, c.Get(t, page+"/accept-report").Status, "nothing left to ask")
	})

	t.Run("DisqualifyAfterTheDraw", func(t *testing.T) {
		victim := *sf1.P2
		page := c.Get(t, "/admin/tournaments/org/registrations/"+victim+"/remove")
		assert.Contains(t, page.Body, "Disqualify")
		assert.Contains(t, page.Body, "(1 with a known opponent)")
		assert.Equal(t, "/admin/tournaments/org?done=disqualified#registrations",
			c.PostOK(t, "/admin/tournaments/org/registrations/"+victim+"/remove", nil))
		got := e.Match(t, sf1.ID)
		assert.Equal(t, "forfeited", got.Status)
		assert.Equal(t, arenatest.Ada, *got.Winner)
		body := c.Get(t, "/admin/tournaments/org").Body
		assert.Contains(t, body, `<span class="badge disputed">Disqualified</span>`)
	})

	t.Run("Seasons", func(t *testing.T) {
		body := c.Get(t, "/admin/seasons").Body
		assert.Contains(t, body, "Season 1", "the demo's season is listed")
		res := c.Post(t, "/admin/seasons", url.Values{"slug": {"season-1"}, "name": {"Dup"}, "startsAt": {utcField(e.Now)}, "endsAt": {utcField(e.Now.Add(time.Hour))}})
		assert.Equal(t, http.StatusConflict, res.Status)
		assert.Contains(t, res.Body, `id="err-slug">Another season has this slug.`)
		res = c.Post(t, "/admin/seasons", url.Values{"slug": {"s2"}, "name": {""}, "startsAt": {utcField(e.Now)}, "endsAt": {utcField(e.Now.Add(-time.Hour))}})
		assert.Equal(t, http.StatusUnprocessableEntity, res.Status)
		assert.Contains(t, res.Body, `id="err-name">Enter a name.`)
		assert.Contains(t, res.Body, `id="err-endsAt">The season must end after it starts.`)
		c.PostOK(t, "/admin/seasons", url.Values{"slug": {"s2"}, "name": {"Season 2"}, "startsAt": {utcField(e.Now)}, "endsAt": {utcField(e.Now.Add(90 * 24 * time.Hour))}})
		assert.Equal(t, "/admin/seasons/s2?done=season",
			c.PostOK(t, "/admin/seasons/s2", url.Values{"name": {"Season Two"}, "startsAt": {utcField(e.Now)}, "endsAt": {utcField(e.Now.Add(91 * 24 * time.Hour))}}))
		seasons := e.Admin(t, "GET", "/api/v1/admin/seasons", nil, http.StatusOK)["seasons"].([]any)
		var names []string
		for _, s := range seasons {
			names = append(names, s.(map[string]any)["name"].(string))
		}
		assert.Contains(t, strings.Join(names, ","), "Season Two")
	})

	t.Run("RefuseCrossSite", func(t *testing.T) {
		for _, path := range []string{"/admin/tournaments/org/details", "/admin/seasons", "/admin/seasons/s2",
			fmt.Sprintf("/admin/matches/%d/window", sf1.ID), fmt.Sprintf("/admin/matches/%d/accept-report", sf1.ID),
			"/admin/tournaments/org/registrations/" + arenatest.Ada + "/remove"} {
			assert.Equal(t, http.StatusForbidden, c.PostCrossSite(t, path, url.Values{"name": {"x"}}).Status, path)
		}
	})
}
