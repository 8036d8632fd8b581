package story

import (
	"slices"
	"testing"
)

// step is one part of the story; steps run in order and share the world.
type step struct {
	name string
	run  func(t *testing.T, w *world)
}

// steps is the story, in order. A feature adds its steps here.
func steps() []step {
	return slices.Concat(
		arenaSteps(),      // steps_arena_test.go: operator, settings, two arenas
		tournamentSteps(), // steps_tournament_test.go: a 4-player cup played by reference clients
		websiteSteps(),    // steps_website_test.go: public pages, mock sign-in
		domainSteps(),     // steps_domains_test.go: a custom domain, verified, routed, removed
		casterSteps(),     // steps_casters_test.go: the arena's channel casts a live match
		recordingSteps(),  // steps_recordings_test.go: a recording and a segment of that match, uploaded and fetched back
		titleSteps(),      // steps_titles_test.go: a title crowned and challenged; the public list's ETag
		organizerSteps(),  // steps_organizer_test.go: check-in, seeds by rating, a GSL group played by clients
		pushSteps(),       // steps_push_test.go: a phone subscribed on the account page gets check-in's push
		discordSteps(),    // steps_discord_test.go: the arena's Discord application answers PING and /arena bracket
		publicAPISteps(),  // steps_public_test.go: API keys, rate limits (last: it spends the minute's reads)
	)
}

// TestStory plays the story against the target (see doc.go). A failed step
// stops the story: later steps build on earlier ones.
func TestStory(t *testing.T) {
	w := newWorld(t, newTarget(t))
	for _, s := range steps() {
		if !t.Run(s.name, func(t *testing.T) { s.run(t, w) }) {
			t.FailNow()
		}
	}
}
