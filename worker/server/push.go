package server

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"time"

	webpush "github.com/SherClockHolmes/webpush-go"

	"arena/core"
)

// Web Push (docs/notifications.md): the arena's public VAPID key for the
// site's service worker, and the scheduled job's step that sends the
// pushes the alert fan-out queued (core/push.go).

// pushKey is GET /api/v1/push/key's answer.
type pushKey struct {
	PublicKey string `json:"publicKey"`
}

// handlePushKey answers the arena's VAPID public key (drawn on the first
// call): one round trip after the first.
func (s *Server) handlePushKey(r *http.Request, t *Tenant, _ bool) (any, error) {
	k, err := t.PushKey(r.Context())
	if err != nil {
		return nil, err
	}
	return pushKey{PublicKey: k.PublicKey}, nil
}

// pushSubscriber is the VAPID "sub" claim (RFC 8292 section 2.1): the
// arena's https origin, or a mailto address at its host where it has none
// (dev mode on localhost).
func pushSubscriber(a *core.Arena) string {
	origin := core.ArenaOrigin(a)
	if strings.HasPrefix(origin, "https://") || origin == "" {
		return origin
	}
	return "push@" + strings.TrimPrefix(origin, "http://")
}

// pushPadding is the size a push's plaintext is padded to a multiple of,
// so its length tells a push service little of what it says.
const pushPadding = 256

// pushSealer seals pushes with webpush-go: it encrypts the payload for
// the device (RFC 8291) and signs a VAPID JWT with the real clock (RFC
// 8292). The library posts what it made to an HTTP client; sealed keeps
// the request instead, for the webhook sender to post.
type pushSealer struct{ subscriber string }

// Seal implements core.PushSealer.
func (p pushSealer) Seal(key core.PushKey, d core.PushDelivery) ([]byte, map[string]string, error) {
	var c sealed
	// The record holds a 86-byte header, the padded plaintext (one byte
	// more than the payload, rounded up) and a 16-byte tag: webpush-go
	// pads the plaintext to the record size less 102 bytes.
	padded := (len(d.Payload) + 1 + pushPadding - 1) / pushPadding * pushPadding
	_, err := webpush.SendNotificationWithContext(context.Background(), []byte(d.Payload),
		&webpush.Subscription{Endpoint: d.Endpoint, Keys: webpush.Keys{P256dh: d.P256dh, Auth: d.Auth}},
		&webpush.Options{HTTPClient: &c, Subscriber: p.subscriber, TTL: int(core.PushTTL / time.Second),
			VAPIDPublicKey: key.PublicKey, VAPIDPrivateKey: key.PrivateKey, RecordSize: uint32(padded + 102)})
	if err != nil {
		return nil, nil, err
	}
	if c.req == nil {
		return nil, nil, errors.New("push: nothing was sealed")
	}
	header := map[string]string{}
	for k := range c.req.Header {
		header[k] = c.req.Header.Get(k)
	}
	return c.body, header, nil
}

// sealed is the HTTP client webpush-go posts to: it keeps the request
// and answers 201 without sending anything.
type sealed struct {
	req  *http.Request
	body []byte
}

func (c *sealed) Do(r *http.Request) (*http.Response, error) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, err
	}
	c.req, c.body = r, body
	return &http.Response{StatusCode: http.StatusCreated, Body: io.NopCloser(bytes.NewReader(nil)), Header: http.Header{}}, nil
}
