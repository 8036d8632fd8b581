package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/client"
)

// fullLiveMatch sets every field of spec 2.1, plus one the client does not
// know, with the spec's JSON names written out by hand.
const fullLiveMatch = `{
  "matchId": 12,
  "gameSeed": 3735928559,
  "slot": 2,
  "sessionNonce": "n-7f3a",
  "p1PlatformId": "76561198000000002",
  "p2PlatformId": "76561198000000001",
  "opponentPlatformId": "76561198000000002",
  "tournament": {"slug": "spring-cup", "name": "Spring Cup"},
  "windowClosesAt": "2026-04-01T20:00:00Z",
  "allowSpectators": true,
  "cast": {"handMode": "delayed", "delaySeconds": 90},
  "casters": [
    {"platformId": "76561198000000003", "streamUrl": "https://stream.example/carol", "source": "community"},
    {"platformId": "76561198000000004", "streamUrl": "https://stream.example/arena", "source": "arena"}
  ],
  "casterPlatformId": "76561198000000003",
  "streamUrl": "https://stream.example/carol",
  "p1Roster": ["76561198000000002"],
  "p2Roster": ["76561198000000001"],
  "teamMinPlayers": 1,
  "teamMaxPlayers": 1,
  "resultProtocol": "svc.result.v3",
  "refereeM0": {"enabled": true, "consentComplete": true, "traceProtocol": "svc.gameplay.v1", "captureProtocol": "svc.capture.v1"},
  "addedInALaterRelease": {"x": 1}
}`

// minimalLiveMatch is a casual 1v1 match with nulls and absent optional fields.
const minimalLiveMatch = `{"matchId":7,"slot":1,"sessionNonce":"n-1","p1PlatformId":"76561198000000001",
  "p2PlatformId":"76561198000000002","opponentPlatformId":"76561198000000002","tournament":{"slug":"s","name":"S"},
  "windowClosesAt":"2026-04-01T20:00:00Z","allowSpectators":false,"cast":{},"casters":[],"casterPlatformId":null,
  "streamUrl":null,"p1Roster":["76561198000000001"],"p2Roster":["76561198000000002"],"teamMinPlayers":1,
  "teamMaxPlayers":1,"resultProtocol":"svc.result.v3"}`

func ptr[T any](v T) *T { return &v }

func TestLiveMatch(t *testing.T) {
	t.Run("NoMatchIs204", func(t *testing.T) {
		arena := newFakeArena(t)
		c, _ := newClient(t, arena, nil)
		m, err := c.LiveMatch(context.Background())
		require.NoError(t, err)
		assert.Nil(t, m)
		reqs := arena.recorded("/live-match")
		require.Len(t, reqs, 1)
		assert.Equal(t, "GET", reqs[0].Method)
		assert.Equal(t, "/api/v1/me/live-match", reqs[0].Path, "base URL trailing slash must not double")
		assert.Equal(t, "Platform MOCK:"+alice, reqs[0].Auth)
		assert.Empty(t, reqs[0].AppID)
	})
	t.Run("EveryFieldDecoded", func(t *testing.T) {
		arena := newFakeArena(t)
		arena.liveBodies = []string{fullLiveMatch}
		c, _ := newClient(t, arena, nil)
		m, err := c.LiveMatch(context.Background())
		require.NoError(t, err)
		assert.Equal(t, &client.LiveMatch{
			MatchID:            12,
			GameSeed:           3735928559,
			Slot:               2,
			SessionNonce:       "n-7f3a",
			P1PlatformID:       bob,
			P2PlatformID:       alice,
			OpponentPlatformID: bob,
			Tournament:         client.Tournament{Slug: "spring-cup", Name: "Spring Cup"},
			WindowClosesAt:     "2026-04-01T20:00:00Z",
			AllowSpectators:    true,
			Cast:               client.Cast{HandMode: "delayed", DelaySeconds: 90},
			Casters: []client.Caster{
				{PlatformID: carol, StreamURL: "https://stream.example/carol", Source: "community"},
				{PlatformID: dave, StreamURL: "https://stream.example/arena", Source: "arena"},
			},
			CasterPlatformID: ptr(carol),
			StreamURL:        ptr("https://stream.example/carol"),
			P1Roster:         []string{bob},
			P2Roster:         []string{alice},
			TeamMinPlayers:   1,
			TeamMaxPlayers:   1,
			ResultProtocol:   "svc.result.v3",
			RefereeM0:        &client.RefereeM0{Enabled: true, ConsentComplete: true, TraceProtocol: "svc.gameplay.v1", CaptureProtocol: "svc.capture.v1"},
		}, m)
		assert.False(t, m.IsCasual())
		assert.Equal(t, client.HandDelayed, m.CastPolicy())
		assert.True(t, m.Valid())
	})
	t.Run("NullsAndAbsentFields", func(t *testing.T) {
		arena := newFakeArena(t)
		arena.liveBodies = []string{minimalLiveMatch}
		c, _ := newClient(t, arena, nil)
		m, err := c.LiveMatch(context.Background())
		require.NoError(t, err)
		assert.Zero(t, m.GameSeed)
		assert.True(t, m.IsCasual())
		assert.Equal(t, client.HandHidden, m.CastPolicy())
		assert.Nil(t, m.CasterPlatformID)
		assert.Nil(t, m.StreamURL)
		assert.Nil(t, m.RefereeM0)
		assert.Empty(t, m.Casters)
		assert.False(t, m.IsTeam())
	})
	t.Run("BuiltFromArenaState", func(t *testing.T) {
		arena := newFakeArena(t)
		arena.setMatch(liveMatch1v1())
		c, _ := newClient(t, arena, nil)
		m, err := c.LiveMatch(context.Background())
		require.NoError(t, err)
		assert.Equal(t, int64(12), m.MatchID)
		assert.Equal(t, 1, m.Slot)
		assert.Equal(t, bob, m.OpponentPlatformID)
		assert.True(t, m.Valid())
	})
	t.Run("APIErrorCarriesStatusAndCode", func(t *testing.T) {
		arena := newFakeArena(t)
		arena.failNext("live", fault{status: 401, code: "missing_ticket"})
		c, _ := newClient(t, arena, nil)
		_, err := c.LiveMatch(context.Background())
		var apiErr *client.APIError
		require.ErrorAs(t, err, &apiErr)
		assert.Equal(t, 401, apiErr.Status)
		assert.Equal(t, "missing_ticket", apiErr.Code)
	})
	t.Run("ErrBadResponse", func(t *testing.T) {
		arena := newFakeArena(t)
		arena.liveBodies = []string{`{"matchId":"twelve"}`}
		c, _ := newClient(t, arena, nil)
		_, err := c.LiveMatch(context.Background())
		require.ErrorIs(t, err, client.ErrBadResponse)
	})
}

func TestLiveMatchHelpers(t *testing.T) {
	valid := func() *client.LiveMatch {
		return &client.LiveMatch{MatchID: 3, Slot: 1, SessionNonce: "n", ResultProtocol: client.ResultProtocol}
	}
	t.Run("Valid", func(t *testing.T) {
		tests := []struct {
			name string
			edit func(*client.LiveMatch)
			want bool
		}{
			{"Complete", func(*client.LiveMatch) {}, true},
			{"Slot2", func(m *client.LiveMatch) { m.Slot = 2 }, true},
			{"NoMatchID", func(m *client.LiveMatch) { m.MatchID = 0 }, false},
			{"NoNonce", func(m *client.LiveMatch) { m.SessionNonce = "" }, false},
			{"Slot0", func(m *client.LiveMatch) { m.Slot = 0 }, false},
			{"Slot3", func(m *client.LiveMatch) { m.Slot = 3 }, false},
			{"OlderProtocol", func(m *client.LiveMatch) { m.ResultProtocol = "svc.result.v2" }, false},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				m := valid()
				tt.edit(m)
				assert.Equal(t, tt.want, m.Valid())
			})
		}
	})
	t.Run("CastPolicy", func(t *testing.T) {
		for mode, want := range map[string]string{"": "hidden", "hidden": "hidden", "delayed": "delayed", "shown": "shown"} {
			m := valid()
			m.Cast.HandMode = mode
			assert.Equal(t, want, m.CastPolicy(), "handMode %q", mode)
		}
	})
	t.Run("IsTeam", func(t *testing.T) {
		for max, want := range map[int]bool{0: false, 1: false, 2: true, 5: true} {
			m := valid()
			m.TeamMaxPlayers = max
			assert.Equal(t, want, m.IsTeam(), "teamMaxPlayers %d", max)
		}
	})
	t.Run("Side", func(t *testing.T) {
		oneVsOne := &client.LiveMatch{P1PlatformID: alice, P2PlatformID: bob, P1Roster: []string{alice}, P2Roster: []string{bob}, TeamMaxPlayers: 1}
		team := &client.LiveMatch{P1PlatformID: alice, P2PlatformID: bob, P1Roster: []string{alice, carol}, P2Roster: []string{bob, dave}, TeamMaxPlayers: 2}
		tests := []struct {
			name    string
			m       *client.LiveMatch
			account string
			want    int
		}{
			{"OneVsOneP1", oneVsOne, alice, 1},
			{"OneVsOneP2", oneVsOne, bob, 2},
			{"OneVsOneStranger", oneVsOne, eve, 0},
			{"EmptyIDOnNoSide", &client.LiveMatch{}, "", 0},
			{"TeamCaptain", team, bob, 2},
			{"TeamMember", team, carol, 1},
			{"TeamStranger", team, eve, 0},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				assert.Equal(t, tt.want, tt.m.Side(tt.account))
			})
		}
	})
}

func TestUpcomingMatch(t *testing.T) {
	t.Run("NoneIs204", func(t *testing.T) {
		arena := newFakeArena(t)
		c, _ := newClient(t, arena, nil)
		m, err := c.UpcomingMatch(context.Background())
		require.NoError(t, err)
		assert.Nil(t, m)
		require.Len(t, arena.recorded("/upcoming-match"), 1)
	})
	t.Run("EveryFieldDecoded", func(t *testing.T) {
		arena := newFakeArena(t)
		arena.upcomingBody = `{"matchId":31,"slot":2,"opponentPlatformId":"76561198000000002","opponentName":"Bob",
			"tournament":{"slug":"spring-cup","name":"Spring Cup"},"windowOpensAt":"2026-04-01T18:00:00Z",
			"windowClosesAt":"2026-04-01T20:00:00Z","windowOpen":true,"selfReady":true,"opponentReady":false,"extra":1}`
		c, _ := newClient(t, arena, nil)
		m, err := c.UpcomingMatch(context.Background())
		require.NoError(t, err)
		assert.Equal(t, &client.UpcomingMatch{
			MatchID: 31, Slot: 2, OpponentPlatformID: bob, OpponentName: "Bob",
			Tournament:    client.Tournament{Slug: "spring-cup", Name: "Spring Cup"},
			WindowOpensAt: "2026-04-01T18:00:00Z", WindowClosesAt: "2026-04-01T20:00:00Z",
			WindowOpen: true, SelfReady: true, OpponentReady: false,
		}, m)
	})
}

func TestReady(t *testing.T) {
	scheduled := func() *fakeMatch {
		m := liveMatch1v1()
		m.Status = "scheduled"
		return m
	}
	t.Run("BothSidesReadyGoesLive", func(t *testing.T) {
		arena := newFakeArena(t)
		arena.setMatch(scheduled())
		asAlice, _ := newClient(t, arena, nil)
		asBob, _ := newClient(t, arena, func(s *client.Settings) { s.MockSteamID = bob })

		st, err := asAlice.Ready(context.Background(), 12)
		require.NoError(t, err)
		assert.Equal(t, &client.ReadyState{Status: "ready", Live: false, OpponentReady: false}, st)

		st, err = asBob.Ready(context.Background(), 12)
		require.NoError(t, err)
		assert.Equal(t, &client.ReadyState{Status: "ready", Live: true, OpponentReady: true}, st)

		reqs := arena.recorded("/ready")
		require.Len(t, reqs, 2)
		assert.Equal(t, "POST", reqs[0].Method)
		assert.Equal(t, "/api/v1/matches/12/ready", reqs[0].Path)
		assert.Equal(t, "Platform MOCK:"+bob, reqs[1].Auth)
	})
	t.Run("NotParticipant", func(t *testing.T) {
		arena := newFakeArena(t)
		arena.setMatch(scheduled())
		c, _ := newClient(t, arena, func(s *client.Settings) { s.MockSteamID = eve })
		_, err := c.Ready(context.Background(), 12)
		var apiErr *client.APIError
		require.ErrorAs(t, err, &apiErr)
		assert.Equal(t, &client.APIError{Method: "POST", Path: "/api/v1/matches/12/ready", Status: 403, Code: "not_participant"}, apiErr)
	})
	t.Run("MatchNotFound", func(t *testing.T) {
		arena := newFakeArena(t)
		arena.setMatch(scheduled())
		c, _ := newClient(t, arena, nil)
		_, err := c.Ready(context.Background(), 99)
		var apiErr *client.APIError
		require.ErrorAs(t, err, &apiErr)
		assert.Equal(t, 404, apiErr.Status)
		assert.Equal(t, "match_not_found", apiErr.Code)
	})
}

func TestRequestHeaders(t *testing.T) {
	t.Run("AppIDOnEveryCall", func(t *testing.T) {
		arena := newFakeArena(t)
		arena.setMatch(liveMatch1v1())
		c, _ := newClient(t, arena, func(s *client.Settings) { s.AppID = "480" })
		ctx := context.Background()
		_, err := c.LiveMatch(ctx)
		require.NoError(t, err)
		_, err = c.UpcomingMatch(ctx)
		require.NoError(t, err)
		_, _ = c.Ready(ctx, 12)
		reqs := arena.recorded("")
		require.Len(t, reqs, 3)
		for _, r := range reqs {
			assert.Equal(t, "480", r.AppID, r.Path)
		}
	})
	t.Run("FreshTicketPerCall", func(t *testing.T) {
		arena := newFakeArena(t)
		arena.setMatch(liveMatch1v1())
		tickets := &countingTickets{arena: arena, account: alice}
		s := client.NewSettings(arena.srv.URL)
		c, err := client.New(s, client.Deps{HTTP: arena.srv.Client(), Tickets: tickets})
		require.NoError(t, err)
		for range 3 {
			m, err := c.LiveMatch(context.Background())
			require.NoError(t, err, "a reused single-use ticket is refused")
			require.NotNil(t, m)
		}
		var auths []string
		for _, r := range arena.recorded("") {
			auths = append(auths, r.Auth)
		}
		assert.Equal(t, []string{"Platform t1", "Platform t2", "Platform t3"}, auths)
	})
	t.Run("TicketFailureSendsNothing", func(t *testing.T) {
		arena := newFakeArena(t)
		boom := errors.New("platform SDK not ready")
		c, err := client.New(client.NewSettings(arena.srv.URL), client.Deps{
			HTTP:    arena.srv.Client(),
			Tickets: client.TicketFunc(func(context.Context) (string, error) { return "", boom }),
		})
		require.NoError(t, err)
		_, err = c.LiveMatch(context.Background())
		require.ErrorIs(t, err, boom)
		assert.Empty(t, arena.recorded(""))
	})
}

func TestDisabledClientDoesNothing(t *testing.T) {
	arena := newFakeArena(t)
	arena.setMatch(liveMatch1v1())
	c, _ := newClient(t, arena, func(s *client.Settings) { s.Enabled = false })
	ctx := context.Background()

	_, err := c.LiveMatch(ctx)
	assert.ErrorIs(t, err, client.ErrDisabled)
	_, err = c.UpcomingMatch(ctx)
	assert.ErrorIs(t, err, client.ErrDisabled)
	_, err = c.Ready(ctx, 12)
	assert.ErrorIs(t, err, client.ErrDisabled)
	_, err = c.WaitForLiveMatch(ctx)
	assert.ErrorIs(t, err, client.ErrDisabled)
	sub, err := c.Submit(ctx, alice, bob, map[string]any{"score": 1}, alice)
	assert.ErrorIs(t, err, client.ErrDisabled)
	assert.Nil(t, sub)
	assert.Empty(t, arena.recorded(""), "a disabled client sends no request")
}

// liveJSON is a valid live match for alice, edited by edit.
func liveJSON(t *testing.T, edit func(map[string]any)) string {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal([]byte(minimalLiveMatch), &m))
	if edit != nil {
		edit(m)
	}
	data, err := json.Marshal(m)
	require.NoError(t, err)
	return string(data)
}

func TestWaitForLiveMatch(t *testing.T) {
	t.Run("PollsUntilValidMatch", func(t *testing.T) {
		arena := newFakeArena(t)
		arena.failNext("live", fault{status: 500, code: "internal"})
		arena.liveBodies = []string{
			"",
			liveJSON(t, func(m map[string]any) { m["resultProtocol"] = "svc.result.v2" }),
			liveJSON(t, func(m map[string]any) { delete(m, "sessionNonce") }),
			liveJSON(t, nil),
		}
		c, sleeper := newClient(t, arena, nil)
		m, err := c.WaitForLiveMatch(context.Background())
		require.NoError(t, err)
		assert.Equal(t, int64(7), m.MatchID)
		assert.Len(t, arena.recorded("/live-match"), 5)
		assert.Equal(t, []time.Duration{60 * time.Second, 60 * time.Second, 60 * time.Second, 60 * time.Second}, sleeper.recorded())
	})
	t.Run("ImmediateMatchNoSleep", func(t *testing.T) {
		arena := newFakeArena(t)
		arena.setMatch(liveMatch1v1())
		c, sleeper := newClient(t, arena, nil)
		m, err := c.WaitForLiveMatch(context.Background())
		require.NoError(t, err)
		assert.Equal(t, int64(12), m.MatchID)
		assert.Empty(t, sleeper.recorded())
	})
	t.Run("IntervalClamped", func(t *testing.T) {
		tests := []struct {
			name    string
			seconds int
			want    time.Duration
		}{
			{"Below15", 5, 15 * time.Second},
			{"InRange", 42, 42 * time.Second},
			{"Above600", 3600, 600 * time.Second},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				arena := newFakeArena(t)
				arena.liveBodies = []string{"", liveJSON(t, nil)}
				c, sleeper := newClient(t, arena, func(s *client.Settings) { s.AutoDiscoverIntervalSeconds = tt.seconds })
				_, err := c.WaitForLiveMatch(context.Background())
				require.NoError(t, err)
				assert.Equal(t, []time.Duration{tt.want}, sleeper.recorded())
			})
		}
	})
	t.Run("StopsOnCancel", func(t *testing.T) {
		arena := newFakeArena(t)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		c, sleeper := newClient(t, arena, nil)
		sleeper.onSleep = func(n int) error {
			if n == 2 {
				cancel()
			}
			return nil
		}
		m, err := c.WaitForLiveMatch(ctx)
		require.ErrorIs(t, err, context.Canceled)
		assert.Nil(t, m)
		assert.Len(t, arena.recorded("/live-match"), 2, "no poll after cancellation")
	})
	t.Run("StopsOn4xx", func(t *testing.T) {
		arena := newFakeArena(t)
		arena.failNext("live", fault{status: 401, code: "missing_ticket"})
		c, sleeper := newClient(t, arena, nil)
		_, err := c.WaitForLiveMatch(context.Background())
		var apiErr *client.APIError
		require.ErrorAs(t, err, &apiErr)
		assert.Equal(t, "missing_ticket", apiErr.Code)
		assert.Empty(t, sleeper.recorded())
	})
	t.Run("ErrAutoDiscoverOff", func(t *testing.T) {
		arena := newFakeArena(t)
		c, _ := newClient(t, arena, func(s *client.Settings) { s.AutoDiscover = false })
		_, err := c.WaitForLiveMatch(context.Background())
		require.ErrorIs(t, err, client.ErrAutoDiscoverOff)
		assert.Empty(t, arena.recorded(""))
	})
}

func TestRefereeActive(t *testing.T) {
	consented := &client.RefereeM0{Enabled: true, ConsentComplete: true}
	tests := []struct {
		name    string
		enable  bool
		referee *client.RefereeM0
		want    bool
	}{
		{"AllOn", true, consented, true},
		{"ClientSettingOff", false, consented, false},
		{"ArenaHasNoReferee", true, nil, false},
		{"ConsentIncomplete", true, &client.RefereeM0{Enabled: true}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			arena := newFakeArena(t)
			c, _ := newClient(t, arena, func(s *client.Settings) { s.EnableReferee = tt.enable })
			assert.Equal(t, tt.want, c.RefereeActive(&client.LiveMatch{RefereeM0: tt.referee}))
		})
	}
}
