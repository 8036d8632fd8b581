package web_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/worker/arenatest"
)

// Issue 25 point 8 and "a match page worth watching": with the demo's
// caster live, her directory row (page and JSON) names the match's
// players, tournament and round; the home page counts her match as being
// played; the match page offers her stream to play in place (the
// provider's embed player for the arena's host, loaded on a click) with
// a link out, and only that page lets a frame load, from the provider
// only.
func TestAMatchWorthWatching(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	e.API(t, "POST", "/__dev/stream-live", "", map[string]any{"logins": []string{"sophie_casts"}}, http.StatusOK)
	e.Tick(t)

	var api struct {
		Casters []struct {
			StreamLogin  string  `json:"streamLogin"`
			Matches      []int64 `json:"matches"`
			MatchDetails []struct {
				ID         int64 `json:"id"`
				Tournament struct {
					Slug, Name string
				} `json:"tournament"`
				Round   string `json:"round"`
				Group   string `json:"group"`
				Player1 *struct {
					PlatformID  string `json:"platformId"`
					PersonaName string `json:"personaName"`
				} `json:"player1"`
				Player2 *struct {
					PersonaName string `json:"personaName"`
				} `json:"player2"`
			} `json:"matchDetails"`
		} `json:"casters"`
	}
	arenatest.Decode(t, e.API(t, "GET", "/api/v1/casters", "", nil, http.StatusOK), &api)
	require.NotEmpty(t, api.Casters)
	sophie := api.Casters[0]
	require.Equal(t, "sophie_casts", sophie.StreamLogin, "live first")
	require.Len(t, sophie.Matches, 1)
	require.Len(t, sophie.MatchDetails, 1)
	cast := sophie.MatchDetails[0]
	assert.Equal(t, sophie.Matches[0], cast.ID)
	assert.Equal(t, "winter-cup", cast.Tournament.Slug)
	assert.Equal(t, "Winter Cup", cast.Tournament.Name)
	assert.NotEmpty(t, cast.Round)
	require.NotNil(t, cast.Player1)
	require.NotNil(t, cast.Player2)
	assert.NotEmpty(t, cast.Player1.PersonaName)
	match := "/matches/" + strconv.FormatInt(cast.ID, 10)

	t.Run("CasterRow", func(t *testing.T) {
		row := pubBetween(t, e.Browser(t).Get(t, "/casters").Body, `sophie_casts</bdi></a>`, "</tr>")
		assert.NotContains(t, row, "Match #", "not a bare number")
		assert.Contains(t, row, `<a href="`+match+`"><bdi>`+cast.Player1.PersonaName+`</bdi> vs <bdi>`+cast.Player2.PersonaName+`</bdi></a>`)
		assert.Contains(t, row, `<a href="/tournaments/winter-cup"><bdi>Winter Cup</bdi></a> · Group `+cast.Group+` · `+cast.Round)
	})
	t.Run("HomeNowPlaying", func(t *testing.T) {
		live := pubBetween(t, e.Browser(t).Get(t, "/").Body, `<h2 id="live-heading">`, "</section>")
		assert.NotContains(t, live, "No match is being played right now.")
		item := pubBetween(t, live, `href="`+match+`"`, "</li>")
		assert.Contains(t, item, "on stream")
		assert.Contains(t, item, cast.Player1.PersonaName)
	})
	t.Run("MatchPagePlaysTheStreamOnAClick", func(t *testing.T) {
		page := e.Browser(t).Get(t, match)
		require.Equal(t, http.StatusOK, page.Status)
		u, err := url.Parse(e.URL)
		require.NoError(t, err)
		assert.Contains(t, page.Body, `data-embed="https://player.twitch.tv/?channel=sophie_casts&amp;parent=`+u.Hostname()+`"`, "the provider's player for the page's host")
		assert.NotContains(t, page.Body, "<iframe", "nothing loads before the click")
		assert.Contains(t, page.Body, `<button type="button" class="embed-play" hidden>`, "the play button: the script shows it")
		assert.Contains(t, page.Body, `href="https://www.twitch.tv/sophie_casts"`, "the link out")
		assert.Contains(t, page.Body, "Sophie Wilson (sophie_casts)", "the caster by name and channel")
		csp := page.Header.Get("Content-Security-Policy")
		assert.Contains(t, csp, "frame-src 'self' https://player.twitch.tv")
		assert.Contains(t, csp, "frame-ancestors 'none'")
	})
	t.Run("OtherPagesLoadNoFrames", func(t *testing.T) {
		for _, path := range []string{"/", "/casters", "/tournaments/winter-cup"} {
			csp := e.Browser(t).Get(t, path).Header.Get("Content-Security-Policy")
			assert.Regexp(t, regexp.MustCompile(`frame-src 'self'(;|$)`), csp, path)
			assert.False(t, strings.Contains(csp, "twitch"), path)
		}
	})
}
