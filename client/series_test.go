package client_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/client"
)

// seriesMatch is a live best of 3 between alice and bob, at game 1.
func seriesMatch() *fakeMatch {
	m := liveMatch1v1()
	m.BestOf = 3
	return m
}

// playGame plays the game under way: alice submits, bob confirms; it
// returns bob's submission.
func playGame(t *testing.T, arena *fakeArena, m *fakeMatch, winner string, faults ...fault) (*client.Submission, error) {
	t.Helper()
	ctx := context.Background()
	asAlice, _ := newClient(t, arena, nil)
	sub, err := asAlice.SubmitJSON(ctx, client.SubmitRequest{LocalAccountID: alice, ActualOpponentID: bob, MatchID: m.ID, Winner: winner})
	require.NoError(t, err)
	require.Equal(t, "pending", sub.Status)
	arena.failNext("result", faults...)
	asBob, _ := newClient(t, arena, func(s *client.Settings) { s.MockSteamID = bob })
	return asBob.SubmitJSON(ctx, client.SubmitRequest{LocalAccountID: bob, ActualOpponentID: alice, MatchID: m.ID, Winner: winner})
}

// readyBoth readies both sides for the next game.
func readyBoth(t *testing.T, arena *fakeArena, m *fakeMatch) {
	t.Helper()
	for _, as := range []string{alice, bob} {
		c, _ := newClient(t, arena, func(s *client.Settings) { s.MockSteamID = as })
		_, err := c.Ready(context.Background(), m.ID)
		require.NoError(t, err, as)
	}
}

// TestSubmitSeries: a best of 3 played ready → play → submit until the
// match is decided. A game that does not end the series is confirmed
// with matchStatus scheduled: the submission carries the game, the series
// score after it, and SeriesGoesOn.
func TestSubmitSeries(t *testing.T) {
	arena := newFakeArena(t)
	m := seriesMatch()
	arena.setMatch(m)
	c, _ := newClient(t, arena, nil)
	live, err := c.LiveMatch(context.Background())
	require.NoError(t, err)
	assert.Equal(t, client.Series{Game: 1, BestOf: 3}, live.Series)

	for i, tt := range []struct {
		winner      string
		matchStatus string
		score       client.SeriesScore
		goesOn      bool
	}{
		{alice, "scheduled", client.SeriesScore{P1: 1}, true},
		{bob, "scheduled", client.SeriesScore{P1: 1, P2: 1}, true},
		{alice, "confirmed", client.SeriesScore{P1: 2, P2: 1}, false},
	} {
		if i > 0 {
			readyBoth(t, arena, m)
			live, err := c.LiveMatch(context.Background())
			require.NoError(t, err)
			assert.Equal(t, i+1, live.Game)
			assert.NotEqual(t, "n-7f3a", live.SessionNonce, "each game has its nonce")
		}
		sub, err := playGame(t, arena, m, tt.winner)
		require.NoError(t, err)
		assert.Equal(t, "confirmed", sub.Status)
		assert.Equal(t, tt.matchStatus, sub.MatchStatus)
		assert.Equal(t, client.Series{Game: i + 1, BestOf: 3, SeriesScore: tt.score}, sub.Series)
		assert.Equal(t, tt.goesOn, sub.SeriesGoesOn())
	}
	assert.Equal(t, "confirmed", m.Status)
}

// TestSubmitSeriesLostAnswer: the answer of a game's confirming
// submission is lost; the retry meets 409 not_live (the match went back
// to scheduled) or already_resolved (the game decided the series). The
// client finds its game among the public match's decided games and
// reports it decided, with the series score, not the 409.
func TestSubmitSeriesLostAnswer(t *testing.T) {
	arena := newFakeArena(t)
	m := seriesMatch()
	arena.setMatch(m)
	sub, err := playGame(t, arena, m, bob, lostAnswer)
	require.NoError(t, err, "game 1's retry is not_live: the game is found decided")
	assert.Equal(t, client.StatusDecided, sub.Status)
	assert.Equal(t, "scheduled", sub.MatchStatus)
	assert.Equal(t, bob, sub.Winner)
	assert.Equal(t, client.Series{Game: 1, BestOf: 3, SeriesScore: client.SeriesScore{P2: 1}}, sub.Series)
	assert.True(t, sub.SeriesGoesOn())
	assert.Equal(t, 2, sub.Attempts)

	readyBoth(t, arena, m)
	sub, err = playGame(t, arena, m, bob, lostAnswer)
	require.NoError(t, err, "game 2's retry is already_resolved: the game decided the series")
	assert.Equal(t, client.StatusDecided, sub.Status)
	assert.Equal(t, "confirmed", sub.MatchStatus)
	assert.Equal(t, client.Series{Game: 2, BestOf: 3, SeriesScore: client.SeriesScore{P2: 2}}, sub.Series)
	assert.False(t, sub.SeriesGoesOn())
}

// TestSubmitSeriesLostAnswerOtherWinner: a game found decided for the
// other side leaves the 409 standing.
func TestSubmitSeriesLostAnswerOtherWinner(t *testing.T) {
	arena := newFakeArena(t)
	m := seriesMatch()
	arena.setMatch(m)
	asBob, _ := newClient(t, arena, func(s *client.Settings) { s.MockSteamID = bob })
	_, err := asBob.SubmitJSON(context.Background(), client.SubmitRequest{LocalAccountID: bob, ActualOpponentID: alice, Winner: bob})
	require.NoError(t, err)
	asAlice, sleeper := newClient(t, arena, nil)
	arena.failNext("result", fault{status: 500, code: "internal"})
	sleeper.onSleep = func(int) error { // an admin decides game 1 for bob
		arena.mu.Lock()
		defer arena.mu.Unlock()
		m.decideGame(bob)
		return nil
	}
	_, err = asAlice.SubmitJSON(context.Background(), client.SubmitRequest{LocalAccountID: alice, ActualOpponentID: bob, Winner: alice})
	var apiErr *client.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, "not_live", apiErr.Code)
}

// TestSubmitSeriesAfterRestart: bob's confirming submission of game 1
// reaches the arena and he stops before the answer. Restarted with the
// match and the game he played, he posts nothing: whether the match is
// back to scheduled (no live match) or game 2 is live already (discovery
// shows another game), game 1 is reported decided and the series going
// on. Without the game, a scheduled series is undecided.
func TestSubmitSeriesAfterRestart(t *testing.T) {
	arena := newFakeArena(t)
	m := seriesMatch()
	arena.setMatch(m)
	ctx := context.Background()
	asAlice, _ := newClient(t, arena, nil)
	_, err := asAlice.SubmitJSON(ctx, client.SubmitRequest{LocalAccountID: alice, ActualOpponentID: bob, Winner: alice})
	require.NoError(t, err)
	arena.failNext("result", lostAnswer)
	killed, _ := newClient(t, arena, func(s *client.Settings) { s.MockSteamID, s.MaxSubmitAttempts = bob, 1 })
	_, err = killed.SubmitJSON(ctx, client.SubmitRequest{LocalAccountID: bob, ActualOpponentID: alice, MatchID: m.ID, Winner: alice})
	require.Error(t, err, "the answer never arrived")
	posts := len(arena.recorded("/result"))

	restart := func(game int) *client.Submission {
		t.Helper()
		c, _ := newClient(t, arena, func(s *client.Settings) { s.MockSteamID = bob })
		sub, err := c.SubmitJSON(ctx, client.SubmitRequest{LocalAccountID: bob, ActualOpponentID: alice, MatchID: m.ID, Game: game, Winner: alice})
		require.NoError(t, err)
		return sub
	}
	won := false
	want := &client.Submission{MatchID: m.ID, Status: client.StatusDecided, MatchStatus: "scheduled", Winner: alice, Won: &won,
		Series: client.Series{Game: 1, BestOf: 3, SeriesScore: client.SeriesScore{P1: 1}}}
	assert.Equal(t, want, restart(1), "match scheduled: no live match")
	assert.Equal(t, &client.Submission{MatchID: m.ID, Status: client.StatusUndecided, MatchStatus: "scheduled",
		Series: client.Series{BestOf: 3, SeriesScore: client.SeriesScore{P1: 1}}}, restart(0), "which game is unknown")

	readyBoth(t, arena, m)
	want.MatchStatus = "live"
	assert.Equal(t, want, restart(1), "game 2 live: the series moved on from game 1")
	assert.Len(t, arena.recorded("/result"), posts, "the restarted client posts nothing")
}
