package core

import (
	"cmp"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Integrator webhooks (docs/webhooks.md): an admin subscribes a URL to
// types of the event log's events. The scheduled job follows the log
// from each subscription's cursor (QueueSubscriptionDeliveries), then
// sends due deliveries (DeliverSubscriptions) with the Standard Webhooks
// headers, claimed before sending and retried with the backoff of every
// webhook (WebhookRetry), at least once. A delivery's webhook-id is fixed
// per subscription and event, so retries and replays are idempotent for
// the receiver. A paused subscription still queues (its cursor moves) but
// sends nothing until resumed: resuming misses nothing.

// Subscription formats.
const (
	// WebhookFormatStandard: body { type, timestamp, data: event }.
	WebhookFormatStandard = "standard"
	// WebhookFormatDiscord: a Discord-compatible body (content, embeds).
	WebhookFormatDiscord = "discord"
)

// WebhookFormats are the formats a subscription may have.
var WebhookFormats = []string{WebhookFormatStandard, WebhookFormatDiscord}

// ArenaAlertsSubscription is the id under which the arena's alert
// webhook (webhookUrl in the settings) shows among the subscriptions.
const ArenaAlertsSubscription = "arena-alerts"

// Standard Webhooks headers.
const (
	HeaderWebhookID        = "webhook-id"
	HeaderWebhookTimestamp = "webhook-timestamp"
	HeaderWebhookSignature = "webhook-signature"
)

// Subscription limits.
const (
	// subscriptionQueuePage is how many log events one read takes when
	// queuing deliveries or replaying.
	subscriptionQueuePage = 500
	// subscriptionQueuePages bounds the pages one scheduled run queues.
	subscriptionQueuePages = 20
	// SubscriptionDeliveriesShown is how many deliveries a delivery log
	// lists, newest first.
	SubscriptionDeliveriesShown = 100
	// MaxSubscriptions is how many webhook subscriptions an arena has at
	// most: each is followed and sent to by every scheduled run.
	MaxSubscriptions = 50
)

// CodeTooManySubscriptions: the arena has MaxSubscriptions already (409).
const CodeTooManySubscriptions = "too_many_subscriptions"

// Delivery states.
const (
	DeliveryPending = "pending"
	DeliverySentOK  = "sent"
	DeliveryFailed  = "failed"
)

// WebhookSubscription is an integrator's subscription.
type WebhookSubscription struct {
	ID        string
	URL       string
	Secret    string
	Format    string
	Events    []string
	Paused    bool
	Cursor    int64 // the last log seq considered
	CreatedAt time.Time
}

// Wants reports whether the subscription takes events of type typ.
func (s *WebhookSubscription) Wants(typ string) bool { return slices.Contains(s.Events, typ) }

// SubscriptionDelivery is one event's delivery to one subscription.
type SubscriptionDelivery struct {
	ID             int64
	SubscriptionID string
	Seq            int64
	WebhookID      string
	State          string
	Attempts       int
	NextAttemptAt  time.Time
	LastStatus     int
	LatencyMS      *int64
	CreatedAt      time.Time
	LastAttemptAt  *time.Time
	SentAt         *time.Time
}

// DueSubscriptionDelivery is a delivery to send, with what sending it
// needs: its subscription's address, secret and format and the event.
type DueSubscriptionDelivery struct {
	SubscriptionDelivery
	URL, Secret, Format string
	Event               LogEvent
}

// SubscriptionStore keeps subscriptions and their deliveries.
type SubscriptionStore interface {
	EventLogStore
	// CreateSubscription stores s with its cursor at the log's last seq,
	// and returns that cursor; CodeTooManySubscriptions when the arena has
	// MaxSubscriptions already (one conditional statement).
	CreateSubscription(ctx context.Context, s WebhookSubscription, at time.Time) (int64, error)
	// Subscriptions lists every subscription, oldest first.
	Subscriptions(ctx context.Context) ([]WebhookSubscription, error)
	// Subscription returns one, or nil.
	Subscription(ctx context.Context, id string) (*WebhookSubscription, error)
	// UpdateSubscription stores s's url, events and paused.
	UpdateSubscription(ctx context.Context, s WebhookSubscription, at time.Time) error
	// DeleteSubscription removes it and its deliveries.
	DeleteSubscription(ctx context.Context, id string) error
	// QueueDeliveries stores the deliveries (one per seq; a seq queued
	// before is left as it is) and moves the subscription's cursor on to
	// cursor, in one batch.
	QueueDeliveries(ctx context.Context, id string, deliveries []SubscriptionDelivery, cursor int64, at time.Time) error
	// RequeueDeliveries makes the deliveries pending again, due at, with
	// no attempts counted (stored when missing), in one batch.
	RequeueDeliveries(ctx context.Context, id string, deliveries []SubscriptionDelivery, at time.Time) error
	// RequeueDelivery makes one delivery of the subscription pending
	// again, due at; false when it has no such delivery.
	RequeueDelivery(ctx context.Context, id string, delivery int64, at time.Time) (bool, error)
	// DueSubscriptionDeliveries returns pending deliveries of the
	// subscription (unpaused) due at now, oldest first.
	DueSubscriptionDeliveries(ctx context.Context, subscription string, now time.Time, limit int) ([]DueSubscriptionDelivery, error)
	// ClaimSubscriptionDelivery is ClaimDelivery for a subscription's
	// delivery.
	ClaimSubscriptionDelivery(ctx context.Context, d SubscriptionDelivery, next, now time.Time) (bool, error)
	// SubscriptionAttempted records the outcome of the attempt claimed
	// at (its number attempt, from 1): state sent, failed (given up) or
	// pending (to be retried), the status (0: no answer) and the
	// latency. It changes nothing when the delivery is no longer that
	// claim's: a replay while the attempt was under way stands.
	SubscriptionAttempted(ctx context.Context, id int64, attempt int, state string, status int, latency time.Duration, at time.Time) error
}

// WebhookSubscriptionDraft is a new subscription or a change of one
// (nil: unchanged).
type WebhookSubscriptionDraft struct {
	URL    *string
	Events []string
	Format *string
	Paused *bool
}

// NewStandardWebhookSecret draws a subscription's secret: "whsec_" and
// the base64 of 24 random bytes (the key).
func NewStandardWebhookSecret(random io.Reader) (string, error) {
	key := make([]byte, 24)
	if _, err := io.ReadFull(random, key); err != nil {
		return "", fmt.Errorf("core: unable to read randomness: %w", err)
	}
	return webhookSecretPrefix + base64.StdEncoding.EncodeToString(key), nil
}

// webhookSecretPrefix starts every webhook secret.
const webhookSecretPrefix = "whsec_"

// SignStandardWebhook returns the webhook-signature header's value as
// Standard Webhooks defines it: "v1," and the base64 HMAC-SHA256 of
// "<id>.<timestamp>.<body>", keyed with the base64-decoded part of the
// secret after "whsec_".
func SignStandardWebhook(secret, id string, timestamp int64, body []byte) (string, error) {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, webhookSecretPrefix))
	if err != nil {
		return "", fmt.Errorf("core: a webhook secret is not base64: %w", err)
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id + "." + strconv.FormatInt(timestamp, 10) + "."))
	mac.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil)), nil
}

// SubscriptionWebhookID is the webhook-id of event seq's delivery to the
// subscription: the same on every attempt and replay.
func SubscriptionWebhookID(subscription string, seq int64) string {
	return "msg_" + strings.TrimPrefix(subscription, "wh_") + "_" + strconv.FormatInt(seq, 10)
}

// checkSubscriptionDraft checks the fields d sets: the URL by
// CheckWebhookURL, the event types against EventLogTypes (at least one),
// the format against WebhookFormats.
func checkSubscriptionDraft(d *WebhookSubscriptionDraft, loopback bool) error {
	if d.URL != nil {
		*d.URL = strings.TrimSpace(*d.URL)
		if err := CheckWebhookURL(*d.URL, "url", loopback); err != nil {
			return err
		}
	}
	if d.Events != nil {
		if len(d.Events) == 0 {
			return &Error{Code: CodeInvalidField, Field: "events", Message: "Choose at least one event type."}
		}
		for _, typ := range d.Events {
			if !slices.Contains(EventLogTypes, typ) {
				return &Error{Code: CodeInvalidField, Field: "events", Message: fmt.Sprintf("%q is not an event type of the log.", typ)}
			}
		}
		slices.Sort(d.Events)
		d.Events = slices.Compact(d.Events)
	}
	if d.Format != nil && !slices.Contains(WebhookFormats, *d.Format) {
		return &Error{Code: CodeInvalidField, Field: "format", Message: "The format is standard or discord."}
	}
	return nil
}

// CreateSubscription checks and stores a new subscription (url and events
// required, format standard unless given) starting at the log's head; it
// returns it with its secret.
func CreateSubscription(ctx context.Context, st SubscriptionStore, d WebhookSubscriptionDraft, loopback bool, deps Deps) (*WebhookSubscription, error) {
	if d.URL == nil {
		return nil, FieldError(CodeInvalidField, "url")
	}
	if d.Events == nil {
		return nil, FieldError(CodeInvalidField, "events")
	}
	if d.Format == nil {
		f := WebhookFormatStandard
		d.Format = &f
	}
	if err := checkSubscriptionDraft(&d, loopback); err != nil {
		return nil, err
	}
	id, err := RandomHex(deps.Random, 8)
	if err != nil {
		return nil, err
	}
	secret, err := NewStandardWebhookSecret(deps.Random)
	if err != nil {
		return nil, err
	}
	s := WebhookSubscription{ID: "wh_" + id, URL: *d.URL, Secret: secret, Format: *d.Format, Events: d.Events,
		Paused: d.Paused != nil && *d.Paused, CreatedAt: deps.Now}
	if s.Cursor, err = st.CreateSubscription(ctx, s, deps.Now); err != nil {
		return nil, err
	}
	return &s, nil
}

// EditSubscription changes a subscription's url, events or paused (the
// format and the secret stay); CodeNotFound when there is none.
func EditSubscription(ctx context.Context, st SubscriptionStore, id string, d WebhookSubscriptionDraft, loopback bool, now time.Time) (*WebhookSubscription, error) {
	if d.Format != nil {
		return nil, &Error{Code: CodeInvalidField, Field: "format", Message: "A subscription's format stays; subscribe again for another."}
	}
	if err := checkSubscriptionDraft(&d, loopback); err != nil {
		return nil, err
	}
	s, err := FindSubscription(ctx, st, id)
	if err != nil {
		return nil, err
	}
	if d.URL != nil {
		s.URL = *d.URL
	}
	if d.Events != nil {
		s.Events = d.Events
	}
	if d.Paused != nil {
		s.Paused = *d.Paused
	}
	return s, st.UpdateSubscription(ctx, *s, now)
}

// DeleteSubscription removes the subscription and its deliveries;
// CodeNotFound when there is none.
func DeleteSubscription(ctx context.Context, st SubscriptionStore, id string) error {
	if _, err := FindSubscription(ctx, st, id); err != nil {
		return err
	}
	return st.DeleteSubscription(ctx, id)
}

// FindSubscription returns the subscription, or CodeNotFound.
func FindSubscription(ctx context.Context, st SubscriptionStore, id string) (*WebhookSubscription, error) {
	s, err := st.Subscription(ctx, id)
	if err != nil {
		return nil, err
	}
	if s == nil {
		return nil, Errorf(CodeNotFound, "no webhook subscription %s", id)
	}
	return s, nil
}

// RunSubscriptions is the scheduled job's webhook step: follow the log
// for the subscriptions (QueueSubscriptionDeliveries), then send what is
// due (DeliverSubscriptions). An arena without subscriptions costs one
// read. It returns how many deliveries it sent.
func RunSubscriptions(ctx context.Context, st SubscriptionStore, a *Arena, sender WebhookSender, now time.Time, clock func() time.Time) (int, error) {
	subs, err := st.Subscriptions(ctx)
	if err != nil || len(subs) == 0 {
		return 0, err
	}
	if err := QueueSubscriptionDeliveries(ctx, st, subs, now); err != nil {
		return 0, err
	}
	return DeliverSubscriptions(ctx, st, a, subs, sender, now, clock)
}

// QueueSubscriptionDeliveries follows the log for the subscriptions
// (paused ones too): a delivery for each event after a subscription's
// cursor whose type it takes, the cursor moved on in the same batch. The
// log is read once for all of them, from the earliest cursor.
func QueueSubscriptionDeliveries(ctx context.Context, st SubscriptionStore, subs []WebhookSubscription, now time.Time) error {
	for range subscriptionQueuePages {
		from := subs[0].Cursor
		for _, s := range subs {
			from = min(from, s.Cursor)
		}
		page, err := ReadEventLog(ctx, st, from, subscriptionQueuePage)
		if err != nil || len(page.Events) == 0 {
			return err
		}
		last := page.Events[len(page.Events)-1].Seq
		for i := range subs {
			s := &subs[i]
			if s.Cursor >= last {
				continue
			}
			events := page.Events
			if k, _ := slices.BinarySearchFunc(events, s.Cursor+1, func(e LogEvent, seq int64) int { return cmp.Compare(e.Seq, seq) }); k > 0 {
				events = events[k:]
			}
			if err := st.QueueDeliveries(ctx, s.ID, matchingDeliveries(s, events), last, now); err != nil {
				return err
			}
			s.Cursor = last
		}
		if page.Next == nil {
			return nil
		}
	}
	return nil
}

// matchingDeliveries are the deliveries of the events s takes.
func matchingDeliveries(s *WebhookSubscription, events []LogEvent) []SubscriptionDelivery {
	var out []SubscriptionDelivery
	for _, e := range events {
		if s.Wants(e.Type) {
			out = append(out, SubscriptionDelivery{SubscriptionID: s.ID, Seq: e.Seq, WebhookID: SubscriptionWebhookID(s.ID, e.Seq)})
		}
	}
	return out
}

// ReplaySubscription makes the deliveries of every event after seq up to
// the subscription's cursor (of the types it takes) pending again, due
// now, with their webhook-ids; later events are queued as usual. It
// returns how many it replayed.
func ReplaySubscription(ctx context.Context, st SubscriptionStore, id string, after int64, now time.Time) (int, error) {
	s, err := FindSubscription(ctx, st, id)
	if err != nil {
		return 0, err
	}
	replayed := 0
	for after < s.Cursor {
		page, err := ReadEventLog(ctx, st, after, subscriptionQueuePage)
		if err != nil || len(page.Events) == 0 {
			return replayed, err
		}
		events := slices.DeleteFunc(page.Events, func(e LogEvent) bool { return e.Seq > s.Cursor })
		if len(events) == 0 {
			break
		}
		deliveries := matchingDeliveries(s, events)
		if err := st.RequeueDeliveries(ctx, s.ID, deliveries, now); err != nil {
			return replayed, err
		}
		replayed += len(deliveries)
		after = events[len(events)-1].Seq
	}
	return replayed, nil
}

// ReplayDelivery makes one delivery pending again, due now (same
// webhook-id, same body); CodeNotFound when the subscription has no such
// delivery.
func ReplayDelivery(ctx context.Context, st SubscriptionStore, id string, delivery int64, now time.Time) error {
	ok, err := st.RequeueDelivery(ctx, id, delivery, now)
	if err != nil {
		return err
	}
	if !ok {
		return Errorf(CodeNotFound, "no delivery %d of webhook subscription %s", delivery, id)
	}
	return nil
}

// SubscriptionBody renders event e's delivery body (webhook-id id) in the
// format: the same bytes on every attempt (the event is sealed).
func SubscriptionBody(a *Arena, format, id string, e LogEvent) ([]byte, error) {
	if format == WebhookFormatDiscord {
		return json.Marshal(discordBody(a, id, e))
	}
	return json.Marshal(struct {
		Type      string   `json:"type"`
		Timestamp string   `json:"timestamp"`
		Data      LogEvent `json:"data"`
	}{e.Type, e.At, e})
}

// discordBody describes e for a Discord channel: a line of text and an
// embed linking to the page it is about; the arena object's
// idempotencyKey is the webhook-id.
func discordBody(a *Arena, id string, e LogEvent) webhookPayload {
	title := e.Type
	path := "/"
	if e.Tournament != nil {
		title += " in " + *e.Tournament
		path = "/tournaments/" + *e.Tournament
	}
	if e.MatchID != nil {
		title += fmt.Sprintf(", match %d", *e.MatchID)
		path = fmt.Sprintf("/matches/%d", *e.MatchID)
	}
	return webhookPayload{
		Content: title,
		Embeds: []webhookEmbed{{Title: title, URL: ArenaOrigin(a) + path, Description: string(e.Data),
			Timestamp: e.At}},
		Arena: webhookArena{Slug: a.Slug, Event: e.Type, At: e.At, IdempotencyKey: id},
	}
}

// DeliverSubscriptions sends the due deliveries of the unpaused
// subscriptions (the scheduled job): each claimed, sent with the Standard
// Webhooks headers, then marked sent, pending for a retry, or failed
// after WebhookMaxAttempts. It returns how many it sent.
//
// Each subscription's deliveries go out in order, one at a time, up to
// WebhookSenders subscriptions at once (sendEach), all within
// WebhookSendBudget: a receiver that does not answer costs its own
// subscription the rest of this run (its deliveries wait for the next),
// never another's. A delivery is signed when it is sent, with clock (the
// machine's clock, which dev mode's clock never moves: receivers check
// webhook-timestamp against theirs); claims and retries follow now, the
// service's time.
func DeliverSubscriptions(ctx context.Context, st SubscriptionStore, a *Arena, subs []WebhookSubscription, sender WebhookSender, now time.Time, clock func() time.Time) (int, error) {
	bctx, cancel := context.WithTimeout(ctx, WebhookSendBudget)
	defer cancel()
	var unpaused []string
	for _, s := range subs {
		if !s.Paused {
			unpaused = append(unpaused, s.ID)
		}
	}
	return sendEach(bctx, unpaused, func(sub string) (int, error) {
		sent := 0
		tried := map[int64]bool{} // one attempt a run: a replay meanwhile waits for the next
		for bctx.Err() == nil {
			due, err := st.DueSubscriptionDeliveries(bctx, sub, now, webhookSendBatch)
			due = slices.DeleteFunc(due, func(d DueSubscriptionDelivery) bool { return tried[d.ID] })
			if err != nil || len(due) == 0 {
				return sent, err
			}
			for _, d := range due {
				tried[d.ID] = true
				if bctx.Err() != nil {
					return sent, nil // the budget is spent: the rest waits for the next run
				}
				res, err := sendSubscriptionDelivery(bctx, st, a, sender, d, now, clock)
				if err != nil {
					return sent, err
				}
				if res.ok {
					sent++
				} else if res.claimed && res.status == 0 {
					return sent, nil // no answer: the rest waits for the next run
				}
			}
		}
		return sent, nil
	})
}

// sendSubscriptionDelivery makes one attempt of d and records it.
func sendSubscriptionDelivery(ctx context.Context, st SubscriptionStore, a *Arena, sender WebhookSender, d DueSubscriptionDelivery, now time.Time, clock func() time.Time) (sendResult, error) {
	body, err := SubscriptionBody(a, d.Format, d.WebhookID, d.Event)
	if err != nil {
		return sendResult{}, err
	}
	res, err := claimAndSend(ctx, sender, d.Attempts, now,
		func(next time.Time) (bool, error) {
			return st.ClaimSubscriptionDelivery(ctx, d.SubscriptionDelivery, next, now)
		},
		d.URL, body, func() (map[string]string, error) { return standardHeaders(d.Secret, d.WebhookID, clock(), body) })
	if err != nil || !res.claimed {
		return res, err
	}
	state := DeliveryPending
	switch {
	case res.ok:
		state = DeliverySentOK
	case res.attempt >= WebhookMaxAttempts:
		state = DeliveryFailed
	}
	return res, st.SubscriptionAttempted(context.WithoutCancel(ctx), d.ID, res.attempt, state, res.status, res.latency, now)
}

// standardHeaders are a Standard Webhooks delivery's headers for body,
// signed at `at` (when it is sent) with the subscription's secret.
func standardHeaders(secret, webhookID string, at time.Time, body []byte) (map[string]string, error) {
	stamp := at.Unix()
	sig, err := SignStandardWebhook(secret, webhookID, stamp, body)
	return map[string]string{
		"Content-Type":         "application/json",
		HeaderWebhookID:        webhookID,
		HeaderWebhookTimestamp: strconv.FormatInt(stamp, 10),
		HeaderWebhookSignature: sig,
	}, err
}

// sendEach runs send for every key, up to WebhookSenders at once, and
// returns the deliveries sent; the first error (a store's, or ctx's
// parent ending) is returned after every send started has finished.
func sendEach(ctx context.Context, keys []string, send func(key string) (int, error)) (int, error) {
	var (
		mu       sync.Mutex
		wg       sync.WaitGroup
		sent     int
		firstErr error
	)
	slots := make(chan struct{}, WebhookSenders)
	for _, k := range keys {
		slots <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-slots; wg.Done() }()
			n, err := send(k)
			mu.Lock()
			defer mu.Unlock()
			sent += n
			if err != nil && firstErr == nil && !errors.Is(err, context.DeadlineExceeded) {
				firstErr = err
			}
		}()
	}
	wg.Wait()
	return sent, firstErr
}

// sendResult is one claimed delivery attempt's outcome.
type sendResult struct {
	claimed bool
	attempt int // this attempt's number, from 1
	ok      bool
	status  int // 0: no answer
	latency time.Duration
}

// claimAndSend is every webhook's delivery attempt: claim the delivery
// that has made attempts attempts (claim counts this one and schedules
// the next WebhookRetry later, so a crash after sending makes it go out
// once more, never silently lost), then send it within WebhookTimeout
// with the headers header makes at that moment. ok is a 2xx answer; an
// error is the claim's. A send cut off by the run's budget is an attempt
// that got no answer (its retry is scheduled).
func claimAndSend(ctx context.Context, sender WebhookSender, attempts int, now time.Time, claim func(next time.Time) (bool, error),
	url string, body []byte, header func() (map[string]string, error)) (sendResult, error) {
	res := sendResult{attempt: attempts + 1}
	ok, err := claim(now.Add(WebhookRetry(res.attempt)))
	if err != nil || !ok {
		return res, err
	}
	res.claimed = true
	h, err := header()
	if err != nil {
		return res, err
	}
	sctx, cancel := context.WithTimeout(ctx, WebhookTimeout)
	answer, serr := sender.Send(sctx, url, body, h)
	cancel()
	res.ok = serr == nil && answer.Status >= 200 && answer.Status < 300
	if serr == nil && answer.Status > 0 {
		// A call that got no answer records neither a status nor a
		// latency: the delivery log shows "no answer", and is no timer of
		// the network behind an address.
		res.status, res.latency = answer.Status, answer.Latency
	}
	return res, nil
}
