package core

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// Test events: an admin sends one event to a webhook subscription to see
// that its receiver takes Arena's deliveries (the webhooks page's "Send a
// test event", POST /api/v1/admin/webhooks/{id}/test). It is sent at once,
// signed as every delivery is, to a paused subscription too; it is no
// event of the log, so it is neither queued nor in the delivery log, and
// its webhook-id is its own (test_<hex>).

// WebhookTestType is the type of a test event.
const WebhookTestType = "webhook.test"

// WebhookTest is what a test event's receiver answered.
type WebhookTest struct {
	WebhookID string
	// Delivered is true when the receiver answered 2xx.
	Delivered bool
	// Status is the receiver's HTTP status; 0 when it did not answer.
	Status int
	// Latency is how long the answer took (0 without one).
	Latency time.Duration
	// Problem says why it was not delivered ("" when it was).
	Problem string
}

// SendTestEvent sends a webhook.test event to the subscription with the
// id and returns what its receiver answered: CodeNotFound for an unknown
// id. A receiver that does not answer within WebhookTimeout, or an
// address the sender refuses, is no error: Delivered false says so.
func SendTestEvent(ctx context.Context, st SubscriptionStore, a *Arena, sender WebhookSender, id string, random io.Reader, clock func() time.Time) (WebhookTest, error) {
	s, err := FindSubscription(ctx, st, id)
	if err != nil {
		return WebhookTest{}, err
	}
	hex, err := RandomHex(random, 12)
	if err != nil {
		return WebhookTest{}, err
	}
	out := WebhookTest{WebhookID: "test_" + hex}
	now := clock()
	at := now.UTC().Format(time.RFC3339)
	message := "A test event from " + a.Name + ": this webhook receives the arena's events."
	var body []byte
	if s.Format == WebhookFormatDiscord {
		body, err = json.Marshal(webhookPayload{
			Content: message,
			Embeds:  []webhookEmbed{{Title: WebhookTestType, URL: ArenaOrigin(a) + "/", Description: message, Timestamp: at}},
			Arena:   webhookArena{Slug: a.Slug, Event: WebhookTestType, At: at, IdempotencyKey: out.WebhookID},
		})
	} else {
		type testData struct {
			WebhookID string `json:"webhookId"`
			Arena     string `json:"arena"`
			Message   string `json:"message"`
		}
		body, err = json.Marshal(struct {
			Type      string   `json:"type"`
			Timestamp string   `json:"timestamp"`
			Data      testData `json:"data"`
		}{WebhookTestType, at, testData{s.ID, a.Slug, message}})
	}
	if err != nil {
		return out, err
	}
	header, err := standardHeaders(s.Secret, out.WebhookID, now, body)
	if err != nil {
		return out, err
	}
	sctx, cancel := context.WithTimeout(ctx, WebhookTimeout)
	defer cancel()
	answer, serr := sender.Send(sctx, s.URL, body, header)
	switch {
	case serr != nil || answer.Status == 0:
		out.Problem = "no answer"
		var uerr *url.Error
		switch {
		case serr == nil, sctx.Err() != nil:
		case errors.As(serr, &uerr):
			out.Problem = "no answer: " + uerr.Err.Error()
		default:
			out.Problem = "no answer: " + serr.Error()
		}
	default:
		out.Status, out.Latency = answer.Status, answer.Latency
		out.Delivered = answer.Status >= 200 && answer.Status < 300
		if !out.Delivered {
			out.Problem = "answered " + strconv.Itoa(answer.Status) + " " + http.StatusText(answer.Status)
		}
	}
	return out, nil
}
