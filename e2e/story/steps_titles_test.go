package story

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/client"
)

// The title's contenders.
var titlePlayers = [2]string{"76561198000000121", "76561198000000122"}

// belt is the story's title.
const belt = "story-belt"

func titleSteps() []step {
	return []step{
		{"ATitleIsCrownedAndChallenged", func(t *testing.T, w *world) {
			ctx := context.Background()
			title := w.adminAPI(t, "POST", "/api/v1/admin/titles", map[string]any{"slug": belt, "name": "Story Belt"}, 201)
			id := int64(title["id"].(float64))
			a, b := w.client(t, titlePlayers[0]), w.client(t, titlePlayers[1])

			first, err := a.Volunteer(ctx, id)
			require.NoError(t, err)
			assert.Equal(t, 1, first.Position)
			second, err := b.Volunteer(ctx, id)
			require.NoError(t, err)
			assert.Equal(t, 2, second.Position)
			require.NotNil(t, second.MatchID, "the second volunteer starts the coronation")
			coronation := *second.MatchID
			up, err := a.UpcomingMatch(ctx)
			require.NoError(t, err)
			require.NotNil(t, up)
			assert.Equal(t, coronation, up.MatchID)
			assert.Equal(t, client.Tournament{Slug: belt, Name: "Story Belt"}, up.Tournament, "a title match names its title")

			w.adminAPI(t, "POST", fmt.Sprintf("/api/v1/admin/matches/%d/resolve", coronation), map[string]any{"winner": titlePlayers[0]}, 200)
			held := w.title(t, id)
			require.NotNil(t, held["holder"])
			assert.Equal(t, titlePlayers[0], held["holder"].(map[string]any)["platformId"], "the coronation's winner holds the title")

			ch, err := b.Challenge(ctx, id)
			require.NoError(t, err)
			assert.Equal(t, "pending", ch.Status)
			ch, err = a.RespondToChallenge(ctx, ch.ID, true)
			require.NoError(t, err)
			assert.Equal(t, "accepted", ch.Status)
			require.NotNil(t, ch.MatchID)
			match := w.title(t, id)["match"].(map[string]any)
			assert.Equal(t, "challenge", match["kind"])
			assert.Equal(t, float64(*ch.MatchID), match["id"])
		}},
		{"PublicTitlesAnswerNotModified", func(t *testing.T, w *world) {
			first := w.do(t, request{method: "GET", path: "/api/v1/public/titles"})
			require.Equal(t, http.StatusOK, first.status, "%s", first.body)
			etag := first.header.Get("ETag")
			require.NotEmpty(t, etag)
			again := w.do(t, request{method: "GET", path: "/api/v1/public/titles", ifNoneMatch: etag})
			assert.Equal(t, http.StatusNotModified, again.status)
			assert.Empty(t, again.body)
		}},
	}
}

// title is the story arena's title id from the public list.
func (w *world) title(t *testing.T, id int64) map[string]any {
	t.Helper()
	for _, raw := range w.read(t, "/api/v1/public/titles")["titles"].([]any) {
		if m := raw.(map[string]any); m["id"] == float64(id) {
			return m
		}
	}
	t.Fatalf("no title %d in the public list", id)
	return nil
}
