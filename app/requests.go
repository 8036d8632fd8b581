package app

import (
	"context"
	"iter"
	"time"

	"arena/core"
	"arena/core/discordbot"
)

// What the server reads about a request before or instead of its route:
// its count against the read limits, the API key it presents, the
// version its caches are good for; and the arena's Discord application
// answering its slash commands.

// CountRequest counts a request against bucket in the window starting
// at windowStart, and returns the window's count so far.
func (s *Session) CountRequest(ctx context.Context, bucket string, windowStart time.Time) (int, error) {
	return s.store.CountRequest(ctx, bucket, windowStart.Unix())
}

// APIKeyHash is the hash of the arena's unrevoked API key with the id,
// found false when there is none.
func (s *Session) APIKeyHash(ctx context.Context, id string) (hash string, found bool, err error) {
	return s.store.APIKeyHash(ctx, id)
}

// DataVersion counts the writes made to the arena's database through
// this process: what is computed from it is good while it stays the same.
func (s *Session) DataVersion() uint64 {
	return s.store.DB().Version()
}

// DiscordApp is the arena's Discord application (zero when none).
func (s *Session) DiscordApp(ctx context.Context) (core.DiscordApp, error) {
	var app core.DiscordApp
	_, err := s.store.Setting(ctx, core.SettingDiscord, &app)
	return app, err
}

// AnswerDiscord answers a slash command interaction whose signature
// verified (discordbot.Answer), as of now.
func (s *Session) AnswerDiscord(ctx context.Context, in *discordbot.Interaction) (discordbot.Response, error) {
	return discordbot.Answer(ctx, s.store, s.Arena, in, s.Deps.Now)
}

// UseDevDiscord saves app as the arena's Discord application, then links
// each of links, in order (a dev start's Discord twin).
func (s *Session) UseDevDiscord(ctx context.Context, app core.DiscordApp, links iter.Seq[core.DiscordLink]) error {
	if err := s.store.SetSetting(ctx, core.SettingDiscord, app); err != nil {
		return err
	}
	for l := range links {
		if err := s.store.LinkDiscord(ctx, l); err != nil {
			return err
		}
	}
	return nil
}
