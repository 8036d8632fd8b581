package server

import (
	"context"
)

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
	a, err := t.AlertSettings(ctx)
	v := alertSettingsView{UpcomingAlertMinutes: a.UpcomingAlertMinutes, StaleMatchMinutes: a.StaleMatchMinutes}
	if h := a.Webhook; err == nil && h != nil {
		v.WebhookURL, v.WebhookSecret, v.WebhookDisabled = &h.URL, &h.Secret, h.DisabledAt != nil
	}
	return v, err
}
