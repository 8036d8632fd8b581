package client_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/client"
)

func sha256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

func TestSubmitHappyPath(t *testing.T) {
	arena := newFakeArena(t)
	arena.setMatch(liveMatch1v1())
	c, sleeper := newClient(t, arena, func(s *client.Settings) { s.ClientRole = "host" })
	game := map[string]any{
		"score":   []any{3, 1},
		"map":     "<Dust & Bones>",
		"rounds":  []any{map[string]any{"w": 1, "r": 1}},
		"matchId": 999, "winner": bob, // reserved keys from the game are overwritten
	}

	sub, err := c.Submit(context.Background(), alice, bob, game, alice)
	require.NoError(t, err)

	const wantResult = `{"map":"<Dust & Bones>","matchId":12,"rounds":[{"r":1,"w":1}],"score":[3,1],"sessionNonce":"n-7f3a","winner":"76561198000000001"}`
	wantHash := sha256Hex(wantResult)
	assert.Equal(t, &client.Submission{
		MatchID: 12, Result: wantResult, ResultHash: wantHash,
		Status: "pending", MatchStatus: "awaiting_result", Attempts: 1,
	}, sub)

	reqs := arena.recorded("")
	require.Len(t, reqs, 2)
	assert.Equal(t, "/api/v1/me/live-match", reqs[0].Path, "a fresh discovery comes first")
	post := reqs[1]
	assert.Equal(t, "POST", post.Method)
	assert.Equal(t, "/api/v1/matches/12/result", post.Path)
	assert.Equal(t, "application/json", post.ContentType)
	assert.Equal(t, "Platform MOCK:"+alice, post.Auth)
	assert.Equal(t,
		`{"protocol":"svc.result.v3",`+
			`"result":"{\"map\":\"<Dust & Bones>\",\"matchId\":12,\"rounds\":[{\"r\":1,\"w\":1}],\"score\":[3,1],\"sessionNonce\":\"n-7f3a\",\"winner\":\"76561198000000001\"}",`+
			`"resultHash":"`+wantHash+`",`+
			`"clientRole":"host",`+
			`"endedAt":"2026-03-14T14:09:26Z"}`,
		string(post.Body))
	assert.Empty(t, sleeper.recorded())
	assert.Equal(t, 999, game["matchId"], "the game's object is not modified")
}

// TestSubmitOnTheHeldMatch: a game that holds its live match (from the
// discovery that began the session) submits on it in one request, with
// the same result bytes as after a fresh discovery; the checks of steps 3
// to 5 still run on it, and a held match at another game than the one
// played is refused without a request.
func TestSubmitOnTheHeldMatch(t *testing.T) {
	arena := newFakeArena(t)
	arena.setMatch(liveMatch1v1())
	c, _ := newClient(t, arena, nil)
	held, err := c.LiveMatch(context.Background())
	require.NoError(t, err)
	arena.reset()

	sub, err := c.SubmitJSON(context.Background(), client.SubmitRequest{LocalAccountID: alice, ActualOpponentID: bob,
		Winner: alice, Result: []byte(`{"map":"dust"}`), Held: held})
	require.NoError(t, err)
	assert.Equal(t, `{"map":"dust","matchId":12,"sessionNonce":"n-7f3a","winner":"76561198000000001"}`, sub.Result)
	assert.Equal(t, "pending", sub.Status)
	reqs := arena.recorded("")
	require.Len(t, reqs, 1, "no discovery: the result's POST alone")
	assert.Equal(t, "/api/v1/matches/12/result", reqs[0].Path)

	arena.reset()
	_, err = c.SubmitJSON(context.Background(), client.SubmitRequest{LocalAccountID: alice, ActualOpponentID: carol,
		Winner: alice, Held: held})
	assert.ErrorIs(t, err, client.ErrOpponentMismatch, "the 1v1 guard runs on the held match")
	_, err = c.SubmitJSON(context.Background(), client.SubmitRequest{LocalAccountID: alice, ActualOpponentID: bob,
		Winner: alice, Held: held, MatchID: 12, Game: 2})
	assert.ErrorIs(t, err, client.ErrMatchMismatch, "played game 2, the held match is at game 1")
	assert.Empty(t, arena.recorded(""), "nothing sent")
}

func TestSubmitOmitsEmptyClientRole(t *testing.T) {
	arena := newFakeArena(t)
	arena.setMatch(liveMatch1v1())
	c, _ := newClient(t, arena, nil)
	_, err := c.Submit(context.Background(), alice, bob, nil, bob)
	require.NoError(t, err)
	var body map[string]any
	require.NoError(t, json.Unmarshal(arena.recorded("/result")[0].Body, &body))
	assert.NotContains(t, body, "clientRole")
	assert.Equal(t, `{"matchId":12,"sessionNonce":"n-7f3a","winner":"76561198000000002"}`, body["result"])
}

func TestSubmitDualAttestation(t *testing.T) {
	tests := []struct {
		name       string
		aliceGame  map[string]any
		bobGame    map[string]any
		wantStatus string
	}{
		{"SameFactsConfirm",
			map[string]any{"score": []any{3, 1}, "durationTurns": 41.0, "mode": "ranked"},
			map[string]any{"mode": "ranked", "durationTurns": json.Number("41"), "score": []int{3, 1}},
			"confirmed"},
		{"DifferentFactsDispute",
			map[string]any{"score": []any{3, 1}},
			map[string]any{"score": []any{3, 2}},
			"disputed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			arena := newFakeArena(t)
			arena.setMatch(liveMatch1v1())
			asAlice, _ := newClient(t, arena, func(s *client.Settings) { s.ClientRole = "host" })
			asBob, _ := newClient(t, arena, func(s *client.Settings) { s.MockSteamID, s.ClientRole = bob, "guest" })
			ctx := context.Background()

			first, err := asAlice.Submit(ctx, alice, bob, tt.aliceGame, alice)
			require.NoError(t, err)
			assert.Equal(t, "pending", first.Status)
			second, err := asBob.Submit(ctx, bob, alice, tt.bobGame, alice)
			require.NoError(t, err)
			assert.Equal(t, tt.wantStatus, second.Status)
			assert.Equal(t, tt.wantStatus, second.MatchStatus)
			assert.Equal(t, tt.wantStatus == "confirmed", first.Result == second.Result)
		})
	}
	t.Run("ResubmitIsDuplicate", func(t *testing.T) {
		arena := newFakeArena(t)
		arena.setMatch(liveMatch1v1())
		c, _ := newClient(t, arena, nil)
		ctx := context.Background()
		_, err := c.Submit(ctx, alice, bob, map[string]any{"s": 1}, alice)
		require.NoError(t, err)
		sub, err := c.Submit(ctx, alice, bob, map[string]any{"s": 1.0}, alice)
		require.NoError(t, err)
		assert.Equal(t, "duplicate", sub.Status)
	})
}

func TestSubmitDrawSubmitsNothing(t *testing.T) {
	arena := newFakeArena(t)
	arena.setMatch(liveMatch1v1())
	c, _ := newClient(t, arena, nil)
	sub, err := c.Submit(context.Background(), alice, bob, map[string]any{"score": []any{2, 2}}, "")
	require.ErrorIs(t, err, client.ErrDraw)
	assert.Nil(t, sub)
	assert.Empty(t, arena.recorded(""), "a draw sends no request, not even discovery")
}

func TestSubmitRefusesWithoutPosting(t *testing.T) {
	tests := []struct {
		name     string
		match    *fakeMatch
		live     []string // overrides the live-match answers when set
		faults   []fault  // on live-match
		local    string
		opponent string
		game     map[string]any
		winner   string
		wantErr  error
	}{
		{name: "ErrNoLiveMatch", local: alice, opponent: bob, winner: alice, wantErr: client.ErrNoLiveMatch},
		{name: "ErrInvalidLiveMatch", local: alice, opponent: bob, winner: alice, wantErr: client.ErrInvalidLiveMatch,
			live: []string{`{"matchId":7,"slot":1,"sessionNonce":"n","p1PlatformId":"76561198000000001","p2PlatformId":"76561198000000002","opponentPlatformId":"76561198000000002","resultProtocol":"svc.result.v2"}`}},
		{name: "ErrNotParticipant", match: liveMatch1v1(), local: eve, opponent: bob, winner: alice, wantErr: client.ErrNotParticipant},
		{name: "ErrNotParticipantEmptyLocal", match: liveMatch1v1(), local: "", opponent: bob, winner: alice, wantErr: client.ErrNotParticipant},
		{name: "ErrOpponentMismatch", match: liveMatch1v1(), local: alice, opponent: eve, winner: alice, wantErr: client.ErrOpponentMismatch},
		{name: "ErrOpponentMismatchEmptyOpponent", match: liveMatch1v1(), local: alice, opponent: "", winner: alice, wantErr: client.ErrOpponentMismatch},
		{name: "ErrWinnerNotOnSide", match: liveMatch1v1(), local: alice, opponent: bob, winner: eve, wantErr: client.ErrWinnerNotOnSide},
		{name: "TeamErrNotParticipant", match: liveMatchTeam(), local: eve, winner: alice, wantErr: client.ErrNotParticipant},
		{name: "TeamErrWinnerNotOnSide", match: liveMatchTeam(), local: carol, winner: eve, wantErr: client.ErrWinnerNotOnSide},
		{name: "GameResultNotJSON", match: liveMatch1v1(), local: alice, opponent: bob, winner: alice,
			game: map[string]any{"ratio": math.NaN()}},
		{name: "DiscoveryFailsNoRetry", match: liveMatch1v1(), faults: []fault{{status: 500, code: "internal"}}, local: alice, opponent: bob, winner: alice},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			arena := newFakeArena(t)
			arena.setMatch(tt.match)
			arena.liveBodies = tt.live
			arena.failNext("live", tt.faults...)
			c, sleeper := newClient(t, arena, nil)
			if tt.match != nil && tt.local != "" && tt.match.side(tt.local) != 0 {
				c, sleeper = newClient(t, arena, func(s *client.Settings) { s.MockSteamID = tt.local })
			}
			sub, err := c.Submit(context.Background(), tt.local, tt.opponent, tt.game, tt.winner)
			require.Error(t, err)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
			}
			assert.Nil(t, sub)
			assert.Len(t, arena.recorded("/live-match"), 1)
			assert.Empty(t, arena.recorded("/result"), "nothing may be posted")
			assert.Empty(t, sleeper.recorded())
		})
	}
}

func TestSubmitTeamMode(t *testing.T) {
	arena := newFakeArena(t)
	arena.setMatch(liveMatchTeam())
	asCarol, _ := newClient(t, arena, func(s *client.Settings) { s.MockSteamID = carol })
	asBob, _ := newClient(t, arena, func(s *client.Settings) { s.MockSteamID = bob })
	ctx := context.Background()
	game := map[string]any{"score": []any{1, 5}}

	// A team member, not the captain; the opponent argument is not checked
	// in team mode; the winner is any member of the winning side.
	sub, err := asCarol.Submit(ctx, carol, "", game, dave)
	require.NoError(t, err)
	assert.Equal(t, "pending", sub.Status)
	assert.Equal(t, `{"matchId":40,"score":[1,5],"sessionNonce":"n-team","winner":"76561198000000004"}`, sub.Result)

	sub, err = asBob.Submit(ctx, bob, eve, game, dave)
	require.NoError(t, err)
	assert.Equal(t, "confirmed", sub.Status)
}

func TestSubmitBackoff(t *testing.T) {
	tests := []struct {
		name                      string
		maxAttempts, attemptsLeft int
		want                      time.Duration
	}{
		{"ThreeAttemptsAfterFirst", 3, 2, 4 * time.Second},
		{"ThreeAttemptsAfterSecond", 3, 1, 8 * time.Second},
		{"TwoAttemptsAfterFirst", 2, 1, 4 * time.Second},
		{"FiveAttemptsAfterFirst", 5, 4, 4 * time.Second},
		{"FiveAttemptsAfterFourth", 5, 1, 32 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, client.SubmitBackoff(tt.maxAttempts, tt.attemptsLeft))
		})
	}
}

func TestSubmitRetries(t *testing.T) {
	drop := fault{status: 0}
	internal := fault{status: 500, code: "internal"}
	tests := []struct {
		name         string
		attempts     int
		faults       []fault
		wantPosts    int
		wantWaits    []time.Duration
		wantStatus   string // "" when the submission fails
		wantHTTP     int    // status of the final *APIError, 0 for none
		wantCode     string
		wantExhausts bool
	}{
		{name: "SucceedsAfterTwo5xx", attempts: 3, faults: []fault{internal, {503, ""}},
			wantPosts: 3, wantWaits: []time.Duration{4 * time.Second, 8 * time.Second}, wantStatus: "pending"},
		{name: "SucceedsAfterDroppedConnections", attempts: 3, faults: []fault{drop, drop},
			wantPosts: 3, wantWaits: []time.Duration{4 * time.Second, 8 * time.Second}, wantStatus: "pending"},
		{name: "ExhaustedAfterThree5xx", attempts: 3, faults: []fault{internal, internal, {502, ""}},
			wantPosts: 3, wantWaits: []time.Duration{4 * time.Second, 8 * time.Second}, wantHTTP: 502, wantExhausts: true},
		{name: "ExhaustedAfterThreeDrops", attempts: 3, faults: []fault{drop, drop, drop},
			wantPosts: 3, wantWaits: []time.Duration{4 * time.Second, 8 * time.Second}, wantExhausts: true},
		{name: "FiveAttemptsWaitUpTo32s", attempts: 5, faults: []fault{internal, internal, internal, internal, internal},
			wantPosts: 5, wantWaits: []time.Duration{4 * time.Second, 8 * time.Second, 16 * time.Second, 32 * time.Second}, wantHTTP: 500, wantCode: "internal", wantExhausts: true},
		{name: "OneAttemptNeverWaits", attempts: 1, faults: []fault{internal},
			wantPosts: 1, wantWaits: nil, wantHTTP: 500, wantCode: "internal", wantExhausts: true},
		{name: "NoRetryOn409", attempts: 3, faults: []fault{{409, "already_submitted"}},
			wantPosts: 1, wantHTTP: 409, wantCode: "already_submitted"},
		{name: "NoRetryOn422", attempts: 3, faults: []fault{{422, "hash_mismatch"}},
			wantPosts: 1, wantHTTP: 422, wantCode: "hash_mismatch"},
		{name: "NoRetryAfter5xxThen4xx", attempts: 3, faults: []fault{internal, {409, "already_resolved"}},
			wantPosts: 2, wantWaits: []time.Duration{4 * time.Second}, wantHTTP: 409, wantCode: "already_resolved"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			arena := newFakeArena(t)
			arena.setMatch(liveMatch1v1())
			arena.failNext("result", tt.faults...)
			c, sleeper := newClient(t, arena, func(s *client.Settings) { s.MaxSubmitAttempts = tt.attempts })

			sub, err := c.Submit(context.Background(), alice, bob, map[string]any{"score": []any{3, 1}}, alice)

			posts := arena.recorded("/result")
			assert.Len(t, posts, tt.wantPosts)
			for _, p := range posts[1:] {
				assert.Equal(t, string(posts[0].Body), string(p.Body), "every attempt posts identical bytes")
			}
			assert.Equal(t, tt.wantWaits, sleeper.recorded())
			require.NotNil(t, sub)
			assert.Equal(t, tt.wantPosts, sub.Attempts)
			assert.Equal(t, sha256Hex(sub.Result), sub.ResultHash)
			if tt.wantStatus != "" {
				require.NoError(t, err)
				assert.Equal(t, tt.wantStatus, sub.Status)
				return
			}
			require.Error(t, err)
			assert.Empty(t, sub.Status)
			assert.Equal(t, tt.wantExhausts, errors.Is(err, client.ErrRetriesExhausted))
			var apiErr *client.APIError
			if tt.wantHTTP == 0 {
				assert.NotErrorAs(t, err, &apiErr)
				return
			}
			require.ErrorAs(t, err, &apiErr)
			assert.Equal(t, tt.wantHTTP, apiErr.Status)
			assert.Equal(t, tt.wantCode, apiErr.Code)
		})
	}
}

func TestSubmitFreshTicketPerAttempt(t *testing.T) {
	arena := newFakeArena(t)
	arena.setMatch(liveMatch1v1())
	arena.failNext("result", fault{status: 500, code: "internal"}, fault{status: 0})
	tickets := &countingTickets{arena: arena, account: alice}
	sleeper := &fakeSleeper{}
	c, err := client.New(client.NewSettings(arena.srv.URL), client.Deps{
		HTTP: arena.srv.Client(), Tickets: tickets, Sleep: sleeper.Sleep,
		Now: func() time.Time { return testNow },
	})
	require.NoError(t, err)

	sub, err := c.Submit(context.Background(), alice, bob, map[string]any{"score": []any{3, 1}}, alice)
	require.NoError(t, err)
	assert.Equal(t, "pending", sub.Status)
	var auths []string
	for _, r := range arena.recorded("") {
		auths = append(auths, r.Path+" "+r.Auth)
	}
	assert.Equal(t, []string{
		"/api/v1/me/live-match Platform t1",
		"/api/v1/matches/12/result Platform t2",
		"/api/v1/matches/12/result Platform t3",
		"/api/v1/matches/12/result Platform t4",
	}, auths)
}

func TestSubmitCancelDuringBackoff(t *testing.T) {
	arena := newFakeArena(t)
	arena.setMatch(liveMatch1v1())
	arena.failNext("result", fault{status: 500, code: "internal"})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c, sleeper := newClient(t, arena, nil)
	sleeper.onSleep = func(int) error {
		cancel()
		return nil
	}
	sub, err := c.Submit(ctx, alice, bob, nil, alice)
	require.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, 1, sub.Attempts)
	assert.Len(t, arena.recorded("/result"), 1)
}
