package server

import (
	"context"
	"time"

	"arena/core"
	store "arena/sql"
)

// runAlerts records and fans out the arena's events (core.RunAlerts).
func (s *Server) runAlerts(ctx context.Context, a *core.Arena, st *store.Arena, now time.Time) (bool, error) {
	n, err := core.RunAlerts(ctx, st, a, now)
	return n > 0, err
}

// updateAlertSettings stores the arena database's part of a settings
// change that passed its checks: the webhook, the upcoming alert's lead
// time and the stale-match delay.
func (s *Server) updateAlertSettings(ctx context.Context, t *Tenant, change *core.SettingsChange) error {
	if change.WebhookURL != nil {
		if err := core.SaveWebhook(ctx, t.Store, core.WebhookChange{Owner: core.WebhookOwnerArena, URL: *change.WebhookURL, Field: "webhookUrl", Loopback: s.LoopbackWebhooks()}, t.Deps); err != nil {
			return err
		}
	}
	if change.UpcomingAlertMinutes.Set {
		if err := t.Store.SetSetting(ctx, core.SettingUpcomingAlertMinutes, change.UpcomingAlertMinutes.N); err != nil {
			return err
		}
	}
	if change.StaleMatchMinutes.Set {
		return t.Store.SetSetting(ctx, core.SettingStaleMatchMinutes, change.StaleMatchMinutes.N)
	}
	return nil
}

// alertSettingsView is the arena database's part of the settings.
type alertSettingsView struct {
	WebhookURL           *string `json:"webhookUrl"`
	WebhookSecret        *string `json:"webhookSecret"`
	WebhookDisabled      bool    `json:"webhookDisabled"`
	UpcomingAlertMinutes int     `json:"upcomingAlertMinutes"`
	StaleMatchMinutes    int     `json:"staleMatchMinutes"`
}

// AlertSettings reads the arena's webhook, upcoming-alert lead time and
// stale-match delay.
func (s *Server) AlertSettings(ctx context.Context, t *Tenant) (alertSettingsView, error) {
	v := alertSettingsView{UpcomingAlertMinutes: core.DefaultUpcomingAlertMinutes}
	if _, err := t.Store.Setting(ctx, core.SettingUpcomingAlertMinutes, &v.UpcomingAlertMinutes); err != nil {
		return v, err
	}
	stale, err := core.StaleMatchMinutes(ctx, t.Store)
	if err != nil {
		return v, err
	}
	v.StaleMatchMinutes = stale
	h, err := t.Store.Webhook(ctx, core.WebhookOwnerArena)
	if err != nil || h == nil {
		return v, err
	}
	v.WebhookURL, v.WebhookSecret, v.WebhookDisabled = &h.URL, &h.Secret, h.DisabledAt != nil
	return v, nil
}
