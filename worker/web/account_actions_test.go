package web_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/worker/server"
)

const acctNewcomer = "76561198000000099"

// acctPlayer is a signed-in browser on the demo arena.
func (e *siteEnv) acctPlayer(t *testing.T, id string) *http.Client {
	c := e.browser(t)
	e.acctSignIn(t, c, id)
	return c
}

// acctCup creates an open tournament through the admin API and registers
// the players; extra fields override the request's.
func (e *siteEnv) acctCup(t *testing.T, slug, format string, maxPlayers int, players []string, extra map[string]any) {
	t.Helper()
	body := map[string]any{
		"slug": slug, "name": "Cup " + slug, "format": format, "maxPlayers": maxPlayers,
		"registrationOpensAt": e.now.Add(-time.Hour).Format(time.RFC3339), "registrationClosesAt": e.now.Add(time.Hour).Format(time.RFC3339),
		"startsAt": e.now.Add(2 * time.Hour).Format(time.RFC3339), "smallFinal": true,
	}
	for k, v := range extra {
		body[k] = v
	}
	e.acctAdmin(t, http.MethodPost, "/api/v1/admin/tournaments", body, http.StatusCreated, nil)
	e.acctStatus(t, slug, "registration_open")
	for _, id := range players {
		e.acctAdmin(t, http.MethodPost, "/api/v1/admin/tournaments/"+slug+"/registrations", map[string]any{"platformId": id}, http.StatusCreated, nil)
	}
}

func (e *siteEnv) acctStatus(t *testing.T, slug, status string) {
	t.Helper()
	e.acctAdmin(t, http.MethodPost, "/api/v1/admin/tournaments/"+slug+"/status", map[string]any{"status": status}, http.StatusOK, nil)
}

// acctPlayable returns the tournament's scheduled matches with both sides
// whose window is open now.
func (e *siteEnv) acctPlayable(t *testing.T, slug string) []acctAdminMatch {
	t.Helper()
	var out []acctAdminMatch
	for _, m := range e.acctMatches(t, slug) {
		opens, _ := time.Parse(time.RFC3339, m.OpensAt)
		closes, _ := time.Parse(time.RFC3339, m.ClosesAt)
		now := e.acctNow(t)
		if m.Status == "scheduled" && m.P1 != nil && m.P2 != nil && !now.Before(opens) && now.Before(closes) {
			out = append(out, m)
		}
	}
	return out
}

// acctNow is the service clock (moved by /__dev/clock).
func (e *siteEnv) acctNow(t *testing.T) time.Time {
	t.Helper()
	var out struct {
		Now string `json:"now"`
	}
	e.acctAPI(t, http.MethodPost, "/__dev/clock", "", map[string]any{"advanceSeconds": 0}, http.StatusOK, &out)
	now, err := time.Parse(time.RFC3339, out.Now)
	require.NoError(t, err)
	return now
}

func matchPath(id int64, action string) string {
	if action == "" {
		return "/matches/" + acctItoa(id)
	}
	return "/matches/" + acctItoa(id) + "/" + action
}

// acctLive readies both sides of m through the site and returns their
// browsers.
func (e *siteEnv) acctLive(t *testing.T, m acctAdminMatch) (p1, p2 *http.Client) {
	t.Helper()
	p1, p2 = e.acctPlayer(t, *m.P1), e.acctPlayer(t, *m.P2)
	for _, c := range []*http.Client{p1, p2} {
		resp := acctForm(t, c, e.http.URL, matchPath(m.ID, "ready"), nil)
		require.Equal(t, http.StatusSeeOther, resp.StatusCode, resp.body)
	}
	require.Equal(t, "live", e.acctMatch(t, m.ID).Status)
	return p1, p2
}

// acctReport reports m's result from c; score may be empty.
func (e *siteEnv) acctReport(t *testing.T, c *http.Client, m acctAdminMatch, winner string, score ...string) acctResponse {
	t.Helper()
	v := url.Values{"winner": {winner}}
	if len(score) == 2 {
		v.Set("score_p1", score[0])
		v.Set("score_p2", score[1])
	}
	return acctForm(t, c, e.http.URL, matchPath(m.ID, "report"), v)
}

func TestRegisterAndWithdraw(t *testing.T) {
	e := newSiteEnv(t)
	base := e.http.URL
	const slug = "spring-invitational"
	page := "/tournaments/" + slug
	before := e.acctTournament(t, slug).PlayerCount

	t.Run("VisitorIsSentToSignIn", func(t *testing.T) {
		resp := acctForm(t, e.browser(t), base, page+"/register", url.Values{"next": {page}})
		assert.Equal(t, http.StatusSeeOther, resp.StatusCode)
		assert.Equal(t, "/signin?next=%2Ftournaments%2Fspring-invitational", resp.Header.Get("Location"))
		assert.Equal(t, before, e.acctTournament(t, slug).PlayerCount)
	})
	c := e.acctPlayer(t, acctNewcomer)
	t.Run("TournamentPageOffersRegistration", func(t *testing.T) {
		resp := acctSend(t, c, http.MethodGet, base+page, nil)
		require.Equal(t, http.StatusOK, resp.StatusCode)
		assert.Contains(t, resp.body, `action="/tournaments/spring-invitational/register"`)
	})
	t.Run("Registers", func(t *testing.T) {
		resp := acctForm(t, c, base, page+"/register", url.Values{"next": {page}})
		require.Equal(t, http.StatusSeeOther, resp.StatusCode, resp.body)
		assert.Equal(t, page+"?notice=registered", resp.Header.Get("Location"))
		assert.Equal(t, before+1, e.acctTournament(t, slug).PlayerCount)
		shown := acctSend(t, c, http.MethodGet, base+resp.Header.Get("Location"), nil)
		assert.Contains(t, shown.body, "You are registered.")
		assert.Contains(t, shown.body, `action="/tournaments/spring-invitational/withdraw"`)
	})
	t.Run("ErrAlreadyRegistered", func(t *testing.T) {
		resp := acctForm(t, c, base, page+"/register", url.Values{"next": {page}})
		assert.Equal(t, http.StatusConflict, resp.StatusCode)
		assert.Contains(t, resp.body, "already registered")
		assert.Equal(t, before+1, e.acctTournament(t, slug).PlayerCount)
	})
	t.Run("Withdraws", func(t *testing.T) {
		resp := acctForm(t, c, base, page+"/withdraw", url.Values{"next": {page}})
		require.Equal(t, http.StatusSeeOther, resp.StatusCode, resp.body)
		assert.Equal(t, page+"?notice=withdrawn", resp.Header.Get("Location"))
		assert.Equal(t, before, e.acctTournament(t, slug).PlayerCount)
	})
	t.Run("ErrNotRegistered", func(t *testing.T) {
		resp := acctForm(t, c, base, page+"/withdraw", nil)
		assert.Equal(t, http.StatusConflict, resp.StatusCode)
		assert.Contains(t, resp.body, "You are not registered")
	})
	t.Run("ErrWithdrawAfterRegistrationClosed", func(t *testing.T) {
		ada := e.acctPlayer(t, acctAda) // seeded into the group stage of the winter cup
		resp := acctForm(t, ada, base, "/tournaments/winter-cup/withdraw", nil)
		assert.Equal(t, http.StatusConflict, resp.StatusCode)
		assert.Contains(t, resp.body, "Registration is closed.")
	})
	t.Run("ErrUnknownOrDraftTournament", func(t *testing.T) {
		e.acctAdmin(t, http.MethodPost, "/api/v1/admin/tournaments", map[string]any{
			"slug": "secret", "name": "Secret", "format": "playoffs_only", "maxPlayers": 4,
			"registrationOpensAt": e.now.Add(-time.Hour).Format(time.RFC3339), "registrationClosesAt": e.now.Add(time.Hour).Format(time.RFC3339),
			"startsAt": e.now.Add(2 * time.Hour).Format(time.RFC3339),
		}, http.StatusCreated, nil)
		for _, p := range []string{"/tournaments/nope/register", "/tournaments/secret/register", "/tournaments/secret/withdraw"} {
			assert.Equal(t, http.StatusNotFound, acctForm(t, c, base, p, nil).StatusCode, p)
		}
	})
}

// TestRegistrationErrorsMatchTheAPI drives each refusal through the site
// and through the admin API: the same rule answers both.
func TestRegistrationErrorsMatchTheAPI(t *testing.T) {
	e := newSiteEnv(t)
	base := e.http.URL
	e.acctCup(t, "tiny", "playoffs_only", 2, []string{acctAda, acctBlaise}, nil)
	e.acctCup(t, "teams", "playoffs_only", 8, nil, map[string]any{"teamMinPlayers": 2, "teamMaxPlayers": 3})
	c := e.acctPlayer(t, acctNewcomer)

	cases := []struct {
		name, slug, roster, apiCode, message string
		status                               int
		apiRoster                            []string
		player                               string
	}{
		{name: "ErrRegistrationClosed", slug: "winter-cup", apiCode: "registration_closed", message: "Registration is closed.", status: http.StatusConflict},
		{name: "ErrTournamentFull", slug: "tiny", apiCode: "tournament_full", message: "The tournament is full.", status: http.StatusConflict},
		{name: "ErrAlreadyRegistered", slug: "spring-invitational", player: acctAda, apiCode: "already_registered", message: "already registered", status: http.StatusConflict},
		{name: "ErrInvalidRoster", slug: "teams", apiCode: "invalid_roster", message: "A side has 2 to 3 players, the captain included.", status: http.StatusUnprocessableEntity},
		{name: "ErrInvalidSteamID", slug: "teams", roster: "123", apiRoster: []string{"123"}, apiCode: "invalid_steam_id", message: "17-digit", status: http.StatusBadRequest},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			player, browser := acctNewcomer, c
			if tc.player != "" {
				player, browser = tc.player, e.acctPlayer(t, tc.player)
			}
			before := e.acctTournament(t, tc.slug).PlayerCount
			resp := acctForm(t, browser, base, "/tournaments/"+tc.slug+"/register", url.Values{"roster": {tc.roster}})
			assert.Equal(t, tc.status, resp.StatusCode)
			assert.Contains(t, resp.body, tc.message)
			assert.Contains(t, resp.body, `class="notice error"`)
			var apiErr struct {
				Error string `json:"error"`
			}
			body := map[string]any{"platformId": player}
			if tc.apiRoster != nil {
				body["roster"] = tc.apiRoster
			}
			e.acctAPI(t, http.MethodPost, "/api/v1/admin/tournaments/"+tc.slug+"/registrations", "Bearer "+e.adminToken, body, server.StatusOf(tc.apiCode), &apiErr)
			assert.Equal(t, tc.status, server.StatusOf(tc.apiCode), "the site answers the API's status")
			assert.Equal(t, tc.apiCode, apiErr.Error, "the API refuses with the same rule")
			assert.Equal(t, before, e.acctTournament(t, tc.slug).PlayerCount)
		})
	}
	t.Run("TeamCaptainRegistersARoster", func(t *testing.T) {
		resp := acctForm(t, c, base, "/tournaments/teams/register", url.Values{"roster": {"76561198000000097\n76561198000000098"}})
		require.Equal(t, http.StatusSeeOther, resp.StatusCode, resp.body)
		assert.Equal(t, 1, e.acctTournament(t, "teams").PlayerCount, "one side")
		member := e.acctPlayer(t, "76561198000000097")
		resp = acctForm(t, member, base, "/tournaments/teams/withdraw", nil)
		assert.Equal(t, http.StatusForbidden, resp.StatusCode, "only the captain withdraws")
		assert.Contains(t, resp.body, "captain")
		page := acctSend(t, member, http.MethodGet, base+"/tournaments/teams", nil)
		assert.Contains(t, page.body, "team; your captain manages the registration")
		resp = acctForm(t, c, base, "/tournaments/teams/withdraw", nil)
		assert.Equal(t, http.StatusSeeOther, resp.StatusCode)
		assert.Zero(t, e.acctTournament(t, "teams").PlayerCount)
	})
}

func TestReadyReportConfirm(t *testing.T) {
	e := newSiteEnv(t)
	base := e.http.URL
	ms := e.acctPlayable(t, "winter-cup")
	require.NotEmpty(t, ms)
	m := ms[0]
	p1, p2 := e.acctPlayer(t, *m.P1), e.acctPlayer(t, *m.P2)

	t.Run("ErrNotParticipant", func(t *testing.T) {
		resp := acctForm(t, e.acctPlayer(t, acctNewcomer), base, matchPath(m.ID, "ready"), nil)
		assert.Equal(t, http.StatusForbidden, resp.StatusCode)
		assert.Contains(t, resp.body, "You do not play in this match.")
	})
	t.Run("MatchPageOffersTheReadyButton", func(t *testing.T) {
		resp := acctSend(t, p1, http.MethodGet, base+matchPath(m.ID, ""), nil)
		require.Equal(t, http.StatusOK, resp.StatusCode)
		assert.Contains(t, resp.body, `action="`+matchPath(m.ID, "ready")+`"`)
	})
	t.Run("ReadyBothSidesGoesLive", func(t *testing.T) {
		resp := acctForm(t, p1, base, matchPath(m.ID, "ready"), url.Values{"next": {matchPath(m.ID, "")}})
		require.Equal(t, http.StatusSeeOther, resp.StatusCode, resp.body)
		assert.Equal(t, matchPath(m.ID, "")+"?notice=ready", resp.Header.Get("Location"))
		assert.Equal(t, "scheduled", e.acctMatch(t, m.ID).Status)
		resp = acctForm(t, p2, base, matchPath(m.ID, "ready"), nil)
		require.Equal(t, http.StatusSeeOther, resp.StatusCode, resp.body)
		assert.Equal(t, matchPath(m.ID, "")+"?notice=live", resp.Header.Get("Location"))
		assert.Equal(t, "live", e.acctMatch(t, m.ID).Status)
		resp = acctForm(t, p1, base, matchPath(m.ID, "ready"), nil)
		assert.Equal(t, http.StatusConflict, resp.StatusCode)
		assert.Contains(t, resp.body, "past the ready phase")
	})
	t.Run("ErrInvalidReports", func(t *testing.T) {
		for _, tc := range []struct {
			winner string
			score  []string
			want   string
		}{
			{winner: acctNewcomer, want: "Choose the winner"},
			{winner: "", want: "Choose the winner"},
			{winner: *m.P1, score: []string{"1", "3"}, want: "whole numbers from 0 to 999"},
			{winner: *m.P1, score: []string{"3", ""}, want: "whole numbers from 0 to 999"},
			{winner: *m.P1, score: []string{"3", "-1"}, want: "whole numbers from 0 to 999"},
		} {
			resp := e.acctReport(t, p1, m, tc.winner, tc.score...)
			assert.Equal(t, http.StatusUnprocessableEntity, resp.StatusCode, tc)
			assert.Contains(t, resp.body, tc.want)
		}
		assert.Equal(t, "live", e.acctMatch(t, m.ID).Status)
	})
	standing := func(id string) (played, wins int) {
		for _, g := range e.acctTournament(t, "winter-cup").Groups {
			for _, row := range g.Standings {
				if row.Player.PlatformID == id {
					return row.Played, row.Wins
				}
			}
		}
		t.Fatalf("%s has no standing", id)
		return 0, 0
	}
	played, wins := standing(*m.P1)
	t.Run("Report", func(t *testing.T) {
		resp := e.acctReport(t, p1, m, *m.P1, "3", "1")
		require.Equal(t, http.StatusSeeOther, resp.StatusCode, resp.body)
		assert.Equal(t, matchPath(m.ID, "")+"?notice=reported", resp.Header.Get("Location"))
		assert.Equal(t, "awaiting_result", e.acctMatch(t, m.ID).Status)
		mine := acctSend(t, p1, http.MethodGet, base+resp.Header.Get("Location"), nil)
		assert.Contains(t, mine.body, "Result reported.")
		assert.Contains(t, mine.body, "Waiting for your opponent to confirm")
		theirs := acctSend(t, p2, http.MethodGet, base+matchPath(m.ID, ""), nil)
		assert.Contains(t, theirs.body, `action="`+matchPath(m.ID, "report/confirm")+`"`)
		assert.Contains(t, theirs.body, `action="`+matchPath(m.ID, "report/dispute")+`"`)
	})
	t.Run("ErrReportPending", func(t *testing.T) {
		resp := e.acctReport(t, p2, m, *m.P2)
		assert.Equal(t, http.StatusConflict, resp.StatusCode)
		assert.Contains(t, resp.body, "already reported")
	})
	t.Run("ErrOwnReport", func(t *testing.T) {
		resp := acctForm(t, p1, base, matchPath(m.ID, "report/confirm"), nil)
		assert.Equal(t, http.StatusForbidden, resp.StatusCode)
		assert.Contains(t, resp.body, "Your side reported this result")
	})
	t.Run("OpponentConfirms", func(t *testing.T) {
		resp := acctForm(t, p2, base, matchPath(m.ID, "report/confirm"), nil)
		require.Equal(t, http.StatusSeeOther, resp.StatusCode, resp.body)
		assert.Equal(t, matchPath(m.ID, "")+"?notice=confirmed", resp.Header.Get("Location"))
		pm := e.acctTournament(t, "winter-cup").match(m.ID)
		require.NotNil(t, pm)
		assert.Equal(t, "confirmed", pm.Status)
		require.NotNil(t, pm.ResultSource)
		assert.Equal(t, "player_report", *pm.ResultSource)
		require.NotNil(t, pm.Winner)
		assert.Equal(t, *m.P1, pm.Winner.PlatformID)
		require.NotNil(t, pm.Score)
		assert.Equal(t, 3, pm.Score.P1)
		assert.Equal(t, 1, pm.Score.P2)
		nowPlayed, nowWins := standing(*m.P1)
		assert.Equal(t, played+1, nowPlayed, "the standings count the match")
		assert.Equal(t, wins+1, nowWins)
	})
	t.Run("ErrAlreadyResolved", func(t *testing.T) {
		resp := acctForm(t, p2, base, matchPath(m.ID, "report/dispute"), nil)
		assert.Equal(t, http.StatusConflict, resp.StatusCode)
		assert.Contains(t, resp.body, "already has its result")
	})
}

func TestReportDispute(t *testing.T) {
	e := newSiteEnv(t)
	base := e.http.URL
	m := e.acctPlayable(t, "winter-cup")[1]
	p1, p2 := e.acctLive(t, m)
	resp := e.acctReport(t, p2, m, *m.P2)
	require.Equal(t, http.StatusSeeOther, resp.StatusCode, resp.body)
	resp = acctForm(t, p1, base, matchPath(m.ID, "report/dispute"), nil)
	require.Equal(t, http.StatusSeeOther, resp.StatusCode, resp.body)
	assert.Equal(t, matchPath(m.ID, "")+"?notice=disputed", resp.Header.Get("Location"))
	assert.Equal(t, "disputed", e.acctMatch(t, m.ID).Status)
	var queue struct {
		Matches []acctAdminMatch `json:"matches"`
	}
	e.acctAdmin(t, http.MethodGet, "/api/v1/admin/queue", nil, http.StatusOK, &queue)
	i := slices.IndexFunc(queue.Matches, func(q acctAdminMatch) bool { return q.ID == m.ID })
	require.GreaterOrEqual(t, i, 0, "the disputed match waits in the admin queue")
	assert.Equal(t, "disputed", queue.Matches[i].Status)
	page := acctSend(t, p2, http.MethodGet, base+matchPath(m.ID, ""), nil)
	assert.Contains(t, page.body, "the arena's admin decides")
	resp = acctForm(t, p1, base, matchPath(m.ID, "report/confirm"), nil)
	assert.Equal(t, http.StatusConflict, resp.StatusCode, "nothing left to confirm")
}

// TestReportsAndGameClients: a report is refused once a game client
// submitted (the submission path decides), and before the match is live.
func TestReportsAndGameClients(t *testing.T) {
	e := newSiteEnv(t)
	ms := e.acctPlayable(t, "winter-cup")
	require.GreaterOrEqual(t, len(ms), 2)
	scheduled := ms[2]
	t.Run("ErrNotLive", func(t *testing.T) {
		resp := e.acctReport(t, e.acctPlayer(t, *scheduled.P1), scheduled, *scheduled.P1)
		assert.Equal(t, http.StatusConflict, resp.StatusCode)
		assert.Contains(t, resp.body, "not live")
	})
	t.Run("ErrClientResult", func(t *testing.T) {
		m := ms[0]
		_, p2 := e.acctLive(t, m)
		nonce := e.acctMatch(t, m.ID).SessionNonce
		require.NotEmpty(t, nonce)
		result := fmt.Sprintf(`{"matchId":%d,"sessionNonce":%q,"winner":%q}`, m.ID, nonce, *m.P1)
		sum := sha256.Sum256([]byte(result))
		var out struct {
			Status string `json:"status"`
		}
		e.acctAPI(t, http.MethodPost, "/api/v1"+matchPath(m.ID, "result"), "Platform MOCK:"+*m.P1,
			map[string]any{"protocol": "svc.result.v3", "result": result, "resultHash": hex.EncodeToString(sum[:])}, http.StatusOK, &out)
		require.Equal(t, "pending", out.Status)
		resp := e.acctReport(t, p2, m, *m.P2)
		assert.Equal(t, http.StatusConflict, resp.StatusCode)
		assert.Contains(t, resp.body, "game client")
		page := acctSend(t, p2, http.MethodGet, e.http.URL+matchPath(m.ID, ""), nil)
		assert.Contains(t, page.body, "A game client sent this match's result")
	})
}

// TestBracketThroughReports plays a four-player bracket on the website
// alone: results seat the next round and the final completes the
// tournament, with its podium.
func TestBracketThroughReports(t *testing.T) {
	e := newSiteEnv(t)
	players := []string{acctAda, acctBlaise, "76561198000000003", "76561198000000004"}
	e.acctCup(t, "cup4", "playoffs_only", 4, players, nil)
	e.acctStatus(t, "cup4", "registration_closed")
	e.acctStatus(t, "cup4", "playoffs")
	play := func(t *testing.T, m acctAdminMatch) string {
		p1, p2 := e.acctLive(t, m)
		require.Equal(t, http.StatusSeeOther, e.acctReport(t, p1, m, *m.P2, "0", "2").StatusCode)
		resp := acctForm(t, p2, e.http.URL, matchPath(m.ID, "report/confirm"), nil)
		require.Equal(t, http.StatusSeeOther, resp.StatusCode, resp.body)
		return *m.P2
	}
	semis := e.acctPlayable(t, "cup4")
	require.Len(t, semis, 2)
	winners := []string{play(t, semis[0]), play(t, semis[1])}
	cup := e.acctTournament(t, "cup4")
	var final *acctPublicMatch
	for _, col := range cup.Bracket {
		for i := range col.Matches {
			if col.Matches[i].BracketSlot != nil && *col.Matches[i].BracketSlot == "FINAL" {
				final = &col.Matches[i]
			}
		}
	}
	require.NotNil(t, final)
	require.NotNil(t, final.Player1)
	require.NotNil(t, final.Player2)
	assert.ElementsMatch(t, winners, []string{final.Player1.PlatformID, final.Player2.PlatformID}, "the winners are seated in the final")

	e.acctAdvance(t, 61*time.Minute) // the final's window opens one window later
	last := e.acctPlayable(t, "cup4")
	require.Len(t, last, 2, "final and small final")
	champion := ""
	for _, m := range last {
		w := play(t, m)
		if m.BracketSlot != nil && *m.BracketSlot == "FINAL" {
			champion = w
		}
	}
	cup = e.acctTournament(t, "cup4")
	assert.Equal(t, "completed", cup.Status)
	require.NotEmpty(t, cup.Podium)
	assert.Equal(t, 1, cup.Podium[0].Rank)
	assert.Equal(t, champion, cup.Podium[0].Player.PlatformID)
}

// TestReportGrace: a report nobody answers is confirmed by the scheduled
// jobs once the arena's grace period (24 h on the demo arena) is over.
// It needs the report_grace job in worker/server/scheduled.go's
// scheduledJobs (core.RunReportGrace).
func TestReportGrace(t *testing.T) {
	e := newSiteEnv(t)
	e.acctCup(t, "duel", "playoffs_only", 2, []string{acctAda, acctBlaise}, nil)
	e.acctStatus(t, "duel", "registration_closed")
	e.acctStatus(t, "duel", "playoffs")
	m := e.acctPlayable(t, "duel")[0]
	p1, _ := e.acctLive(t, m)
	require.Equal(t, http.StatusSeeOther, e.acctReport(t, p1, m, *m.P1, "2", "0").StatusCode)
	e.acctAdvance(t, 24*time.Hour-time.Minute)
	e.acctTick(t)
	require.Equal(t, "awaiting_result", e.acctMatch(t, m.ID).Status, "not before the grace period ends")
	e.acctAdvance(t, time.Minute)
	e.acctTick(t)
	got := e.acctMatch(t, m.ID)
	require.Equal(t, "confirmed", got.Status, "the report_grace job is missing from scheduledJobs() in worker/server/scheduled.go")
	require.NotNil(t, got.ResultSource)
	assert.Equal(t, "player_report", *got.ResultSource)
	require.NotNil(t, got.Winner)
	assert.Equal(t, *m.P1, *got.Winner)
	assert.Equal(t, "completed", e.acctTournament(t, "duel").Status)
}
