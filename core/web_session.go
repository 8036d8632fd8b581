package core

// WebSession is a live website session with what every page's frame shows
// of its player.
type WebSession struct {
	PlatformID string
	// Mock is true for a session started with the mock sign-in form.
	Mock bool
	// PersonaName and AvatarURL are the player's cached profile; empty
	// when the arena never stored the player.
	PersonaName string
	AvatarURL   string
	// IsAdmin is true when the player administers the arena.
	IsAdmin bool
	// Unread counts the player's unread alerts; StreamLogin is their
	// linked channel ("" when none); Follows what they follow, as
	// "kind:target" strings.
	Unread      int
	StreamLogin string
	Follows     []string
}
