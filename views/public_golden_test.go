package views_test

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/a-h/templ"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/core"
	"arena/views"
)

// goldenUpdate is the -update flag: rewrite views/testdata/golden instead
// of comparing. Another golden test of this package may have defined the
// flag first; then both share it.
var goldenUpdate = func() flag.Getter {
	if f := flag.Lookup("update"); f != nil {
		if g, ok := f.Value.(flag.Getter); ok {
			return g
		}
	}
	flag.Bool("update", false, "rewrite the golden files under views/testdata/golden")
	return flag.Lookup("update").Value.(flag.Getter)
}()

// assetHash matches a hashed asset's path (views.StaticPath).
var assetHash = regexp.MustCompile(`/static/([a-z.]+)\.[0-9a-z]+\.(css|js|svg)`)

// assertGolden renders c and compares it byte for byte with
// testdata/golden/<name>.html.
func assertGolden(t *testing.T, name string, c templ.Component) {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, c.Render(context.Background(), &buf))
	// Asset names carry their content's hash: a stylesheet change must not
	// rewrite every page's golden file.
	buf = *bytes.NewBuffer(assetHash.ReplaceAll(buf.Bytes(), []byte("/static/$1.HASH.$2")))
	// templ renders a class of a named type (a core status) as this.
	assert.NotContains(t, buf.String(), "templ-css-class-unknown-type", "a class of a type templ does not take: convert it with string()")
	path := filepath.Join("testdata", "golden", name+".html")
	if update, _ := goldenUpdate.Get().(bool); update {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test ./views/ -update to create it")
	assert.Equal(t, string(want), buf.String(), "%s differs; run go test ./views/ -update if the change is intended", path)
}

// Fixtures: a small arena at a fixed time.

var (
	t0     = time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	hour   = time.Hour
	day    = 24 * time.Hour
	frame  = views.Layout{Title: "Page", ArenaName: "Demo Arena"}
	ada    = &views.PlayerRef{PlatformID: "76561198000000001", Name: "Ada Lovelace"}
	blaise = &views.PlayerRef{PlatformID: "76561198000000002", Name: "Blaise Pascal"}
	grace  = &views.PlayerRef{PlatformID: "76561198000000007", Name: "Grace Hopper"}
	hedy   = &views.PlayerRef{PlatformID: "76561198000000008", Name: "Hedy Lamarr"}
	// mallory's name is markup: it must come out as text.
	mallory = &views.PlayerRef{PlatformID: "76561198000000066", Name: `<b onclick="x()">Mallory</b> & co`}
	autumn  = views.TournamentRef{Slug: "autumn-open", Name: "Autumn Open"}
	winter  = views.TournamentRef{Slug: "winter-cup", Name: "Winter Cup"}
)

func layout(title string) views.Layout {
	l := frame
	l.Title = title
	return l
}

// region is a live region showing c that follows an event stream, or
// polls every 10 s without EventSource (static: neither).
func region(id string, c templ.Component, static bool) views.LiveRegion {
	r := views.LiveRegion{ID: id, URL: "/" + id + "/live", Version: "v1", Content: c}
	if !static {
		r.Stream, r.Every = "/api/v1/"+id+"/live?after=7", 10*time.Second
	}
	return r
}

func groupMatch(id int64, round string, p1, p2 *views.PlayerRef, winner int, score *views.Score, status core.MatchStatus) views.MatchSummary {
	m := views.MatchSummary{
		ID: id, Tournament: winter, Stage: "group", Round: round, GroupName: "A", Status: status,
		OpensAt: t0.Add(-2 * hour), ClosesAt: t0, P1: p1, P2: p2, Winner: winner, Score: score,
	}
	if winner != 0 {
		m.ResultSource = "game_client"
	}
	return m
}

func cards() []views.TournamentCard {
	started := t0.Add(-2 * hour)
	return []views.TournamentCard{
		{Slug: "spring-invitational", Name: "Spring Invitational", Status: "registration_open", Format: "groups_playoffs",
			RegistrationOpensAt: t0.Add(-day), RegistrationClosesAt: t0.Add(6 * day), StartsAt: t0.Add(7 * day), PlayerCount: 5, MaxPlayers: 16},
		{Slug: "winter-cup", Name: "Winter Cup", Status: "group_stage", Format: "groups_playoffs",
			RegistrationOpensAt: t0.Add(-14 * day), RegistrationClosesAt: t0.Add(-7 * day), StartsAt: started, StartedAt: &started, PlayerCount: 8, MaxPlayers: 8},
		{Slug: "autumn-open", Name: "Autumn Open", Status: "completed", Format: "playoffs_only",
			RegistrationOpensAt: t0.Add(-30 * day), RegistrationClosesAt: t0.Add(-23 * day), StartsAt: t0.Add(-22 * day), PlayerCount: 16, MaxPlayers: 16},
	}
}

func TestGoldenHome(t *testing.T) {
	c := cards()
	live := groupMatch(11, "Round 2", ada, blaise, 0, nil, "live")
	awaiting := groupMatch(12, "Round 2", grace, mallory, 0, nil, "awaiting_result")
	next := groupMatch(13, "Round 3", ada, grace, 0, nil, "scheduled")
	next.OpensAt, next.ClosesAt, next.Window = t0.Add(hour), t0.Add(3*hour), views.WindowBefore
	open := groupMatch(14, "Round 2", hedy, grace, 0, nil, "scheduled")
	open.OpensAt, open.ClosesAt, open.Window, open.P2Ready = t0.Add(-hour), t0.Add(90*time.Minute), views.WindowOpen, true
	assertGolden(t, "home", views.HomeView(views.HomePage{
		Layout:   layout("Home"),
		Now:      t0,
		Live:     []views.MatchSummary{live, awaiting},
		OpenNow:  []views.MatchSummary{open},
		Upcoming: []views.MatchSummary{next},
		Sections: []views.TournamentSection{
			{Key: "running", Tournaments: c[1:2]},
			{Key: "registrationOpen", Tournaments: c[0:1]},
			{Key: "completed", Tournaments: c[2:3]},
		},
	}))
	assertGolden(t, "home_empty", views.HomeView(views.HomePage{Layout: layout("Home")}))
}

func TestGoldenTournaments(t *testing.T) {
	assertGolden(t, "tournaments", views.TournamentsView(views.TournamentsPage{Layout: layout("Tournaments"), Tournaments: cards()}))
}

// bracketOf8 is a decided bracket of 8 with a small final, laid out as
// core.BracketColumns does.
func bracketOf8() views.Bracket {
	seat := func(p *views.PlayerRef, seed int, won bool) views.BracketSeat {
		return views.BracketSeat{Player: p, Seed: seed, Winner: won}
	}
	box := func(id int64, slot string, a, b views.BracketSeat, s1, s2 int) views.BracketBox {
		return views.BracketBox{ID: id, Slot: slot, Status: "confirmed", Seats: [2]views.BracketSeat{a, b}, Score: &views.Score{P1: s1, P2: s2}}
	}
	dorothy := &views.PlayerRef{PlatformID: "76561198000000004", Name: "Dorothy Vaughan"}
	edsger := &views.PlayerRef{PlatformID: "76561198000000005", Name: "Edsger Dijkstra"}
	frances := &views.PlayerRef{PlatformID: "76561198000000006", Name: "Frances Allen"}
	charles := &views.PlayerRef{PlatformID: "76561198000000003", Name: "Charles Babbage"}
	return views.Bracket{Columns: []views.BracketColumn{
		{Label: "Quarterfinals", Side: "left", Matches: []views.BracketBox{
			box(25, "QF1", seat(ada, 1, true), seat(hedy, 8, false), 3, 0),
			box(26, "QF2", seat(dorothy, 4, false), seat(edsger, 5, true), 1, 3),
		}},
		{Label: "Semifinals", Side: "left", Matches: []views.BracketBox{
			box(29, "SF1", seat(ada, 1, true), seat(edsger, 5, false), 3, 2),
		}},
		{Label: "Final", Side: "center", Matches: []views.BracketBox{
			box(31, "FINAL", seat(ada, 1, false), seat(blaise, 2, true), 2, 3),
		}},
		{Label: "Small final", Side: "center", Matches: []views.BracketBox{
			box(32, "SMALL_FINAL", seat(edsger, 5, true), seat(grace, 7, false), 3, 1),
		}},
		{Label: "Semifinals", Side: "right", Matches: []views.BracketBox{
			box(30, "SF2", seat(blaise, 2, true), seat(grace, 7, false), 3, 0),
		}},
		{Label: "Quarterfinals", Side: "right", Matches: []views.BracketBox{
			box(27, "QF3", seat(blaise, 2, true), seat(frances, 7, false), 3, 1),
			box(28, "QF4", seat(charles, 3, false), seat(grace, 6, true), 0, 3),
		}},
	}}
}

func TestGoldenTournamentCompleted(t *testing.T) {
	bracket := bracketOf8()
	card := cards()[2]
	card.Description = "Sixteen players.\nThe top two of each group go through."
	results := views.TournamentResults{
		Format: "groups_playoffs",
		Groups: []views.GroupTable{{
			Name: "A",
			Rows: []views.StandingRow{
				{Rank: 1, Player: *ada, Played: 3, Wins: 3, Losses: 0, ScoreDiff: 7, Points: 9, Advances: true, SeparatedBy: "points"},
				{Rank: 2, Player: *mallory, Played: 3, Wins: 2, Losses: 1, ScoreDiff: 1, Points: 6, Advances: true, SeparatedBy: "points"},
				{Rank: 3, Player: *grace, Played: 3, Wins: 1, Losses: 2, ScoreDiff: -2, Points: 3, SeparatedBy: "head_to_head_points"},
				{Rank: 4, Player: *hedy, Played: 3, Wins: 0, Losses: 3, ScoreDiff: -6, Points: 3},
			},
			Decided: true,
			Matches: []views.MatchSummary{
				groupMatch(1, "Round 1", ada, hedy, 1, &views.Score{P1: 3, P2: 0}, "confirmed"),
				groupMatch(2, "Round 1", mallory, grace, 1, &views.Score{P1: 3, P2: 2}, "confirmed"),
				groupMatch(3, "Round 2", grace, hedy, 2, nil, "forfeited"),
			},
		}},
		Bracket: &bracket,
		Podium: []views.PodiumPlace{
			{Rank: 1, Player: *blaise}, {Rank: 2, Player: *ada}, {Rank: 3, Player: *mallory}, {Rank: 4, Player: *grace},
		},
	}
	assertGolden(t, "tournament_completed", views.TournamentView(views.TournamentPage{
		Layout:       layout(card.Name),
		Tournament:   card,
		Registration: views.RegistrationState{State: views.RegistrationClosed, Count: 16, Max: 16},
		Players:      []views.EnteredSide{{Player: *ada, Seed: 1}, {Player: *blaise, Seed: 2}, {Player: *grace}, {Player: *mallory}},
		Results:      region("tournament-results", views.TournamentResultsView(results), true),
		Actions:      templ.Raw(`<form method="post" action="/actions-slot"><button type="submit">Slot</button></form>`),
	}))
	// A group still being played: its qualifying places are provisional.
	results.Groups[0].Decided, results.Podium, results.Bracket = false, nil, nil
	assertGolden(t, "results_groups_open", views.TournamentResultsView(results))
}

func TestGoldenTournamentRegistration(t *testing.T) {
	card := cards()[0]
	for _, tc := range []struct {
		name  string
		state views.RegistrationState
	}{
		{"tournament_registration_open", views.RegistrationState{State: views.RegistrationOpen, Count: 2, Max: 16}},
		{"tournament_registration_full", views.RegistrationState{State: views.RegistrationFull, Count: 16, Max: 16}},
		{"tournament_registration_upcoming", views.RegistrationState{State: views.RegistrationUpcoming, Count: 0, Max: 16}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := views.TournamentPage{Layout: layout(card.Name), Tournament: card, Registration: tc.state,
				Results: region("tournament-results", views.TournamentResultsView(views.TournamentResults{}), true)}
			if tc.state.Count > 0 {
				p.Players = []views.EnteredSide{{Player: *ada}, {Player: *mallory}}
			}
			assertGolden(t, tc.name, views.TournamentView(p))
		})
	}
}

// A bracket of 8 for 6 players: seeds 1 and 2 have byes and wait in the
// semifinals, one quarterfinal is live, one disputed.
func TestGoldenBracketByes(t *testing.T) {
	bye := views.BracketSeat{Bye: true}
	from := func(s string) views.BracketSeat { return views.BracketSeat{From: s} }
	p := func(ref *views.PlayerRef, seed int) views.BracketSeat {
		return views.BracketSeat{Player: ref, Seed: seed}
	}
	won := func(s views.BracketSeat) views.BracketSeat { s.Winner = true; return s }
	assertGolden(t, "bracket_byes", views.BracketPicture(views.Bracket{Columns: []views.BracketColumn{
		{Label: "Quarterfinals", Side: "left", Matches: []views.BracketBox{
			{ID: 1, Slot: "QF1", Status: "confirmed", Seats: [2]views.BracketSeat{won(p(ada, 1)), bye}},
			{ID: 2, Slot: "QF2", Status: "live", Seats: [2]views.BracketSeat{p(hedy, 4), p(mallory, 5)}},
		}},
		{Label: "Semifinals", Side: "left", Matches: []views.BracketBox{
			{ID: 5, Slot: "SF1", Status: "scheduled", Seats: [2]views.BracketSeat{p(ada, 1), from("Winner of QF2")}},
		}},
		{Label: "Final", Side: "center", Matches: []views.BracketBox{
			{ID: 7, Slot: "FINAL", Status: "scheduled", Seats: [2]views.BracketSeat{from("Winner of SF1"), from("Winner of SF2")}},
		}},
		{Label: "Small final", Side: "center", Matches: []views.BracketBox{
			{ID: 8, Slot: "SMALL_FINAL", Status: "scheduled", Seats: [2]views.BracketSeat{from("Loser of SF1"), from("Loser of SF2")}},
		}},
		{Label: "Semifinals", Side: "right", Matches: []views.BracketBox{
			{ID: 6, Slot: "SF2", Status: "scheduled", Seats: [2]views.BracketSeat{p(blaise, 2), from("Winner of QF4")}},
		}},
		{Label: "Quarterfinals", Side: "right", Matches: []views.BracketBox{
			{ID: 3, Slot: "QF3", Status: "confirmed", Seats: [2]views.BracketSeat{won(p(blaise, 2)), bye}},
			{ID: 4, Slot: "QF4", Status: "disputed", Seats: [2]views.BracketSeat{p(grace, 3), p(hedy, 6)}},
		}},
	}}))
}

// A bracket of two is the final alone: no halves, no lines.
func TestGoldenBracketFinalOnly(t *testing.T) {
	assertGolden(t, "bracket_final_only", views.BracketPicture(views.Bracket{Columns: []views.BracketColumn{
		{Label: "Final", Side: "center", Matches: []views.BracketBox{{
			ID: 1, Slot: "FINAL", Status: "forfeited",
			Seats: [2]views.BracketSeat{{Player: ada, Seed: 1, Winner: true}, {Player: blaise, Seed: 2}},
		}}},
	}}))
}

func TestGoldenMatch(t *testing.T) {
	live := t0.Add(-hour)
	resolved := t0.Add(-30 * time.Minute)
	final := groupMatch(31, "Final", ada, blaise, 2, &views.Score{P1: 2, P2: 3}, "confirmed")
	final.Tournament, final.Stage, final.GroupName, final.ResultSource = autumn, "final", "", "admin"
	decided := views.MatchDetail{
		MatchSummary: final, BracketSlot: "FINAL", LiveAt: &live, ResolvedAt: &resolved,
		P1Roster: []views.PlayerRef{*ada, *grace}, P2Roster: []views.PlayerRef{*blaise, *mallory},
	}
	assertGolden(t, "match_decided", views.MatchView(views.MatchPage{
		Layout: layout("Ada Lovelace vs Blaise Pascal"),
		Match:  decided,
		Live: region("match-live", views.MatchLiveView(views.MatchLive{Now: t0, Match: decided,
			Actions: templ.Raw(`<p>match actions slot</p>`)}), true),
		Casters: []views.Caster{
			{Name: "Arena TV", StreamURL: "https://stream.example/arena", Source: "arena"},
			{Name: "Bad Link", StreamURL: "javascript:alert(1)", Source: "community"},
		},
		Streams: []views.MatchStream{{Player: *ada, StreamURL: "https://stream.example/ada"}},
	}))
	scheduled := groupMatch(40, "Round 3", mallory, nil, 0, nil, "scheduled")
	viewer := layout("Mallory vs TBD")
	viewer.Viewer = &views.Viewer{PlatformID: mallory.PlatformID, Name: mallory.Name}
	assertGolden(t, "match_scheduled", views.MatchView(views.MatchPage{
		Layout: viewer,
		Match:  views.MatchDetail{MatchSummary: scheduled},
		Live:   region("match-live", views.MatchLiveView(views.MatchLive{Now: t0, Match: views.MatchDetail{MatchSummary: scheduled}}), false),
	}))
	// Open now: the player's opponent is ready, the player is not.
	open := groupMatch(41, "Round 3", ada, blaise, 0, nil, "scheduled")
	open.OpensAt, open.ClosesAt, open.Window, open.P2Ready = t0.Add(-hour), t0.Add(hour+5*time.Minute), views.WindowOpen, true
	assertGolden(t, "match_open_live", views.MatchLiveView(views.MatchLive{Now: t0, Match: views.MatchDetail{MatchSummary: open}, ViewerSide: 1}))
}

func TestGoldenPlayer(t *testing.T) {
	upcoming := groupMatch(13, "Round 3", ada, grace, 0, nil, "scheduled")
	won := groupMatch(1, "Round 1", ada, hedy, 1, &views.Score{P1: 3, P2: 0}, "confirmed")
	lost := groupMatch(31, "Final", blaise, ada, 1, &views.Score{P1: 3, P2: 2}, "confirmed")
	lost.Tournament, lost.GroupName = autumn, ""
	forfeit := groupMatch(3, "Round 2", mallory, ada, 2, nil, "forfeited")
	profile := *ada
	profile.AvatarURL = "https://avatars.example/ada.jpg"
	assertGolden(t, "player", views.PlayerView(views.PlayerPage{
		Layout:   layout(ada.Name),
		Player:   profile,
		Now:      t0,
		Entries:  []views.PlayerEntry{{Tournament: cards()[0]}, {Tournament: cards()[1], CaptainName: "Grace Hopper"}},
		Ladder:   &views.LadderPlace{Rank: 2, Points: 70, SeasonName: "Season 1", Shared: true},
		Page:     2,
		OlderURL: "/players/" + ada.PlatformID + "?page=3#history",
		NewerURL: "/players/" + ada.PlatformID + "?page=1#history",
		Stats:    views.PlayerStats{MatchesPlayed: 3, Wins: 2, Losses: 1, WinRate: 67},
		Trophies: []views.Trophy{{Rank: 2, Tournament: autumn}, {Rank: 1, Tournament: winter}},
		Upcoming: []views.MatchSummary{upcoming},
		Recent: []views.PlayerResult{
			{Match: lost, Opponent: blaise, Won: false, Score: &views.Score{P1: 2, P2: 3}},
			{Match: won, Opponent: hedy, Won: true, Score: &views.Score{P1: 3, P2: 0}},
			{Match: forfeit, Opponent: mallory, Won: true, Forfeit: true},
		},
	}))
	assertGolden(t, "player_new", views.PlayerView(views.PlayerPage{Layout: layout(grace.Name), Player: *grace}))
}

func TestGoldenLadder(t *testing.T) {
	starts, ends := t0.Add(-60*day), t0.Add(60*day)
	seasons := []views.SeasonOption{{Slug: "season-2", Name: "Season 2"}, {Slug: "season-1", Name: "Season 1"}}
	assertGolden(t, "ladder", views.LadderView(views.LadderPage{
		Layout: layout("Ladder"), Season: "season-1", SeasonName: "Season 1", SeasonStarts: &starts, SeasonEnds: &ends,
		Seasons: seasons,
		Rows: []views.LadderRow{
			{Rank: 1, Player: *blaise, Points: 100, Tournaments: 2},
			{Rank: 2, Player: *mallory, Points: 70, Tournaments: 2},
		},
	}))
	assertGolden(t, "ladder_all", views.LadderView(views.LadderPage{
		Layout: layout("Ladder"), Season: "all", SeasonName: "All seasons", Seasons: seasons,
	}))
	assertGolden(t, "ladder_no_season", views.LadderView(views.LadderPage{Layout: layout("Ladder")}))
}
