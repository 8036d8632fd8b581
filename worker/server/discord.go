package server

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"time"

	"arena/core"
	"arena/core/discordbot"
)

// Discord (docs/notifications.md "Discord"): the arena's application
// answers its slash commands at POST /discord/interactions, the arena's
// own host; its settings are kept in the arena's database.

// DiscordDeferAfter is how long an interaction's answer may take before
// it is deferred (Discord waits 3 s for the first answer).
const DiscordDeferAfter = 2500 * time.Millisecond

// finishDiscordLater answers a deferred command after the answer: the
// arena's database opened again, the command answered afresh (a
// check-in cut off half-way is idempotent), and the message PATCHed
// through the interaction's token.
func (s *Server) finishDiscordLater(ctx context.Context, a core.Arena, app core.DiscordApp, in discordbot.Interaction, now time.Time) {
	s.afterAnswer(ctx, func(ctx context.Context) {
		answer := discordbot.Failed()
		if st, release, err := s.arenaDB(ctx, &a); err == nil {
			if got, err := discordbot.Answer(ctx, st, &a, &in, now); err == nil {
				answer = got
			} else {
				s.log.Warn("discord: a deferred command failed", "arena", a.Slug, "error", err)
			}
			release()
		}
		if err := s.discord.EditOriginal(ctx, app, in.Token, answer.Data); err != nil {
			s.log.Warn("discord: finishing a deferred command", "arena", a.Slug, "error", err)
		}
	})
}

// maxInteractionBytes bounds an interaction's body (Discord's are a few
// kilobytes).
const maxInteractionBytes = 64 << 10

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
	app, err := t.DiscordApp(ctx)
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
	app, err := t.DiscordApp(ctx)
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
	app, err := t.DiscordApp(ctx)
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
	wait := s.cfg.DiscordDeferAfter
	if wait <= 0 {
		wait = DiscordDeferAfter
	}
	actx, cancel := context.WithTimeout(ctx, wait)
	answer, err := t.AnswerDiscord(actx, &in)
	cancel()
	if err != nil && in.Type == discordbot.TypeCommand && actx.Err() == context.DeadlineExceeded && ctx.Err() == nil {
		// Too slow for Discord's 3 s: defer it and finish it after the
		// answer, on the request's own I/O.
		s.finishDiscordLater(ctx, *t.Arena, app, in, t.Deps.Now)
		writeJSON(w, http.StatusOK, discordbot.Deferred(&in))
		return
	}
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, answer)
}
