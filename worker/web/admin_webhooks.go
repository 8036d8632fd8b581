package web

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"

	"arena/core"
	"arena/i18n"
	"arena/views"
	"arena/worker/server"
)

// The integrator webhook pages (docs/webhooks.md): subscribe a URL to
// event types of the log, list, pause, resume, delete, and each
// subscription's delivery log with its replays. The rules are the admin
// API's (server.CreateSubscription and the rest).

// adminWebhooks is GET /admin/webhooks.
func (s *Site) adminWebhooks(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
	s.adminRenderWebhooks(w, r, t, v, http.StatusOK, views.AdminWebhooks{Notice: adminNotice(r), Format: core.WebhookFormatStandard})
}

func (s *Site) adminRenderWebhooks(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer, status int, p views.AdminWebhooks) {
	list, err := s.srv.Subscriptions(r.Context(), t)
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	for _, sub := range list {
		p.Webhooks = append(p.Webhooks, adminWebhookView(sub))
	}
	p.EventTypes, p.Formats, p.MaxURL = core.EventLogTypes, core.WebhookFormats, core.MaxWebhookURLBytes
	s.render(w, r, t, status, views.AdminWebhooksPage(s.adminLayout(t, v, i18n.From(r.Context()).T("admin.webhooks.title")), p))
}

func adminWebhookView(sub server.SubscriptionView) views.AdminWebhook {
	created, _ := time.Parse(time.RFC3339, sub.CreatedAt)
	return views.AdminWebhook{ID: sub.ID, URL: sub.URL, Format: sub.Format, Events: sub.Events, Paused: sub.Paused,
		Disabled: sub.Disabled, Alerts: sub.Kind == "alerts", CreatedAt: created}
}

// adminSubscribe is POST /admin/webhooks: subscribes and answers with the
// secret in full (201). This answer is the only place the secret ever
// appears, so it is not a redirect.
func (s *Site) adminSubscribe(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
	if !s.adminParseForm(w, r, t, v) {
		return
	}
	url, format := strings.TrimSpace(r.PostFormValue("url")), r.PostFormValue("format")
	events := r.PostForm["events"]
	all := r.PostFormValue("allEvents") == "on"
	if all {
		events = core.EventLogTypes
	}
	if events == nil {
		events = []string{}
	}
	tr := i18n.From(r.Context())
	sub, err := s.srv.CreateSubscription(r.Context(), t, core.WebhookSubscriptionDraft{URL: &url, Events: events, Format: &format})
	if field := adminErrorField(err); field != "" {
		s.adminRenderWebhooks(w, r, t, v, http.StatusUnprocessableEntity, views.AdminWebhooks{
			URL: url, Events: events, AllEvents: all, Format: format, Errors: views.AdminFieldErrors{field: adminWebhookMessage(r.Context(), err)},
			Notice: views.AdminNotice{Error: true, Text: tr.T("admin.webhooks.error.notMade")},
		})
		return
	}
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	s.adminRenderWebhooks(w, r, t, v, http.StatusCreated, views.AdminWebhooks{
		Created: sub.ID, Secret: sub.Secret, Format: core.WebhookFormatStandard,
		Notice: views.AdminNotice{Text: tr.T("admin.webhooks.notice.made")},
	})
}

// adminWebhookMessage words a refused field for people: core's message
// in ctx's language, or the field's rule when core gave none.
func adminWebhookMessage(ctx context.Context, err error) string {
	if msg := adminErrorMessage(ctx, err); msg != "" && msg != adminErrorField(err) {
		return msg
	}
	if adminErrorField(err) == "events" {
		return i18n.From(ctx).T("admin.webhooks.error.events")
	}
	return i18n.From(ctx).T("admin.webhooks.error.url")
}

// adminWebhook is GET /admin/webhooks/{id}: the delivery log.
func (s *Site) adminWebhook(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
	s.adminRenderWebhook(w, r, t, v, http.StatusOK, views.AdminWebhookDeliveries{Notice: adminNotice(r)})
}

func (s *Site) adminRenderWebhook(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer, status int, p views.AdminWebhookDeliveries) {
	id := r.PathValue("id")
	sub, err := s.srv.Subscription(r.Context(), t, id)
	var list []server.DeliveryView
	if err == nil && sub.Kind != "alerts" {
		list, err = s.srv.SubscriptionDeliveries(r.Context(), t, id)
	}
	if adminErrorCode(err) == core.CodeNotFound || (err == nil && sub.Kind == "alerts") {
		s.adminNotFound(w, r, t, v, i18n.From(r.Context()).T("admin.webhooks.error.notFound", "ID", id))
		return
	}
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	p.Webhook = adminWebhookView(sub)
	for _, d := range list {
		created, _ := time.Parse(time.RFC3339, d.CreatedAt)
		row := views.AdminWebhookDelivery{ID: d.ID, Seq: d.Seq, WebhookID: d.WebhookID, State: d.State, Attempts: d.Attempts,
			LastStatus: d.LastStatus, LatencyMS: d.LatencyMS, CreatedAt: created}
		if d.SentAt != nil {
			sent, _ := time.Parse(time.RFC3339, *d.SentAt)
			row.SentAt = &sent
		}
		p.Deliveries = append(p.Deliveries, row)
	}
	s.render(w, r, t, status, views.AdminWebhookPage(s.adminLayout(t, v, i18n.From(r.Context()).T("admin.webhook.pageTitle", "ID", id)), p))
}

// adminPauseWebhook is POST /admin/webhooks/{id}/paused (paused=true or
// false).
func (s *Site) adminPauseWebhook(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
	if !s.adminParseForm(w, r, t, v) {
		return
	}
	paused := r.PostFormValue("paused") == "true"
	_, err := s.srv.EditSubscription(r.Context(), t, r.PathValue("id"), core.WebhookSubscriptionDraft{Paused: &paused})
	done := "webhook-resumed"
	if paused {
		done = "webhook-paused"
	}
	s.adminWebhookDone(w, r, t, v, err, "/admin/webhooks", done)
}

// adminDeleteWebhook is POST /admin/webhooks/{id}/delete.
func (s *Site) adminDeleteWebhook(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
	s.adminWebhookDone(w, r, t, v, s.srv.DeleteSubscription(r.Context(), t, r.PathValue("id")), "/admin/webhooks", "webhook-deleted")
}

// adminReplayWebhook is POST /admin/webhooks/{id}/replay (after).
func (s *Site) adminReplayWebhook(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
	if !s.adminParseForm(w, r, t, v) {
		return
	}
	raw := strings.TrimSpace(r.PostFormValue("after"))
	after, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || after < 0 {
		tr := i18n.From(r.Context())
		s.adminRenderWebhook(w, r, t, v, http.StatusUnprocessableEntity, views.AdminWebhookDeliveries{
			After: raw, Errors: views.AdminFieldErrors{"after": tr.T("admin.webhook.error.after")},
			Notice: views.AdminNotice{Error: true, Text: tr.T("admin.webhook.error.notReplayed")},
		})
		return
	}
	id := r.PathValue("id")
	_, err = s.srv.ReplaySubscription(r.Context(), t, id, after)
	s.adminWebhookDone(w, r, t, v, err, webhookPagePath(id), "webhook-replayed")
}

// adminReplayDelivery is POST /admin/webhooks/{id}/deliveries/{deliveryId}/replay.
func (s *Site) adminReplayDelivery(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
	id := r.PathValue("id")
	delivery, err := strconv.ParseInt(r.PathValue("deliveryId"), 10, 64)
	if err != nil {
		s.adminNotFound(w, r, t, v, i18n.From(r.Context()).T("admin.webhook.error.noDelivery"))
		return
	}
	s.adminWebhookDone(w, r, t, v, s.srv.ReplayDelivery(r.Context(), t, id, delivery), webhookPagePath(id), "webhook-replayed")
}

// adminTestWebhook is POST /admin/webhooks/{id}/test: the webhook's page
// with what its receiver answered to a test event (server.TestSubscription,
// the API's route).
func (s *Site) adminTestWebhook(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
	res, err := s.srv.TestSubscription(r.Context(), t, r.PathValue("id"))
	if err != nil {
		s.adminWebhookDone(w, r, t, v, err, "", "")
		return
	}
	s.adminRenderWebhook(w, r, t, v, http.StatusOK, views.AdminWebhookDeliveries{Notice: adminTestNotice(r.Context(), res)})
}

// adminTestNotice says what a test event's receiver answered. The
// problem of an undelivered one is the server's (English for now).
func adminTestNotice(ctx context.Context, res server.WebhookTestView) views.AdminNotice {
	tr := i18n.From(ctx)
	if res.Delivered {
		return views.AdminNotice{Text: tr.T("admin.webhook.test.delivered", "Status", strconv.Itoa(*res.Status), "MS", strconv.FormatInt(*res.DurationMS, 10))}
	}
	return views.AdminNotice{Error: true, Text: tr.T("admin.webhook.test.failed", "Problem", *res.Problem)}
}

func webhookPagePath(id string) string { return "/admin/webhooks/" + id }

// adminWebhookDone ends a webhook action: the page with its notice, or
// not found, or the refusal (the arena's alert webhook is edited in the
// settings).
func (s *Site) adminWebhookDone(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer, err error, path, done string) {
	switch adminErrorCode(err) {
	case "":
		if err != nil {
			s.fail(w, r, t, err)
			return
		}
		adminRedirect(w, r, path, done, "")
	case core.CodeNotFound:
		s.adminNotFound(w, r, t, v, i18n.From(r.Context()).T("admin.webhook.error.notFound"))
	default:
		s.adminRenderWebhooks(w, r, t, v, server.StatusOf(adminErrorCode(err)), views.AdminWebhooks{
			// core's message (English for now).
			Format: core.WebhookFormatStandard, Notice: views.AdminNotice{Error: true, Text: adminErrorMessage(r.Context(), err)},
		})
	}
}
