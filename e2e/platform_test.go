//go:build !js

package e2e

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/worker/arenatest"
	"arena/worker/arenatest/platformtwin"
	"arena/worker/web"
)

// TestPlatformProfile: the demo arena gets a publisher key (real mode),
// its platform being the twins of the OpenID endpoint and the player
// summaries API. A player presses the platform sign-in button, the
// platform sends them straight back with a positive assertion, and they
// land signed in on the page they asked for, named and pictured as the
// platform says: in the header, on their account page (where the name is
// the platform's, not a form) and on their profile.
func TestPlatformProfile(t *testing.T) {
	t.Parallel()
	var a *arenatest.Arena
	op := platformtwin.NewOpenID(t, func() time.Time { return a.Now })
	sums := platformtwin.NewSummaries(t)
	a = arenatest.New(t, arenatest.Options{Site: web.Config{LiveEvery: liveEvery, OpenIDEndpoint: op.URL, PlayerAPI: sums.URL}})
	const key = "e2e-publisher-key"
	a.Admin(t, http.MethodPut, "/api/v1/admin/settings", map[string]any{"publisherKey": key}, http.StatusOK)

	ids := map[bool]string{false: "76561198000000093", true: "76561198000000094"}
	widths(t, func(t *testing.T, open func(t *testing.T) context.Context) {
		ctx := open(t)
		id := ids[isPhone(t)]
		name, avatar := platformtwin.PersonaName(id), sums.AvatarURL(id)
		op.SignsIn(id)
		checks := op.Checks()

		openPage(t, ctx, a.URL+"/signin?next=/account")
		assert.Zero(t, count(t, ctx, `form[action="/auth/mock"]`), "no mock form in real mode")
		require.Equal(t, "Sign in through the platform", text(t, ctx, `form[action="/auth/openid"] button`))
		markPage(t, ctx)
		within(t, ctx, chromedp.Click(chromedp.CSS(`form[action="/auth/openid"] button`)))
		waitFor(t, ctx, "the account page, signed in", `window.arenaTestMark !== true && location.pathname === "/account" && !!document.querySelector("header.site .me")`, seen)
		assert.Equal(t, checks+1, op.Checks(), "the site asked the platform to confirm the assertion")
		assert.Equal(t, key, sums.Keys()[len(sums.Keys())-1], "the summary asked with the arena's publisher key")

		// The header: the platform's name and picture, not initials.
		assert.Equal(t, name, text(t, ctx, "header.site .me span:not(.avatar)"))
		assert.Equal(t, avatar, attr(t, ctx, "header.site .me img.avatar", "src"))
		assert.Zero(t, count(t, ctx, "header.site .me .initials"))
		waitFor(t, ctx, "the avatar loaded", `document.querySelector("header.site .me img.avatar").naturalWidth > 0`, seen)

		// The account page: the name comes from the platform; no form.
		assert.Equal(t, name, text(t, ctx, ".profile-now strong"))
		assert.Equal(t, avatar, attr(t, ctx, ".profile-now img.avatar", "src"))
		assert.Zero(t, count(t, ctx, ".profile-now .initials"))
		assert.Zero(t, count(t, ctx, `form[action="/account/name"]`), "the name is not editable")
		assert.Zero(t, count(t, ctx, "#personaName"))
		assert.Contains(t, text(t, ctx, "section.profile p.muted"), "come from your platform profile")
		assert.True(t, fitsTheScreen(t, ctx))
		screenshot(t, ctx, "account")

		openPage(t, ctx, a.URL+"/players/"+id)
		assert.Equal(t, name, text(t, ctx, "main h1"))
		assert.Equal(t, avatar, attr(t, ctx, ".page-head img.avatar", "src"))
		assert.Zero(t, count(t, ctx, ".page-head .initials"))
		assert.Equal(t, name, a.PlayerName(t, id), "the API says the same")
		assert.True(t, fitsTheScreen(t, ctx))
		screenshot(t, ctx, "profile")
	})
}
