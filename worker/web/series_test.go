package web_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/worker/arenatest"
)

// The demo's Spring Showdown: semifinals best of 3 (2-1, 2-0), the final
// best of 5 at 1-1 (Wesley Clark took game 1, Vera Molnár game 2), game 3
// open now.
const (
	showdown = "spring-showdown"
	vera     = "76561198000000021"
	wesley   = "76561198000000022"
)

var liveVersion = regexp.MustCompile(`data-version="([^"]+)"`)

func TestSeriesPublicPages(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	final, sf1 := e.MatchBySlot(t, showdown, "FINAL"), e.MatchBySlot(t, showdown, "SF1")
	visitor := e.Browser(t)

	t.Run("MatchPageShowsTheGames", func(t *testing.T) {
		page := visitor.Get(t, final.Path(""))
		require.Equal(t, http.StatusOK, page.Status)
		assert.Contains(t, page.Body, `<h2 id="series-heading">Best of 5</h2>`)
		assert.Contains(t, page.Body, `<span class="series-state">Game 3 of 5 · 1–1</span>`)
		assert.Contains(t, page.Body, "Games won: 1–1 · first to 3 wins")
		assert.Contains(t, page.Body, `<div class="scoreline"><span>1</span>`, "the scoreboard shows the games won")
		assert.Regexp(t, `Game 1</span> <span class="game-result"><bdi>Wesley Clark</bdi> won</span>`, page.Body)
		assert.Regexp(t, `Game 2</span> <span class="game-result"><bdi>Vera Molnár</bdi> won</span>`, page.Body)
		assert.Contains(t, page.Body, "match.game_decided match.reopened", "the live region follows every game")

		page = visitor.Get(t, sf1.Path(""))
		assert.Contains(t, page.Body, `<h2 id="series-heading">Best of 3</h2>`)
		assert.Contains(t, page.Body, "<bdi>Vera Molnár</bdi> won the series 2–1")
		assert.Contains(t, page.Body, "Game 3</span>")
		assert.NotContains(t, page.Body, "series-state", "a decided series has no game to play")
	})
	t.Run("BracketMarksTheSeries", func(t *testing.T) {
		page := visitor.Get(t, "/tournaments/"+showdown)
		require.Equal(t, http.StatusOK, page.Status)
		assert.Contains(t, page.Body, `<span class="bm-bo">Bo3</span>`)
		assert.Contains(t, page.Body, `<span class="bm-bo">Bo5</span>`)
		assert.Contains(t, page.Body, "; best of 5", "the box's name says the length")
		svg := visitor.Get(t, "/tournaments/"+showdown+"/bracket.svg")
		assert.Contains(t, svg.Body, "Final · Bo5")
		assert.Contains(t, svg.Body, "SF1 · Bo3")
	})
	t.Run("ListsMarkTheSeries", func(t *testing.T) {
		page := visitor.Get(t, "/")
		assert.Contains(t, page.Body, ">Final · best of 5</a>")
		assert.Contains(t, page.Body, `<span class="score">1–1</span>`, "the games won")
	})
	t.Run("BroadcastShowsTheGame", func(t *testing.T) {
		page := visitor.Get(t, final.Path("broadcast"))
		require.Equal(t, http.StatusOK, page.Status)
		assert.Contains(t, page.Body, `<p class="bm-series">Best of 5 · Game 3</p>`)
		assert.Contains(t, page.Body, `<span class="bm-score">1–1</span>`)
		page = visitor.Get(t, "/tournaments/"+showdown+"/broadcast")
		assert.Contains(t, page.Body, "Final · Bo5")
	})
	t.Run("NextStepsSayWhereTheSeriesStands", func(t *testing.T) {
		page := e.SignedIn(t, vera).Get(t, "/tournaments/"+showdown)
		assert.Contains(t, page.Body, `<p class="series-state">Game 3 of 5, level at 1–1</p>`)
		assert.Contains(t, page.Body, "Game 3 goes live when both of you are ready.")
	})
	t.Run("ReportAsksForTheGamesWon", func(t *testing.T) {
		page := e.SignedIn(t, vera).Get(t, final.Path(""))
		assert.NotContains(t, page.Body, "report-form", "no game is live")
	})
	t.Run("ADecidedGameRerendersTheRegion", func(t *testing.T) {
		before := liveVersion.FindStringSubmatch(visitor.Get(t, final.Path("live")).Body)
		require.Len(t, before, 2)
		e.Admin(t, "POST", "/api/v1/admin/matches/"+strconv.FormatInt(final.ID, 10)+"/resolve",
			map[string]any{"game": 3, "winner": vera}, http.StatusOK)
		after := visitor.Get(t, final.Path("live")+"?v="+before[1])
		require.Equal(t, http.StatusOK, after.Status, "a new version, not 204")
		assert.Contains(t, after.Body, "Game 4 of 5 · 2–1")
		assert.Regexp(t, `Game 3</span> <span class="game-result"><bdi>Vera Molnár</bdi> won</span>`, after.Body)
	})
}

func TestSeriesReport(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	final := e.MatchBySlot(t, showdown, "FINAL")
	p1, _ := e.ReadyBoth(t, final)
	page := p1.Get(t, final.Path(""))
	assert.Contains(t, page.Body, "<strong>Game 3 of 5 is live.</strong>")
	assert.Contains(t, page.Body, "<legend>Report the series</legend>")
	assert.Contains(t, page.Body, "Games <bdi>Vera Molnár</bdi> won</label>")
	assert.Contains(t, page.Body, `name="score_p1" type="number" min="0" max="3" inputmode="numeric" required`)

	refused := p1.Post(t, final.Path("report"), url.Values{"winner": {vera}, "score_p1": {"2"}, "score_p2": {"1"}})
	assert.Equal(t, http.StatusUnprocessableEntity, refused.Status)
	assert.Contains(t, refused.Body, "A best of 5 is reported as the games each side won: the winner&#39;s 3")
	p1.PostOK(t, final.Path("report"), url.Values{"winner": {vera}, "score_p1": {"3"}, "score_p2": {"1"}})
	assert.Equal(t, "awaiting_result", e.Match(t, final.ID).Status)
}

func TestSeriesAdminMatch(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	c := e.SignedIn(t, arenatest.Ada)
	final, sf1 := e.MatchBySlot(t, showdown, "FINAL"), e.MatchBySlot(t, showdown, "SF1")
	page := "/admin/matches/" + strconv.FormatInt(final.ID, 10)

	t.Run("GameForm", func(t *testing.T) {
		body := c.Get(t, page).Body
		assert.Contains(t, body, `<input type="hidden" name="game" value="3">`)
		assert.Contains(t, body, "<h3>Game 3 of 5</h3>")
		assert.Contains(t, body, "<h3>The whole series</h3>")
		assert.Contains(t, body, "<legend>Games won ")
		assert.Contains(t, body, "Best of 5 · games won 1–1 · game 3 is next")
		assert.NotContains(t, body, "Reopen the match", "an undecided match has nothing to reopen")
	})
	t.Run("ErrAnotherGame", func(t *testing.T) {
		res := c.Post(t, page+"/resolve", url.Values{"game": {"2"}, "winner": {vera}})
		assert.Equal(t, http.StatusConflict, res.Status)
		assert.Contains(t, res.Body, "That game is no longer the one being played")
		assert.Equal(t, "scheduled", e.Match(t, final.ID).Status)
	})
	t.Run("DecidesTheGame", func(t *testing.T) {
		loc := c.PostOK(t, page+"/resolve", url.Values{"game": {"3"}, "winner": {vera}, "scoreP1": {"16"}, "scoreP2": {"9"}})
		assert.Equal(t, page+"?done=game-decided", loc)
		body := c.Get(t, loc).Body
		assert.Contains(t, body, "Game decided.")
		assert.Contains(t, body, "<h3>Game 4 of 5</h3>")
		assert.Contains(t, body, "<bdi>Vera Molnár</bdi> won (16–9)")
		assert.Equal(t, "scheduled", e.Match(t, final.ID).Status, "the series goes on")
	})
	t.Run("ErrReopenDownstreamStarted", func(t *testing.T) {
		sf1Page := "/admin/matches/" + strconv.FormatInt(sf1.ID, 10)
		assert.Contains(t, c.Get(t, sf1Page).Body, `href="`+sf1Page+`/reopen"`)
		confirm := c.Get(t, sf1Page+"/reopen")
		require.Equal(t, http.StatusOK, confirm.Status)
		assert.Contains(t, confirm.Body, `<form method="post" action="`+sf1Page+`/reopen">`)
		res := c.Post(t, sf1Page+"/reopen", nil)
		assert.Equal(t, http.StatusConflict, res.Status)
		assert.Contains(t, res.Body, "This match cannot be reopened: a match it fed has started")
		assert.Equal(t, "confirmed", e.Match(t, sf1.ID).Status, "nothing changed")
	})
	t.Run("ErrReopenUndecided", func(t *testing.T) {
		res := c.Get(t, page+"/reopen")
		assert.Equal(t, http.StatusConflict, res.Status)
		assert.Contains(t, res.Body, "Only a decided match can be reopened")
		assert.Equal(t, http.StatusConflict, c.Post(t, page+"/reopen", nil).Status)
	})
	t.Run("CrossSiteRefused", func(t *testing.T) {
		res := c.PostCrossSite(t, page+"/reopen", nil)
		assert.Equal(t, http.StatusForbidden, res.Status)
	})
}

func TestSeriesAdminReopen(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	c := e.SignedIn(t, arenatest.Ada)
	players := arenatest.CupPlayers(2)
	e.OpenCup(t, arenatest.Cup{Slug: "duel", MaxPlayers: 2, Players: players, Seeded: true})
	e.SetStatus(t, "duel", "registration_closed", "playoffs")
	final := e.MatchBySlot(t, "duel", "FINAL")
	page := "/admin/matches/" + strconv.FormatInt(final.ID, 10)
	c.PostOK(t, page+"/resolve", url.Values{"winner": {players[0]}})
	require.Equal(t, "confirmed", e.Match(t, final.ID).Status)

	body := c.Get(t, page).Body
	assert.Contains(t, body, "This match is resolved.")
	assert.Contains(t, body, "Reopen the match…")
	loc := c.PostOK(t, page+"/reopen", nil)
	assert.Equal(t, page+"?done=reopened", loc)
	body = c.Get(t, loc).Body
	assert.Contains(t, body, "Match reopened")
	assert.Contains(t, body, `name="winner" value="`+players[0]+`"`, "it can be decided again")
	assert.Equal(t, "scheduled", e.Match(t, final.ID).Status)
	assert.NotContains(t, body, `name="game"`, "a best of 1 has no game form")
}

func TestSeriesAdminTournament(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	c := e.SignedIn(t, arenatest.Ada)

	t.Run("FormSetsTheSeries", func(t *testing.T) {
		form := adminTournamentForm(e, "series-cup", "playoffs_only", 8)
		form.Set("bestOf", "3")
		form.Set("finalBestOf", "5")
		form.Set("groupBestOf", "1")
		form.Set("pacing", "asap")
		c.PostOK(t, "/admin/tournaments", form)
		got := e.Admin(t, "GET", "/api/v1/admin/tournaments/series-cup", nil, http.StatusOK)
		assert.Equal(t, []any{float64(3), float64(1), float64(5), "asap"}, []any{got["bestOf"], got["groupBestOf"], got["finalBestOf"], got["pacing"]})

		edit := c.Get(t, "/admin/tournaments/series-cup").Body
		assert.Contains(t, edit, `<option value="3" selected>Best of 3</option>`)
		assert.Contains(t, edit, `<option value="asap" selected>`)

		form.Set("bestOf", "5")
		form.Set("finalBestOf", "7")
		form.Set("pacing", "scheduled")
		c.PostOK(t, "/admin/tournaments/series-cup", form)
		got = e.Admin(t, "GET", "/api/v1/admin/tournaments/series-cup", nil, http.StatusOK)
		assert.Equal(t, []any{float64(5), float64(7), "scheduled"}, []any{got["bestOf"], got["finalBestOf"], got["pacing"]}, "the edit stores them")

		form.Set("name", "Series Cup renamed")
		c.PostOK(t, "/admin/tournaments/series-cup", form)
		got = e.Admin(t, "GET", "/api/v1/admin/tournaments/series-cup", nil, http.StatusOK)
		assert.Equal(t, []any{float64(5), float64(7), "scheduled"}, []any{got["bestOf"], got["finalBestOf"], got["pacing"]}, "an edit of another field keeps them")
	})
	t.Run("SettingsShowTheSeries", func(t *testing.T) {
		assert.Contains(t, c.Get(t, "/admin/tournaments/"+showdown).Body, "<dt>Series</dt><dd>groups best of 1, playoffs best of 3, final best of 5; pace asap</dd>")
	})
	t.Run("ErrEvenSeries", func(t *testing.T) {
		form := adminTournamentForm(e, "even-cup", "playoffs_only", 8)
		form.Set("bestOf", "4")
		res := c.Post(t, "/admin/tournaments", form)
		assert.Equal(t, http.StatusUnprocessableEntity, res.Status)
		assert.Contains(t, res.Body, `id="err-bestOf">Use an odd number of games: 1, 3, 5, 7 or 9.`)
	})
	t.Run("OpenRoundNow", func(t *testing.T) {
		players := arenatest.CupPlayers(4)
		e.OpenCup(t, arenatest.Cup{Slug: "later", MaxPlayers: 4, Players: players, Seeded: true})
		e.SetStatus(t, "later", "registration_closed", "playoffs")
		assert.NotContains(t, c.Get(t, "/admin/tournaments/later").Body, `name="round"`, "the semifinals are open, the final's sides unknown")
		for _, slot := range []string{"SF1", "SF2"} {
			m := e.MatchBySlot(t, "later", slot)
			e.Admin(t, "POST", "/api/v1/admin/matches/"+strconv.FormatInt(m.ID, 10)+"/resolve", map[string]any{"winner": *m.P1}, http.StatusOK)
		}
		page := c.Get(t, "/admin/tournaments/later").Body
		assert.Contains(t, page, `<input type="hidden" name="round" value="Final"> <button type="submit" class="secondary">Open Final now</button>`)
		assert.Contains(t, page, `name="round" value="Small final"`)
		assert.Equal(t, "before", windowState(t, e, e.MatchBySlot(t, "later", "FINAL")), "the final waits for its window")

		res := c.Post(t, "/admin/tournaments/later/open-round", url.Values{"round": {"Quarterfinals"}})
		assert.Equal(t, http.StatusNotFound, res.Status)
		assert.Contains(t, res.Body, "This tournament has no such round. Nothing was opened.")
		assert.Equal(t, http.StatusNotFound, c.Post(t, "/admin/tournaments/later/open-round", nil).Status)

		loc := c.PostOK(t, "/admin/tournaments/later/open-round", url.Values{"round": {"Final"}})
		assert.Equal(t, "/admin/tournaments/later?done=round-opened#matches-title", loc)
		assert.Equal(t, "open", windowState(t, e, e.MatchBySlot(t, "later", "FINAL")))
		assert.Equal(t, "before", windowState(t, e, e.MatchBySlot(t, "later", "SMALL_FINAL")), "another round keeps its window")
		page = c.Get(t, loc).Body
		assert.Contains(t, page, "The round&#39;s matches are open now.")
		assert.NotContains(t, page, `name="round" value="Final"`, "the round is open: no button")
	})
}

// windowState is where the match's window stands at the service's now.
func windowState(t *testing.T, e *arenatest.Arena, m arenatest.AdminMatch) string {
	t.Helper()
	now := e.ServiceNow(t)
	opens, err1 := parseRFC3339(m.OpensAt)
	closes, err2 := parseRFC3339(m.ClosesAt)
	require.NoError(t, err1)
	require.NoError(t, err2)
	switch {
	case now.Before(opens):
		return "before"
	case now.Before(closes):
		return "open"
	}
	return "closed"
}

func parseRFC3339(s string) (time.Time, error) { return time.Parse(time.RFC3339, s) }
