package web_test

import (
	"net/http"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/worker/arenatest"
)

// TestAdminSeedsInSeedOrder: the organizer's list of sides is in seed
// order (the seeded by seed, then the rest as they registered), with the
// handle script and its live region while the seeds can change.
func TestAdminSeedsInSeedOrder(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	players := arenatest.CupPlayers(5)
	base := e.OpenCup(t, arenatest.Cup{Slug: "order", MaxPlayers: 8})
	for i, seed := range []any{3, nil, 1, nil, 2} {
		body := map[string]any{"platformId": players[i]}
		if seed != nil {
			body["seed"] = seed
		}
		e.Admin(t, http.MethodPost, base+"/registrations", body, http.StatusCreated)
	}
	page := e.SignedIn(t, arenatest.Ada).Get(t, "/admin/tournaments/order")
	require.Equal(t, http.StatusOK, page.Status)
	var order []string
	for _, m := range regexp.MustCompile(`id="seed-(\d+)"`).FindAllStringSubmatch(page.Body, -1) {
		order = append(order, m[1])
	}
	assert.Equal(t, []string{players[2], players[4], players[0], players[1], players[3]}, order,
		"seeds 1, 2, 3, then the unseeded as they registered")
	assert.Contains(t, page.Body, `<table class="admin-registrations" data-seed-order>`)
	assert.Contains(t, page.Body, `<p id="seed-status" class="sr-only" aria-live="polite"></p>`)
	assert.Regexp(t, `<script src="/static/seeds\.[0-9a-f]+\.js" defer></script>`, page.Body)
}
