package story

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/client"
)

// castCup is a two-player cup whose one match the arena's own channel
// casts (and whose players record it: steps_recordings_test.go).
const castCup = "cast"

// The cast cup's players.
var castPlayers = [2]string{"76561198000000111", "76561198000000112"}

// officialChannel is the arena's official caster channel.
const officialChannel = "edge_caster"

func casterSteps() []step {
	return []step{
		{"AnOfficialCasterOnALiveMatch", func(t *testing.T, w *world) {
			now := time.Now()
			base := "/api/v1/admin/tournaments/" + castCup
			w.adminAPI(t, "POST", "/api/v1/admin/tournaments", map[string]any{
				"slug": castCup, "name": "Cast Cup", "format": "playoffs_only", "maxPlayers": 2,
				"registrationOpensAt": iso(now.Add(-time.Hour)), "registrationClosesAt": iso(now.Add(24 * time.Hour)),
				"startsAt": iso(now.Add(48 * time.Hour)), "matchWindowMinutes": 30,
				"cast": map[string]any{"handMode": "shown", "delaySeconds": 0},
			}, 201)
			w.adminAPI(t, "POST", base+"/status", map[string]any{"status": "registration_open"}, 200)
			for i, id := range castPlayers {
				w.adminAPI(t, "POST", base+"/registrations", map[string]any{"platformId": id, "seed": i + 1}, 201)
			}
			for _, status := range []string{"registration_closed", "playoffs"} {
				w.adminAPI(t, "POST", base+"/status", map[string]any{"status": status}, 200)
			}
			matches := w.adminAPI(t, "GET", base+"/matches", nil, 200)["matches"].([]any)
			require.Len(t, matches, 1)
			id := int64(matches[0].(map[string]any)["id"].(float64))
			w.matches[castCup] = id
			path := fmt.Sprintf("/api/v1/admin/matches/%d", id)
			w.adminAPI(t, "PATCH", path, map[string]any{"opensAt": iso(now.Add(-time.Minute))}, 200)

			seated := w.adminAPI(t, "POST", path+"/casters", map[string]any{"streamLogin": officialChannel}, 201)
			require.Len(t, seated["casters"], 1)
			assert.Equal(t, officialChannel, seated["casters"].([]any)[0].(map[string]any)["streamLogin"])

			ctx := context.Background()
			for _, p := range castPlayers {
				_, err := w.client(t, p).Ready(ctx, id)
				require.NoError(t, err)
			}
			live, err := w.client(t, castPlayers[0]).LiveMatch(ctx)
			require.NoError(t, err)
			require.NotNil(t, live, "both sides ready: the match is live")
			assert.Equal(t, id, live.MatchID)
			url := "https://www.twitch.tv/" + officialChannel
			assert.Equal(t, []client.Caster{{StreamURL: url, Source: "arena"}}, live.Casters)
			require.NotNil(t, live.StreamURL)
			assert.Equal(t, url, *live.StreamURL, "the first caster's mirror")
			assert.Nil(t, live.CasterPlatformID, "the arena's channel is nobody's account")
		}},
	}
}
