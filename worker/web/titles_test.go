package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/worker/arenatest"
)

// The demo arena's titles: Grace holds the Arena Champion (title 1),
// challenged by Margaret; Charles waits alone for the Rookie Belt (2).
const (
	grace    = "76561198000000007"
	margaret = "76561198000000013"
	hedy     = "76561198000000008"
)

// demoChallenge is the id of the Arena Champion's open challenge.
func demoChallenge(t *testing.T, e *arenatest.Arena) string {
	t.Helper()
	champion := e.API(t, http.MethodGet, "/api/v1/public/titles", "", nil, http.StatusOK)["titles"].([]any)[0].(map[string]any)
	return fmt.Sprintf("%.0f", champion["pendingChallenge"].(map[string]any)["id"])
}

func TestTitlesPage(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	t.Run("VisitorSeesHolderClockAndLineage", func(t *testing.T) {
		p := e.Browser(t).Get(t, "/titles")
		require.Equal(t, http.StatusOK, p.Status)
		for _, want := range []string{
			`id="title-arena-champion"`, "Grace Hopper", "1 defense", "data-countdown", `<ol class="timeline">`,
			"Ada Lovelace", "lost in a title match", "current holder", "Margaret Hamilton</bdi></a> challenged the holder",
			`id="title-rookie-belt"`, "Charles Babbage", "Sign in to take part",
		} {
			assert.Contains(t, p.Body, want)
		}
		assert.NotContains(t, p.Body, `action="/titles/1/challenge"`, "a visitor gets no buttons")
	})
	t.Run("VisitorIsSentToSignIn", func(t *testing.T) {
		p := e.Browser(t).Post(t, "/titles/2/volunteer", url.Values{"next": {"/titles#title-rookie-belt"}})
		assert.Equal(t, http.StatusSeeOther, p.Status)
		assert.Equal(t, "/signin?next=%2Ftitles%23title-rookie-belt", p.Location)
	})
	t.Run("ButtonsFollowTheRules", func(t *testing.T) {
		body := e.SignedIn(t, arenatest.Blaise).Get(t, "/titles").Body
		assert.Contains(t, body, `action="/titles/2/volunteer"`)
		assert.NotContains(t, body, `action="/titles/1/challenge"`, "a challenge is pending")
		assert.NotContains(t, body, `action="/titles/1/volunteer"`, "the title is held")
		holder := e.SignedIn(t, grace).Get(t, "/titles").Body
		challenge := demoChallenge(t, e)
		assert.Contains(t, holder, `action="/title-challenges/`+challenge+`/accept"`)
		assert.Contains(t, holder, `action="/title-challenges/`+challenge+`/decline"`)
	})
	t.Run("HolderBadge", func(t *testing.T) {
		p := e.Browser(t).Get(t, "/players/"+grace)
		require.Equal(t, http.StatusOK, p.Status)
		assert.Contains(t, p.Body, `class="badge holder" href="/titles#title-arena-champion"`)
		assert.Contains(t, p.Body, "<bdi>Arena Champion</bdi> holder since")
		assert.NotContains(t, e.Browser(t).Get(t, "/players/"+arenatest.Ada).Body, "badge holder", "a former holder has no badge")
	})
}

// TestTitleActions presses the buttons: the same rules and codes as the
// API, each refusal with its message at its code's status.
func TestTitleActions(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	challenge := demoChallenge(t, e)
	next := url.Values{"next": {"/titles#title-rookie-belt"}}
	blaise, holder := e.SignedIn(t, arenatest.Blaise), e.SignedIn(t, grace)
	cases := []struct {
		name   string
		who    *arenatest.Browser
		path   string
		status int
		notice string // the notice shown after the redirect, or the refusal
	}{
		{"VolunteerStartsTheCoronation", blaise, "/titles/2/volunteer", 303, "the coronation match is on"},
		{"ErrAlreadyVolunteered", blaise, "/titles/2/volunteer", 409, "You already volunteered for this title."},
		{"ErrCoronationPending", e.SignedIn(t, hedy), "/titles/2/volunteer", 409, "The coronation match is being played."},
		{"ErrTitleAlreadyHeld", blaise, "/titles/1/volunteer", 409, "The title has a holder: challenge them instead."},
		{"ErrChallengePending", blaise, "/titles/1/challenge", 409, "The holder already has a challenge to answer"},
		{"ErrCannotChallengeSelf", holder, "/titles/1/challenge", 409, "You hold this title."},
		{"ErrNotHolder", blaise, "/title-challenges/" + challenge + "/accept", 403, "holder answers its challenges."},
		{"ErrTitleNotFound", blaise, "/titles/99/volunteer", 404, "There is no such title."},
		{"ErrChallengeNotFound", holder, "/title-challenges/x/accept", 404, "There is no such challenge."},
		{"Decline", holder, "/title-challenges/" + challenge + "/decline", 303, "Challenge declined."},
		{"ErrChallengeNotPending", holder, "/title-challenges/" + challenge + "/accept", 409, "This challenge was already answered"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.who.Post(t, tc.path, next)
			require.Equal(t, tc.status, p.Status, p.Notices())
			if tc.status == http.StatusSeeOther {
				assert.Contains(t, p.Location, "/titles?notice=")
				assert.Contains(t, p.Location, "#title-rookie-belt")
				p = tc.who.Get(t, p.Location)
			}
			assert.Contains(t, p.Notices(), tc.notice)
		})
	}
	t.Run("ErrCrossSite", func(t *testing.T) {
		assert.Equal(t, http.StatusForbidden, blaise.PostCrossSite(t, "/titles/1/challenge", nil).Status)
	})
	t.Run("TheTitleMatchIsAnOrdinaryMatch", func(t *testing.T) {
		rookie := e.API(t, http.MethodGet, "/api/v1/public/titles", "", nil, http.StatusOK)["titles"].([]any)[1].(map[string]any)
		id := fmt.Sprintf("%.0f", rookie["match"].(map[string]any)["id"])
		page := blaise.Get(t, "/matches/"+id)
		require.Equal(t, http.StatusOK, page.Status)
		assert.Contains(t, page.Body, `href="/titles#title-rookie-belt"`, "the match names its title")
		assert.Contains(t, page.Body, `action="/matches/`+id+`/ready"`, "the player readies as for any match")
		assert.Contains(t, blaise.PostOK(t, "/matches/"+id+"/ready", nil), "notice=ready")
	})
}
