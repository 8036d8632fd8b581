package server

import (
	"context"
	"net/http"

	"arena/core"
)

// handleUpdateSettings changes the arena's settings from a
// core.SettingsChange (absent fields keep their value; the admin settings
// page uses the same) and answers with the arena as the operator sees it
// (no secrets) and the ladder's points table.
func (s *Server) handleUpdateSettings(w http.ResponseWriter, r *http.Request, t *Tenant) {
	var change core.SettingsChange
	if err := decodeJSON(w, r, &change); err != nil {
		writeError(w, r, err)
		return
	}
	if err := change.CheckByAdmin(); err != nil {
		writeError(w, r, err)
		return
	}
	ctx := r.Context()
	if err := s.UpdateSettings(ctx, t, &change); err != nil {
		writeError(w, r, err)
		return
	}
	alerts, err := s.AlertSettings(ctx, t)
	if err != nil {
		writeError(w, r, err)
		return
	}
	discordView, err := s.DiscordSettings(ctx, t)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"arena": t.Arena.View(), "placementPoints": t.Deps.Points(),
		"ratingPeriodHours": t.RatingPeriodHours(ctx), "alerts": alerts, "discord": discordView})
}

// UpdateSettings applies an arena settings change: the points table, the
// rating period, the alerts and the Discord application to the arena's
// database, the rest to the directory; t.Arena is the arena after it. Its
// error is the change's first problem when it breaks a rule.
func (s *Server) UpdateSettings(ctx context.Context, t *Tenant, change *core.SettingsChange) error {
	change.LoopbackWebhooks = s.LoopbackWebhooks()
	a, points, problems := change.Apply(*t.Arena)
	if err := problems.Err(); err != nil {
		return err
	}
	discordApp, err := checkDiscordChange(ctx, t, change.DiscordChange)
	if err != nil {
		return err
	}
	if err := t.SaveSettings(ctx, change, points, discordApp); err != nil {
		return err
	}
	a.UpdatedAt = s.now()
	if err := s.dir.UpdateArenaSettings(ctx, &a); err != nil {
		return err
	}
	*t.Arena = a
	return nil
}
