package core

import (
	"slices"
	"strings"
	"time"
)

// Plan is an arena's subscription plan; it sets limits such as the
// recording size (spec section 8).
type Plan string

// The plans an arena can be on.
const (
	PlanFree   Plan = "free"
	PlanIndie  Plan = "indie"
	PlanStudio Plan = "studio"
)

// Plans are the plans an arena can be on, the smallest first: the one
// list the settings' checks and the settings page read.
var Plans = []Plan{PlanFree, PlanIndie, PlanStudio}

// Valid reports whether p is one of the known plans.
func (p Plan) Valid() bool { return slices.Contains(Plans, p) }

// DefaultGracePeriod is how long an awaiting result waits for the second
// side before the scheduled jobs confirm it, unless the arena sets another.
const DefaultGracePeriod = 24 * time.Hour

// MaxGracePeriod bounds the grace period an arena may choose.
const MaxGracePeriod = 7 * 24 * time.Hour

// RateLimits are an arena's public read API limits in requests per minute
// (spec section 8); 0 lifts a limit.
type RateLimits struct {
	AnonymousPerMinute int `json:"anonymousPerMinute"` // per client IP
	KeyPerMinute       int `json:"keyPerMinute"`       // per valid API key
}

// DefaultRateLimits are the spec's limits: 60 per minute per IP, 600 per
// minute per valid key.
var DefaultRateLimits = RateLimits{AnonymousPerMinute: 60, KeyPerMinute: 600}

// DefaultIdentity is the identity label sent with platform ticket checks
// when the arena does not set its own.
const DefaultIdentity = "arena"

// Arena is one tenant: its own hosts, database and platform settings.
// PublisherKey and DatabaseToken are secrets: they never leave the
// service (see ArenaView for what may be shown).
type Arena struct {
	ID                 int64
	Slug               string
	Name               string
	Hosts              []string // primary first, lowercase, no port
	Plan               Plan
	AppIDs             []string // accepted platform AppIDs, primary first
	PublisherKey       string
	Identity           string
	RefereeEnabled     bool
	GracePeriodSeconds int
	DatabaseURL        string
	DatabaseToken      string
	SchemaVersion      int // the arena database's applied migration level
	RateLimits         RateLimits
	// DefaultLocale is the language its pages speak to a viewer whose
	// browser and cookie name none of Locales.
	DefaultLocale string
	CreatedAt     time.Time
	UpdatedAt     time.Time
}

// GracePeriod returns the arena's grace period as a duration.
func (a *Arena) GracePeriod() time.Duration {
	return time.Duration(a.GracePeriodSeconds) * time.Second
}

// ArenaView is the operator-facing shape of an arena: every setting
// except the secrets, whose presence alone is shown.
type ArenaView struct {
	Slug               string     `json:"slug"`
	Name               string     `json:"name"`
	Hosts              []string   `json:"hosts"`
	Plan               Plan       `json:"plan"`
	AppIDs             []string   `json:"appIds"`
	Identity           string     `json:"identity"`
	HasPublisherKey    bool       `json:"hasPublisherKey"`
	RefereeEnabled     bool       `json:"refereeEnabled"`
	GracePeriodSeconds int        `json:"gracePeriodSeconds"`
	Database           string     `json:"database"` // database URL without credentials or query
	RateLimits         RateLimits `json:"rateLimits"`
	DefaultLocale      string     `json:"defaultLocale"`
	CreatedAt          time.Time  `json:"createdAt"`
	UpdatedAt          time.Time  `json:"updatedAt"`
}

// Locale is the arena's defaultLocale, DefaultLocale when it set none.
func (a *Arena) Locale() string {
	if IsLocale(a.DefaultLocale) {
		return a.DefaultLocale
	}
	return DefaultLocale
}

// View returns the arena without its secrets.
func (a *Arena) View() ArenaView {
	return ArenaView{
		Slug:               a.Slug,
		Name:               a.Name,
		Hosts:              a.Hosts,
		Plan:               a.Plan,
		AppIDs:             a.AppIDs,
		Identity:           a.Identity,
		HasPublisherKey:    a.PublisherKey != "",
		RefereeEnabled:     a.RefereeEnabled,
		GracePeriodSeconds: a.GracePeriodSeconds,
		Database:           RedactDatabaseURL(a.DatabaseURL),
		RateLimits:         a.RateLimits,
		DefaultLocale:      a.Locale(),
		CreatedAt:          a.CreatedAt,
		UpdatedAt:          a.UpdatedAt,
	}
}

// RedactDatabaseURL strips user info and the query (which may carry an
// authToken) from a database URL.
func RedactDatabaseURL(u string) string {
	if i := strings.IndexByte(u, '?'); i >= 0 {
		u = u[:i]
	}
	if scheme, rest, ok := strings.Cut(u, "://"); ok {
		if at := strings.LastIndexByte(rest, '@'); at >= 0 {
			rest = rest[at+1:]
		}
		return scheme + "://" + rest
	}
	return u
}

var (
	slugPattern       = LazyRegexp(`^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$`)
	appIDPattern      = LazyRegexp(`^[1-9][0-9]{0,9}$`)
	platformIDPattern = LazyRegexp(`^` + PlatformIDInputPattern + `$`)
	hostLabelPattern  = LazyRegexp(`^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$`)
)

// ValidSlug reports whether s is a slug: 1 to 40 lowercase letters, digits
// and inner hyphens.
func ValidSlug(s string) bool { return slugPattern().MatchString(s) }

// ValidAppID reports whether s is a platform AppID (a positive decimal
// number of at most 10 digits).
func ValidAppID(s string) bool { return appIDPattern().MatchString(s) }

// PlatformIDDigits is a platform account id's length in decimal digits,
// and PlatformIDInputPattern the pattern of one (an HTML input's pattern
// attribute matches it whole).
const (
	PlatformIDDigits       = 17
	PlatformIDInputPattern = "[0-9]{17}"
)

// ValidPlatformID reports whether s is a platform account id: exactly
// PlatformIDDigits decimal digits.
func ValidPlatformID(s string) bool { return platformIDPattern().MatchString(s) }

// NormalizeHost lowercases a host name and strips a port and a trailing
// dot, the way a request's Host header is matched to an arena.
func NormalizeHost(h string) string {
	h = strings.ToLower(strings.TrimSpace(h))
	if strings.HasPrefix(h, "[") { // IPv6 literal, maybe with a port
		if end := strings.IndexByte(h, ']'); end > 0 {
			return h[:end+1]
		}
		return h
	}
	if i := strings.LastIndexByte(h, ':'); i >= 0 {
		h = h[:i]
	}
	return strings.TrimSuffix(h, ".")
}

// ValidHost reports whether h is an acceptable arena host name: a
// normalized DNS name or IPv4 address of at most 253 characters.
func ValidHost(h string) bool {
	if h == "" || len(h) > 253 || h != NormalizeHost(h) {
		return false
	}
	for _, label := range strings.Split(h, ".") {
		if !hostLabelPattern().MatchString(label) {
			return false
		}
	}
	return true
}
