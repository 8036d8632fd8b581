package web_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/worker/arenatest"
	"arena/worker/server"
)

const acctNewcomer = "76561198000000099"

func TestRegisterAndWithdraw(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	const slug = "spring-invitational"
	page := "/tournaments/" + slug
	before := e.Tournament(t, slug).PlayerCount

	t.Run("VisitorIsSentToSignIn", func(t *testing.T) {
		resp := e.Browser(t).Post(t, page+"/register", url.Values{"next": {page}})
		assert.Equal(t, http.StatusSeeOther, resp.Status)
		assert.Equal(t, "/signin?next=%2Ftournaments%2Fspring-invitational", resp.Location)
		assert.Equal(t, before, e.Tournament(t, slug).PlayerCount)
	})
	c := e.SignedIn(t, acctNewcomer)
	t.Run("TournamentPageOffersRegistration", func(t *testing.T) {
		resp := c.Get(t, page)
		require.Equal(t, http.StatusOK, resp.Status)
		assert.Contains(t, resp.Body, `action="/tournaments/spring-invitational/register"`)
	})
	t.Run("Registers", func(t *testing.T) {
		resp := c.Post(t, page+"/register", url.Values{"next": {page}})
		require.Equal(t, http.StatusSeeOther, resp.Status, resp.Body)
		assert.Equal(t, page+"?notice=registered", resp.Location)
		assert.Equal(t, before+1, e.Tournament(t, slug).PlayerCount)
		shown := c.Get(t, resp.Location)
		assert.Contains(t, shown.Body, "You are registered.")
		assert.Contains(t, shown.Body, `action="/tournaments/spring-invitational/withdraw"`)
	})
	t.Run("ErrAlreadyRegistered", func(t *testing.T) {
		resp := c.Post(t, page+"/register", url.Values{"next": {page}})
		assert.Equal(t, http.StatusConflict, resp.Status)
		assert.Contains(t, resp.Body, "already registered")
		assert.Equal(t, before+1, e.Tournament(t, slug).PlayerCount)
	})
	t.Run("Withdraws", func(t *testing.T) {
		resp := c.Post(t, page+"/withdraw", url.Values{"next": {page}})
		require.Equal(t, http.StatusSeeOther, resp.Status, resp.Body)
		assert.Equal(t, page+"?notice=withdrawn", resp.Location)
		assert.Equal(t, before, e.Tournament(t, slug).PlayerCount)
	})
	t.Run("ErrNotRegistered", func(t *testing.T) {
		resp := c.Post(t, page+"/withdraw", nil)
		assert.Equal(t, http.StatusForbidden, resp.Status)
		assert.Contains(t, resp.Body, "You are not registered")
	})
	t.Run("ErrWithdrawAfterRegistrationClosed", func(t *testing.T) {
		ada := e.SignedIn(t, arenatest.Ada) // seeded into the group stage of the winter cup
		resp := ada.Post(t, "/tournaments/winter-cup/withdraw", nil)
		assert.Equal(t, http.StatusConflict, resp.Status)
		assert.Contains(t, resp.Body, "Registration is closed.")
	})
	t.Run("ErrUnknownOrDraftTournament", func(t *testing.T) {
		e.Admin(t, http.MethodPost, "/api/v1/admin/tournaments", map[string]any{
			"slug": "secret", "name": "Secret", "format": "playoffs_only", "maxPlayers": 4,
			"registrationOpensAt": e.Now.Add(-time.Hour).Format(time.RFC3339), "registrationClosesAt": e.Now.Add(time.Hour).Format(time.RFC3339),
			"startsAt": e.Now.Add(2 * time.Hour).Format(time.RFC3339),
		}, http.StatusCreated)
		for _, p := range []string{"/tournaments/nope/register", "/tournaments/secret/register", "/tournaments/secret/withdraw"} {
			assert.Equal(t, http.StatusNotFound, c.Post(t, p, nil).Status, p)
		}
	})
}

// TestRegistrationErrorsMatchTheAPI drives each refusal through the site
// and through the admin API: the same rule answers both.
func TestRegistrationErrorsMatchTheAPI(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	e.OpenCup(t, arenatest.Cup{Slug: "tiny", MaxPlayers: 2, Players: []string{arenatest.Ada, arenatest.Blaise}})
	e.OpenCup(t, arenatest.Cup{Slug: "teams", MaxPlayers: 8, Fields: map[string]any{"teamMinPlayers": 2, "teamMaxPlayers": 3}})
	c := e.SignedIn(t, acctNewcomer)

	cases := []struct {
		name, slug, roster, apiCode, message string
		status                               int
		apiRoster                            []string
		player                               string
	}{
		{name: "ErrRegistrationClosed", slug: "winter-cup", apiCode: "registration_closed", message: "Registration is closed.", status: http.StatusConflict},
		{name: "ErrTournamentFull", slug: "tiny", apiCode: "tournament_full", message: "The tournament is full.", status: http.StatusConflict},
		{name: "ErrAlreadyRegistered", slug: "spring-invitational", player: arenatest.Ada, apiCode: "already_registered", message: "already registered", status: http.StatusConflict},
		{name: "ErrInvalidRoster", slug: "teams", apiCode: "invalid_roster", message: "A side has 2 to 3 players, the captain included.", status: http.StatusUnprocessableEntity},
		{name: "ErrInvalidSteamID", slug: "teams", roster: "123", apiRoster: []string{"123"}, apiCode: "invalid_steam_id", message: "17-digit", status: http.StatusBadRequest},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			player, browser := acctNewcomer, c
			if tc.player != "" {
				player, browser = tc.player, e.SignedIn(t, tc.player)
			}
			before := e.Tournament(t, tc.slug).PlayerCount
			resp := browser.Post(t, "/tournaments/"+tc.slug+"/register", url.Values{"roster": {tc.roster}})
			assert.Equal(t, tc.status, resp.Status)
			assert.Contains(t, resp.Body, tc.message)
			assert.Contains(t, resp.Body, `class="notice error"`)
			var apiErr struct {
				Error string `json:"error"`
			}
			body := map[string]any{"platformId": player}
			if tc.apiRoster != nil {
				body["roster"] = tc.apiRoster
			}
			arenatest.Decode(t, e.API(t, http.MethodPost, "/api/v1/admin/tournaments/"+tc.slug+"/registrations", "Bearer "+e.AdminToken, body, server.StatusOf(tc.apiCode)), &apiErr)
			assert.Equal(t, tc.status, server.StatusOf(tc.apiCode), "the site answers the API's status")
			assert.Equal(t, tc.apiCode, apiErr.Error, "the API refuses with the same rule")
			assert.Equal(t, before, e.Tournament(t, tc.slug).PlayerCount)
		})
	}
	t.Run("TeamCaptainRegistersARoster", func(t *testing.T) {
		resp := c.Post(t, "/tournaments/teams/register", url.Values{"roster": {"76561198000000097\n76561198000000098"}})
		require.Equal(t, http.StatusSeeOther, resp.Status, resp.Body)
		assert.Equal(t, 1, e.Tournament(t, "teams").PlayerCount, "one side")
		member := e.SignedIn(t, "76561198000000097")
		resp = member.Post(t, "/tournaments/teams/withdraw", nil)
		assert.Equal(t, http.StatusForbidden, resp.Status, "only the captain withdraws")
		assert.Contains(t, resp.Body, "captain")
		page := member.Get(t, "/tournaments/teams")
		assert.Contains(t, page.Body, "team; your captain manages the registration")
		resp = c.Post(t, "/tournaments/teams/withdraw", nil)
		assert.Equal(t, http.StatusSeeOther, resp.Status)
		assert.Zero(t, e.Tournament(t, "teams").PlayerCount)
	})
}

func TestReadyReportConfirm(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	ms := e.Playable(t, "winter-cup")
	require.NotEmpty(t, ms)
	m := ms[0]
	p1, p2 := e.SignedIn(t, *m.P1), e.SignedIn(t, *m.P2)

	t.Run("ErrNotParticipant", func(t *testing.T) {
		resp := e.SignedIn(t, acctNewcomer).Post(t, m.Path("ready"), nil)
		assert.Equal(t, http.StatusForbidden, resp.Status)
		assert.Contains(t, resp.Body, "You do not play in this match.")
	})
	t.Run("MatchPageOffersTheReadyButton", func(t *testing.T) {
		resp := p1.Get(t, m.Path(""))
		require.Equal(t, http.StatusOK, resp.Status)
		assert.Contains(t, resp.Body, `action="`+m.Path("ready")+`"`)
		// The box as the page's live poll renders it comes back to the
		// page, not to the poll's address.
		poll := p1.Get(t, m.Path("live"))
		require.Equal(t, http.StatusOK, poll.Status)
		assert.Contains(t, poll.Body, `action="`+m.Path("ready")+`"`)
		assert.Contains(t, poll.Body, `<input type="hidden" name="next" value="`+m.Path("")+`">`)
		assert.NotContains(t, poll.Body, `value="`+m.Path("live")+`"`)
	})
	t.Run("ReadyBothSidesGoesLive", func(t *testing.T) {
		resp := p1.Post(t, m.Path("ready"), url.Values{"next": {m.Path("")}})
		require.Equal(t, http.StatusSeeOther, resp.Status, resp.Body)
		assert.Equal(t, m.Path("")+"?match="+strconv.FormatInt(m.ID, 10)+"&notice=ready", resp.Location)
		assert.Equal(t, "scheduled", e.Match(t, m.ID).Status)
		resp = p2.Post(t, m.Path("ready"), nil)
		require.Equal(t, http.StatusSeeOther, resp.Status, resp.Body)
		assert.Equal(t, m.Path("")+"?match="+strconv.FormatInt(m.ID, 10)+"&notice=live", resp.Location)
		assert.Equal(t, "live", e.Match(t, m.ID).Status)
		resp = p1.Post(t, m.Path("ready"), nil)
		assert.Equal(t, http.StatusConflict, resp.Status)
		assert.Contains(t, resp.Body, "past the ready phase")
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
			resp := p1.Report(t, m, tc.winner, tc.score...)
			assert.Equal(t, http.StatusUnprocessableEntity, resp.Status, tc)
			assert.Contains(t, resp.Body, tc.want)
		}
		assert.Equal(t, "live", e.Match(t, m.ID).Status)
	})
	standing := func(id string) (played, wins int) {
		for _, g := range e.Tournament(t, "winter-cup").Groups {
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
		resp := p1.Report(t, m, *m.P1, "3", "1")
		require.Equal(t, http.StatusSeeOther, resp.Status, resp.Body)
		assert.Equal(t, m.Path("")+"?match="+strconv.FormatInt(m.ID, 10)+"&notice=reported", resp.Location)
		assert.Equal(t, "awaiting_result", e.Match(t, m.ID).Status)
		mine := p1.Get(t, resp.Location)
		assert.Equal(t, "Your side reported: "+e.PlayerName(t, *m.P1)+" won (3–1). Waiting for your opponent to confirm.", mine.Notices(),
			"one confirmation: the box's new state")
		theirs := p2.Get(t, m.Path(""))
		assert.Contains(t, theirs.Body, `action="`+m.Path("report/confirm")+`"`)
		assert.Contains(t, theirs.Body, `action="`+m.Path("report/dispute")+`"`)
	})
	t.Run("ErrReportPending", func(t *testing.T) {
		resp := p2.Report(t, m, *m.P2)
		assert.Equal(t, http.StatusConflict, resp.Status)
		assert.Contains(t, resp.Body, "already reported")
	})
	t.Run("ErrOwnReport", func(t *testing.T) {
		resp := p1.Post(t, m.Path("report/confirm"), nil)
		assert.Equal(t, http.StatusForbidden, resp.Status)
		assert.Contains(t, resp.Body, "Your side reported this result")
	})
	t.Run("OpponentConfirms", func(t *testing.T) {
		resp := p2.Post(t, m.Path("report/confirm"), nil)
		require.Equal(t, http.StatusSeeOther, resp.Status, resp.Body)
		assert.Equal(t, m.Path("")+"?match="+strconv.FormatInt(m.ID, 10)+"&notice=confirmed", resp.Location)
		pm := e.Tournament(t, "winter-cup").Match(m.ID)
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
		resp := p2.Post(t, m.Path("report/dispute"), nil)
		assert.Equal(t, http.StatusConflict, resp.Status)
		assert.Contains(t, resp.Body, "already has its result")
	})
}

func TestReportDispute(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	m := e.Playable(t, "winter-cup")[1]
	p1, p2 := e.ReadyBoth(t, m)
	resp := p2.Report(t, m, *m.P2)
	require.Equal(t, http.StatusSeeOther, resp.Status, resp.Body)
	resp = p1.Post(t, m.Path("report/dispute"), nil)
	require.Equal(t, http.StatusSeeOther, resp.Status, resp.Body)
	assert.Equal(t, m.Path("")+"?match="+strconv.FormatInt(m.ID, 10)+"&notice=disputed", resp.Location)
	assert.Equal(t, "disputed", e.Match(t, m.ID).Status)
	var queue struct {
		Matches []arenatest.AdminMatch `json:"matches"`
	}
	arenatest.Decode(t, e.Admin(t, http.MethodGet, "/api/v1/admin/queue", nil, http.StatusOK), &queue)
	i := slices.IndexFunc(queue.Matches, func(q arenatest.AdminMatch) bool { return q.ID == m.ID })
	require.GreaterOrEqual(t, i, 0, "the disputed match waits in the admin queue")
	assert.Equal(t, "disputed", queue.Matches[i].Status)
	page := p2.Get(t, m.Path(""))
	assert.Contains(t, page.Body, "This result is disputed: the arena&#39;s admin decides.")
	assert.Equal(t, "This result is disputed: the arena's admin decides.", p1.Get(t, resp.Location).Notices(),
		"the disputing side's one confirmation")
	resp = p1.Post(t, m.Path("report/confirm"), nil)
	assert.Equal(t, http.StatusConflict, resp.Status, "nothing left to confirm")
}

// TestReportsAndGameClients: a report is refused once a game client
// submitted (the submission path decides), and before the match is live.
func TestReportsAndGameClients(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	ms := e.Playable(t, "winter-cup")
	require.GreaterOrEqual(t, len(ms), 2)
	scheduled := ms[2]
	t.Run("ErrNotLive", func(t *testing.T) {
		resp := e.SignedIn(t, *scheduled.P1).Report(t, scheduled, *scheduled.P1)
		assert.Equal(t, http.StatusConflict, resp.Status)
		assert.Contains(t, resp.Body, "not live")
	})
	t.Run("ErrClientResult", func(t *testing.T) {
		m := ms[0]
		_, p2 := e.ReadyBoth(t, m)
		nonce := e.Match(t, m.ID).SessionNonce
		require.NotEmpty(t, nonce)
		result := fmt.Sprintf(`{"matchId":%d,"sessionNonce":%q,"winner":%q}`, m.ID, nonce, *m.P1)
		sum := sha256.Sum256([]byte(result))
		var out struct {
			Status string `json:"status"`
		}
		arenatest.Decode(t, e.API(t, http.MethodPost, "/api/v1"+m.Path("result"), "Platform MOCK:"+*m.P1,
			map[string]any{"protocol": "svc.result.v3", "result": result, "resultHash": hex.EncodeToString(sum[:])}, http.StatusOK), &out)
		require.Equal(t, "pending", out.Status)
		resp := p2.Report(t, m, *m.P2)
		assert.Equal(t, http.StatusConflict, resp.Status)
		assert.Contains(t, resp.Body, "game client")
		page := p2.Get(t, m.Path(""))
		assert.Contains(t, page.Body, "A game client sent this match&#39;s result")
	})
}

// TestBracketThroughReports plays a four-player bracket on the website
// alone: results seat the next round and the final completes the
// tournament, with its podium.
func TestBracketThroughReports(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	players := []string{arenatest.Ada, arenatest.Blaise, "76561198000000003", "76561198000000004"}
	e.OpenCup(t, arenatest.Cup{Slug: "cup4", MaxPlayers: 4, Players: players})
	e.SetStatus(t, "cup4", "registration_closed")
	e.SetStatus(t, "cup4", "playoffs")
	play := func(t *testing.T, m arenatest.AdminMatch) string {
		p1, p2 := e.ReadyBoth(t, m)
		require.Equal(t, http.StatusSeeOther, p1.Report(t, m, *m.P2, "0", "2").Status)
		resp := p2.Post(t, m.Path("report/confirm"), nil)
		require.Equal(t, http.StatusSeeOther, resp.Status, resp.Body)
		return *m.P2
	}
	semis := e.Playable(t, "cup4")
	require.Len(t, semis, 2)
	winners := []string{play(t, semis[0]), play(t, semis[1])}
	cup := e.Tournament(t, "cup4")
	var final *arenatest.PublicMatch
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

	e.Advance(t, 61*time.Minute) // the final's window opens one window later
	last := e.Playable(t, "cup4")
	require.Len(t, last, 2, "final and small final")
	champion := ""
	for _, m := range last {
		w := play(t, m)
		if m.BracketSlot != nil && *m.BracketSlot == "FINAL" {
			champion = w
		}
	}
	cup = e.Tournament(t, "cup4")
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
	e := arenatest.New(t, arenatest.Options{})
	e.OpenCup(t, arenatest.Cup{Slug: "duel", MaxPlayers: 2, Players: []string{arenatest.Ada, arenatest.Blaise}})
	e.SetStatus(t, "duel", "registration_closed")
	e.SetStatus(t, "duel", "playoffs")
	m := e.Playable(t, "duel")[0]
	p1, _ := e.ReadyBoth(t, m)
	require.Equal(t, http.StatusSeeOther, p1.Report(t, m, *m.P1, "2", "0").Status)
	e.Advance(t, 24*time.Hour-time.Minute)
	e.Tick(t)
	require.Equal(t, "awaiting_result", e.Match(t, m.ID).Status, "not before the grace period ends")
	e.Advance(t, time.Minute)
	e.Tick(t)
	got := e.Match(t, m.ID)
	require.Equal(t, "confirmed", got.Status, "the report_grace job is missing from scheduledJobs() in worker/server/scheduled.go")
	require.NotNil(t, got.ResultSource)
	assert.Equal(t, "player_report", *got.ResultSource)
	require.NotNil(t, got.Winner)
	assert.Equal(t, *m.P1, *got.Winner)
	assert.Equal(t, "completed", e.Tournament(t, "duel").Status)
}
