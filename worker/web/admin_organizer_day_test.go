package web_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/worker/arenatest"
)

// TestOrganizerDayPages drives check-in on the site and the admin's view
// of it, seeding by rating with its preview, and the cancel step kept
// apart from the lifecycle's next steps.
func TestOrganizerDayPages(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	admin := e.SignedIn(t, arenatest.Ada)
	players := arenatest.CupPlayers(4)
	// Starts in two hours; check-in opened half an hour ago.
	e.OpenCup(t, arenatest.Cup{Slug: "day", MaxPlayers: 4, Players: players, Fields: map[string]any{"checkInMinutes": 150}})

	t.Run("PlayerChecksIn", func(t *testing.T) {
		c := e.SignedIn(t, players[1])
		page := c.Get(t, "/tournaments/day")
		require.Equal(t, http.StatusOK, page.Status)
		assert.Contains(t, page.Body, `action="/tournaments/day/check-in"`)
		assert.Equal(t, "/tournaments/day?notice=checked_in", c.PostOK(t, "/tournaments/day/check-in", nil))
		page = c.Get(t, "/tournaments/day")
		assert.Contains(t, page.Body, "Your side is checked in.")
		assert.NotContains(t, page.Body, `action="/tournaments/day/check-in"`)
	})
	t.Run("NotRegistered", func(t *testing.T) {
		c := e.SignedIn(t, arenatest.Charles)
		res := c.Post(t, "/tournaments/day/check-in", nil)
		assert.Equal(t, http.StatusForbidden, res.Status)
		assert.Contains(t, res.Body, "You are not registered")
	})
	t.Run("TheOrganizerSeesWhoIsIn", func(t *testing.T) {
		page := admin.Get(t, "/admin/tournaments/day")
		assert.Contains(t, page.Body, "1 checked in")
		assert.Equal(t, 1, strings.Count(page.Body, `<span class="badge confirmed">Checked in</span>`))
		assert.Equal(t, 3, strings.Count(page.Body, "not yet"))
		assert.Contains(t, page.Body, "Opens 2 hours 30 minutes before the start")
	})
	t.Run("CancelStandsApart", func(t *testing.T) {
		page := admin.Get(t, "/admin/tournaments/day")
		steps := regexp.MustCompile(`(?s)<p class="admin-steps">.*?</p>`).FindString(page.Body)
		assert.Contains(t, steps, "Close registration")
		assert.NotContains(t, steps, "to=cancelled", "the next step and the destructive one are apart")
		assert.Contains(t, page.Body, `class="admin-danger"`)
		assert.Contains(t, page.Body, "This cannot be undone.")
	})
	t.Run("SeedByRatingShowsTheOrderFirst", func(t *testing.T) {
		seedInputs := regexp.MustCompile(`class="seed" id="seed-\d+" name="seed-\d+" type="number" min="1" max="4096" value="(\d*)"`)
		page := admin.Get(t, "/admin/tournaments/day")
		for _, m := range seedInputs.FindAllStringSubmatch(page.Body, -1) {
			assert.Equal(t, "", m[1], "unseeded before")
		}
		assert.Contains(t, page.Body, `href="/admin/tournaments/day/seeds/rating"`)
		preview := admin.Get(t, "/admin/tournaments/day/seeds/rating")
		require.Equal(t, http.StatusOK, preview.Status)
		assert.Equal(t, 4, strings.Count(preview.Body, "unrated"), "cup players have no rating")
		assert.Contains(t, preview.Body, "Apply these seeds")
		page = admin.Get(t, "/admin/tournaments/day")
		for _, m := range seedInputs.FindAllStringSubmatch(page.Body, -1) {
			assert.Equal(t, "", m[1], "the preview changed nothing")
		}
		assert.Equal(t, "/admin/tournaments/day?done=rating-seeds#registrations", admin.PostOK(t, "/admin/tournaments/day/seeds/rating", nil))
		page = admin.Get(t, "/admin/tournaments/day")
		var got []string
		for _, m := range seedInputs.FindAllStringSubmatch(page.Body, -1) {
			got = append(got, m[1])
		}
		assert.Equal(t, []string{"1", "2", "3", "4"}, got, "unrated: by registration time")
	})
	t.Run("TheStartWithdrawsTheAbsent", func(t *testing.T) {
		e.SetStatus(t, "day", "registration_closed")
		confirm := admin.Get(t, "/admin/tournaments/day/status?to=playoffs")
		assert.Contains(t, confirm.Body, "First withdraws every side that has not checked in")
	})
}
