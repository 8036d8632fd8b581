package server_test

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/client"
)

// TestTitleStoryWithReferenceClients has two reference clients play a
// title's story against the server over real HTTP: both volunteer, the
// coronation crowns A, A accepts B's challenge and defends, accepts the
// next one and loses, then wins the title back: a lineage of three
// reigns.
func TestTitleStoryWithReferenceClients(t *testing.T) {
	e := newTestEnv(t, false)
	httpSrv := httptest.NewServer(e.Server)
	defer httpSrv.Close()
	status, body := e.do(t, "POST", "ops.test", "/api/v1/operator/arenas", operatorToken, map[string]any{
		"slug": "titles", "name": "Titles", "hosts": []string{"127.0.0.1"}, "plan": "indie", "appIds": []string{"480"}})
	require.Equal(t, 201, status, body)
	admin := body["adminToken"].(string)
	status, title := e.do(t, "POST", "127.0.0.1", "/api/v1/admin/titles", admin, map[string]any{"slug": "world", "name": "World Title"})
	require.Equal(t, 201, status, title)
	titleID := int64(title["id"].(float64))
	ctx := context.Background()

	newClient := func(id string) *client.Client {
		s := client.NewSettings(httpSrv.URL)
		s.MockSteamID = id
		c, err := client.New(s, client.Deps{HTTP: httpSrv.Client(), Now: func() time.Time { return e.Now }})
		require.NoError(t, err)
		return c
	}
	a, b := playerID(1), playerID(2)
	clients := map[string]*client.Client{a: newClient(a), b: newClient(b)}
	world := func() client.Title {
		t.Helper()
		list, err := clients[a].Titles(ctx)
		require.NoError(t, err)
		require.Len(t, list, 1)
		return list[0]
	}
	// play finds the title match through discovery, readies both sides and
	// has both clients submit winner.
	play := func(matchID int64, winner string) {
		t.Helper()
		for id, c := range clients {
			up, err := c.UpcomingMatch(ctx)
			require.NoError(t, err)
			require.NotNil(t, up, "%s finds the title match", id)
			require.Equal(t, matchID, up.MatchID)
			assert.Equal(t, client.Tournament{Slug: "world", Name: "World Title"}, up.Tournament)
			_, err = c.Ready(ctx, matchID)
			require.NoError(t, err)
		}
		live, err := clients[a].WaitForLiveMatch(ctx)
		require.NoError(t, err)
		require.Equal(t, matchID, live.MatchID)
		assert.False(t, live.IsCasual(), "a title match is organized: it has a seed")
		game := map[string]any{"score": []any{3, 2}}
		var last *client.Submission
		for id, c := range clients {
			opponent := b
			if id == b {
				opponent = a
			}
			last, err = c.Submit(ctx, id, opponent, game, winner)
			require.NoError(t, err)
		}
		assert.Equal(t, "confirmed", last.Status)
	}
	challengeAccepted := func(challenger, holder string) int64 {
		t.Helper()
		ch, err := clients[challenger].Challenge(ctx, titleID)
		require.NoError(t, err)
		assert.Equal(t, "pending", ch.Status)
		ch, err = clients[holder].RespondToChallenge(ctx, ch.ID, true)
		require.NoError(t, err)
		assert.Equal(t, "accepted", ch.Status)
		require.NotNil(t, ch.MatchID)
		return *ch.MatchID
	}

	t.Run("Coronation", func(t *testing.T) {
		v, err := clients[a].Volunteer(ctx, titleID)
		require.NoError(t, err)
		assert.Equal(t, 1, v.Position)
		assert.Nil(t, v.MatchID)
		v, err = clients[b].Volunteer(ctx, titleID)
		require.NoError(t, err)
		assert.Equal(t, 2, v.Position)
		require.NotNil(t, v.MatchID)
		assert.Equal(t, "coronation", world().Match.Kind)
		play(*v.MatchID, a)
		w := world()
		require.NotNil(t, w.Holder)
		assert.Equal(t, a, w.Holder.PlatformID)
		assert.Equal(t, 0, w.Reign.Defenses)
	})
	t.Run("Defense", func(t *testing.T) {
		play(challengeAccepted(b, a), a)
		w := world()
		assert.Equal(t, a, w.Holder.PlatformID)
		assert.Equal(t, 1, w.Reign.Defenses)
	})
	t.Run("ChallengerWins", func(t *testing.T) {
		play(challengeAccepted(b, a), b)
		assert.Equal(t, b, world().Holder.PlatformID)
	})
	t.Run("LineageOfThreeReigns", func(t *testing.T) {
		play(challengeAccepted(a, b), a)
		w := world()
		assert.Equal(t, a, w.Holder.PlatformID)
		require.Len(t, w.Lineage, 3)
		type reign struct {
			holder   string
			defenses int
			ended    string
		}
		var got []reign
		for _, r := range w.Lineage {
			ended := ""
			if r.Ended != nil {
				ended = *r.Ended
			}
			got = append(got, reign{r.Player.PlatformID, r.Defenses, ended})
		}
		assert.Equal(t, []reign{{a, 1, "lost"}, {b, 0, "lost"}, {a, 0, ""}}, got)
		assert.Nil(t, w.Lineage[2].Until)
		assert.NotNil(t, w.ClockExpiresAt)
		_, err := clients[a].Challenge(ctx, titleID)
		var apiErr *client.APIError
		require.ErrorAs(t, err, &apiErr)
		assert.Equal(t, "cannot_challenge_self", apiErr.Code)
	})
}
