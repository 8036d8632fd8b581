package core

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"
)

// StreamProvider is the streaming provider (spec 4.3): identity only,
// read-only. The real one speaks the provider's OAuth and API; the mock
// twin (when STREAM_CLIENT_ID or STREAM_CLIENT_SECRET is missing) makes
// no external call.
type StreamProvider interface {
	// Mock reports whether this is the mock twin: linking then takes the
	// login from the form, with no external call.
	Mock() bool
	// AuthorizeURL is the provider's authorize address for state (client
	// id, the one registered callback, response_type=code, empty scope).
	AuthorizeURL(state string) string
	// LinkedLogin exchanges an authorization code (authorization-code
	// grant) and reads the channel's login once from /users.
	LinkedLogin(ctx context.Context, code string) (string, error)
	// AppToken obtains an app access token (client-credentials grant).
	AppToken(ctx context.Context) (AppToken, error)
	// LiveStreams returns which of logins (at most StreamBatchSize) are
	// live. A 429 is a *StreamRateLimited; a token the provider refuses is
	// ErrStreamTokenRefused.
	LiveStreams(ctx context.Context, token string, logins []string) ([]LiveStream, error)
}

// AppToken is a provider app access token and when it expires.
type AppToken struct {
	Token     string    `json:"token"`
	ExpiresAt time.Time `json:"expiresAt"`
}

// LiveStream is a live channel: its login and the provider's stream id,
// which names one stream session.
type LiveStream struct {
	Login     string
	StreamID  string
	StartedAt time.Time
}

// StreamRateLimited is the provider's 429: no call before Reset.
type StreamRateLimited struct{ Reset time.Time }

func (e *StreamRateLimited) Error() string {
	return "stream provider: rate limited until " + e.Reset.UTC().Format(time.RFC3339)
}

// ErrStreamTokenRefused: the provider refused the app token (401).
var ErrStreamTokenRefused = errors.New("stream provider: app token refused")

// Streams' limits (spec 8).
const (
	// StreamBatchSize is how many logins one live-status query asks about.
	StreamBatchSize = 100
	// LiveCacheTTL is how long an arena's polled live set is reused.
	LiveCacheTTL = 60 * time.Second
	// LiveStaleAfter: a live set older than this (no poll ran) shows
	// nobody live.
	LiveStaleAfter = 5 * time.Minute
	// AppTokenMargin: a stored app token is replaced this long before it
	// expires.
	AppTokenMargin = 5 * time.Minute
	// LinkStateTTL is how long a link's state waits for the callback.
	LinkStateTTL = 10 * time.Minute
)

// Stream errors.
const (
	// CodeStreamNotLinked: the action needs a linked channel (409).
	CodeStreamNotLinked = "stream_not_linked"
	// CodeStreamLoginTaken: another player of the arena linked the
	// channel (409).
	CodeStreamLoginTaken = "stream_login_taken"
	// CodeInvalidLinkState: the callback's state is unknown, used,
	// expired or another arena's (400).
	CodeInvalidLinkState = "invalid_link_state"
	// CodeStreamProviderFailed: the provider refused or failed the code
	// exchange (502).
	CodeStreamProviderFailed = "stream_provider_failed"
)

var streamLoginPattern = LazyRegexp(`^[a-z0-9_]{3,25}$`)

// NormalizeStreamLogin lowercases and trims a channel login and checks
// its shape (3 to 25 letters, digits and underscores); invalid_field
// (field streamLogin) otherwise.
func NormalizeStreamLogin(login string) (string, error) {
	l := strings.ToLower(strings.TrimSpace(login))
	if !streamLoginPattern().MatchString(l) {
		return "", &Error{Code: CodeInvalidField, Field: "streamLogin", Message: "A channel login has 3 to 25 letters, digits or underscores."}
	}
	return l, nil
}

// StreamURL is where a channel is watched: the provider's channel page.
func StreamURL(login string) string { return "https://www.twitch.tv/" + login }

// StreamEmbedOrigin is the origin of the provider's embed player: the one
// frame source a page that embeds a stream allows.
const StreamEmbedOrigin = "https://player.twitch.tv"

// StreamEmbedURL is the provider's documented embed player of a channel,
// for a page served on host (the player refuses to play on a host not
// named as its parent).
func StreamEmbedURL(login, host string) string {
	return StreamEmbedOrigin + "/?channel=" + url.QueryEscape(login) + "&parent=" + url.QueryEscape(host)
}

// LinkState is a link in progress: the random state handed to the
// provider, the player it links and the arena origin to return to.
type LinkState struct {
	State      string
	PlatformID string
	ReturnTo   string
	CreatedAt  time.Time
	ExpiresAt  time.Time
}

// NewLinkState mints a state for a player of the arena with slug: the
// slug, a dot and 128 random bits in hex. The one network-wide callback
// reads the slug to find the arena's database, where the state must be.
func NewLinkState(slug, platformID, returnTo string, deps Deps) (LinkState, error) {
	r, err := RandomHex(deps.Random, 16)
	if err != nil {
		return LinkState{}, err
	}
	return LinkState{State: slug + "." + r, PlatformID: platformID, ReturnTo: returnTo, CreatedAt: deps.Now, ExpiresAt: deps.Now.Add(LinkStateTTL)}, nil
}

var linkStatePattern = LazyRegexp(`^([a-z0-9-]{1,40})\.[0-9a-f]{32}$`)

// LinkStateArena returns the slug of the arena a state was minted for;
// CodeInvalidLinkState when the state is not one Arena mints.
func LinkStateArena(state string) (string, error) {
	m := linkStatePattern().FindStringSubmatch(state)
	if m == nil || !ValidSlug(m[1]) {
		return "", Errorf(CodeInvalidLinkState, "malformed state")
	}
	return m[1], nil
}

// StreamStore links players' channels and keeps the live set the poll
// refreshes.
type StreamStore interface {
	// SetStreamLogin links login ("" unlinks) to the player, storing the
	// player if the arena did not know them; CodeStreamLoginTaken when
	// another player has the login.
	SetStreamLogin(ctx context.Context, platformID, login string, at time.Time) error
	// PolledLogins returns every login whose live status matters: linked
	// players, active casters (the arena's official ones too) and POV
	// streams.
	PolledLogins(ctx context.Context) ([]string, error)
	// LiveSet returns the stored live set and when it was polled (zero if
	// never).
	LiveSet(ctx context.Context) (live map[string]LiveStream, polledAt time.Time, err error)
	// SaveLiveSet replaces the live set and records, in the same batch, a
	// player_streaming event for each live stream session of a linked
	// player (once per session: the event's key is the stream id).
	SaveLiveSet(ctx context.Context, live []LiveStream, polledAt time.Time) error
	// SettingStore and SetSetting keep the app token and the poll's
	// state.
	SettingStore
	// SetSetting stores an arena setting as JSON.
	SetSetting(ctx context.Context, key string, v any) error
}

// Arena settings keys of the stream provider's state.
const (
	SettingStreamAppToken = "stream_app_token"
	SettingStreamPoll     = "stream_poll"
)

// StreamPollState is what the live poll remembers between runs.
type StreamPollState struct {
	// RateLimitedUntil: the provider answered 429; no call before it.
	RateLimitedUntil time.Time `json:"rateLimitedUntil"`
}

// LiveNow returns the arena's live logins as last polled; empty when the
// set is older than LiveStaleAfter (the poll stopped running).
func LiveNow(ctx context.Context, ss StreamStore, now time.Time) (map[string]LiveStream, error) {
	live, polledAt, err := ss.LiveSet(ctx)
	if err != nil {
		return nil, err
	}
	return FreshLive(live, polledAt, now), nil
}

// FreshLive is the live set polled at polledAt as it holds at now: empty
// when it is older than LiveStaleAfter (the poll stopped running).
func FreshLive(live map[string]LiveStream, polledAt, now time.Time) map[string]LiveStream {
	if now.Sub(polledAt) > LiveStaleAfter {
		return map[string]LiveStream{}
	}
	return live
}

// PollLive refreshes the arena's live set (the scheduled job): unless the
// stored set is younger than LiveCacheTTL or the provider asked to wait
// (429), it asks the provider about every polled login, StreamBatchSize
// at a time, with an app token kept in the store until AppTokenMargin
// before it expires. A failed provider call yields an empty live set,
// never an error; only the store's errors are returned. polled reports
// whether the provider was asked about any login.
func PollLive(ctx context.Context, ss StreamStore, p StreamProvider, now time.Time) (polled bool, err error) {
	current, polledAt, err := ss.LiveSet(ctx)
	if err != nil {
		return false, err
	}
	if now.Sub(polledAt) < LiveCacheTTL {
		return false, nil
	}
	var state StreamPollState
	if _, err := ss.Setting(ctx, SettingStreamPoll, &state); err != nil {
		return false, err
	}
	if now.Before(state.RateLimitedUntil) {
		return false, ss.SaveLiveSet(ctx, nil, now)
	}
	logins, err := ss.PolledLogins(ctx)
	if err != nil {
		return false, err
	}
	if len(logins) == 0 && len(current) == 0 {
		return false, nil // nobody to ask about, nobody shown live: nothing to write
	}
	polled = len(logins) > 0
	live, perr := askLive(ctx, ss, p, logins, now)
	var limited *StreamRateLimited
	if errors.As(perr, &limited) {
		if err := ss.SetSetting(ctx, SettingStreamPoll, StreamPollState{RateLimitedUntil: limited.Reset}); err != nil {
			return polled, err
		}
	}
	var storeErr *streamStoreError
	if errors.As(perr, &storeErr) {
		return polled, storeErr.err
	}
	if perr != nil {
		live = nil // a failed provider call: nobody is live
	}
	return polled, ss.SaveLiveSet(ctx, live, now)
}

// streamStoreError marks a store failure inside the provider exchange,
// which PollLive returns instead of treating it as the provider's.
type streamStoreError struct{ err error }

func (e *streamStoreError) Error() string { return e.err.Error() }

// askLive asks the provider about logins in batches, with a valid app
// token (a refused one is dropped and fetched again once).
func askLive(ctx context.Context, ss StreamStore, p StreamProvider, logins []string, now time.Time) ([]LiveStream, error) {
	if len(logins) == 0 {
		return nil, nil
	}
	token, err := appToken(ctx, ss, p, now, false)
	if err != nil {
		return nil, err
	}
	var live []LiveStream
	for start := 0; start < len(logins); start += StreamBatchSize {
		batch := logins[start:min(start+StreamBatchSize, len(logins))]
		got, err := p.LiveStreams(ctx, token, batch)
		if errors.Is(err, ErrStreamTokenRefused) {
			if token, err = appToken(ctx, ss, p, now, true); err != nil {
				return nil, err
			}
			got, err = p.LiveStreams(ctx, token, batch)
		}
		if err != nil {
			return nil, err
		}
		live = append(live, got...)
	}
	return live, nil
}

// appToken returns the stored app token while it has more than
// AppTokenMargin left (unless renew), else a new one, stored.
func appToken(ctx context.Context, ss StreamStore, p StreamProvider, now time.Time, renew bool) (string, error) {
	var stored AppToken
	ok, err := ss.Setting(ctx, SettingStreamAppToken, &stored)
	if err != nil {
		return "", &streamStoreError{err}
	}
	if ok && !renew && stored.Token != "" && now.Add(AppTokenMargin).Before(stored.ExpiresAt) {
		return stored.Token, nil
	}
	fresh, err := p.AppToken(ctx)
	if err != nil {
		return "", fmt.Errorf("stream provider: app token: %w", err)
	}
	if err := ss.SetSetting(ctx, SettingStreamAppToken, fresh); err != nil {
		return "", &streamStoreError{err}
	}
	return fresh.Token, nil
}

// LinkStream links a channel login to the player (the mock twin's form,
// or the login the provider's callback read), lowercased.
func LinkStream(ctx context.Context, ss StreamStore, platformID, login string, now time.Time) (string, error) {
	l, err := NormalizeStreamLogin(login)
	if err != nil {
		return "", err
	}
	return l, ss.SetStreamLogin(ctx, platformID, l, now)
}
