package client

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
)

// Bounds and defaults of the reference client settings (spec 4.4 and 8).
const (
	DefaultMaxSubmitAttempts = 3
	MinSubmitAttempts        = 1
	MaxSubmitAttempts        = 5

	DefaultDiscoverIntervalSeconds = 60
	MinDiscoverIntervalSeconds     = 15
	MaxDiscoverIntervalSeconds     = 600

	DefaultRefereeTraceSchema = "game.gameplay.v1"
	DefaultRefereeRuleset     = "standard"
)

// Client roles accepted in Settings.ClientRole; the server treats them as
// metadata only (spec 2.3).
const (
	RoleHost  = "host"
	RoleGuest = "guest"
)

// traceSchemaPattern is the rule of spec 4.4 for RefereeTraceSchema.
var traceSchemaPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9.-]{2,79}\.v[1-9][0-9]*$`)

// platformIDPattern is a platform account id: exactly 17 decimal digits (spec 2).
var platformIDPattern = regexp.MustCompile(`^[0-9]{17}$`)

// Settings configures a Client (spec 4.4). Start from NewSettings: the zero
// value is a disabled client, because Enabled and AutoDiscover default to
// true only there. New applies Normalize and Validate.
type Settings struct {
	// Enabled turns the client on. When false, every discovery, ready and
	// submit call returns ErrDisabled without touching the network.
	Enabled bool
	// BaseURL is the arena's origin, e.g. "https://demo.example.com".
	// Normalize strips trailing slashes.
	BaseURL string
	// AppID, when set, is sent as X-Platform-AppId: an ordering hint that
	// lets the server try this AppID first (spec 5.1 item 3).
	AppID string
	// MaxSubmitAttempts is how many times Submit POSTs a result before
	// giving up; clamped to 1..5 by Normalize.
	MaxSubmitAttempts int
	// AutoDiscover enables WaitForLiveMatch's polling.
	AutoDiscover bool
	// AutoDiscoverIntervalSeconds is the pause between two discovery polls;
	// clamped to 15..600 by Normalize.
	AutoDiscoverIntervalSeconds int
	// MockSteamID, when set, makes every ticket "MOCK:<MockSteamID>"
	// (servers accept it in mock mode only); production leaves it empty
	// and tickets come from the TicketSource.
	MockSteamID string
	// ClientRole is sent as clientRole with each result: "host", "guest"
	// or empty (field omitted). Metadata only; never hashed.
	ClientRole string
	// EnableReferee lets the game trace gameplay; inert unless the arena
	// runs the referee and both players consented (see RefereeActive).
	EnableReferee bool
	// RefereeTraceSchema is the game's trace schema id, e.g.
	// "game.gameplay.v1"; must match ^[a-z0-9][a-z0-9.-]{2,79}\.v[1-9][0-9]*$.
	RefereeTraceSchema string
	// RefereeRuleset is a ruleset label stamped into trace envelopes.
	RefereeRuleset string
}

// NewSettings returns the defaults of spec 4.4 for the arena at baseURL:
// enabled, 3 submit attempts, auto-discovery every 60 seconds, no mock
// account, referee off with schema "game.gameplay.v1". The result is
// already normalized.
func NewSettings(baseURL string) Settings {
	return Settings{
		Enabled:                     true,
		BaseURL:                     baseURL,
		MaxSubmitAttempts:           DefaultMaxSubmitAttempts,
		AutoDiscover:                true,
		AutoDiscoverIntervalSeconds: DefaultDiscoverIntervalSeconds,
		RefereeTraceSchema:          DefaultRefereeTraceSchema,
		RefereeRuleset:              DefaultRefereeRuleset,
	}.Normalize()
}

// Normalize returns s with every bounded value brought into range: trailing
// slashes stripped from BaseURL, MaxSubmitAttempts clamped to 1..5 and
// AutoDiscoverIntervalSeconds clamped to 15..600. It clamps, it does not
// fill defaults: 0 attempts becomes 1, not 3. It never fails; Validate
// reports values that cannot be clamped.
func (s Settings) Normalize() Settings {
	s.BaseURL = strings.TrimRight(strings.TrimSpace(s.BaseURL), "/")
	s.MaxSubmitAttempts = clamp(s.MaxSubmitAttempts, MinSubmitAttempts, MaxSubmitAttempts)
	s.AutoDiscoverIntervalSeconds = clamp(s.AutoDiscoverIntervalSeconds, MinDiscoverIntervalSeconds, MaxDiscoverIntervalSeconds)
	return s
}

// Validate reports the first setting that is invalid as given:
// RefereeTraceSchema not matching the spec's pattern (always checked, the
// default is valid), ClientRole other than "host", "guest" or empty, a
// MockSteamID that is not 17 digits, and, when Enabled, a BaseURL that is
// not an absolute http or https URL. Errors wrap ErrInvalidSettings.
func (s Settings) Validate() error {
	if !ValidTraceSchema(s.RefereeTraceSchema) {
		return fmt.Errorf("%w: RefereeTraceSchema %q does not match %s", ErrInvalidSettings, s.RefereeTraceSchema, traceSchemaPattern)
	}
	switch s.ClientRole {
	case "", RoleHost, RoleGuest:
	default:
		return fmt.Errorf("%w: ClientRole %q is not host or guest", ErrInvalidSettings, s.ClientRole)
	}
	if s.MockSteamID != "" && !platformIDPattern.MatchString(s.MockSteamID) {
		return fmt.Errorf("%w: MockSteamID %q is not 17 digits", ErrInvalidSettings, s.MockSteamID)
	}
	if s.Enabled {
		u, err := url.Parse(s.BaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("%w: BaseURL %q is not an absolute http(s) URL", ErrInvalidSettings, s.BaseURL)
		}
	}
	return nil
}

// ValidTraceSchema reports whether id is an acceptable RefereeTraceSchema.
func ValidTraceSchema(id string) bool {
	return traceSchemaPattern.MatchString(id)
}

func clamp(v, lo, hi int) int {
	return min(max(v, lo), hi)
}
