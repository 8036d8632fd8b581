package story

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func publicAPISteps() []step {
	return []step{
		{"APIKeyHoldersAreAClassOfTheirOwn", func(t *testing.T, w *world) {
			key := w.adminAPI(t, "POST", "/api/v1/admin/api-keys", map[string]any{"label": "story"}, 201)
			bearer := "Bearer " + key["key"].(string)
			authenticated := func(auth string) any {
				a := w.do(t, request{method: "GET", path: "/api/v1", auth: auth})
				require.Equal(t, http.StatusOK, a.status, "%s", a.body)
				return a.json(t)["authenticated"]
			}
			for range 3 { // interleaved, so each class's cached answer is read
				assert.Equal(t, false, authenticated(""))
				assert.Equal(t, true, authenticated(bearer))
				assert.Equal(t, false, authenticated("Bearer apikey_0000abcd_not-a-key"))
			}
			w.adminAPI(t, "DELETE", "/api/v1/admin/api-keys/"+key["id"].(string), nil, 204)
			assert.Equal(t, false, authenticated(bearer), "a revoked key is anonymous at once")
		}},
		{"TheSpecsRateLimitsHold", func(t *testing.T, w *world) {
			w.adminAPI(t, "PUT", "/api/v1/admin/settings", map[string]any{"rateLimits": map[string]any{"anonymousPerMinute": 60, "keyPerMinute": 600}}, 200)
			for attempt := 0; ; attempt++ {
				if time.Now().Second() > 50 { // keep the burst inside one one-minute window
					time.Sleep(time.Until(time.Now().Truncate(time.Minute).Add(time.Minute + 200*time.Millisecond)))
				}
				window := time.Now().Truncate(time.Minute)
				ok := 0
				var limited *answer
				for i := 0; i < 80 && limited == nil; i++ {
					a := w.do(t, request{method: "GET", path: "/api/v1/tournaments/" + cup})
					switch a.status {
					case http.StatusOK:
						ok++
					case http.StatusTooManyRequests:
						limited = &a
					default:
						t.Fatalf("GET: %d %s", a.status, a.body)
					}
				}
				if !time.Now().Truncate(time.Minute).Equal(window) && attempt == 0 {
					continue // the window turned during the burst: once more
				}
				require.NotNil(t, limited, "no 429 after %d reads", ok)
				assert.Equal(t, 60, ok, "reads answered in one window")
				assert.Equal(t, "rate_limited", limited.json(t)["error"])
				assert.Equal(t, "60", limited.header.Get("RateLimit-Limit"))
				assert.NotEmpty(t, limited.header.Get("Retry-After"))
				return
			}
		}},
	}
}
