package core

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"time"
)

// Webhooks: a player's own URL (account page) and the arena's
// (webhookUrl in the settings). Each alert is queued in the arena
// database as a delivery whose body is fixed when queued: Discord-
// compatible JSON (content, embeds) plus an arena object with the event
// and an idempotency key. The scheduled job sends due deliveries, signed
// with the webhook's secret (X-Arena-Signature: sha256=<hex HMAC of the
// body>), never on a request's path. A delivery is claimed (its attempt
// counted and its next attempt scheduled) before it is sent, so a crash
// between sending and marking it sent makes it go out once more with the
// same body and key, never silently twice under different keys. After
// WebhookMaxAttempts failures the delivery is given up and the webhook
// turned off; its owner is told on the site.

// WebhookOwnerArena owns the arena's webhook; a player's is owned by
// their account id.
const WebhookOwnerArena = "arena"

// Webhook delivery limits.
const (
	// WebhookMaxAttempts: a delivery failing this many times is given up
	// and its webhook turned off.
	WebhookMaxAttempts = 6
	// WebhookFirstRetry is the wait after the first failure; each next
	// one doubles, up to WebhookMaxRetry.
	WebhookFirstRetry = 30 * time.Second
	WebhookMaxRetry   = time.Hour
	// WebhookTimeout bounds one delivery's request.
	WebhookTimeout = 10 * time.Second
	// WebhookSendBudget bounds how long one run sends an arena's
	// deliveries (each kind: alert webhooks, then subscriptions); what is
	// still due waits for the next run.
	WebhookSendBudget = 20 * time.Second
	// WebhookSenders is how many receivers (subscriptions, or alert
	// webhooks' owners) one run sends to at once; each receiver's
	// deliveries go out one at a time, in order.
	WebhookSenders = 8
	// MaxWebhookURLBytes bounds a webhook address.
	MaxWebhookURLBytes = 500
	// webhookSendBatch is how many due deliveries one read takes.
	webhookSendBatch = 200
)

// WebhookSignatureHeader carries the body's HMAC.
const WebhookSignatureHeader = "X-Arena-Signature"

// Webhook is a stored webhook.
type Webhook struct {
	Owner      string
	URL        string
	Secret     string
	CreatedAt  time.Time
	DisabledAt *time.Time
}

// WebhookDelivery is one queued webhook call.
type WebhookDelivery struct {
	ID            int64
	Owner         string
	EventID       int64
	URL           string
	Body          string
	Attempts      int
	NextAttemptAt time.Time
}

// WebhookStore keeps webhooks and their queued deliveries.
type WebhookStore interface {
	// SetWebhook stores the owner's webhook (enabled, failures forgotten);
	// url "" removes it.
	SetWebhook(ctx context.Context, owner, url, secret string, at time.Time) error
	// Webhook returns the owner's webhook, or nil.
	Webhook(ctx context.Context, owner string) (*Webhook, error)
	// DueDeliveries returns pending deliveries of enabled webhooks due at
	// now, oldest first.
	DueDeliveries(ctx context.Context, now time.Time, limit int) ([]WebhookDelivery, error)
	// ClaimDelivery counts an attempt of a pending delivery that has made
	// d.Attempts attempts and schedules the next at next; false when
	// another run claimed it first.
	ClaimDelivery(ctx context.Context, d WebhookDelivery, next, now time.Time) (bool, error)
	// DeliverySent marks the delivery sent.
	DeliverySent(ctx context.Context, id int64, status int, at time.Time) error
	// DeliveryFailed records a failed attempt's status; with giveUp the
	// delivery is given up and its webhook turned off (with its other
	// pending deliveries), and turnedOff reports whether this call did it.
	DeliveryFailed(ctx context.Context, d WebhookDelivery, status int, giveUp bool, at time.Time) (turnedOff bool, err error)
}

// WebhookSender makes one webhook call.
type WebhookSender interface {
	Send(ctx context.Context, url string, body []byte, header map[string]string) (WebhookAnswer, error)
}

// WebhookAnswer is what a webhook call got: the HTTP status (0 when the
// receiver did not answer) and how long the call took.
type WebhookAnswer struct {
	Status  int
	Latency time.Duration
}

// WebhookRetry returns the wait after the attempt-th failure.
func WebhookRetry(attempt int) time.Duration {
	d := WebhookFirstRetry
	for i := 1; i < attempt && d < WebhookMaxRetry; i++ {
		d *= 2
	}
	return min(d, WebhookMaxRetry)
}

// SignWebhook returns the signature header's value for body.
func SignWebhook(secret string, body []byte) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write(body)
	return "sha256=" + hex.EncodeToString(mac.Sum(nil))
}

// NewWebhookSecret draws a webhook's signing secret.
func NewWebhookSecret(random io.Reader) (string, error) {
	s, err := RandomHex(random, 24)
	if err != nil {
		return "", err
	}
	return webhookSecretPrefix + s, nil
}

// CheckWebhookURL checks a webhook address: an absolute https URL to a
// public host, at most MaxWebhookURLBytes; with loopback (dev mode) also
// http or https to a loopback address or localhost. IP literals that
// PublicAddr refuses are refused, so the service cannot be used to probe
// private networks (the sender checks the address it connects to as
// well, after resolution). The problem is invalid_field on field.
func CheckWebhookURL(raw, field string, loopback bool) error {
	return checkCallURL(raw, field, loopback, "webhook")
}

// checkCallURL is CheckWebhookURL for any address the service calls out
// to (a webhook, a push service's endpoint), named what in its messages.
func checkCallURL(raw, field string, loopback bool, what string) error {
	bad := func(msg string) error {
		if strings.Contains(msg, "%s") {
			msg = fmt.Sprintf(msg, what)
		}
		return &Error{Code: CodeInvalidField, Field: field, Message: msg}
	}
	if len(raw) > MaxWebhookURLBytes {
		return bad("A %s address has at most 500 characters.")
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.User != nil || u.Opaque != "" {
		return bad("Enter an absolute https address.")
	}
	host := strings.ToLower(u.Hostname())
	isLoopback := host == "localhost" || strings.HasSuffix(host, ".localhost")
	if ip, err := netip.ParseAddr(host); err == nil {
		isLoopback = ip.IsLoopback()
		if !isLoopback && !PublicAddr(ip) {
			return bad("A %s cannot point at a private network address.")
		}
	}
	switch {
	case isLoopback && !loopback:
		return bad("A %s cannot point at this machine.")
	case isLoopback && (u.Scheme == "http" || u.Scheme == "https"):
		return nil
	case u.Scheme != "https":
		return bad("A %s address must start with https://.")
	case !strings.Contains(host, ".") && net.ParseIP(host) == nil:
		return bad("Enter the %s's full host name.")
	}
	return nil
}

// PublicAddr reports whether a webhook may connect to ip: a unicast
// address that IANA's special-purpose address registries (IPv4 and IPv6)
// do not mark as not globally reachable, nor as a translation into
// another address (NAT64, 6to4, IPv4-compatible). An IPv4-mapped address
// is judged by the IPv4 address it carries.
func PublicAddr(ip netip.Addr) bool {
	ip = ip.Unmap()
	if !ip.IsValid() || !ip.IsGlobalUnicast() || ip.IsPrivate() || ip.IsLoopback() || ip.IsLinkLocalUnicast() {
		return false
	}
	for _, p := range specialPurpose() {
		if p.Contains(ip) {
			return false
		}
	}
	return true
}

// specialPurpose are the special-purpose blocks (IANA's IPv4 and IPv6
// Special-Purpose Address Registries) a webhook never reaches, beyond
// those netip names (private, loopback, link-local, multicast,
// unspecified).
var specialPurpose = sync.OnceValue(func() []netip.Prefix {
	var out []netip.Prefix
	for _, s := range []string{
		"0.0.0.0/8",       // "this network"
		"100.64.0.0/10",   // shared address space (carrier-grade NAT)
		"192.0.0.0/24",    // IETF protocol assignments
		"192.0.2.0/24",    // documentation (TEST-NET-1)
		"192.88.99.0/24",  // 6to4 relay anycast (deprecated)
		"198.18.0.0/15",   // benchmarking
		"198.51.100.0/24", // documentation (TEST-NET-2)
		"203.0.113.0/24",  // documentation (TEST-NET-3)
		"240.0.0.0/4",     // reserved, and the limited broadcast
		"::/96",           // IPv4-compatible (deprecated)
		"64:ff9b::/96",    // NAT64, well-known prefix
		"64:ff9b:1::/48",  // NAT64, local-use prefix
		"100::/64",        // discard-only
		"2001::/32",       // Teredo
		"2001:2::/48",     // benchmarking
		"2001:10::/28",    // ORCHID (deprecated)
		"2001:db8::/32",   // documentation
		"2002::/16",       // 6to4
		"3fff::/20",       // documentation
		"5f00::/16",       // segment routing (SRv6) SIDs
		"fc00::/7",        // unique local
		"fec0::/10",       // site-local (deprecated)
	} {
		out = append(out, netip.MustParsePrefix(s))
	}
	return out
})

// webhookPayload is a delivery's body: Discord-compatible (content,
// embeds) plus the arena object.
type webhookPayload struct {
	Content string         `json:"content"`
	Embeds  []webhookEmbed `json:"embeds"`
	Arena   webhookArena   `json:"arena"`
}

type webhookEmbed struct {
	Title       string `json:"title"`
	URL         string `json:"url,omitempty"`
	Description string `json:"description,omitempty"`
	Timestamp   string `json:"timestamp"`
}

type webhookArena struct {
	Slug           string         `json:"slug"`
	Event          string         `json:"event"`
	MatchID        int64          `json:"matchId,omitempty"`
	Tournament     *webhookTourny `json:"tournament,omitempty"`
	PlayerID       string         `json:"playerId,omitempty"`
	At             string         `json:"at"`
	IdempotencyKey string         `json:"idempotencyKey"`
}

type webhookTourny struct {
	Slug string `json:"slug"`
	Name string `json:"name"`
}

// WebhookIdempotencyKey names one event's delivery to one owner: the same
// on every attempt, different for every other delivery.
func WebhookIdempotencyKey(a *Arena, ev Event, owner string) string {
	sum := sha256.Sum256([]byte(a.Slug + "\x00" + ev.Key + "\x00" + owner))
	return hex.EncodeToString(sum[:16])
}

// ArenaOrigin is the arena's address for links leaving the site: https on
// its primary host (http for a local development host).
func ArenaOrigin(a *Arena) string {
	if len(a.Hosts) == 0 {
		return ""
	}
	h := a.Hosts[0]
	if h == "localhost" || strings.HasSuffix(h, ".localhost") || strings.HasPrefix(h, "127.") {
		return "http://" + h
	}
	return "https://" + h
}

// WebhookBody renders the delivery body of ev for owner.
func WebhookBody(a *Arena, ev Event, msg eventMessage, owner string) (string, error) {
	link := ArenaOrigin(a) + msg.Path
	at := ev.CreatedAt.UTC().Format(time.RFC3339)
	p := webhookPayload{
		Content: msg.Title,
		Embeds:  []webhookEmbed{{Title: msg.Title, URL: link, Timestamp: at}},
		Arena: webhookArena{Slug: a.Slug, Event: ev.Kind, MatchID: ev.MatchID, PlayerID: ev.PlayerID, At: at,
			IdempotencyKey: WebhookIdempotencyKey(a, ev, owner)},
	}
	if msg.WatchURL != "" {
		p.Embeds[0].Description = "Watch: " + msg.WatchURL
	}
	if msg.Tournament != nil {
		p.Arena.Tournament = &webhookTourny{Slug: msg.Tournament.Slug, Name: msg.Tournament.Name}
	}
	if ev.Kind == EventWebhookDisabled {
		p.Arena.PlayerID = ""
	}
	b, err := json.Marshal(p)
	return string(b), err
}

// DeliverWebhooks sends the due deliveries (the scheduled job): each is
// claimed, sent with its signature, then marked sent, or failed (given up
// at WebhookMaxAttempts, turning its webhook off and telling its owner).
// It returns how many it sent. As for subscriptions (DeliverSubscriptions),
// each owner's deliveries go out in order, WebhookSenders owners at once,
// within WebhookSendBudget, and an owner whose receiver does not answer
// waits for the next run without holding another's.
func DeliverWebhooks(ctx context.Context, ws WebhookStore, as EventRecorder, sender WebhookSender, now time.Time) (int, error) {
	return sendByReceiver(ctx,
		func(ctx context.Context) ([]WebhookDelivery, error) {
			return ws.DueDeliveries(ctx, now, webhookSendBatch)
		},
		func(d WebhookDelivery) (string, string, int64) { return d.Owner, d.Owner, d.ID },
		func(ctx context.Context, due []WebhookDelivery) (int, bool, error) {
			return deliverOwnerWebhooks(ctx, ws, as, sender, due, now)
		})
}

// sendByReceiver is the scheduled sending of queued calls (alert
// webhooks by owner, pushes by device): within WebhookSendBudget it reads
// what is due and groups it (of gives each call's group, the host that
// answers it and its id: one attempt a run), then sends each group in
// order with send, WebhookSenders groups at once. A host that gave no
// answer (send's quiet) is skipped for the rest of the run: its other
// groups wait for the next run, holding no other host's. It returns how
// many calls went out.
func sendByReceiver[D any](ctx context.Context, due func(context.Context) ([]D, error), of func(D) (group, host string, id int64),
	send func(ctx context.Context, due []D) (sent int, quiet bool, err error)) (int, error) {
	bctx, cancel := context.WithTimeout(ctx, WebhookSendBudget)
	defer cancel()
	sent := 0
	var mu sync.Mutex // guards stalled while groups are sent
	stalled := map[string]bool{}
	tried := map[int64]bool{} // one attempt a run
	for bctx.Err() == nil {
		batch, err := due(bctx)
		if err != nil || len(batch) == 0 {
			return sent, err
		}
		byGroup := map[string][]D{}
		hostOf := map[string]string{}
		var groups []string
		for _, d := range batch {
			g, host, id := of(d)
			if stalled[host] || tried[id] {
				continue
			}
			tried[id] = true
			if byGroup[g] == nil {
				groups = append(groups, g)
				hostOf[g] = host
			}
			byGroup[g] = append(byGroup[g], d)
		}
		if len(groups) == 0 {
			return sent, nil // every due call is a stalled host's
		}
		n, err := sendEach(bctx, groups, func(g string) (int, error) {
			mu.Lock()
			skip := stalled[hostOf[g]]
			mu.Unlock()
			if skip {
				return 0, nil // its host went quiet meanwhile: the next run
			}
			ok, quiet, err := send(bctx, byGroup[g])
			if quiet {
				mu.Lock()
				stalled[hostOf[g]] = true
				mu.Unlock()
			}
			return ok, err
		})
		sent += n
		if err != nil {
			return sent, err
		}
	}
	return sent, nil
}

// deliverOwnerWebhooks sends one owner's due deliveries in order; quiet
// reports that its receiver gave no answer (the rest waits).
func deliverOwnerWebhooks(ctx context.Context, ws WebhookStore, as EventRecorder, sender WebhookSender, due []WebhookDelivery, now time.Time) (sent int, quiet bool, err error) {
	h, err := ws.Webhook(ctx, due[0].Owner)
	if err != nil {
		return 0, false, err
	}
	secret := ""
	if h != nil {
		secret = h.Secret
	}
	for _, d := range due {
		if ctx.Err() != nil {
			return sent, false, nil
		}
		var key struct {
			Arena struct {
				IdempotencyKey string `json:"idempotencyKey"`
				Event          string `json:"event"`
			} `json:"arena"`
		}
		_ = json.Unmarshal([]byte(d.Body), &key)
		res, err := claimAndSend(ctx, sender, d.Attempts, now,
			func(next time.Time) (bool, error) { return ws.ClaimDelivery(ctx, d, next, now) },
			d.URL, []byte(d.Body), func() (map[string]string, error) {
				return map[string]string{
					"Content-Type":         "application/json",
					WebhookSignatureHeader: SignWebhook(secret, []byte(d.Body)),
					"X-Arena-Event":        key.Arena.Event,
					"Idempotency-Key":      key.Arena.IdempotencyKey,
				}, nil
			})
		if err != nil {
			return sent, false, err
		}
		if !res.claimed {
			continue
		}
		record := context.WithoutCancel(ctx)
		if res.ok {
			if err := ws.DeliverySent(record, d.ID, res.status, now); err != nil {
				return sent, false, err
			}
			sent++
			continue
		}
		off, err := ws.DeliveryFailed(record, d, res.status, res.attempt >= WebhookMaxAttempts, now)
		if err != nil {
			return sent, false, err
		}
		if off {
			ev := Event{Kind: EventWebhookDisabled, Key: "webhook_disabled:" + d.Owner + ":" + now.UTC().Format(time.RFC3339Nano), PlayerID: d.Owner, CreatedAt: now}
			if err := as.RecordEvent(record, ev); err != nil {
				return sent, false, err
			}
		}
		if res.status == 0 {
			return sent, true, nil
		}
	}
	return sent, false, nil
}

// WebhookChange is a change of an owner's webhook: the address as typed
// (URL "" removes the webhook), the name of the input it was typed in,
// whether it may point at this machine (dev mode) and whether the signing
// secret is renewed.
type WebhookChange struct {
	Owner, URL, Field string
	Loopback, Renew   bool
}

// SaveWebhook stores the owner's webhook address, checked by
// CheckWebhookURL. The webhook keeps its signing secret unless c.Renew; a
// new one is drawn when it has none. Saving turns a webhook that was
// turned off back on.
func SaveWebhook(ctx context.Context, ws WebhookStore, c WebhookChange, deps Deps) error {
	owner, raw := c.Owner, strings.TrimSpace(c.URL)
	if raw == "" {
		return ws.SetWebhook(ctx, owner, "", "", deps.Now)
	}
	if err := CheckWebhookURL(raw, c.Field, c.Loopback); err != nil {
		return err
	}
	cur, err := ws.Webhook(ctx, owner)
	if err != nil {
		return err
	}
	secret := ""
	if cur != nil && !c.Renew {
		secret = cur.Secret
	}
	if secret == "" {
		if secret, err = NewWebhookSecret(deps.Random); err != nil {
			return err
		}
	}
	return ws.SetWebhook(ctx, owner, raw, secret, deps.Now)
}
