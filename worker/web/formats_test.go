package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/worker/arenatest"
)

// TestPublicDoubleElimination: the demo's double elimination drawn as a
// picture, winners above losers and the grand final after them, every
// match of the API's bracket a box linking to it, an undecided seat
// naming where its player comes from, and the place a bye left empty.
func TestPublicDoubleElimination(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	page := e.Browser(t).Get(t, "/tournaments/summer-double")
	require.Equal(t, http.StatusOK, page.Status)
	pubInOrder(t, page.Body, `<h2 id="bracket-heading">Bracket</h2>`, "Winners' bracket", "Losers' bracket", "Grand final")
	full := e.Tournament(t, "summer-double")
	boxes := 0
	for _, c := range full.Bracket {
		for _, m := range c.Matches {
			assert.Contains(t, page.Body, fmt.Sprintf(`href="/matches/%d"`, m.ID))
			boxes++
		}
	}
	assert.Equal(t, 13, boxes, "7 winners', 5 losers' matches (one skipped for the bye) and the grand final")
	assert.Contains(t, page.Body, "Loser of W3M1")
	assert.Contains(t, page.Body, "Winner of W3M1")
	assert.Contains(t, page.Body, `class="bracket-slot empty"`)
	assert.Contains(t, page.Body, `aria-label="Losers round 2"`)
	assert.Contains(t, page.Body, "Double elimination")
}

// TestPublicSwissAndRoundRobin: a Swiss tournament's page shows its
// standings with the tie-breaks and its rounds, the latest open; a round
// robin's its one table, with no playoffs legend.
func TestPublicSwissAndRoundRobin(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	players := arenatest.CupPlayers(5)
	e.OpenCup(t, arenatest.Cup{Slug: "swiss", Format: "swiss", MaxPlayers: 5, Players: players, Seeded: true,
		Fields: map[string]any{"smallFinal": false, "swissRounds": 3}})
	e.SetStatus(t, "swiss", "registration_closed", "group_stage")
	e.ResolveScheduled(t, "swiss", -1) // round 1; round 2 is paired
	page := e.Browser(t).Get(t, "/tournaments/swiss")
	require.Equal(t, http.StatusOK, page.Status)
	pubInOrder(t, page.Body, `<h2 id="swiss-heading">Swiss rounds</h2>`, "Round 2 of 3.", "<caption>Standings</caption>",
		`<details class="group-matches swiss-round" open><summary>Round 2</summary>`, "<summary>Round 1</summary>")
	assert.Contains(t, page.Body, `<abbr title="Buchholz: the points of every opponent played">Bh</abbr>`)
	assert.Contains(t, page.Body, `<td class="muted fx-p2">bye</td>`)
	api := e.Tournament(t, "swiss")
	require.Len(t, api.Groups, 1)
	for _, row := range api.Groups[0].Standings {
		assert.Contains(t, page.Body, row.Player.PersonaName)
	}

	e.OpenCup(t, arenatest.Cup{Slug: "league", Format: "round_robin", MaxPlayers: 4, Players: arenatest.CupPlayers(4), Seeded: true,
		Fields: map[string]any{"smallFinal": false}})
	e.SetStatus(t, "league", "registration_closed", "group_stage")
	page = e.Browser(t).Get(t, "/tournaments/league")
	require.Equal(t, http.StatusOK, page.Status)
	assert.Contains(t, page.Body, `<h2 id="groups-heading">Round robin</h2>`)
	assert.Contains(t, page.Body, "the table decides the podium")
	assert.NotContains(t, page.Body, "go through to the playoffs")
	e.ResolveScheduled(t, "league", -1)
	page = e.Browser(t).Get(t, "/tournaments/league")
	assert.Contains(t, page.Body, `<h2 id="podium-heading">Podium</h2>`, "the last decision completed it")
}

// TestAdminFormatsForm: the admin pages create a double elimination
// without a reset and a Swiss stage with its rounds and cut (the API's
// rules, messages next to the fields), explain their steps, and save the
// rating period.
func TestAdminFormatsForm(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	c := e.SignedIn(t, arenatest.Ada)
	form := func(slug, format string, max int) url.Values {
		f := adminTournamentForm(e, slug, format, max)
		f.Set("seedFromRatings", "on")
		return f
	}
	f := form("double", "double_elimination", 8)
	f.Set("smallFinal", "on")
	res := c.Post(t, "/admin/tournaments", f)
	require.Equal(t, http.StatusUnprocessableEntity, res.Status)
	assert.Contains(t, res.Body, `id="err-smallFinal">Only for a single-elimination bracket: leave it off.`)
	f.Del("smallFinal")
	c.PostOK(t, "/admin/tournaments", f) // the reset's box left unticked
	got := e.Admin(t, "GET", "/api/v1/admin/tournaments/double", nil, http.StatusOK)
	assert.Equal(t, false, got["grandFinalReset"])
	assert.Equal(t, true, got["seedFromRatings"])
	view := c.Get(t, "/admin/tournaments/double")
	assert.Contains(t, view.Body, `<option value="double_elimination" selected>`)
	assert.Contains(t, view.Body, `<input type="checkbox" name="grandFinalReset" value="on">`, "stored unticked")
	assert.Contains(t, view.Body, `<input type="checkbox" name="seedFromRatings" value="on" checked>`)
	adminStep(t, c, "double", "registration_open")
	view = c.Get(t, "/admin/tournaments/double")
	assert.Contains(t, view.Body, "<dt>Grand final</dt><dd>One match</dd>")
	assert.Contains(t, view.Body, "Unseeded sides by rating at the draw")

	f = form("swiss", "swiss", 8)
	f.Set("swissRounds", "5")
	f.Set("topCut", "16")
	res = c.Post(t, "/admin/tournaments", f)
	require.Equal(t, http.StatusUnprocessableEntity, res.Status)
	assert.Contains(t, res.Body, `id="err-swissRounds">8 sides can play at most 4 Swiss rounds without a rematch.`)
	assert.Contains(t, res.Body, `id="err-topCut">The top cut cannot be larger than the maximum number of sides (8).`)
	f.Set("swissRounds", "3")
	f.Set("topCut", "4")
	c.PostOK(t, "/admin/tournaments", f)
	got = e.Admin(t, "GET", "/api/v1/admin/tournaments/swiss", nil, http.StatusOK)
	assert.Equal(t, []any{float64(3), float64(4)}, []any{got["swissRounds"], got["topCut"]})
	adminStep(t, c, "swiss", "registration_open")
	adminStep(t, c, "swiss", "registration_closed")
	step := c.Get(t, "/admin/tournaments/swiss/status?to=group_stage")
	assert.Contains(t, step.Body, "Pairs round 1 of 3 Swiss rounds")
	assert.Contains(t, step.Body, "the top 4 of the standings")
	res = c.Post(t, "/admin/tournaments/swiss/status", url.Values{"to": {"group_stage"}})
	assert.Equal(t, http.StatusConflict, res.Status, "nobody registered")

	settings := c.Post(t, "/admin/settings", adminSettingsForm(t, c, "ratingPeriodHours", "0"))
	assert.Equal(t, http.StatusUnprocessableEntity, settings.Status)
	assert.Contains(t, settings.Body, `id="err-ratingPeriodHours">Enter a whole number from 1 to 720.`)
	c.PostOK(t, "/admin/settings", adminSettingsForm(t, c, "ratingPeriodHours", "6"))
	assert.Contains(t, c.Get(t, "/admin/settings").Body, `name="ratingPeriodHours" type="number" value="6"`)
}

// adminSettingsForm is the settings form as the page shows it, with one
// field changed.
func adminSettingsForm(t *testing.T, c *arenatest.Browser, field, value string) url.Values {
	t.Helper()
	body := c.Get(t, "/admin/settings").Body
	f := url.Values{}
	for _, name := range []string{"name", "plan", "gracePeriodSeconds", "identity", "anonymousPerMinute", "keyPerMinute", "played", "ratingPeriodHours"} {
		f.Set(name, inputValue(body, name))
	}
	f.Set("appIds", "480")
	if unit := regexp.MustCompile(`<option value="(\w+)" selected>`).FindStringSubmatch(body[strings.Index(body, `name="gracePeriodSecondsUnit"`):]); unit != nil {
		f.Set("gracePeriodSecondsUnit", unit[1]) // the grace period as shown: in its unit
	}
	for _, pair := range [][2]string{{"1", "100"}, {"2", "70"}} {
		f.Add("through", pair[0])
		f.Add("points", pair[1])
	}
	f.Set(field, value)
	return f
}

// inputValue finds a text or number input's value in a page ("" if none);
// a select's chosen option for plan.
func inputValue(body, name string) string {
	if name == "plan" {
		return "studio"
	}
	i := strings.Index(body, `name="`+name+`"`)
	if i < 0 {
		return ""
	}
	rest := body[i:]
	j := strings.Index(rest, `value="`)
	if j < 0 {
		return ""
	}
	rest = rest[j+len(`value="`):]
	return rest[:strings.Index(rest, `"`)]
}

// TestRatingsOnThePages: a day after the demo's matches, the scheduled
// job has rated them: a player's page shows the rating, and the ladder
// ordered by rating lists the rated players.
func TestRatingsOnThePages(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	b := e.Browser(t)
	assert.Contains(t, b.Get(t, "/ladder?order=rating").Body, "Nobody is rated yet")
	e.Advance(t, 25*time.Hour)
	e.Tick(t)
	profile := e.API(t, "GET", "/api/v1/players/"+arenatest.Ada, "", nil, http.StatusOK)
	require.NotNil(t, profile["rating"])
	page := b.Get(t, "/players/"+arenatest.Ada)
	assert.Contains(t, page.Body, `<abbr title="Glicko-2 skill rating">Rating</abbr>`)
	ladder := e.API(t, "GET", "/api/v1/ladder?order=rating", "", nil, http.StatusOK)["ladder"].([]any)
	require.NotEmpty(t, ladder)
	page = b.Get(t, "/ladder?order=rating")
	var names []string
	for _, raw := range ladder {
		names = append(names, raw.(map[string]any)["player"].(map[string]any)["personaName"].(string))
	}
	pubInOrder(t, page.Body, names...)
	assert.Contains(t, page.Body, `<option value="rating" selected>Skill rating</option>`)
}
