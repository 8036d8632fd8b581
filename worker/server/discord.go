package server

import (
	"context"
	"encoding/json"
	"io"
	"net/http"

	"arena/core"
	"arena/core/discordbot"
)

// Discord (docs/notifications.md "Discord"): the arena's application
// answers its slash commands at POST /discord/interactions, the arena's
// own host; its settings are kept in the arena's database.

// maxInteractionBytes bounds an interaction's body (Discord's are a few
// kilobytes).
const maxInteractionBytes = 64 << 10

// DiscordApp reads the arena's Discord application (zero when none).
func DiscordApp(ctx context.Context, t *Tenant) (core.DiscordApp, error) {
	var app core.DiscordApp
	_, err := t.Store.Setting(ctx, core.SettingDiscord, &app)
	return app, err
}

// discordSettingsView is the settings answer's Discord part: the secrets
// only said to be set, and the two addresses to give Discord's portal.
type discordSettingsView struct {
	ApplicationID   string `json:"applicationId"`
	PublicKey       string `json:"publicKey"`
	BotTokenSet     bool   `json:"botTokenSet"`
	ClientSecretSet bool   `json:"clientSecretSet"`
	InteractionsURL string `json:"interactionsUrl"`
	RedirectURL     string `json:"redirectUrl"`
}

// DiscordSettings is the arena's Discord part of its settings answer.
func (s *Server) DiscordSettings(ctx context.Context, t *Tenant) (discordSettingsView, error) {
	app, err := DiscordApp(ctx, t)
	origin := core.ArenaOrigin(t.Arena)
	return discordSettingsView{ApplicationID: app.ApplicationID, PublicKey: app.PublicKey, BotTokenSet: app.BotToken != "",
		ClientSecretSet: app.ClientSecret != "", InteractionsURL: origin + "/discord/interactions",
		RedirectURL: origin + DiscordCallbackPath}, err
}

// DiscordCallbackPath is where Discord's consent page sends a linking
// player back (the redirect URL to register in the portal).
const DiscordCallbackPath = "/discord/callback"

// checkDiscordChange reads the arena's application with change applied,
// or the change's problem; nothing is written.
func checkDiscordChange(ctx context.Context, t *Tenant, change core.DiscordChange) (*core.DiscordApp, error) {
	if !change.Changed() {
		return nil, nil
	}
	app, err := DiscordApp(ctx, t)
	if err != nil {
		return nil, err
	}
	next, err := change.Apply(app)
	return &next, err
}

// Discord is the server's client of Discord's API.
func (s *Server) Discord() core.DiscordAPI { return s.discord }

// handleDiscordInteraction is POST /discord/interactions: Discord's
// signature checked over the raw body (401 unauthorized otherwise,
// as Discord's own checks expect), then the answer
// (core/discordbot). Round trips: one for the application, and the
// command's own reads (PING: none more).
func (s *Server) handleDiscordInteraction(w http.ResponseWriter, r *http.Request, t *Tenant) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxInteractionBytes))
	if err != nil {
		writeError(w, r, jsonError(err))
		return
	}
	ctx := r.Context()
	app, err := DiscordApp(ctx, t)
	if err != nil {
		writeError(w, r, err)
		return
	}
	if !app.Set() {
		writeError(w, r, core.Errorf(core.CodeDiscordNotSet, "the arena has no Discord application"))
		return
	}
	if !core.VerifyDiscordRequest(app.PublicKey, r.Header.Get("X-Signature-Ed25519"), r.Header.Get("X-Signature-Timestamp"), body) {
		writeError(w, r, core.Errorf(core.CodeUnauthorized, "the request's Ed25519 signature does not verify"))
		return
	}
	var in discordbot.Interaction
	if err := json.Unmarshal(body, &in); err != nil {
		writeError(w, r, core.Errorf(core.CodeInvalidJSON, "%v", err))
		return
	}
	if in.ApplicationID != app.ApplicationID {
		writeError(w, r, core.FieldError(core.CodeInvalidField, "application_id"))
		return
	}
	answer, err := discordbot.Answer(ctx, t.Store, t.Arena, &in, t.Deps.Now)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, answer)
}
