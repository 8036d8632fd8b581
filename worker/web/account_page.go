package web

import (
	"errors"
	"log/slog"
	"net/http"
	"strings"

	"arena/app"
	"arena/core"
	"arena/i18n"
	"arena/views"
	"arena/worker/server"
)

// The stream-provider link (spec 4.3) and the account page. Real mode
// (the provider's client id and secret set): POST /stream-provider/link
// stores a random state mapped to the player in the arena's database and
// sends the browser to the provider; the provider comes back to the one
// network-wide callback, GET /stream-provider/callback, served on every
// host: the state's prefix names the arena (never the host), the state is
// used once and expires, the code is exchanged, /users read once, and
// the login stored lowercased. Mock mode: the form's login, no external
// call.

// callbackPath is the one registered callback address's path.
const callbackPath = "/stream-provider/callback"

// accountPage shows the signed-in player's channel, webhook and follows;
// a visitor is sent to sign in.
func (s *Site) accountPage(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
	s.renderAccount(w, r, t, http.StatusOK, func(*views.AccountPage) {})
}

func (s *Site) renderAccount(w http.ResponseWriter, r *http.Request, t *server.Tenant, status int, adjust func(p *views.AccountPage)) {
	w.Header().Set("Cache-Control", "no-store")
	v := s.viewer(r.Context(), r, t)
	if v == nil {
		s.signInFirst(w, r, t, "/account")
		return
	}
	ctx := r.Context()
	p := views.AccountPage{Layout: s.layout(r, t, i18n.From(ctx).T("account.page.title")), Mock: s.srv.Streams().Mock(), StreamLogin: v.StreamLogin,
		Profile: views.AccountProfile{Player: views.PlayerRef{PlatformID: v.PlatformID, Name: v.Name, AvatarURL: v.AvatarURL}, Editable: t.Arena.MockProfiles()}}
	if v.StreamLogin != "" {
		p.StreamURL = core.StreamURL(v.StreamLogin)
		_, p.Live = s.srv.LiveNow(ctx, t)[v.StreamLogin]
	}
	acc, err := t.Account(ctx, v.PlatformID)
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	if hook := acc.Webhook; hook != nil {
		p.WebhookURL, p.WebhookSecret, p.WebhookDisabled = hook.URL, hook.Secret, hook.DisabledAt != nil
	}
	p.Follows = followedItems(acc)
	p.Push = accountPush(i18n.From(ctx), acc.PushDevices, acc.MutedPushKinds)
	p.Discord = accountDiscord(acc.DiscordApp, acc.DiscordLink)
	adjust(&p)
	s.render(w, r, t, status, views.AccountView(p))
}

// followedItems names what the player follows.
func followedItems(acc *app.Account) []views.FollowedItem {
	book := publicBook(acc.Players)
	var out []views.FollowedItem
	for _, f := range acc.Follows {
		item := views.FollowedItem{Kind: f.Kind, TargetID: f.TargetID}
		switch {
		case f.Kind == core.FollowPlayer:
			item.Name, item.URL = book.player(f.TargetID).Name, "/players/"+f.TargetID
		case f.Tournament != nil:
			item.Name, item.URL = f.Tournament.Name, "/tournaments/"+f.Tournament.Slug
		}
		out = append(out, item)
	}
	return out
}

// linkAction links the viewer's channel: mock mode stores the form's
// login; real mode stores a state and sends the browser to the provider.
func (s *Site) linkAction(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
	viewer, _, ok := s.actionStart(w, r, t, "/account")
	if !ok {
		return
	}
	ctx := r.Context()
	provider := s.srv.Streams()
	if provider.Mock() {
		if _, err := t.LinkStream(ctx, viewer, r.PostFormValue("login")); err != nil {
			s.accountRefused(w, r, t, err)
			return
		}
		http.Redirect(w, r, withNotice("/account", "linked"), http.StatusSeeOther)
		return
	}
	scheme := "http"
	if secureRequest(r) {
		scheme = "https"
	}
	ls, err := t.StartStreamLink(ctx, viewer, scheme+"://"+r.Host)
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	http.Redirect(w, r, provider.AuthorizeURL(ls.State), http.StatusSeeOther)
}

// streamMessageIn is the readable message of a refused streams action,
// in tr's language: a field's own message (a channel login's shape),
// else the code's.
func streamMessageIn(tr *i18n.Tr, err error) string {
	var ce *core.Error
	if errors.As(err, &ce) && ce.Code == core.CodeInvalidField {
		return ce.Text(tr)
	}
	return actionMessageIn(tr, err)
}

// accountRefused shows the account page again with the refusal.
func (s *Site) accountRefused(w http.ResponseWriter, r *http.Request, t *server.Tenant, err error) {
	msg := streamMessageIn(i18n.From(r.Context()), err)
	if msg == "" {
		s.fail(w, r, t, err)
		return
	}
	s.renderAccount(w, r, t, server.StatusOf(core.ErrorCode(err)), func(p *views.AccountPage) { p.Error = msg })
}

// nameAction names the viewer as they typed it (mock mode; a real-mode
// arena's names come from the platform: 403). A refused name shows the
// account page again with the field's message.
func (s *Site) nameAction(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
	viewer, _, ok := s.actionStart(w, r, t, "/account")
	if !ok {
		return
	}
	typed := r.PostFormValue("personaName")
	err := t.SetDisplayName(r.Context(), viewer, core.DisplayNameDraft{PersonaName: typed})
	if err != nil {
		msg := streamMessageIn(i18n.From(r.Context()), err)
		if msg == "" {
			s.fail(w, r, t, err)
			return
		}
		s.renderAccount(w, r, t, server.StatusOf(core.ErrorCode(err)), func(p *views.AccountPage) {
			if core.ErrorCode(err) == core.CodeInvalidField {
				p.Profile.Name, p.Profile.Problem = typed, msg
				return
			}
			p.Error = msg
		})
		return
	}
	http.Redirect(w, r, withNotice("/account", "named"), http.StatusSeeOther)
}

// unlinkAction clears the viewer's channel.
func (s *Site) unlinkAction(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
	viewer, _, ok := s.actionStart(w, r, t, "/account")
	if !ok {
		return
	}
	if err := t.UnlinkStream(r.Context(), viewer); err != nil {
		s.fail(w, r, t, err)
		return
	}
	http.Redirect(w, r, withNotice("/account", "unlinked"), http.StatusSeeOther)
}

// streamCallback is the provider's return, on any host: the state names
// the arena; a state unknown there, used, expired or malformed is 400
// invalid_link_state. The browser goes back to the arena's account page.
func (s *Site) streamCallback(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	r = s.withLocale(w, r, nil)
	ctx := r.Context()
	tr := i18n.From(ctx)
	q := r.URL.Query()
	refuse := func(status int, id string) {
		s.render(w, r, nil, status, views.ErrorPage(views.Layout{Title: tr.T("account.channel.notLinked")}, status, tr.T(id)))
	}
	slug, err := core.LinkStateArena(q.Get("state"))
	if err != nil {
		refuse(http.StatusBadRequest, "account.channel.badLinkState")
		return
	}
	t, release, err := s.srv.TenantBySlug(ctx, slug)
	if core.ErrorCode(err) == core.CodeArenaNotFound {
		refuse(http.StatusBadRequest, "account.channel.badLinkState")
		return
	}
	if err != nil {
		s.fail(w, r, nil, err)
		return
	}
	defer release()
	ls, err := t.TakeLinkState(ctx, q.Get("state"))
	if err != nil {
		s.fail(w, r, nil, err)
		return
	}
	if ls == nil {
		refuse(http.StatusBadRequest, "account.channel.usedLinkState")
		return
	}
	back := func(code string) {
		http.Redirect(w, r, ls.ReturnTo+withNotice("/account", code), http.StatusSeeOther)
	}
	if q.Get("error") != "" || q.Get("code") == "" {
		back("link_cancelled")
		return
	}
	login, err := s.srv.Streams().LinkedLogin(ctx, q.Get("code"))
	if err != nil {
		s.cfg.Logger.WarnContext(ctx, "stream provider: link failed", slog.String("arena", slug), slog.String("error", err.Error()))
		back("link_failed")
		return
	}
	if _, err := t.LinkStream(ctx, ls.PlatformID, login); err != nil {
		switch core.ErrorCode(err) {
		case core.CodeStreamLoginTaken:
			back("link_taken")
		case core.CodeInvalidField:
			back("link_failed")
		default:
			s.fail(w, r, nil, err)
		}
		return
	}
	back("linked")
}

// webhookAction saves the viewer's webhook address (empty removes it;
// renew draws a new secret).
func (s *Site) webhookAction(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
	viewer, _, ok := s.actionStart(w, r, t, "/account")
	if !ok {
		return
	}
	raw := strings.TrimSpace(r.PostFormValue("url"))
	err := t.SaveWebhook(r.Context(), core.WebhookChange{Owner: viewer, URL: raw, Field: "url", Loopback: s.srv.LoopbackWebhooks(), Renew: r.PostFormValue("renew") != ""})
	var ce *core.Error
	if errors.As(err, &ce) && ce.Code == core.CodeInvalidField {
		s.renderAccount(w, r, t, http.StatusUnprocessableEntity, func(p *views.AccountPage) { p.WebhookURL, p.WebhookError = raw, ce.Text(i18n.From(r.Context())) })
		return
	}
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	code := "webhook_saved"
	if raw == "" {
		code = "webhook_removed"
	}
	http.Redirect(w, r, withNotice("/account", code), http.StatusSeeOther)
}
