package store

import (
	"io/fs"
	"regexp"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/core"
)

// TestSubscriptionStatesAreCore: the delivery states the subscription
// queries and their migration write and compare are core's Delivery*
// states.
func TestSubscriptionStatesAreCore(t *testing.T) {
	raw, err := fs.ReadFile(migrationFiles, "migrations/arena/0022_webhook_subscriptions.sql")
	require.NoError(t, err)
	text := string(raw)
	for name, query := range loadQueries(queryFiles) {
		if regexp.MustCompile(`^subscription`).MatchString(name) {
			text += query
		}
	}
	states := []string{core.DeliveryPending, core.DeliverySentOK, core.DeliveryFailed}
	seen := 0
	for _, m := range regexp.MustCompile(`(?i)state\s*(?:=|DEFAULT)\s*'([^']*)'`).FindAllStringSubmatch(text, -1) {
		seen++
		assert.True(t, slices.Contains(states, m[1]), "state %q is not one of core's", m[1])
	}
	for _, m := range regexp.MustCompile(`:state\s*=\s*'([^']*)'`).FindAllStringSubmatch(text, -1) {
		seen++
		assert.True(t, slices.Contains(states, m[1]), "state %q is not one of core's", m[1])
	}
	assert.GreaterOrEqual(t, seen, 5, "the test finds the state literals")
}
