package app

import (
	"context"
	"log/slog"
	"sync"

	"arena/core"
)

// The arena's settings kept in its database (the points table, the
// rating period, the alerts), its bearer tokens and its admin players.

// RatingPeriodHours is the arena's rating period in hours
// (core.SettingRatingPeriodHours; the default when unset or unreadable,
// with a warning).
func (s *Session) RatingPeriodHours(ctx context.Context) int {
	return RatingPeriodHours(ctx, s.store, s.Log)
}

// RatingPeriodHours reads the arena's rating period from st (the
// default when unset or unreadable, the latter with a warning on log).
func RatingPeriodHours(ctx context.Context, st core.SettingStore, log *slog.Logger) int {
	hours := core.DefaultRatingPeriodHours
	if _, err := st.Setting(ctx, core.SettingRatingPeriodHours, &hours); err != nil || hours < core.RatingPeriodHoursRange.Min {
		if err != nil {
			log.WarnContext(ctx, "rating period setting unreadable, using the default", "error", err.Error())
		}
		return core.DefaultRatingPeriodHours
	}
	return hours
}

// PlacementPoints reads the arena's placement points from st when first
// called (the default when unset or unreadable, the latter with a
// warning on log): only a tournament's completion asks.
func PlacementPoints(ctx context.Context, st core.SettingStore, log *slog.Logger) func() core.PlacementPoints {
	return sync.OnceValue(func() core.PlacementPoints {
		points := core.DefaultPlacementPoints()
		if _, err := st.Setting(ctx, core.SettingPlacementPoints, &points); err != nil {
			log.WarnContext(ctx, "placement points setting unreadable, using the default", "error", err.Error())
			return core.DefaultPlacementPoints()
		}
		return points
	})
}

// SaveSettings stores the arena database's part of a settings change
// that passed its checks, in this order: the alert webhook (with the
// change's loopback rule), the upcoming alert's lead time, the
// stale-match delay, then points (the new points table, nil: unchanged),
// the rating period, the casual recordings a day and discord (the
// Discord application with the change applied, nil: unchanged). It
// stops at the first write that fails.
func (s *Session) SaveSettings(ctx context.Context, change *core.SettingsChange, points *core.PlacementPoints, discord *core.DiscordApp) error {
	if change.WebhookURL != nil {
		if err := core.SaveWebhook(ctx, s.store, core.WebhookChange{Owner: core.WebhookOwnerArena, URL: *change.WebhookURL, Field: "webhookUrl", Loopback: change.LoopbackWebhooks}, s.Deps); err != nil {
			return err
		}
	}
	writes := []struct {
		set   bool
		key   string
		value any
	}{
		{change.UpcomingAlertMinutes.Set, core.SettingUpcomingAlertMinutes, change.UpcomingAlertMinutes.N},
		{change.StaleMatchMinutes.Set, core.SettingStaleMatchMinutes, change.StaleMatchMinutes.N},
		{points != nil, core.SettingPlacementPoints, points},
		{change.RatingPeriodHours.Set, core.SettingRatingPeriodHours, change.RatingPeriodHours.N},
		{change.CasualRecordingsPerDay.Set, core.SettingCasualRecordingsPerDay, change.CasualRecordingsPerDay.N},
		{discord != nil, core.SettingDiscord, discord},
	}
	for _, w := range writes {
		if !w.set {
			continue
		}
		if err := s.store.SetSetting(ctx, w.key, w.value); err != nil {
			return err
		}
	}
	return nil
}

// AlertSettings are the arena database's alert settings.
type AlertSettings struct {
	UpcomingAlertMinutes int
	StaleMatchMinutes    int
	// Webhook is the arena's alert webhook, nil when it has none.
	Webhook *core.Webhook
}

// AlertSettings reads the upcoming alert's lead time, the stale-match
// delay and the arena's alert webhook, in this order; on an error it
// answers what it read before it.
func (s *Session) AlertSettings(ctx context.Context) (AlertSettings, error) {
	v := AlertSettings{UpcomingAlertMinutes: core.DefaultUpcomingAlertMinutes}
	if _, err := s.store.Setting(ctx, core.SettingUpcomingAlertMinutes, &v.UpcomingAlertMinutes); err != nil {
		return v, err
	}
	stale, err := core.StaleMatchMinutes(ctx, s.store)
	if err != nil {
		return v, err
	}
	v.StaleMatchMinutes = stale
	v.Webhook, err = s.store.Webhook(ctx, core.WebhookOwnerArena)
	return v, err
}

// IssueToken mints a token of the kind (core.TokenAdmin, core.TokenAPIKey)
// labelled as drafted (core.IssueToken) and answers it with its label.
func (s *Session) IssueToken(ctx context.Context, kind string, d core.TokenDraft) (core.MintedToken, string, error) {
	return core.IssueToken(ctx, s.store, kind, d, s.Deps)
}

// RevokeToken revokes the token of the kind with the id at the request's
// now; revoking twice is fine. CodeNotFound when there is no such token,
// CodeLastAdminToken for the arena's last admin token.
func (s *Session) RevokeToken(ctx context.Context, kind, id string) error {
	return s.store.RevokeToken(ctx, kind, id, s.Deps.Now)
}

// Tokens lists every token of the kind, revoked ones too, oldest first,
// without their secrets.
func (s *Session) Tokens(ctx context.Context, kind string) ([]core.ListedToken, error) {
	return s.store.Tokens(ctx, kind)
}

// ArenaAdmins are the ids of the arena's admin players and their
// profiles.
func (s *Session) ArenaAdmins(ctx context.Context) ([]string, map[string]core.PlayerProfile, error) {
	ids, err := s.store.ArenaAdmins(ctx)
	if err != nil {
		return nil, nil, err
	}
	profiles, err := s.store.Players(ctx, ids)
	if err != nil {
		return nil, nil, err
	}
	return ids, profiles, nil
}

// AddArenaAdmin makes the player with the id an admin of the arena at the
// request's now; added is false when they are one already.
func (s *Session) AddArenaAdmin(ctx context.Context, id string) (added bool, err error) {
	admins, err := s.store.ArenaAdmins(ctx)
	if err != nil {
		return false, err
	}
	for _, a := range admins {
		if a == id {
			return false, nil
		}
	}
	if err := s.store.AddArenaAdmins(ctx, []string{id}, s.Deps.Now); err != nil {
		return false, err
	}
	return true, nil
}

// RemoveArenaAdmin takes the player with the id off the arena's admins:
// CodeNotFound when they are not one, CodeLastAdmin for the last one.
func (s *Session) RemoveArenaAdmin(ctx context.Context, id string) error {
	return s.store.RemoveArenaAdmin(ctx, id)
}
