package web_test

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/core"
	"arena/worker/arenatest"
)

// pubISOTime matches a timestamp the pages put in markup.
var pubISOTime = regexp.MustCompile(`<time datetime="\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"`)

// pubName reads a player object's display name from an API answer.
func pubName(player any) string { return player.(map[string]any)["personaName"].(string) }

func pubID(v any) string { return fmt.Sprintf("%.0f", v.(float64)) }

// pubBetween returns the part of body from the first start to the next end
// after it (both included); the test fails when either is missing.
func pubBetween(t *testing.T, body, start, end string) string {
	t.Helper()
	i := strings.Index(body, start)
	require.GreaterOrEqual(t, i, 0, "missing %q", start)
	j := strings.Index(body[i:], end)
	require.GreaterOrEqual(t, j, 0, "missing %q after %q", end, start)
	return body[i : i+j+len(end)]
}

// pubInOrder checks that each of parts occurs in s after the previous.
func pubInOrder(t *testing.T, s string, parts ...string) {
	t.Helper()
	at := 0
	for _, p := range parts {
		i := strings.Index(s[at:], p)
		if !assert.GreaterOrEqual(t, i, 0, "%q missing or out of order", p) {
			return
		}
		at += i + len(p)
	}
}

func TestPublicHome(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	page := e.Browser(t).Get(t, "/")
	require.Equal(t, http.StatusOK, page.Status)
	assert.Contains(t, page.Body, "<title>Home · Demo Arena</title>")
	live := pubBetween(t, page.Body, `<h2 id="live-heading">`, "</section>")
	assert.Contains(t, live, "No match is being played right now.")

	// The winter cup's second round is open now (a match whose window is
	// open is not "Scheduled"), its third round upcoming; the first is
	// played and in neither list.
	winter := e.API(t, "GET", "/api/v1/tournaments/winter-cup", "", nil, http.StatusOK)
	open := pubBetween(t, page.Body, `<h2 id="open-heading">`, "</section>")
	upcoming := pubBetween(t, page.Body, `<h2 id="upcoming-heading">`, "</section>")
	counts := map[string]int{}
	for _, g := range winter["groups"].([]any) {
		for _, raw := range g.(map[string]any)["matches"].([]any) {
			m := raw.(map[string]any)
			link := `href="/matches/` + pubID(m["id"]) + `"`
			switch m["round"] {
			case "Round 1":
				assert.NotContains(t, open+upcoming, link, "played matches are neither open nor upcoming")
			case "Round 2":
				counts["open"]++
				assert.Contains(t, open, link)
				assert.Contains(t, open, pubName(m["player1"]))
				assert.NotContains(t, upcoming, link)
			case "Round 3":
				counts["upcoming"]++
				assert.Contains(t, upcoming, link)
				assert.NotContains(t, open, link)
			}
		}
	}
	assert.Equal(t, map[string]int{"open": 4, "upcoming": 4}, counts)
	assert.Contains(t, open, `<span class="badge open">Open now</span>`)
	assert.NotContains(t, open, `<span class="badge scheduled">Scheduled</span>`)
	assert.Regexp(t, `left</time>\s+to ready up`, open)
	assert.Contains(t, upcoming, "Winter Cup")
	assert.Regexp(t, pubISOTime, upcoming)

	pubInOrder(t, page.Body,
		"<h2>Running now</h2>", `href="/tournaments/winter-cup"`,
		"<h2>Registration open</h2>", `href="/tournaments/spring-invitational"`,
		"<h2>Completed</h2>", `href="/tournaments/autumn-open"`)
}

func TestPublicHomeShowsLiveMatches(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	m := pubWinterRound2(t, e)[0]
	for _, p := range []string{"player1", "player2"} {
		e.API(t, "POST", "/api/v1/matches/"+pubID(m["id"])+"/ready", "Platform MOCK:"+m[p].(map[string]any)["platformId"].(string), nil, http.StatusOK)
	}
	body := e.Browser(t).Get(t, "/").Body
	live := pubBetween(t, body, `<h2 id="live-heading">`, "</section>")
	assert.Contains(t, live, `href="/matches/`+pubID(m["id"])+`"`)
	assert.Contains(t, live, `<span class="badge live">Live</span>`)
	open := pubBetween(t, body, `<h2 id="open-heading">`, "</section>")
	assert.NotContains(t, open, `href="/matches/`+pubID(m["id"])+`"`)
}

// pubWinterRound2 returns the demo winter cup's open second-round matches.
func pubWinterRound2(t *testing.T, e *arenatest.Arena) []map[string]any {
	winter := e.API(t, "GET", "/api/v1/tournaments/winter-cup", "", nil, http.StatusOK)
	var out []map[string]any
	for _, g := range winter["groups"].([]any) {
		for _, raw := range g.(map[string]any)["matches"].([]any) {
			if m := raw.(map[string]any); m["round"] == "Round 2" {
				out = append(out, m)
			}
		}
	}
	require.NotEmpty(t, out)
	return out
}

func TestPublicTournamentList(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	page := e.Browser(t).Get(t, "/tournaments")
	require.Equal(t, http.StatusOK, page.Status)
	// Newest start first, as the API lists them.
	list := e.API(t, "GET", "/api/v1/tournaments", "", nil, http.StatusOK)
	var parts []string
	for _, raw := range list["tournaments"].([]any) {
		tr := raw.(map[string]any)
		parts = append(parts, `<a href="/tournaments/`+tr["slug"].(string)+`"><bdi>`+tr["name"].(string)+`</bdi></a>`)
	}
	require.Len(t, parts, 7)
	pubInOrder(t, page.Body, parts...)
	assert.Contains(t, page.Body, `<td class="num" data-label="Players">16 / 16</td>`)
	assert.Contains(t, page.Body, `<td class="num" data-label="Players">5 / 16</td>`)
	assert.Contains(t, page.Body, `<td data-label="Ended"><span class="when-label">Ended </span>`, "a completed tournament says when it ended")
	assert.Contains(t, page.Body, `<td data-label="Started"><span class="when-label">Started </span>`, "a running one when it started")
	assert.Contains(t, page.Body, `<td data-label="Starts"><span class="when-label">Starts </span>`)
	assert.Regexp(t, pubISOTime, page.Body)
}

func TestPublicTournamentCompleted(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	api := e.API(t, "GET", "/api/v1/tournaments/autumn-open", "", nil, http.StatusOK)
	page := e.Browser(t).Get(t, "/tournaments/autumn-open")
	require.Equal(t, http.StatusOK, page.Status)
	assert.Contains(t, page.Body, "<h1><bdi>Autumn Open</bdi></h1>")
	assert.Contains(t, page.Body, `<span class="badge completed">Completed</span>`)
	assert.Contains(t, page.Body, "Sixteen players, four groups")
	assert.NotContains(t, page.Body, "Registration is closed", "issue 25 point 10: a completed tournament is over, not closed for registration")
	assert.Contains(t, page.Body, "Over: 16 took part.")
	assert.Regexp(t, pubISOTime, page.Body)

	t.Run("Podium", func(t *testing.T) {
		podium := pubBetween(t, page.Body, `<ol class="podium">`, "</ol>")
		var parts []string
		for _, raw := range api["podium"].([]any) {
			pl := raw.(map[string]any)
			parts = append(parts, `<li class="place-`+pubID(pl["rank"])+`">`, pubName(pl["player"]))
		}
		require.Len(t, parts, 8, "four places with a small final")
		pubInOrder(t, podium, parts...)
	})

	t.Run("BracketColumns", func(t *testing.T) {
		bracket := pubBetween(t, page.Body, `<div class="bracket-scroll"`, `<section aria-labelledby="groups-heading">`)
		var labels []string
		for _, raw := range api["bracket"].([]any) {
			col := raw.(map[string]any)
			if col["side"] != "center" {
				labels = append(labels, `<section class="bracket-col `+col["side"].(string))
			}
			labels = append(labels, `aria-label="`+col["label"].(string)+`"`)
		}
		// Quarterfinals, Semifinals (left), Final, Small final, Semifinals, Quarterfinals (right).
		pubInOrder(t, bracket, labels...)
		assert.Equal(t, 8, strings.Count(bracket, `<a class="bm`), "4 quarterfinals, 2 semifinals, final, small final")
		assert.Contains(t, bracket, `<section class="bracket-col left out-pair ord-0"`)
		assert.Contains(t, bracket, `<section class="bracket-col center ord-6 in-left in-right"`, "after both halves' two rounds on a phone")
	})

	t.Run("FinalWinnerHighlighted", func(t *testing.T) {
		var final map[string]any
		for _, raw := range api["bracket"].([]any) {
			if col := raw.(map[string]any); col["label"] == "Final" {
				final = col["matches"].([]any)[0].(map[string]any)
			}
		}
		require.NotNil(t, final)
		box := pubBetween(t, page.Body, `<a class="bm decided" href="/matches/`+pubID(final["id"])+`"`, "</a>")
		assert.Contains(t, box, `<span class="bm-slot">Final</span>`)
		winner, loser := pubName(final["winner"]), pubName(final["player1"])
		if loser == winner {
			loser = pubName(final["player2"])
		}
		assert.Regexp(t, `<span class="bm-seat win">.*<span class="name" title="[^"]*"><bdi>`+regexp.QuoteMeta(winner)+`</bdi></span> <span class="tick" aria-hidden="true">✓</span>`, box)
		assert.Regexp(t, `<span class="bm-seat"><span class="seed" aria-hidden="true">\d</span> <span class="name" title="[^"]*"><bdi>`+regexp.QuoteMeta(loser)+`</bdi></span>`, box)
		assert.Contains(t, box, `<span class="sr-only">; `+winner+` won</span>`, "the accessible name says who won")
		assert.NotContains(t, box, "aria-label", "issue 25 point 10: the box's own text names it (label-content-name-mismatch)")
	})

	t.Run("GroupStandings", func(t *testing.T) {
		groupA := api["groups"].([]any)[0].(map[string]any)
		require.Equal(t, "A", groupA["name"])
		table := pubBetween(t, page.Body, "<caption>Group A</caption>", "</table>")
		var parts []string
		for _, raw := range groupA["standings"].([]any) {
			row := raw.(map[string]any)
			parts = append(parts, fmt.Sprintf(`<td class="num">%s</td><th scope="row"><a href="/players/%s"><bdi>%s</bdi></a>`,
				pubID(row["rank"]), row["player"].(map[string]any)["platformId"], pubName(row["player"])))
			parts = append(parts, fmt.Sprintf(`<td class="num">%s</td><td class="num">%s</td><td class="num">%s</td>`,
				pubID(row["played"]), pubID(row["wins"]), pubID(row["losses"])))
			parts = append(parts, fmt.Sprintf(`<td class="num">%s</td></tr>`, pubID(row["points"])))
		}
		require.Len(t, parts, 12)
		pubInOrder(t, table, parts...)
		assert.Equal(t, 2, strings.Count(table, `<tr class="advances">`), "the top two of each group advance")
		assert.Contains(t, page.Body, "Matches of group A")
	})
}

func TestPublicTournamentRegistration(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	page := e.Browser(t).Get(t, "/tournaments/spring-invitational")
	require.Equal(t, http.StatusOK, page.Status)
	assert.Contains(t, page.Body, `<p class="registration open"><strong>Registration is open.</strong>`)
	assert.Contains(t, page.Body, "5 of 16 places taken")
	players := pubBetween(t, page.Body, `<ul class="player-list">`, "</ul>")
	assert.Equal(t, 5, strings.Count(players, "<li>"))
	assert.Contains(t, players, `<a href="/players/76561198000000001"><bdi>Ada Lovelace</bdi></a>`)
	assert.NotContains(t, page.Body, "bracket-scroll")
	assert.NotContains(t, page.Body, "groups-heading")
	assert.NotContains(t, page.Body, "podium-heading")
	assert.Regexp(t, pubISOTime, page.Body)
}

func TestPublicTournamentGroupStage(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	page := e.Browser(t).Get(t, "/tournaments/winter-cup")
	require.Equal(t, http.StatusOK, page.Status)
	assert.Contains(t, page.Body, `<span class="badge group_stage">Group stage</span>`)
	assert.Contains(t, page.Body, "<caption>Group A</caption>")
	assert.Contains(t, page.Body, "<caption>Group B</caption>")
	assert.Contains(t, page.Body, `<span class="badge scheduled">Scheduled</span>`)
	assert.NotContains(t, page.Body, "bracket-scroll")
}

// A playoffs-only cup of 6 has a bracket of 8 with two byes; one
// quarterfinal goes live.
func TestPublicBracketByesAndLive(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	e.OpenCup(t, arenatest.Cup{Slug: "bye-cup", Name: "Bye Cup", MaxPlayers: 8, Players: arenatest.CupPlayers(6), Seeded: true})
	e.SetStatus(t, "bye-cup", "registration_closed", "playoffs")
	qf2 := e.MatchBySlot(t, "bye-cup", "QF2")
	for _, p := range []string{*qf2.P1, *qf2.P2} {
		e.Game(t, "POST", "/api/v1"+qf2.Path("ready"), p, nil, http.StatusOK)
	}

	page := e.Browser(t).Get(t, "/tournaments/bye-cup")
	require.Equal(t, http.StatusOK, page.Status)
	bracket := pubBetween(t, page.Body, `<div class="bracket-scroll"`, `<section aria-labelledby="players-heading">`)
	assert.Equal(t, 2, strings.Count(bracket, `<span class="bm-seat bye"><span class="seed" aria-hidden="true"></span> <span class="name muted">bye</span>`))
	// Seeds 1 and 2 got byes: they won their quarterfinal and wait in the semifinals.
	qf1 := pubBetween(t, bracket, `<span class="bm-slot">QF1</span>`, "</a>")
	assert.Contains(t, qf1, `<span class="bm-seat win"><span class="seed" aria-hidden="true">1</span> <span class="name" title="Cup Player 1"><bdi>Cup Player 1</bdi></span>`)
	sf1 := pubBetween(t, bracket, `<span class="bm-slot">SF1</span>`, "</a>")
	assert.Contains(t, sf1, `<span class="name" title="Cup Player 1"><bdi>Cup Player 1</bdi></span>`)
	assert.Contains(t, sf1, `<span class="name muted">Winner of QF2</span>`)
	small := pubBetween(t, bracket, `<span class="bm-slot">3rd place</span>`, "</a>")
	assert.Contains(t, small, "Loser of SF1")
	// The live quarterfinal: a badge and a class.
	assert.Contains(t, bracket, `<a class="bm live" href="`+qf2.Path("")+`"`)
	live := pubBetween(t, bracket, `<span class="bm-slot">QF2</span>`, "</a>")
	assert.Contains(t, live, `<span class="badge live">Live</span>`)
	assert.Contains(t, live, `<span class="seed" aria-hidden="true">4</span> <span class="name" title="Cup Player 4"><bdi>Cup Player 4</bdi></span>`)
	assert.Contains(t, live, `<span class="seed" aria-hidden="true">5</span> <span class="name" title="Cup Player 5"><bdi>Cup Player 5</bdi></span>`)
}

func TestPublicMatchPage(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	c := e.Browser(t)
	api := e.API(t, "GET", "/api/v1/tournaments/autumn-open", "", nil, http.StatusOK)

	t.Run("Decided", func(t *testing.T) {
		var final map[string]any
		for _, raw := range api["bracket"].([]any) {
			if col := raw.(map[string]any); col["label"] == "Final" {
				final = col["matches"].([]any)[0].(map[string]any)
			}
		}
		page := c.Get(t, "/matches/"+pubID(final["id"]))
		require.Equal(t, http.StatusOK, page.Status)
		p1, p2 := pubName(final["player1"]), pubName(final["player2"])
		assert.Contains(t, page.Body, "<h1><bdi>"+p1+"</bdi> vs <bdi>"+p2+"</bdi></h1>")
		assert.Contains(t, page.Body, `<a href="/tournaments/autumn-open"><bdi>Autumn Open</bdi></a>`)
		assert.Contains(t, page.Body, `<span class="badge confirmed">Confirmed</span>`)
		score := final["score"].(map[string]any)
		assert.Contains(t, page.Body, fmt.Sprintf(`<div class="scoreline"><span>%s</span>`, pubID(score["p1"])))
		assert.Regexp(t, `<div class="score-side winner"><span class="avatar[^"]*"[^>]*>[A-Z0-9]{1,2}</span><div class="score-name"><a href="/players/\d+"><bdi>`+regexp.QuoteMeta(pubName(final["winner"]))+`</bdi></a><span aria-hidden="true">✓</span>`, page.Body)
		sources := map[string]string{"game_client": "Reported by both game clients", "admin": "Decided by the arena's admin"}
		assert.Contains(t, page.Body, sources[final["resultSource"].(string)])
		assert.Regexp(t, pubISOTime, page.Body)

		// The receipt button downloads the match's tlog-proof, which
		// verifies against the arena's log key.
		link := regexp.MustCompile(`<a class="receipt" href="([^"]+)" download="(match-\d+\.tlog-proof)">`).FindStringSubmatch(page.Body)
		require.NotNil(t, link, "a decided match offers its receipt")
		assert.Equal(t, "match-"+pubID(final["id"])+".tlog-proof", link[2])
		receipt := c.Get(t, link[1])
		require.Equal(t, http.StatusOK, receipt.Status, receipt.Body)
		meta := e.API(t, "GET", "/api/v1", "", nil, http.StatusOK)["log"].(map[string]any)
		pub, err := base64.StdEncoding.DecodeString(meta["publicKey"].(string))
		require.NoError(t, err)
		ev, err := core.VerifyReceipt([]byte(receipt.Body), meta["origin"].(string), pub)
		require.NoError(t, err)
		assert.Equal(t, pubID(final["id"]), strconv.FormatInt(*ev.MatchID, 10))
	})

	t.Run("Scheduled", func(t *testing.T) {
		m := pubWinterRound2(t, e)[0]
		shown := c.Get(t, "/matches/"+pubID(m["id"]))
		require.Equal(t, http.StatusOK, shown.Status)
		assert.Contains(t, shown.Body, `<span class="badge open">Open now</span>`, "its window is open")
		assert.Contains(t, shown.Body, "Both players mark themselves ready")
		assert.Contains(t, shown.Body, `<time class="countdown" datetime="`+m["closesAt"].(string)+`" data-countdown>2 h 0 min left</time>`)
		assert.Contains(t, shown.Body, `<span class="ready-line">Nobody is ready yet</span>`)
		assert.Equal(t, 2, strings.Count(shown.Body, `<div class="side-ready">not ready</div>`))
		assert.NotContains(t, shown.Body, "<dt>Result</dt>")
		assert.NotContains(t, shown.Body, `class="receipt"`, "an undecided match has no receipt")
	})
}

func TestPublicPlayerPage(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	c := e.Browser(t)
	autumn := e.API(t, "GET", "/api/v1/tournaments/autumn-open", "", nil, http.StatusOK)
	champion := autumn["podium"].([]any)[0].(map[string]any)["player"].(map[string]any)
	pid := champion["platformId"].(string)
	api := e.API(t, "GET", "/api/v1/players/"+pid, "", nil, http.StatusOK)
	stats := api["stats"].(map[string]any)

	page := c.Get(t, "/players/"+pid)
	require.Equal(t, http.StatusOK, page.Status)
	assert.Contains(t, page.Body, "<h1><bdi>"+champion["personaName"].(string)+"</bdi></h1>")
	assert.Contains(t, page.Body, "<dt>Matches</dt><dd>"+pubID(stats["matchesPlayed"])+"</dd>")
	assert.Contains(t, page.Body, "<dt>Wins</dt><dd>"+pubID(stats["wins"])+"</dd>")
	assert.Contains(t, page.Body, "<dt>Losses</dt><dd>"+pubID(stats["losses"])+"</dd>")
	assert.Contains(t, page.Body, `<dt>Win rate</dt><dd class="win-rate">`+pubID(stats["winRate"])+"%</dd>")
	trophies := pubBetween(t, page.Body, `<ul class="trophies">`, "</ul>")
	assert.Contains(t, trophies, `<strong>1st</strong> in <a href="/tournaments/autumn-open"><bdi>Autumn Open</bdi></a>`)

	recent := pubBetween(t, page.Body, `<table class="results cards">`, "</table>")
	assert.Equal(t, int(stats["matchesPlayed"].(float64)), strings.Count(recent, "<tr>")-1, "every decided match (fewer than the limit)")
	assert.Equal(t, int(stats["wins"].(float64)), strings.Count(recent, `<td class="rs-result winner">Won`))
	assert.NotContains(t, page.Body, `<nav class="pager"`, "one page of history")
	assert.Regexp(t, pubISOTime, page.Body)

	// A winter cup player has upcoming matches.
	m := pubWinterRound2(t, e)[0]
	p1 := m["player1"].(map[string]any)
	page = c.Get(t, "/players/"+p1["platformId"].(string))
	upcoming := pubBetween(t, page.Body, `<h2 id="upcoming-heading">`, "</section>")
	assert.Contains(t, upcoming, `href="/matches/`+pubID(m["id"])+`"`)
}

func TestPublicLadder(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	c := e.Browser(t)
	api := e.API(t, "GET", "/api/v1/ladder", "", nil, http.StatusOK)
	rows := api["ladder"].([]any)
	require.NotEmpty(t, rows)

	page := c.Get(t, "/ladder")
	require.Equal(t, http.StatusOK, page.Status)
	form := pubBetween(t, page.Body, "<form", "</form>")
	assert.Contains(t, form, `method="get" action="/ladder"`)
	assert.Contains(t, form, `<label for="season">Season</label> <select id="season" name="season">`)
	assert.Contains(t, form, `<option value="season-1" selected dir="auto">Season 1</option>`)
	assert.Contains(t, form, `<option value="all">All seasons</option>`)
	assert.Contains(t, form, `<button type="submit">`, "works without JavaScript")
	assert.Contains(t, page.Body, `<h2 id="ladder-heading"><bdi>Season 1</bdi></h2>`)
	table := pubBetween(t, page.Body, `<table class="ladder">`, "</table>")
	var parts []string
	for _, raw := range rows {
		row := raw.(map[string]any)
		parts = append(parts, fmt.Sprintf(`<td class="num">%s</td><th scope="row"><a href="/players/%s"><bdi>%s</bdi></a></th><td class="num">%s</td><td class="num">%s</td>`,
			pubID(row["rank"]), row["player"].(map[string]any)["platformId"], pubName(row["player"]), pubID(row["points"]), pubID(row["tournaments"])))
	}
	pubInOrder(t, table, parts...)
	assert.Equal(t, len(rows), strings.Count(table, `<th scope="row">`))
	assert.Regexp(t, `<time datetime="[^"]+" data-format="date">`, page.Body)

	page = c.Get(t, "/ladder?season=all")
	assert.Contains(t, page.Body, `<option value="all" selected>All seasons</option>`)
	assert.Contains(t, page.Body, `<option value="season-1" dir="auto">Season 1</option>`)
	assert.Contains(t, page.Body, `<h2 id="ladder-heading">All seasons</h2>`)

	page = c.Get(t, "/ladder?season=no-such-season")
	assert.Contains(t, page.Body, `<option value="season-1" selected dir="auto">Season 1</option>`, "an unknown season falls back to the latest")
}

func TestPublicNotFound(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	c := e.Browser(t)
	e.Admin(t, "POST", "/api/v1/admin/tournaments", map[string]any{
		"slug": "secret-draft", "name": "Secret Draft", "format": "playoffs_only", "maxPlayers": 8,
		"registrationOpensAt": "2026-12-01T00:00:00Z", "registrationClosesAt": "2026-12-02T00:00:00Z", "startsAt": "2026-12-03T00:00:00Z",
	}, http.StatusCreated)
	for _, tc := range []struct{ name, path, message string }{
		{"UnknownTournament", "/tournaments/no-such-cup", "There is no tournament here."},
		{"DraftTournament", "/tournaments/secret-draft", "There is no tournament here."},
		{"MatchIDNotANumber", "/matches/abc", "There is no match here."},
		{"MatchIDZero", "/matches/0", "There is no match here."},
		{"MatchIDNegative", "/matches/-3", "There is no match here."},
		{"MatchIDTooLarge", "/matches/99999999999999999999", "There is no match here."},
		{"UnknownMatch", "/matches/999999", "There is no match here."},
		{"MalformedPlayerID", "/players/123", "is 17 digits"},
		{"UnknownPlayer", "/players/76561198999999999", "This arena has no such player."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			page := c.Get(t, tc.path)
			assert.Equal(t, http.StatusNotFound, page.Status)
			assert.Contains(t, page.Body, "<title>Not found · Demo Arena</title>")
			assert.Contains(t, page.Body, tc.message)
			assert.NotContains(t, page.Body, "Secret Draft")
		})
	}
	body := c.Get(t, "/tournaments").Body
	assert.NotContains(t, body, "secret-draft", "drafts are never listed")
}

func TestPublicPagesEscapeText(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	c := e.Browser(t)
	const evilName = `<script>alert("name")</script> & Co`
	e.Admin(t, "POST", "/api/v1/admin/tournaments", map[string]any{
		"slug": "evil-cup", "name": evilName, "description": `<img src=x onerror="alert(1)">`,
		"format": "playoffs_only", "maxPlayers": 8,
		"registrationOpensAt":  e.Now.Add(-time.Hour).Format(time.RFC3339),
		"registrationClosesAt": e.Now.Add(time.Hour).Format(time.RFC3339),
		"startsAt":             e.Now.Add(2 * time.Hour).Format(time.RFC3339),
	}, http.StatusCreated)
	e.Admin(t, "POST", "/api/v1/admin/tournaments/evil-cup/status", map[string]any{"status": "registration_open"}, http.StatusOK)
	evilPlayer := arenatest.CupPlayer(66)
	e.Admin(t, "POST", "/api/v1/admin/tournaments/evil-cup/registrations", map[string]any{
		"platformId": evilPlayer, "personaName": `<b onmouseover="x()">Mallory</b>`,
	}, http.StatusCreated)

	for _, path := range []string{"/", "/tournaments", "/tournaments/evil-cup", "/players/" + evilPlayer} {
		t.Run(path, func(t *testing.T) {
			page := c.Get(t, path)
			require.Equal(t, http.StatusOK, page.Status)
			assert.NotContains(t, page.Body, "<script>alert")
			assert.NotContains(t, page.Body, "<img src=x")
			assert.NotContains(t, page.Body, `<b onmouseover`)
			switch path {
			case "/players/" + evilPlayer:
				assert.Contains(t, page.Body, `&lt;b onmouseover=&#34;x()&#34;&gt;Mallory&lt;/b&gt;`)
			default:
				assert.Contains(t, page.Body, `&lt;script&gt;alert(&#34;name&#34;)&lt;/script&gt; &amp; Co`)
			}
		})
	}
	body := c.Get(t, "/tournaments/evil-cup").Body
	assert.Contains(t, body, `<title>&lt;script&gt;alert(&#34;name&#34;)&lt;/script&gt; &amp; Co · Demo Arena</title>`)
	assert.Contains(t, body, `&lt;img src=x onerror=&#34;alert(1)&#34;&gt;`)
}

// Issue 25 point 2: a tournament whose playoffs an admin starts a week
// before its planned start says it started when its play did, on the
// public pages and the admin's, not on the planned day.
func TestTournamentStartedWhenPlayStarted(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	planned := e.Now.Add(7 * 24 * time.Hour)
	e.OpenCup(t, arenatest.Cup{Slug: "early", MaxPlayers: 4, Players: arenatest.CupPlayers(4),
		Fields: map[string]any{"startsAt": planned.Format(time.RFC3339)}})
	e.SetStatus(t, "early", "registration_closed", "playoffs")
	now := e.ServiceNow(t)
	started := `datetime="` + now.UTC().Format(time.RFC3339) + `"`
	plannedAt := `datetime="` + planned.UTC().Format(time.RFC3339) + `"`

	page := e.Browser(t).Get(t, "/tournaments/early")
	require.Equal(t, http.StatusOK, page.Status)
	facts := pubBetween(t, page.Body, `<dl class="facts">`, "</dl>")
	assert.Contains(t, facts, "<dt>Started</dt>")
	assert.Contains(t, facts, started, "the day play started")
	assert.NotContains(t, facts, plannedAt, "not the planned start")

	list := pubBetween(t, e.Browser(t).Get(t, "/tournaments").Body, `href="/tournaments/early"`, "</tr>")
	assert.Contains(t, list, `<span class="when-label">Started </span>`)
	assert.Contains(t, list, started)
	assert.NotContains(t, list, plannedAt)

	admin := e.SignedIn(t, arenatest.Ada)
	row := pubBetween(t, admin.Get(t, "/admin").Body, `href="/admin/tournaments/early"`, "</tr>")
	assert.Contains(t, row, "Started")
	assert.Contains(t, row, started)
	assert.NotContains(t, row, plannedAt)
	manage := admin.Get(t, "/admin/tournaments/early").Body
	assert.Regexp(t, `<dt>Started</dt><dd><time `+started, manage)

	ics := e.Browser(t).Get(t, "/tournaments/early/calendar.ics").Body
	event := pubBetween(t, ics, "UID:tournament-", "END:VEVENT")
	assert.Contains(t, event, "DTSTART:"+now.UTC().Format("20060102T150405Z"), "the calendar's start is play's")
}

// Issue 25 point 6: the bracket picture is linked only once the bracket
// exists (it was a link to a 404 before), and point 10: the players are
// listed seeds first, the seed shown, not numbered in registration order.
func TestTournamentLinksItsBracketPictureOnceItExists(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	e.OpenCup(t, arenatest.Cup{Slug: "pic", MaxPlayers: 4, Players: arenatest.CupPlayers(4)})
	before := e.Browser(t).Get(t, "/tournaments/pic").Body
	assert.NotContains(t, before, "/tournaments/pic/bracket.svg", "no link to a picture that is not there")
	assert.Equal(t, http.StatusNotFound, e.Browser(t).Get(t, "/tournaments/pic/bracket.svg").Status)

	e.SetStatus(t, "pic", "registration_closed", "playoffs")
	after := e.Browser(t).Get(t, "/tournaments/pic").Body
	assert.Contains(t, after, `href="/tournaments/pic/bracket.svg"`)
	assert.Equal(t, http.StatusOK, e.Browser(t).Get(t, "/tournaments/pic/bracket.svg").Status)

	winter := e.Browser(t).Get(t, "/tournaments/winter-cup").Body
	players := pubBetween(t, winter, `<ul class="player-list">`, "</ul>")
	assert.NotContains(t, winter, `<ol class="player-list">`, "no numbers that read as seeds")
	assert.Regexp(t, `^<ul class="player-list"><li><a href="/players/\d+"><bdi>[^<]+</bdi></a> <span class="muted">seed 1</span></li>`, players, "seed 1 first, its seed shown")
}

// Issue 25 point 10: the home page's link preview is titled with the
// arena's name (not "Home") and every shared page has an image; admin
// pages have a meta description too.
func TestSharedPagesHaveTitleImageAndDescription(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	home := e.Browser(t).Get(t, "/").Body
	assert.Contains(t, home, `<meta property="og:title" content="Demo Arena">`)
	image := regexp.MustCompile(`<meta property="og:image" content="(http://[^"]+/static/share\.[0-9a-f]+\.png)">`).FindStringSubmatch(home)
	require.NotNil(t, image, "an og:image")
	for _, path := range []string{"/tournaments/winter-cup", "/ladder"} {
		body := e.Browser(t).Get(t, path).Body
		assert.Contains(t, body, `<meta name="description" content="`, path)
	}
	assert.Contains(t, e.Browser(t).Get(t, "/tournaments/winter-cup").Body, `<meta property="og:image" content="`)
	admin := e.SignedIn(t, arenatest.Ada).Get(t, "/admin").Body
	assert.Contains(t, admin, `<meta name="description" content="Admin · Demo Arena`)
	u, err := url.Parse(image[1])
	require.NoError(t, err)
	pic := e.Browser(t).Get(t, u.Path)
	assert.Equal(t, http.StatusOK, pic.Status)
	assert.Equal(t, "image/png", pic.Header.Get("Content-Type"))
}

// Issue 25 point 10: the calendar links subscribe (webcal:), the file
// stays linked, and a past match's event says its result instead of
// asking the players to ready up.
func TestCalendarsSubscribeAndTellResults(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	u, err := url.Parse(e.URL)
	require.NoError(t, err)
	page := e.Browser(t).Get(t, "/tournaments/autumn-open").Body
	assert.Contains(t, page, `href="webcal://`+u.Host+`/tournaments/autumn-open/calendar.ics">Subscribe to the calendar</a>`)
	assert.Contains(t, page, `href="/tournaments/autumn-open/calendar.ics">iCal file</a>`)
	player := e.Browser(t).Get(t, "/players/"+arenatest.Ada).Body
	assert.Contains(t, player, `href="webcal://`+u.Host+`/players/`+arenatest.Ada+`/calendar.ics"`)

	ics := strings.ReplaceAll(e.Browser(t).Get(t, "/tournaments/autumn-open/calendar.ics").Body, "\r\n ", "")
	assert.NotContains(t, ics, "ready up", "the Autumn Open is over")
	assert.Contains(t, ics, " won ")
	winter := strings.ReplaceAll(e.Browser(t).Get(t, "/tournaments/winter-cup/calendar.ics").Body, "\r\n ", "")
	assert.Regexp(t, `Window \d{1,2} [A-Z][a-z]{2} 2026\\, \d\d:\d\d – \d\d:\d\d UTC: both players ready up`, winter, "an open match: when, in the one shape")
}

// Issue 25 point 10: the tournament page offers the embed's code to copy,
// pointing at this arena's host.
func TestTournamentOffersItsEmbedCode(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	page := e.Browser(t).Get(t, "/tournaments/winter-cup").Body
	code := pubBetween(t, page, `<textarea id="embed-code" readonly`, "</textarea>")
	assert.Contains(t, code, `&lt;iframe src=&#34;`+e.URL+`/tournaments/winter-cup/embed&#34; title=&#34;Winter Cup&#34;`)
	assert.Contains(t, page, `<label for="embed-code">`)
}

// Issue 25 point 1 (the page's side) on a served match: a score set by
// the admin's resolution shows on the page and in its link preview with
// the winner's score first, whoever the winner is.
func TestMatchPageShowsTheScoreWinnerFirst(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	m := e.Playable(t, "winter-cup")[0]
	e.Admin(t, "POST", fmt.Sprintf("/api/v1/admin/matches/%d/resolve", m.ID), map[string]any{"winner": *m.P2, "score": map[string]int{"p1": 1, "p2": 3}}, http.StatusOK)
	winner := e.PlayerName(t, *m.P2)
	page := e.Browser(t).Get(t, m.Path("")).Body
	assert.Contains(t, page, "<dt>Result</dt><dd>Decided by the arena&#39;s admin: <bdi>"+winner+"</bdi> won 3–1</dd>")
	assert.Contains(t, page, `<span>1</span><span aria-hidden="true">–</span><span class="sr-only">to</span><span>3</span>`, "the scoreboard in slot order")
	assert.Regexp(t, `<meta property="og:description" content="[^"]*`+regexp.QuoteMeta(winner)+` won 3–1\.">`, page, "not \"won 1–3\"")
}

// Issue 33 point 6: a tournament of groups only (round robin) never has a
// bracket: its page links no picture and bracket.svg is a clean 404, in
// its group stage and once it is over.
func TestGroupOnlyTournamentHasNoBracketPicture(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	e.OpenCup(t, arenatest.Cup{Slug: "groups-only", Format: "round_robin", MaxPlayers: 4, Players: arenatest.CupPlayers(4), Seeded: true,
		Fields: map[string]any{"smallFinal": false}})
	e.SetStatus(t, "groups-only", "registration_closed", "group_stage")
	for _, done := range []bool{false, true} {
		if done {
			e.ResolveScheduled(t, "groups-only", -1)
		}
		page := e.Browser(t).Get(t, "/tournaments/groups-only")
		require.Equal(t, http.StatusOK, page.Status)
		assert.NotContains(t, page.Body, "bracket.svg", "no link to a picture that is not there")
		svg := e.Browser(t).Get(t, "/tournaments/groups-only/bracket.svg")
		assert.Equal(t, http.StatusNotFound, svg.Status)
		assert.Contains(t, svg.Body, "This tournament has no bracket")
		assert.NotContains(t, svg.Body, "<svg")
	}
}

// Issue 33 point 6: the double elimination's picture draws the losers'
// bracket's connectors, from each losers' match to the one its winner
// plays next (8 players: L1 to L2 twice, L2 to L3 twice, L3 to L4), as
// well as the winners' bracket's (4 to 2, 2 to 1).
func TestDoubleEliminationPictureJoinsTheLosersBracket(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	e.OpenCup(t, arenatest.Cup{Slug: "de-pic", Format: "double_elimination", MaxPlayers: 8, Players: arenatest.CupPlayers(8), Seeded: true,
		Fields: map[string]any{"smallFinal": false}})
	e.SetStatus(t, "de-pic", "registration_closed", "playoffs")
	svg := e.Browser(t).Get(t, "/tournaments/de-pic/bracket.svg")
	require.Equal(t, http.StatusOK, svg.Status)
	losersAt := regexp.MustCompile(`<text x="\d+" y="(\d+)"[^>]*>Losers`).FindStringSubmatch(svg.Body)
	require.NotNil(t, losersAt, "the losers' bracket's heading")
	top, _ := strconv.Atoi(losersAt[1])
	var winners, losers int
	for _, d := range regexp.MustCompile(`<path d="M(\d+) (\d+)H(\d+)V(\d+)H(\d+)"`).FindAllStringSubmatch(svg.Body, -1) {
		y1, _ := strconv.Atoi(d[2])
		x1, _ := strconv.Atoi(d[1])
		x2, _ := strconv.Atoi(d[5])
		assert.Less(t, x1, x2, "a line runs rightwards: %s", d[0])
		if y1 > top {
			losers++
		} else {
			winners++
		}
	}
	assert.Equal(t, 6, winners, "the winners' bracket's lines")
	assert.Equal(t, 5, losers, "the losers' bracket's lines")
}
