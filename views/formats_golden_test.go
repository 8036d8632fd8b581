package views_test

import (
	"testing"

	"arena/core"
	"arena/views"
)

// A double elimination of 5: the winners' bracket played to its final,
// the losers' bracket's first round skipped by byes (its second round
// keeps one empty place), the grand final and its reset after it.
func TestGoldenDoubleBracket(t *testing.T) {
	bye := views.BracketSeat{Bye: true}
	from := func(s string) views.BracketSeat { return views.BracketSeat{From: s} }
	p := func(ref *views.PlayerRef, seed int) views.BracketSeat {
		return views.BracketSeat{Player: ref, Seed: seed}
	}
	won := func(s views.BracketSeat) views.BracketSeat { s.Winner = true; return s }
	box := func(id int64, slot string, status core.MatchStatus, pos int, a, b views.BracketSeat) views.BracketBox {
		return views.BracketBox{ID: id, Slot: slot, Status: status, Position: pos, Seats: [2]views.BracketSeat{a, b}}
	}
	assertGolden(t, "bracket_double", views.DoubleBracketPicture(views.Bracket{Double: true, Columns: []views.BracketColumn{
		{Label: "Winners round 1", Side: "left", Section: "winners", Slots: 4, Matches: []views.BracketBox{
			box(1, "W1M1", "confirmed", 1, won(p(ada, 1)), bye),
			box(2, "W1M2", "confirmed", 2, p(hedy, 4), won(p(mallory, 5))),
			box(3, "W1M3", "confirmed", 3, won(p(blaise, 2)), bye),
			box(4, "W1M4", "confirmed", 4, won(p(grace, 3)), bye),
		}},
		{Label: "Winners round 2", Side: "left", Section: "winners", Slots: 2, Matches: []views.BracketBox{
			box(5, "W2M1", "confirmed", 1, won(p(ada, 1)), p(mallory, 5)),
			box(6, "W2M2", "live", 2, p(blaise, 2), p(grace, 3)),
		}},
		{Label: "Winners final", Side: "left", Section: "winners", Slots: 1, Matches: []views.BracketBox{
			box(7, "W3M1", "scheduled", 1, p(ada, 1), from("Winner of W2M2")),
		}},
		{Label: "Losers round 2", Side: "left", Section: "losers", Slots: 2, Matches: []views.BracketBox{
			box(8, "L2M1", "scheduled", 1, p(hedy, 4), from("Loser of W2M2")),
		}},
		{Label: "Losers round 3", Side: "left", Section: "losers", Slots: 1, Matches: []views.BracketBox{
			box(9, "L3M1", "scheduled", 1, from("Winner of L2M1"), p(mallory, 5)),
		}},
		{Label: "Losers final", Side: "left", Section: "losers", Slots: 1, Matches: []views.BracketBox{
			box(10, "L4M1", "scheduled", 1, from("Winner of L3M1"), from("Loser of W3M1")),
		}},
		{Label: "Grand final", Side: "center", Section: "grand_final", Slots: 1, Matches: []views.BracketBox{
			box(11, "GF", "scheduled", 1, from("Winner of W3M1"), from("Winner of L4M1")),
		}},
	}}))
}

// A Swiss tournament after two of three rounds, cut to 2: the standings
// with their tie-breaks, the rounds latest first, a bye.
func TestGoldenSwissTournament(t *testing.T) {
	m := func(id int64, round string, p1, p2 *views.PlayerRef, winner int, status core.MatchStatus, source string) views.MatchSummary {
		s := groupMatch(id, round, p1, p2, winner, nil, status)
		s.Stage, s.GroupName, s.ResultSource = "swiss", "", source
		return s
	}
	assertGolden(t, "tournament_swiss", views.TournamentResultsView(views.TournamentResults{
		Now: t0, Format: "swiss",
		Swiss: &views.SwissStage{Rounds: 3, Round: 2, TopCut: 2,
			Rows: []views.SwissRow{
				{Rank: 1, Player: *ada, Played: 2, Wins: 2, Points: 2, Buchholz: 1, SonnebornBerger: 1, Advances: true, SeparatedBy: "points"},
				{Rank: 2, Player: *grace, Played: 1, Wins: 0, Losses: 1, Byes: 1, Points: 1, Buchholz: 2, Advances: true, SeparatedBy: "seed"},
				{Rank: 3, Player: *blaise, Played: 1, Wins: 0, Losses: 1, Byes: 1, Points: 1, Buchholz: 2},
			},
			RoundMatches: []views.SwissRoundMatches{
				{Number: 2, Matches: []views.MatchSummary{m(4, "Round 2", grace, ada, 2, "confirmed", "game_client"), m(5, "Round 2", blaise, nil, 1, "confirmed", "bye")}},
				{Number: 1, Matches: []views.MatchSummary{m(1, "Round 1", ada, blaise, 1, "confirmed", "admin"), m(2, "Round 1", grace, nil, 1, "confirmed", "bye")}},
			},
		},
	}))
}

// A round robin in progress: its one group is the table.
func TestGoldenRoundRobinTournament(t *testing.T) {
	assertGolden(t, "tournament_round_robin", views.TournamentResultsView(views.TournamentResults{
		Now: t0, Format: "round_robin",
		RoundRobin: true,
		Groups: []views.GroupTable{{Name: "A", Rows: []views.StandingRow{
			{Rank: 1, Player: *ada, Played: 1, Wins: 1, ScoreDiff: 2, Points: 3},
			{Rank: 2, Player: *grace, Played: 0},
			{Rank: 3, Player: *blaise, Played: 1, Losses: 1, ScoreDiff: -2},
		}, Matches: []views.MatchSummary{groupMatch(1, "Round 1", ada, blaise, 1, &views.Score{P1: 3, P2: 1}, "confirmed")}}},
	}))
}

// A rated player's profile, and the rating ladder.
func TestGoldenRatings(t *testing.T) {
	assertGolden(t, "player_rated", views.PlayerView(views.PlayerPage{
		Layout: layout(ada.Name), Player: *ada, Stats: views.PlayerStats{MatchesPlayed: 3, Wins: 2, Losses: 1, WinRate: 67},
		Rating: &views.RatingFigures{Rating: 1564.38, Deviation: 151.52, Volatility: 0.059996, Matches: 3},
	}))
	assertGolden(t, "ladder_rating", views.LadderView(views.LadderPage{
		Layout: layout("Ladder"), Season: "all", SeasonName: "All seasons", ByRating: true,
		Rows: []views.LadderRow{
			{Rank: 1, Player: *ada, Points: 100, Tournaments: 1, Rating: &views.RatingFigures{Rating: 1564.38, Deviation: 151.52, Matches: 3}},
			{Rank: 2, Player: *blaise, Rating: &views.RatingFigures{Rating: 1435.62, Deviation: 151.52, Matches: 3}},
		},
	}))
	assertGolden(t, "ladder_rating_empty", views.LadderView(views.LadderPage{Layout: layout("Ladder"), ByRating: true}))
}
