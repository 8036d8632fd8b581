package web

import (
	"errors"
	"net/http"

	"arena/core"
	"arena/core/discordbot"
	"arena/i18n"
	"arena/views"
	"arena/worker/server"
)

// Discord on the site (docs/notifications.md "Discord"): the admin's
// application settings and command registration, and a player linking
// their Discord account (Discord's OAuth2 code grant, scope identify,
// coming back to this host's /discord/callback).

// adminDiscordView is the settings page's Discord section as stored.
func (s *Site) adminDiscordView(r *http.Request, t *server.Tenant) (views.AdminDiscord, error) {
	d, err := s.srv.DiscordSettings(r.Context(), t)
	return views.AdminDiscord{ApplicationID: d.ApplicationID, PublicKey: d.PublicKey, BotTokenSet: d.BotTokenSet,
		ClientSecretSet: d.ClientSecretSet, InteractionsURL: d.InteractionsURL, RedirectURL: d.RedirectURL}, err
}

// adminDiscord is POST /admin/discord: the application's settings, with
// the API's rules (server.UpdateSettings); an empty secret keeps the
// stored one.
func (s *Site) adminDiscord(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
	if !s.adminParseForm(w, r, t, v) {
		return
	}
	f := r.PostFormValue
	id, key := f("discordApplicationId"), f("discordPublicKey")
	change := core.SettingsChange{DiscordChange: core.DiscordChange{ApplicationID: &id, PublicKey: &key}}
	if token := f("discordBotToken"); token != "" {
		change.BotToken = &token
	}
	if secret := f("discordClientSecret"); secret != "" {
		change.ClientSecret = &secret
	}
	err := s.srv.UpdateSettings(r.Context(), t, &change)
	var ce *core.Error
	if errors.As(err, &ce) && ce.Code == core.CodeInvalidField {
		d, rerr := s.adminDiscordView(r, t)
		if rerr != nil {
			s.fail(w, r, t, rerr)
			return
		}
		d.ApplicationID, d.PublicKey, d.Errors = id, key, views.AdminFieldErrors{ce.Field: ce.Text(i18n.From(r.Context()))}
		s.adminSettingsAgain(w, r, t, v, http.StatusUnprocessableEntity, func(p *views.AdminSettings) {
			p.Discord = d
			p.Notice = views.AdminNotice{Error: true, Text: i18n.From(r.Context()).T("account.discord.admin.notSaved")}
		})
		return
	}
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	adminRedirect(w, r, "/admin/settings", "discord", "discord")
}

// adminDiscordCommands is POST /admin/discord/commands: registers the
// /arena command with Discord (the application's bot token).
func (s *Site) adminDiscordCommands(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
	if !s.adminParseForm(w, r, t, v) {
		return
	}
	app, err := t.DiscordApp(r.Context())
	if err == nil && !app.Set() {
		err = core.Errorf(core.CodeDiscordNotSet, "Save the Discord application first.")
	}
	if err == nil {
		err = s.srv.Discord().RegisterCommands(r.Context(), app, discordbot.Command())
	}
	var ce *core.Error
	if errors.As(err, &ce) {
		tr := i18n.From(r.Context())
		reason := ce.Message
		if ce.Code == core.CodeDiscordNotSet {
			reason = tr.T("account.discord.admin.saveFirst")
		}
		s.adminSettingsAgain(w, r, t, v, server.StatusOf(ce.Code), func(p *views.AdminSettings) {
			p.Notice = views.AdminNotice{Error: true, Text: tr.T("account.discord.admin.notRegistered", "Reason", reason)}
		})
		return
	}
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	adminRedirect(w, r, "/admin/settings", "discord_commands", "discord")
}

// discordRedirect is this host's callback address, as Discord's portal
// must list it.
func discordRedirect(r *http.Request) string { return origin(r) + server.DiscordCallbackPath }

// discordLinkAction is POST /discord/link: sends the signed-in player to
// Discord's consent page.
func (s *Site) discordLinkAction(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
	viewer, _, ok := s.actionStart(w, r, t, "/account")
	if !ok {
		return
	}
	app, err := t.DiscordApp(r.Context())
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	state, err := t.StartDiscordLink(r.Context(), app, viewer)
	if err != nil {
		s.discordRefused(w, r, t, err)
		return
	}
	http.Redirect(w, r, s.srv.Discord().AuthorizeURL(app, discordRedirect(r), state), http.StatusSeeOther)
}

// discordCallback is GET /discord/callback: Discord sends the player
// back with the code (or an error when they cancelled).
func (s *Site) discordCallback(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
	w.Header().Set("Cache-Control", "no-store")
	viewer := s.sessionPlayer(r, t)
	if viewer == "" {
		s.signInFirst(w, r, t, "/account")
		return
	}
	q := r.URL.Query()
	if q.Get("error") != "" {
		http.Redirect(w, r, withNotice("/account", "discord_cancelled")+"#discord", http.StatusSeeOther)
		return
	}
	app, err := t.DiscordApp(r.Context())
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	linked, err := t.FinishDiscordLink(r.Context(), s.srv.Discord(), app, viewer, q.Get("state"), q.Get("code"), discordRedirect(r))
	if err != nil {
		s.discordRefused(w, r, t, err)
		return
	}
	if !linked {
		s.renderAccount(w, r, t, http.StatusBadRequest, func(p *views.AccountPage) {
			p.Discord.Error = i18n.From(r.Context()).T("account.discord.notYours")
		})
		return
	}
	http.Redirect(w, r, withNotice("/account", "discord_linked")+"#discord", http.StatusSeeOther)
}

// discordUnlinkAction is POST /discord/unlink.
func (s *Site) discordUnlinkAction(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
	viewer, _, ok := s.actionStart(w, r, t, "/account")
	if !ok {
		return
	}
	if err := t.UnlinkDiscord(r.Context(), viewer); err != nil {
		s.fail(w, r, t, err)
		return
	}
	http.Redirect(w, r, withNotice("/account", "discord_unlinked")+"#discord", http.StatusSeeOther)
}

// discordRefused shows the account page with why a link did not happen.
func (s *Site) discordRefused(w http.ResponseWriter, r *http.Request, t *server.Tenant, err error) {
	var ce *core.Error
	if !errors.As(err, &ce) {
		s.fail(w, r, t, err)
		return
	}
	tr := i18n.From(r.Context())
	msg := tr.T("account.discord.notConfirmed")
	if ce.Code == core.CodeDiscordNotSet {
		msg = tr.T("account.discord.notSet")
	}
	s.renderAccount(w, r, t, server.StatusOf(ce.Code), func(p *views.AccountPage) { p.Discord.Error = msg })
}

// accountDiscord is the account page's Discord box: the arena's
// application and the player's link (nil when none).
func accountDiscord(discordApp core.DiscordApp, link *core.DiscordLink) views.AccountDiscord {
	d := views.AccountDiscord{Available: discordApp.Set() && discordApp.ClientSecret != ""}
	if link != nil {
		d.Linked = link.Username
	}
	return d
}
