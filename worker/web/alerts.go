package web

import (
	"net/http"

	"arena/i18n"
	"arena/views"
	"arena/worker/server"
)

// alertsPage is the signed-in player's inbox.
func (s *Site) alertsPage(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
	w.Header().Set("Cache-Control", "no-store")
	v := s.viewer(r.Context(), r, t)
	if v == nil {
		s.signInFirst(w, r, t, "/alerts")
		return
	}
	list, err := t.AlertInbox(r.Context(), v.PlatformID, inboxSize)
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	p := views.AlertsPage{Layout: s.layout(r, t, i18n.From(r.Context()).T("account.alerts.title")), Unread: v.Unread}
	for _, a := range list {
		p.Alerts = append(p.Alerts, views.AlertItem{ID: a.ID, Title: a.Title, Path: safeNext(a.Path), At: a.CreatedAt, Read: a.Read})
	}
	s.render(w, r, t, http.StatusOK, views.AlertsView(p))
}

// inboxSize is how many alerts the inbox shows.
const inboxSize = 100

// markAlertsReadAction marks every alert of the viewer read.
func (s *Site) markAlertsReadAction(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
	viewer, _, ok := s.actionStart(w, r, t, "/alerts")
	if !ok {
		return
	}
	if err := t.MarkAlertsRead(r.Context(), viewer); err != nil {
		s.fail(w, r, t, err)
		return
	}
	http.Redirect(w, r, withNotice("/alerts", "alerts_read"), http.StatusSeeOther)
}
