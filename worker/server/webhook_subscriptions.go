package server

import (
	"context"
	"net/http"
	"strconv"

	"arena/core"
)

// Integrator webhooks (docs/webhooks.md): the admin API's subscriptions
// to the event log's types, their delivery logs and replays. The arena's
// alert webhook (webhookUrl in the settings) shows among them as
// core.ArenaAlertsSubscription; it is read and removed here, edited in
// the settings.

// subscriptionRequest creates or changes a subscription (absent: unchanged).
type subscriptionRequest struct {
	URL    *string  `json:"url"`
	Events []string `json:"events"`
	Format *string  `json:"format"`
	Paused *bool    `json:"paused"`
}

func (r subscriptionRequest) draft() core.WebhookSubscriptionDraft {
	return core.WebhookSubscriptionDraft{URL: r.URL, Events: r.Events, Format: r.Format, Paused: r.Paused}
}

// SubscriptionView is a subscription as the admin API and pages show it
// (never its secret). Kind is "events" (a subscription to the log) or
// "alerts" (the arena's alert webhook); Disabled says the alert webhook
// was turned off for failing.
type SubscriptionView struct {
	ID        string   `json:"id"`
	Kind      string   `json:"kind"`
	URL       string   `json:"url"`
	Format    string   `json:"format"`
	Events    []string `json:"events"`
	Paused    bool     `json:"paused"`
	Disabled  bool     `json:"disabled"`
	Cursor    int64    `json:"cursor"`
	CreatedAt string   `json:"createdAt"`
}

func viewSubscription(s *core.WebhookSubscription) SubscriptionView {
	return SubscriptionView{ID: s.ID, Kind: "events", URL: s.URL, Format: s.Format, Events: s.Events, Paused: s.Paused,
		Cursor: s.Cursor, CreatedAt: isoTime(s.CreatedAt)}
}

// DeliveryView is one delivery in a subscription's log.
type DeliveryView struct {
	ID            int64   `json:"id"`
	Seq           int64   `json:"seq"`
	WebhookID     string  `json:"webhookId"`
	State         string  `json:"state"`
	Attempts      int     `json:"attempts"`
	LastStatus    int     `json:"lastStatus"`
	LatencyMS     *int64  `json:"latencyMs"`
	NextAttemptAt string  `json:"nextAttemptAt"`
	CreatedAt     string  `json:"createdAt"`
	LastAttemptAt *string `json:"lastAttemptAt"`
	SentAt        *string `json:"sentAt"`
}

func viewDelivery(d *core.SubscriptionDelivery) DeliveryView {
	return DeliveryView{ID: d.ID, Seq: d.Seq, WebhookID: d.WebhookID, State: d.State, Attempts: d.Attempts,
		LastStatus: d.LastStatus, LatencyMS: d.LatencyMS, NextAttemptAt: isoTime(d.NextAttemptAt),
		CreatedAt: isoTime(d.CreatedAt), LastAttemptAt: isoTimePtr(d.LastAttemptAt), SentAt: isoTimePtr(d.SentAt)}
}

// errAlertsWebhook answers a change of the arena's alert webhook through
// the subscription routes.
var errAlertsWebhook = &core.Error{Code: core.CodeInvalidField, Field: "id",
	Message: "The arena's alert webhook is edited in the settings (webhookUrl)."}

// handleCreateSubscription subscribes a URL: 201 with the id and the
// secret, shown this once.
func (s *Server) handleCreateSubscription(w http.ResponseWriter, r *http.Request, t *Tenant) {
	var req subscriptionRequest
	if err := decodeJSON(w, r, &req); err != nil {
		writeError(w, r, err)
		return
	}
	sub, err := s.CreateSubscription(r.Context(), t, req.draft())
	if err != nil {
		writeError(w, r, err)
		return
	}
	v := viewSubscription(sub)
	writeJSON(w, http.StatusCreated, struct {
		SubscriptionView
		Secret string `json:"secret"`
	}{v, sub.Secret})
}

// handleListSubscriptions lists the subscriptions, the arena's alert
// webhook first when it has one.
func (s *Server) handleListSubscriptions(w http.ResponseWriter, r *http.Request, t *Tenant) {
	list, err := s.Subscriptions(r.Context(), t)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"webhooks": list})
}

// handleSubscription answers one subscription, or 404 not_found.
func (s *Server) handleSubscription(w http.ResponseWriter, r *http.Request, t *Tenant) {
	v, err := s.Subscription(r.Context(), t, r.PathValue("id"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// handleEditSubscription pauses, resumes or changes a subscription's url
// or events: 200 with it.
func (s *Server) handleEditSubscription(w http.ResponseWriter, r *http.Request, t *Tenant) {
	var req subscriptionRequest
	if err := decodeJSON(w, r, &req); err != nil {
		writeError(w, r, err)
		return
	}
	sub, err := s.EditSubscription(r.Context(), t, r.PathValue("id"), req.draft())
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, viewSubscription(sub))
}

// handleDeleteSubscription removes a subscription and its delivery log
// (the arena's alert webhook: its address): 204.
func (s *Server) handleDeleteSubscription(w http.ResponseWriter, r *http.Request, t *Tenant) {
	if err := s.DeleteSubscription(r.Context(), t, r.PathValue("id")); err != nil {
		writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// handleSubscriptionDeliveries answers a subscription's latest
// deliveries, newest first.
func (s *Server) handleSubscriptionDeliveries(w http.ResponseWriter, r *http.Request, t *Tenant) {
	list, err := s.SubscriptionDeliveries(r.Context(), t, r.PathValue("id"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"deliveries": list})
}

// handleReplaySubscription re-delivers every event after a seq: 202 with
// how many deliveries are due again.
func (s *Server) handleReplaySubscription(w http.ResponseWriter, r *http.Request, t *Tenant) {
	var req struct {
		After *int64 `json:"after"`
	}
	if err := decodeJSON(w, r, &req); err != nil {
		writeError(w, r, err)
		return
	}
	if req.After == nil || *req.After < 0 {
		writeError(w, r, core.FieldError(core.CodeInvalidField, "after"))
		return
	}
	n, err := s.ReplaySubscription(r.Context(), t, r.PathValue("id"), *req.After)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusAccepted, map[string]any{"replayed": n})
}

// handleReplayDelivery re-delivers one delivery (same webhook-id): 202.
func (s *Server) handleReplayDelivery(w http.ResponseWriter, r *http.Request, t *Tenant) {
	delivery, err := strconv.ParseInt(r.PathValue("deliveryId"), 10, 64)
	if err != nil {
		writeError(w, r, core.Errorf(core.CodeNotFound, "no delivery %q", r.PathValue("deliveryId")))
		return
	}
	if err := s.ReplayDelivery(r.Context(), t, r.PathValue("id"), delivery); err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusAccepted, map[string]any{"replayed": 1})
}

// CreateSubscription subscribes (the admin API and pages both call it).
func (s *Server) CreateSubscription(ctx context.Context, t *Tenant, d core.WebhookSubscriptionDraft) (*core.WebhookSubscription, error) {
	return t.CreateSubscription(ctx, d, s.LoopbackWebhooks())
}

// Subscriptions lists the arena's alert webhook (when it has one) and
// the subscriptions, oldest first.
func (s *Server) Subscriptions(ctx context.Context, t *Tenant) ([]SubscriptionView, error) {
	out := []SubscriptionView{}
	h, subs, err := t.WebhookSubscriptions(ctx)
	if err != nil {
		return nil, err
	}
	if h != nil {
		out = append(out, alertsSubscription(h))
	}
	for i := range subs {
		out = append(out, viewSubscription(&subs[i]))
	}
	return out, nil
}

// Subscription returns one subscription (the alert webhook too);
// not_found when there is none.
func (s *Server) Subscription(ctx context.Context, t *Tenant, id string) (SubscriptionView, error) {
	if id == core.ArenaAlertsSubscription {
		h, err := t.ArenaWebhook(ctx)
		if err == nil && h == nil {
			err = core.Errorf(core.CodeNotFound, "the arena has no alert webhook")
		}
		if err != nil {
			return SubscriptionView{}, err
		}
		return alertsSubscription(h), nil
	}
	sub, err := t.Subscription(ctx, id)
	if err != nil {
		return SubscriptionView{}, err
	}
	return viewSubscription(sub), nil
}

// EditSubscription changes a subscription (core.EditSubscription).
func (s *Server) EditSubscription(ctx context.Context, t *Tenant, id string, d core.WebhookSubscriptionDraft) (*core.WebhookSubscription, error) {
	if id == core.ArenaAlertsSubscription {
		return nil, errAlertsWebhook
	}
	return t.EditSubscription(ctx, id, d, s.LoopbackWebhooks())
}

// DeleteSubscription removes a subscription, or the arena's alert
// webhook's address (as saving an empty webhookUrl does).
func (s *Server) DeleteSubscription(ctx context.Context, t *Tenant, id string) error {
	if id != core.ArenaAlertsSubscription {
		return t.DeleteSubscription(ctx, id)
	}
	return t.RemoveArenaWebhook(ctx)
}

// SubscriptionDeliveries lists a subscription's latest deliveries.
func (s *Server) SubscriptionDeliveries(ctx context.Context, t *Tenant, id string) ([]DeliveryView, error) {
	if id == core.ArenaAlertsSubscription {
		return nil, errAlertsWebhook
	}
	list, err := t.SubscriptionDeliveries(ctx, id)
	if err != nil {
		return nil, err
	}
	out := make([]DeliveryView, len(list))
	for i := range list {
		out[i] = viewDelivery(&list[i])
	}
	return out, nil
}

// ReplaySubscription re-delivers the events after a seq
// (core.ReplaySubscription).
func (s *Server) ReplaySubscription(ctx context.Context, t *Tenant, id string, after int64) (int, error) {
	if id == core.ArenaAlertsSubscription {
		return 0, errAlertsWebhook
	}
	return t.ReplaySubscription(ctx, id, after)
}

// ReplayDelivery re-delivers one delivery (core.ReplayDelivery).
func (s *Server) ReplayDelivery(ctx context.Context, t *Tenant, id string, delivery int64) error {
	if id == core.ArenaAlertsSubscription {
		return errAlertsWebhook
	}
	return t.ReplayDelivery(ctx, id, delivery)
}

// WebhookTestView is the answer of POST /api/v1/admin/webhooks/{id}/test:
// what the receiver of the test event answered.
type WebhookTestView struct {
	WebhookID  string  `json:"webhookId"`
	Delivered  bool    `json:"delivered"`
	Status     *int    `json:"status"`     // null: no answer
	DurationMS *int64  `json:"durationMs"` // null: no answer
	Problem    *string `json:"problem"`    // null when delivered
}

// TestSubscription sends a test event to the subscription now
// (core.SendTestEvent): the API's route and the webhooks page's button.
func (s *Server) TestSubscription(ctx context.Context, t *Tenant, id string) (WebhookTestView, error) {
	if id == core.ArenaAlertsSubscription {
		return WebhookTestView{}, errAlertsWebhook
	}
	res, err := t.SendTestEvent(ctx, id, s.webhooks, s.rand, s.wall)
	if err != nil {
		return WebhookTestView{}, err
	}
	v := WebhookTestView{WebhookID: res.WebhookID, Delivered: res.Delivered}
	if res.Status > 0 {
		ms := res.Latency.Milliseconds()
		v.Status, v.DurationMS = &res.Status, &ms
	}
	if res.Problem != "" {
		v.Problem = &res.Problem
	}
	return v, nil
}

// handleTestSubscription is POST /api/v1/admin/webhooks/{id}/test: 200
// with what the receiver answered (2 round trips: the admin token, the
// subscription).
func (s *Server) handleTestSubscription(w http.ResponseWriter, r *http.Request, t *Tenant) {
	v, err := s.TestSubscription(r.Context(), t, r.PathValue("id"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// alertsSubscription is the arena's alert webhook h as a subscription.
func alertsSubscription(h *core.Webhook) SubscriptionView {
	return SubscriptionView{ID: core.ArenaAlertsSubscription, Kind: "alerts", URL: h.URL, Format: core.WebhookFormatDiscord,
		Events: []string{}, Disabled: h.DisabledAt != nil, CreatedAt: isoTime(h.CreatedAt)}
}
