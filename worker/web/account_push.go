package web

import (
	"errors"
	"net/http"
	"slices"
	"strconv"

	"arena/core"
	"arena/i18n"
	"arena/views"
	"arena/worker/server"
)

// Web Push on the account page (docs/notifications.md): the page script
// (views/static/push.js) subscribes the device and posts it here; the
// devices and the kinds of push are plain forms.

// accountPush is the notifications box of the player's account page, in
// tr's language: their devices and the kinds of push they turned off.
func accountPush(tr *i18n.Tr, devices []core.PushSubscription, muted []core.PushKind) views.AccountPush {
	var p views.AccountPush
	for _, d := range devices {
		p.Devices = append(p.Devices, views.PushDevice{ID: d.ID, Label: d.Device, Endpoint: d.Endpoint, Added: d.CreatedAt})
	}
	for _, k := range core.PushKinds {
		p.Kinds = append(p.Kinds, views.PushKindChoice{Kind: k, Label: pushKindLabel(tr, k), On: !slices.Contains(muted, k)})
	}
	return p
}

// pushKindLabel says kind k on the account page, in tr's language (a
// kind the catalog lacks as core names it).
func pushKindLabel(tr *i18n.Tr, k core.PushKind) string {
	id := "account.push.kind." + string(k)
	if label := tr.T(id); label != id {
		return label
	}
	return k.Label()
}

// pushSubscribeAction is POST /account/push: the page script's
// subscription of this device (endpoint, p256dh, auth, device).
func (s *Site) pushSubscribeAction(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
	viewer, _, ok := s.actionStart(w, r, t, "/account")
	if !ok {
		return
	}
	err := t.SubscribePush(r.Context(), viewer, core.PushSubscriptionInput{Endpoint: r.PostFormValue("endpoint"),
		P256dh: r.PostFormValue("p256dh"), Auth: r.PostFormValue("auth"), Device: r.PostFormValue("device")},
		s.srv.LoopbackWebhooks())
	s.pushDone(w, r, t, err, "push_on")
}

// pushRemoveAction is POST /account/push/remove: forgets one of the
// player's devices, by id (the devices list) or by endpoint (the page
// script, turning this device off).
func (s *Site) pushRemoveAction(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
	viewer, _, ok := s.actionStart(w, r, t, "/account")
	if !ok {
		return
	}
	id, _ := strconv.ParseInt(r.PostFormValue("id"), 10, 64)
	endpoint := r.PostFormValue("endpoint")
	var err error
	if id > 0 || endpoint != "" {
		err = t.RemovePushSubscription(r.Context(), viewer, max(id, 0), endpoint)
	}
	s.pushDone(w, r, t, err, "push_off")
}

// pushKindsAction is POST /account/push/kinds: the kinds checked are
// pushed, the others turned off.
func (s *Site) pushKindsAction(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
	viewer, _, ok := s.actionStart(w, r, t, "/account")
	if !ok {
		return
	}
	chosen, err := core.ParsePushKinds(r.PostForm["kind"], "kind")
	if err == nil {
		err = t.ChoosePushKinds(r.Context(), viewer, chosen)
	}
	s.pushDone(w, r, t, err, "push_kinds")
}

// pushDone answers a push action: back to the account page with the
// notice, or the page again with the refusal in the box (422, 409).
func (s *Site) pushDone(w http.ResponseWriter, r *http.Request, t *server.Tenant, err error, notice string) {
	var ce *core.Error
	if errors.As(err, &ce) {
		msg := ce.Text(i18n.From(r.Context()))
		if ce.Code == core.CodeTooManyDevices {
			msg = i18n.From(r.Context()).T("account.push.tooManyDevices", "Max", core.MaxPushSubscriptions)
		}
		s.renderAccount(w, r, t, server.StatusOf(ce.Code), func(p *views.AccountPage) { p.Push.Error = msg })
		return
	}
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	http.Redirect(w, r, withNotice("/account", notice)+"#push", http.StatusSeeOther)
}
