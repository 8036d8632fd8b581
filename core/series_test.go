package core

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSeriesLength(t *testing.T) {
	tour := Tournament{BestOf: 3, GroupBestOf: 1, FinalBestOf: 5, MatchWindowMinutes: 30}
	for _, tc := range []struct {
		stage MatchStage
		want  int
	}{{StageGroup, 1}, {StageSwiss, 1}, {StageRoundRobin, 1}, {StagePlayoff, 3}, {StageTitle, 3}, {StageFinal, 5}, {StageSmallFinal, 5}} {
		assert.Equal(t, tc.want, tour.SeriesLength(tc.stage), tc.stage)
		assert.Equal(t, time.Duration(tc.want)*30*time.Minute, tour.MatchWindowFor(tc.stage), tc.stage)
	}
	assert.Equal(t, 1, (&Tournament{}).SeriesLength(StageFinal), "a tournament stored before series")
	assert.Equal(t, []int{1, 2, 3, 4, 5}, []int{SeriesWins(1), SeriesWins(3), SeriesWins(5), SeriesWins(7), SeriesWins(9)})
}

func TestSeriesScore(t *testing.T) {
	a, b := "76561198000000001", "76561198000000002"
	m := Match{P1: a, P2: b, BestOf: 5, Status: MatchScheduled, Games: []Game{{Game: 1, Winner: b}, {Game: 2, Winner: a}, {Game: 3, Winner: b}}}
	assert.Equal(t, SeriesScore{P1: 1, P2: 2}, m.Series())
	assert.Equal(t, 4, m.CurrentGame())
	assert.Len(t, m.GamesShown(), 3)
	m.Status = MatchLive
	shown := m.GamesShown()
	assert.Len(t, shown, 4)
	assert.Equal(t, Game{Game: 4, Status: MatchLive}, shown[3])
	for _, tc := range []struct {
		name   string
		winner string
		score  *OutcomeScore
		ok     bool
	}{
		{"WinnerThree", b, &OutcomeScore{P1: 1, P2: 3}, true},
		{"LoserTwo", a, &OutcomeScore{P1: 3, P2: 2}, true},
		{"ErrNoScore", a, nil, false},
		{"ErrTooFew", a, &OutcomeScore{P1: 2, P2: 2}, false},
		{"ErrDecidedGamesStand", a, &OutcomeScore{P1: 3, P2: 1}, false},
		{"ErrTooMany", b, &OutcomeScore{P1: 1, P2: 4}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := checkSeriesScore(&m, tc.winner, tc.score)
			if tc.ok {
				assert.NoError(t, err)
			} else {
				assert.Equal(t, CodeInvalidScore, ErrorCode(err))
			}
		})
	}
	single := Match{P1: a, P2: b, BestOf: 1, Status: MatchConfirmed, Winner: a, ResultSource: SourceAdmin}
	assert.NoError(t, checkSeriesScore(&single, a, nil))
	assert.Len(t, single.GamesShown(), 1, "a decided best of 1 shows itself as its game")
	single.Status, single.Winner = MatchScheduled, ""
	assert.Empty(t, single.GamesShown())
}

// TestRecordedGame: the game a recording or trace is of, by number, by
// session, or the last that went live; a best of 1 keeps its one game
// after the decision.
func TestRecordedGame(t *testing.T) {
	single := &Match{ID: 1, BestOf: 1, Status: MatchConfirmed, SessionNonce: "s", Winner: "a"}
	g, err := RecordedGame(single, 0, "")
	require.NoError(t, err)
	assert.Equal(t, 1, g.Game)
	assert.Equal(t, "s", g.SessionNonce)

	between := &Match{ID: 2, BestOf: 3, Status: MatchScheduled, P1: "a", P2: "b",
		Games: []Game{{Game: 1, Winner: "a", SessionNonce: "n1"}}}
	g, err = RecordedGame(between, 0, "")
	require.NoError(t, err)
	assert.Equal(t, Game{Game: 1, Winner: "a", SessionNonce: "n1"}, g, "between games: the last decided")

	live := *between
	live.Status, live.SessionNonce = MatchLive, "n2"
	for _, tc := range []struct {
		game  int
		nonce string
		want  int
	}{{0, "", 2}, {1, "", 1}, {2, "", 2}, {0, "n1", 1}, {0, "n2", 2}, {1, "n1", 1}} {
		g, err := RecordedGame(&live, tc.game, tc.nonce)
		require.NoError(t, err, "%d %q", tc.game, tc.nonce)
		assert.Equal(t, tc.want, g.Game, "%d %q", tc.game, tc.nonce)
	}
	for _, tc := range []struct {
		game  int
		nonce string
		code  string
	}{{3, "", CodeNotLive}, {0, "n9", CodeNotLive}, {2, "n1", CodeInvalidField}} {
		_, err := RecordedGame(&live, tc.game, tc.nonce)
		assert.Equal(t, tc.code, ErrorCode(err), "%d %q", tc.game, tc.nonce)
	}
	_, err = RecordedGame(&Match{ID: 3, BestOf: 3, Status: MatchScheduled}, 0, "")
	assert.Equal(t, CodeNotLive, ErrorCode(err), "nothing went live")
}
