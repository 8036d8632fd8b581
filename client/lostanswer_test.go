package client_test

import (
	"context"
	"net/http"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/client"
)

// TestSubmitLostAnswer: the confirming submission reaches the arena but
// its answer is lost; the retry is answered 409 already_resolved, and the
// client looks the match up (public, no ticket) before reporting.
func TestSubmitLostAnswer(t *testing.T) {
	tests := []struct {
		name        string
		match       func() *fakeMatch
		first       string // the first side to submit (answer kept)
		second      string // the confirming side (answer lost)
		winner      string
		faults      []fault
		wantStatus  string // "" when the submit fails
		wantCode    string // the *APIError code when it fails
		wantLookups int
	}{
		{name: "AlreadyResolvedDecidedForUs", match: liveMatch1v1, first: alice, second: bob, winner: alice,
			faults: []fault{lostAnswer}, wantStatus: client.StatusDecided, wantLookups: 1},
		{name: "TeamMemberWinnerSameSide", match: liveMatchTeam, first: alice, second: dave, winner: carol,
			faults: []fault{lostAnswer}, wantStatus: client.StatusDecided, wantLookups: 1},
		{name: "AfterA5xxToo", match: liveMatch1v1, first: alice, second: bob, winner: alice,
			faults: []fault{{status: 500, code: "internal"}, lostAnswer}, wantStatus: client.StatusDecided, wantLookups: 1},
		{name: "AlreadyResolvedWithoutRetryIsFinal", match: liveMatch1v1, first: alice, second: bob, winner: alice,
			faults: nil, wantStatus: client.StatusDecided, wantLookups: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			arena := newFakeArena(t)
			arena.setMatch(tt.match())
			ctx := context.Background()
			m := tt.match()
			opponent := func(local string) string { return m.Sides[2-m.side(local)][0] }
			first, _ := newClient(t, arena, func(s *client.Settings) { s.MockSteamID = tt.first })
			sub, err := first.SubmitJSON(ctx, client.SubmitRequest{LocalAccountID: tt.first, ActualOpponentID: opponent(tt.first),
				Result: []byte(`{"score":[3,1]}`), Winner: tt.winner})
			require.NoError(t, err)
			require.Equal(t, "pending", sub.Status)

			arena.failNext("result", tt.faults...)
			second, _ := newClient(t, arena, func(s *client.Settings) { s.MockSteamID = tt.second })
			sub, err = second.SubmitJSON(ctx, client.SubmitRequest{LocalAccountID: tt.second, ActualOpponentID: opponent(tt.second),
				Result: []byte(`{"score":[3,1]}`), Winner: tt.winner})
			lookups := 0
			for _, r := range arena.recorded("") {
				if r.Method == http.MethodGet && r.Path == "/api/v1/matches/"+itoa(m.ID) {
					lookups++
					assert.Empty(t, r.Auth, "the look-up is public: no ticket spent")
				}
			}
			assert.Equal(t, tt.wantLookups, lookups)
			if tt.faults == nil { // a plain confirmation: no look-up, the server's own answer
				require.NoError(t, err)
				assert.Equal(t, "confirmed", sub.Status)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.wantStatus, sub.Status)
			assert.Equal(t, "confirmed", sub.MatchStatus)
			assert.Equal(t, m.side(tt.winner), m.side(sub.Winner), "the decided winner is on the submitted winner's side")
			assert.Equal(t, len(tt.faults)+1, sub.Attempts)
		})
	}
}

// TestSubmitLostAnswerOtherWinner: a retry answered already_resolved for a
// match decided for the other side stays a failure with the server's code.
func TestSubmitLostAnswerOtherWinner(t *testing.T) {
	arena := newFakeArena(t)
	m := liveMatch1v1()
	arena.setMatch(m)
	ctx := context.Background()
	asBob, _ := newClient(t, arena, func(s *client.Settings) { s.MockSteamID = bob })
	_, err := asBob.SubmitJSON(ctx, client.SubmitRequest{LocalAccountID: bob, ActualOpponentID: alice, Winner: bob})
	require.NoError(t, err)
	asAlice, sleeper := newClient(t, arena, nil)
	// Alice claims herself the winner; her first attempt fails with a
	// 500, and before her retry the match is decided for bob (as an admin
	// would).
	arena.failNext("result", fault{status: 500, code: "internal"})
	sleeper.onSleep = func(int) error {
		arena.mu.Lock()
		defer arena.mu.Unlock()
		m.Status, m.winner = "confirmed", bob
		return nil
	}
	sub, err := asAlice.SubmitJSON(ctx, client.SubmitRequest{LocalAccountID: alice, ActualOpponentID: bob, Winner: alice})
	var apiErr *client.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, "already_resolved", apiErr.Code)
	assert.Empty(t, sub.Winner)
}

// TestSubmitLostAnswerDuplicatePending: the first submission's answer is
// lost, the retry is a 200 duplicate of a match still awaiting the other
// side: success, pending.
func TestSubmitLostAnswerDuplicatePending(t *testing.T) {
	arena := newFakeArena(t)
	arena.setMatch(liveMatch1v1())
	c, _ := newClient(t, arena, nil)
	arena.failNext("result", lostAnswer)
	sub, err := c.SubmitJSON(context.Background(), client.SubmitRequest{LocalAccountID: alice, ActualOpponentID: bob, Winner: alice})
	require.NoError(t, err)
	assert.Equal(t, "duplicate", sub.Status)
	assert.Equal(t, "awaiting_result", sub.MatchStatus)
	assert.Equal(t, 2, sub.Attempts)
}

func TestSubmitJSON(t *testing.T) {
	t.Run("ScoreSentNotHashed", func(t *testing.T) {
		arena := newFakeArena(t)
		m := liveMatch1v1()
		arena.setMatch(m)
		c, _ := newClient(t, arena, nil)
		sub, err := c.SubmitJSON(context.Background(), client.SubmitRequest{LocalAccountID: alice, ActualOpponentID: bob,
			MatchID: 12, Result: []byte(` {"b":"😀","a":1.0} `), Winner: alice, Score: &client.Score{P1: 3, P2: 1}})
		require.NoError(t, err)
		assert.Equal(t, `{"a":1,"b":"😀","matchId":12,"sessionNonce":"n-7f3a","winner":"76561198000000001"}`, sub.Result)
		assert.Equal(t, []string{`{"p1":3,"p2":1}`}, m.scores)
	})
	t.Run("NoScoreNoMember", func(t *testing.T) {
		arena := newFakeArena(t)
		m := liveMatch1v1()
		arena.setMatch(m)
		c, _ := newClient(t, arena, nil)
		_, err := c.SubmitJSON(context.Background(), client.SubmitRequest{LocalAccountID: alice, ActualOpponentID: bob, Winner: alice})
		require.NoError(t, err)
		assert.Equal(t, []string{""}, m.scores)
		assert.NotContains(t, string(arena.recorded("/result")[0].Body), "score")
	})
	t.Run("OtherMatchLive", func(t *testing.T) {
		arena := newFakeArena(t)
		arena.setMatch(liveMatch1v1())
		c, _ := newClient(t, arena, nil)
		_, err := c.SubmitJSON(context.Background(), client.SubmitRequest{LocalAccountID: alice, ActualOpponentID: bob, MatchID: 13, Winner: alice})
		require.ErrorIs(t, err, client.ErrMatchMismatch)
		assert.Empty(t, arena.recorded("/result"))
	})
	t.Run("RefusedResult", func(t *testing.T) {
		arena := newFakeArena(t)
		arena.setMatch(liveMatch1v1())
		c, _ := newClient(t, arena, nil)
		_, err := c.SubmitJSON(context.Background(), client.SubmitRequest{LocalAccountID: alice, ActualOpponentID: bob,
			Result: []byte(`{"replayId":9007199254740993}`), Winner: alice})
		var ce *client.CanonicalError
		require.ErrorAs(t, err, &ce)
		assert.Equal(t, client.ReasonUnsafeInteger, ce.Reason)
		assert.Empty(t, arena.recorded("/result"))
	})
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// TestSubmitAfterRestart: the confirming side sends its result and stops
// before reading the answer (the answer is lost and it makes no retry, as
// a game killed right after sending). Run again, discovery says no live
// match; the client looks the match up and reports it decided, with the
// winner and whether it is the caller's side, instead of no_live_match.
func TestSubmitAfterRestart(t *testing.T) {
	arena := newFakeArena(t)
	m := liveMatch1v1()
	arena.setMatch(m)
	ctx := context.Background()
	asAlice, _ := newClient(t, arena, nil)
	sub, err := asAlice.SubmitJSON(ctx, client.SubmitRequest{LocalAccountID: alice, ActualOpponentID: bob, Winner: alice})
	require.NoError(t, err)
	require.Equal(t, "pending", sub.Status)

	arena.failNext("result", lostAnswer)
	killed, _ := newClient(t, arena, func(s *client.Settings) { s.MockSteamID, s.MaxSubmitAttempts = bob, 1 })
	_, err = killed.SubmitJSON(ctx, client.SubmitRequest{LocalAccountID: bob, ActualOpponentID: alice, MatchID: m.ID, Winner: alice})
	require.Error(t, err, "the answer never arrived")
	arena.mu.Lock()
	status := m.Status
	arena.mu.Unlock()
	require.Equal(t, "confirmed", status, "but the submission did")
	posts := len(arena.recorded("/result"))

	for _, tt := range []struct {
		as  string
		won bool
	}{{bob, false}, {alice, true}} {
		restarted, _ := newClient(t, arena, func(s *client.Settings) { s.MockSteamID = tt.as })
		other := map[string]string{alice: bob, bob: alice}[tt.as]
		sub, err = restarted.SubmitJSON(ctx, client.SubmitRequest{LocalAccountID: tt.as, ActualOpponentID: other, MatchID: m.ID, Winner: alice})
		require.NoError(t, err, tt.as)
		assert.Equal(t, client.StatusDecided, sub.Status)
		assert.Equal(t, "confirmed", sub.MatchStatus)
		assert.Equal(t, alice, sub.Winner)
		if assert.NotNil(t, sub.Won, tt.as) {
			assert.Equal(t, tt.won, *sub.Won, tt.as)
		}
		assert.Zero(t, sub.Attempts, "nothing posted")
	}
	assert.Len(t, arena.recorded("/result"), posts, "the restarted clients post nothing")

	t.Run("WithoutMatchIDStillNoLiveMatch", func(t *testing.T) {
		c, _ := newClient(t, arena, func(s *client.Settings) { s.MockSteamID = bob })
		_, err := c.SubmitJSON(ctx, client.SubmitRequest{LocalAccountID: bob, ActualOpponentID: alice, Winner: alice})
		assert.ErrorIs(t, err, client.ErrNoLiveMatch)
	})
	t.Run("UnknownMatch", func(t *testing.T) {
		c, _ := newClient(t, arena, func(s *client.Settings) { s.MockSteamID = bob })
		_, err := c.SubmitJSON(ctx, client.SubmitRequest{LocalAccountID: bob, ActualOpponentID: alice, MatchID: 99, Winner: alice})
		assert.ErrorIs(t, err, client.ErrNoLiveMatch)
	})
	t.Run("Undecided", func(t *testing.T) {
		arena.mu.Lock()
		m.Status, m.winner = "disputed", ""
		arena.mu.Unlock()
		c, _ := newClient(t, arena, func(s *client.Settings) { s.MockSteamID = bob })
		sub, err := c.SubmitJSON(ctx, client.SubmitRequest{LocalAccountID: bob, ActualOpponentID: alice, MatchID: m.ID, Winner: alice})
		require.NoError(t, err)
		assert.Equal(t, client.StatusUndecided, sub.Status)
		assert.Equal(t, "disputed", sub.MatchStatus)
		assert.Empty(t, sub.Winner)
		assert.Nil(t, sub.Won)
	})
}

func TestParseMatchID(t *testing.T) {
	for s, want := range map[string]int64{"1": 1, "42": 42, "9223372036854775807": 1<<63 - 1} {
		got, ok := client.ParseMatchID(s)
		assert.True(t, ok, s)
		assert.Equal(t, want, got, s)
	}
	for _, s := range []string{"", "0", "042", "0x2a", "+42", "-1", "4_2", " 42", "42 ", "1e3", "9223372036854775808", "٤٢"} {
		_, ok := client.ParseMatchID(s)
		assert.False(t, ok, "%q", s)
	}
}
