package core

import (
	"context"
	"crypto/ecdh"
	"encoding/base64"
	"encoding/json"
	"io"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Web Push (RFC 8030 delivery, RFC 8291 encryption, RFC 8292 VAPID;
// docs/notifications.md). A signed-in player subscribes each device from
// the account page; the fan-out (alerts.go) queues, in its own batch, one
// push per event for each device of each person the event concerns in
// the second person (describe: the sides, the admins), of a kind the
// person has not turned off. The scheduled job seals each push for its
// device (the payload encrypted, the request signed with the arena's
// VAPID key when it is sent) and posts it through the webhook sender, so
// a push reaches only public addresses, claimed before it is sent and
// retried with backoff like a webhook. A device whose push service says
// it is gone (404, 410) is forgotten.

// PushKind is a kind of push a player may turn off.
type PushKind string

// Push kinds, in the order the account page lists them.
const (
	PushCheckIn         PushKind = "check_in"          // check-in opened; withdrawn for not checking in
	PushMatchWindow     PushKind = "match_window"      // your match's window opens
	PushOpponentReady   PushKind = "opponent_ready"    // your opponent is ready
	PushResultToConfirm PushKind = "result_to_confirm" // the other side reported a result
	PushDisputeDecided  PushKind = "dispute_decided"   // the admin decided your match
	PushNeedsYou        PushKind = "needs_you"         // admins: a dispute, an overdue or stale match
)

// PushKinds lists every kind.
var PushKinds = []PushKind{PushCheckIn, PushMatchWindow, PushOpponentReady, PushResultToConfirm, PushDisputeDecided, PushNeedsYou}

// Label says the kind on the account page.
func (k PushKind) Label() string {
	switch k {
	case PushCheckIn:
		return "Check-in opens (and if you are withdrawn for missing it)"
	case PushMatchWindow:
		return "Your match's window opens"
	case PushOpponentReady:
		return "Your opponent is ready"
	case PushResultToConfirm:
		return "A result for you to confirm"
	case PushDisputeDecided:
		return "The admin decided your match"
	case PushNeedsYou:
		return "Admins: a dispute or an overdue match needs you"
	}
	return string(k)
}

// Push limits.
const (
	// MaxPushSubscriptions bounds a player's devices; the next is 409
	// too_many_devices.
	MaxPushSubscriptions = 10
	// MaxPushDeviceLabel bounds a device's label, in characters.
	MaxPushDeviceLabel = 60
	// PushTTL is how long a push service keeps a push for a device that
	// is offline (the TTL header), and how long the job keeps retrying.
	PushTTL = time.Hour
	// PushMaxAttempts: a push failing this many times is given up.
	PushMaxAttempts = 5
	// pushSendBatch is how many due pushes one read takes.
	pushSendBatch = 200
	// maxPushBody bounds a push's text, in bytes: the encrypted payload
	// stays well within the 4,096 bytes every push service takes.
	maxPushBody = 1000
)

// CodeTooManyDevices: a player already has MaxPushSubscriptions devices.
const CodeTooManyDevices = "too_many_devices"

// PushKey is the arena's VAPID key pair, each half base64url without
// padding: the public half the uncompressed P-256 point (what a
// browser's applicationServerKey takes), the private half the scalar.
type PushKey struct {
	PublicKey, PrivateKey string
}

// PushSubscription is one device of a player.
type PushSubscription struct {
	ID         int64
	PlatformID string
	Endpoint   string
	P256dh     string // the device's P-256 public key, base64url
	Auth       string // its 16-byte authentication secret, base64url
	Device     string
	CreatedAt  time.Time
	LastSentAt *time.Time
}

// PushTarget is one person a fanned-out event is pushed to: the kind
// (which the person may have turned off), the payload and its urgency
// (RFC 8030 section 5.3).
type PushTarget struct {
	PlatformID string
	Kind       PushKind
	Payload    string
	Urgency    string
}

// PushDelivery is one queued push to one device.
type PushDelivery struct {
	ID             int64
	SubscriptionID int64
	EventID        int64
	Endpoint       string
	P256dh, Auth   string
	Payload        string
	Urgency        string
	Attempts       int
	NextAttemptAt  time.Time
	CreatedAt      time.Time
}

// PushPayload is what a push carries, as JSON, to the service worker
// (/sw.js): the arena's name as the notification's title, the line in
// the second person, the path of the page a click opens (on the host the
// device subscribed on: an arena may have several), and a tag (one
// notification per event on a device).
type PushPayload struct {
	Title string   `json:"title"`
	Body  string   `json:"body"`
	URL   string   `json:"url"`
	Tag   string   `json:"tag"`
	Kind  PushKind `json:"kind"`
}

// PushStore keeps the VAPID key, stores the players' devices and sends
// the queued pushes.
type PushStore interface {
	// PushKey returns the arena's VAPID key pair, or nil before the first.
	PushKey(ctx context.Context) (*PushKey, error)
	// AddPushKey stores k unless the arena has one, and returns the
	// arena's.
	AddPushKey(ctx context.Context, k PushKey, at time.Time) (PushKey, error)
	// SavePushSubscription stores the device for its player (moving an
	// endpoint another account had) unless the player has max devices
	// already; false then.
	SavePushSubscription(ctx context.Context, s PushSubscription, max int) (bool, error)
	// DuePushes returns pending pushes due at now, oldest first.
	DuePushes(ctx context.Context, now time.Time, limit int) ([]PushDelivery, error)
	// ClaimPush counts an attempt of a pending push that has made
	// d.Attempts attempts and schedules the next at next; false when
	// another run claimed it first.
	ClaimPush(ctx context.Context, d PushDelivery, next, now time.Time) (bool, error)
	// PushSent marks the push sent.
	PushSent(ctx context.Context, d PushDelivery, status int, at time.Time) error
	// PushFailed records a failed attempt's status; with giveUp the push
	// is given up; with gone its device is forgotten with its pending
	// pushes.
	PushFailed(ctx context.Context, d PushDelivery, status int, giveUp, gone bool, at time.Time) error
}

// PushSealer seals a push for its device: the payload encrypted for it
// (RFC 8291, aes128gcm) and the request's headers, signed with the
// arena's key (RFC 8292) at the moment it is called.
type PushSealer interface {
	Seal(key PushKey, d PushDelivery) (body []byte, header map[string]string, err error)
}

// ArenaPushKey returns the arena's VAPID key pair, drawing it from random
// the first time (two requests drawing at once keep the first stored).
func ArenaPushKey(ctx context.Context, s PushStore, random io.Reader, at time.Time) (PushKey, error) {
	k, err := s.PushKey(ctx)
	if err != nil || k != nil {
		if k == nil {
			return PushKey{}, err
		}
		return *k, err
	}
	priv, err := ecdh.P256().GenerateKey(random)
	if err != nil {
		return PushKey{}, err
	}
	enc := base64.RawURLEncoding
	fresh := PushKey{PublicKey: enc.EncodeToString(priv.PublicKey().Bytes()), PrivateKey: enc.EncodeToString(priv.Bytes())}
	return s.AddPushKey(ctx, fresh, at)
}

// PushSubscriptionInput is a device as its browser's PushSubscription
// gives it (toJSON: endpoint, keys.p256dh, keys.auth), with the label the
// page made for it.
type PushSubscriptionInput struct {
	Endpoint string
	P256dh   string
	Auth     string
	Device   string
}

// SubscribePush stores a signed-in player's device: the endpoint a
// public https address (loopback too in dev mode), the keys a P-256 point
// and a 16-byte secret. 422 invalid_field naming the input, 409
// too_many_devices past MaxPushSubscriptions.
func SubscribePush(ctx context.Context, s PushStore, platformID string, in PushSubscriptionInput, loopback bool, at time.Time) error {
	if err := checkCallURL(in.Endpoint, "endpoint", loopback, "push endpoint"); err != nil {
		return err
	}
	p256dh, err := decodeBase64URL(in.P256dh)
	if err == nil {
		_, err = ecdh.P256().NewPublicKey(p256dh)
	}
	if err != nil {
		return &Error{Code: CodeInvalidField, Field: "p256dh", Message: "The device's key is not a P-256 public key."}
	}
	auth, err := decodeBase64URL(in.Auth)
	if err != nil || len(auth) != 16 {
		return &Error{Code: CodeInvalidField, Field: "auth", Message: "The device's secret is not 16 bytes."}
	}
	device := strings.TrimSpace(DisplayText(in.Device))
	if device == "" {
		device = "This device"
	}
	if utf8.RuneCountInString(device) > MaxPushDeviceLabel {
		device = string([]rune(device)[:MaxPushDeviceLabel])
	}
	enc := base64.RawURLEncoding
	ok, err := s.SavePushSubscription(ctx, PushSubscription{PlatformID: platformID, Endpoint: in.Endpoint,
		P256dh: enc.EncodeToString(p256dh), Auth: enc.EncodeToString(auth), Device: device, CreatedAt: at}, MaxPushSubscriptions)
	if err != nil {
		return err
	}
	if !ok {
		return Errorf(CodeTooManyDevices, "An account takes pushes on at most %d devices: remove one first.", MaxPushSubscriptions)
	}
	return nil
}

// decodeBase64URL reads base64url with or without padding (browsers give
// it without; some libraries add it).
func decodeBase64URL(s string) ([]byte, error) {
	return base64.RawURLEncoding.DecodeString(strings.TrimRight(s, "="))
}

// ParsePushKinds reads the kinds a form or request names, refusing an
// unknown one (422 invalid_field on field).
func ParsePushKinds(names []string, field string) ([]PushKind, error) {
	var out []PushKind
	for _, n := range names {
		k := PushKind(n)
		if !k.Known() {
			return nil, &Error{Code: CodeInvalidField, Field: field, Message: "Unknown kind of push: " + n}
		}
		out = append(out, k)
	}
	return out, nil
}

// Known reports whether k is one of PushKinds.
func (k PushKind) Known() bool { return slices.Contains(PushKinds, k) }

// pushTargets makes the pushes of a fanned-out event: one per person
// describe marked, with their own line (the event's title without one).
func pushTargets(a *Arena, ev Event, msg eventMessage) ([]PushTarget, error) {
	if len(msg.Push) == 0 {
		return nil, nil
	}
	out := make([]PushTarget, 0, len(msg.Push))
	for _, id := range slices.Sorted(maps.Keys(msg.Push)) {
		kind := msg.Push[id]
		body := msg.Title
		if line, ok := msg.Personal[id]; ok && line != "" {
			body = line
		}
		raw, err := json.Marshal(PushPayload{Title: a.Name, Body: ClipBytes(body, maxPushBody), URL: msg.Path, Tag: "arena-event-" + strconv.FormatInt(ev.ID, 10), Kind: kind})
		if err != nil {
			return nil, err
		}
		urgency := "normal"
		if kind == PushOpponentReady || kind == PushMatchWindow || kind == PushNeedsYou {
			urgency = "high"
		}
		out = append(out, PushTarget{PlatformID: id, Kind: kind, Payload: string(raw), Urgency: urgency})
	}
	return out, nil
}

// DeliverPushes sends the due pushes (the scheduled job): each is sealed,
// claimed and sent through sender, then marked sent, retried (no answer,
// 429, 5xx) until PushMaxAttempts or PushTTL, given up (any other 4xx),
// or its device forgotten (404, 410). Each device's pushes go out in
// order, WebhookSenders devices at once, within WebhookSendBudget; a push
// service that does not answer waits for the next run without holding
// another's. It returns how many it sent.
func DeliverPushes(ctx context.Context, s PushStore, sealer PushSealer, sender WebhookSender, now time.Time) (int, error) {
	key, err := s.PushKey(ctx)
	if err != nil || key == nil {
		return 0, err // no key, no device: nothing was queued
	}
	return sendByReceiver(ctx,
		func(ctx context.Context) ([]PushDelivery, error) { return s.DuePushes(ctx, now, pushSendBatch) },
		func(d PushDelivery) (string, string, int64) { return d.Endpoint, pushService(d.Endpoint), d.ID },
		func(ctx context.Context, due []PushDelivery) (int, bool, error) {
			return pushTo(ctx, s, sealer, sender, *key, due, now)
		})
}

// pushTo sends one device's due pushes in order; quiet reports that its
// push service gave no answer (the rest waits for the next run).
func pushTo(ctx context.Context, s PushStore, sealer PushSealer, sender WebhookSender, key PushKey, due []PushDelivery, now time.Time) (sent int, quiet bool, err error) {
	record := context.WithoutCancel(ctx)
	for _, d := range due {
		if ctx.Err() != nil {
			return sent, false, nil
		}
		if now.Sub(d.CreatedAt) >= PushTTL {
			// Past its time to live: the push service would drop it too.
			if err := s.PushFailed(record, d, 0, true, false, now); err != nil {
				return sent, false, err
			}
			continue
		}
		body, header, err := sealer.Seal(key, d)
		if err != nil {
			// A device whose keys cannot be used (stored before a check
			// existed) is forgotten: nothing sent to it could be read.
			if err := s.PushFailed(record, d, 0, true, true, now); err != nil {
				return sent, false, err
			}
			continue
		}
		header["Urgency"] = d.Urgency
		res, err := claimAndSend(ctx, sender, d.Attempts, now,
			func(next time.Time) (bool, error) { return s.ClaimPush(ctx, d, next, now) },
			d.Endpoint, body, func() (map[string]string, error) { return header, nil })
		if err != nil {
			return sent, false, err
		}
		if !res.claimed {
			continue
		}
		switch {
		case res.ok:
			if err := s.PushSent(record, d, res.status, now); err != nil {
				return sent, false, err
			}
			sent++
		case res.status == 404 || res.status == 410:
			if err := s.PushFailed(record, d, res.status, true, true, now); err != nil {
				return sent, false, err
			}
		default:
			retry := res.status == 0 || res.status == 429 || res.status >= 500
			giveUp := !retry || res.attempt >= PushMaxAttempts
			if err := s.PushFailed(record, d, res.status, giveUp, false, now); err != nil {
				return sent, false, err
			}
			if res.status == 0 {
				return sent, true, nil
			}
		}
	}
	return sent, false, nil
}

// pushService is the push service an endpoint belongs to: its origin.
func pushService(endpoint string) string {
	u, err := url.Parse(endpoint)
	if err != nil {
		return endpoint
	}
	return u.Scheme + "://" + u.Host
}
