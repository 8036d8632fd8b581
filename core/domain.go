package core

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"strings"
	"time"
)

// Custom domains: an arena's admin attaches a hostname of their own; on
// the edge it becomes a custom hostname of the edge provider (Cloudflare
// for SaaS), which verifies the owner and issues a certificate. The
// hostname routes to the arena once both the hostname and its
// certificate are active. Without a provider (natively, or an edge
// without provider settings) a hostname is active at once.

// Custom domain wire codes.
const (
	CodeDomainNotFound       = "domain_not_found"       // 404
	CodeTooManyDomains       = "too_many_domains"       // 409
	CodeDomainProviderFailed = "domain_provider_failed" // 502: the provider refused or could not be reached
)

// MaxCustomDomains is how many custom domains one arena may attach.
const MaxCustomDomains = 10

// DomainActive is the status of a hostname, and of its certificate, that
// routes (the provider's word for it).
const DomainActive = "active"

// DomainRecord is a DNS or HTTP record the domain's owner must publish
// for the provider to verify the hostname or issue its certificate.
type DomainRecord struct {
	Type  string `json:"type"` // TXT, CNAME or HTTP
	Name  string `json:"name"` // the record's name, or the HTTP URL
	Value string `json:"value"`
}

// CustomDomain is a hostname an arena's admin attached.
type CustomDomain struct {
	Hostname     string
	ArenaID      int64
	ProviderID   string // the provider's id for it; "" without a provider
	Status       string // the provider's status of the hostname
	SSLStatus    string // the provider's status of its certificate
	Verification []DomainRecord
	CreatedAt    time.Time
	UpdatedAt    time.Time
}

// Active reports whether the hostname routes to its arena.
func (d *CustomDomain) Active() bool {
	return d.Status == DomainActive && d.SSLStatus == DomainActive
}

// CustomHostname is the provider's view of a hostname.
type CustomHostname struct {
	ID           string
	Status       string
	SSLStatus    string
	Verification []DomainRecord
}

// CustomHostnames is the edge provider of custom domains.
type CustomHostnames interface {
	// Create registers hostname and returns its verification records.
	Create(ctx context.Context, hostname string) (CustomHostname, error)
	// Get returns the hostname's current state, or CodeDomainNotFound.
	Get(ctx context.Context, id string) (CustomHostname, error)
	// Delete removes the hostname; one already gone is not an error.
	Delete(ctx context.Context, id string) error
}

// DomainStore keeps the custom domains (in the directory, beside the
// hosts they may become).
type DomainStore interface {
	// AddDomain stores d. Returns CodeHostTaken when the hostname is an
	// arena's host or another custom domain. An active d routes at once.
	AddDomain(ctx context.Context, d *CustomDomain) error
	// Domains returns the arena's domains, oldest first.
	Domains(ctx context.Context, arenaID int64) ([]CustomDomain, error)
	// UpdateDomain stores the provider's view of d and routes the hostname
	// to the arena while d is active, and not otherwise. A domain deleted
	// meanwhile stays deleted.
	UpdateDomain(ctx context.Context, d *CustomDomain) error
	// DeleteDomain removes the arena's domain and its route, if any.
	DeleteDomain(ctx context.Context, arenaID int64, hostname string) error
}

// NormalizeDomain lowercases a hostname and strips a trailing dot.
func NormalizeDomain(h string) string {
	return strings.TrimSuffix(strings.ToLower(strings.TrimSpace(h)), ".")
}

// ValidCustomDomain reports whether h is a hostname a custom domain may
// have: a normalized DNS name of two labels or more, not an IP address.
func ValidCustomDomain(h string) bool {
	if !ValidHost(h) || !strings.Contains(h, ".") {
		return false
	}
	labels := strings.Split(h, ".")
	tld := labels[len(labels)-1]
	return strings.Trim(tld, "0123456789") != "" // a numeric top label is an IP address
}

// AddCustomDomain attaches hostname to the arena: stored first (so a
// hostname is never registered with the provider for two arenas), then
// registered with the provider, if any, whose verification records the
// owner must publish. Without a provider the hostname is active at once.
func AddCustomDomain(ctx context.Context, st DomainStore, provider CustomHostnames, a *Arena, hostname string, now time.Time) (*CustomDomain, error) {
	hostname = NormalizeDomain(hostname)
	if !ValidCustomDomain(hostname) {
		return nil, FieldError(CodeInvalidField, "hostname")
	}
	existing, err := st.Domains(ctx, a.ID)
	if err != nil {
		return nil, err
	}
	if len(existing) >= MaxCustomDomains {
		return nil, Errorf(CodeTooManyDomains, "an arena has at most %d custom domains", MaxCustomDomains)
	}
	d := &CustomDomain{Hostname: hostname, ArenaID: a.ID, Status: "pending", SSLStatus: "initializing", Verification: []DomainRecord{}, CreatedAt: now, UpdatedAt: now}
	if provider == nil {
		d.Status, d.SSLStatus = DomainActive, DomainActive
	}
	if err := st.AddDomain(ctx, d); err != nil {
		return nil, err
	}
	if provider == nil {
		return d, nil
	}
	ch, err := provider.Create(ctx, hostname)
	if err != nil {
		// Not registered: give the hostname back.
		if derr := st.DeleteDomain(ctx, a.ID, hostname); derr != nil {
			return nil, errors.Join(err, derr)
		}
		return nil, err
	}
	d.apply(ch, now)
	if err := st.UpdateDomain(ctx, d); err != nil {
		return nil, err
	}
	return d, nil
}

func (d *CustomDomain) apply(ch CustomHostname, now time.Time) {
	d.ProviderID, d.Status, d.SSLStatus, d.UpdatedAt = ch.ID, ch.Status, ch.SSLStatus, now
	d.Verification = ch.Verification
	if d.Verification == nil {
		d.Verification = []DomainRecord{}
	}
}

// RefreshCustomDomains asks the provider about the arena's domains that
// do not route yet and stores what changed; a domain becomes routed when
// it turns active. It returns how many changed. One domain failing does
// not stop the others; the first error is returned.
func RefreshCustomDomains(ctx context.Context, st DomainStore, provider CustomHostnames, a *Arena, now time.Time) (int, error) {
	if provider == nil {
		return 0, nil
	}
	domains, err := st.Domains(ctx, a.ID)
	if err != nil {
		return 0, err
	}
	changed := 0
	var first error
	for i := range domains {
		d := &domains[i]
		if d.Active() || d.ProviderID == "" {
			continue
		}
		ch, err := provider.Get(ctx, d.ProviderID)
		if err != nil {
			first = cmp.Or(first, err)
			continue
		}
		if ch.Status == d.Status && ch.SSLStatus == d.SSLStatus && slices.Equal(ch.Verification, d.Verification) {
			continue
		}
		d.apply(ch, now)
		if err := st.UpdateDomain(ctx, d); err != nil {
			first = cmp.Or(first, err)
			continue
		}
		changed++
	}
	return changed, first
}

// RemoveCustomDomain detaches the arena's hostname: from the provider
// first (a hostname still registered there but unknown here could not be
// removed again), then from the store and the arena's routes.
func RemoveCustomDomain(ctx context.Context, st DomainStore, provider CustomHostnames, a *Arena, hostname string) error {
	hostname = NormalizeDomain(hostname)
	domains, err := st.Domains(ctx, a.ID)
	if err != nil {
		return err
	}
	for _, d := range domains {
		if d.Hostname != hostname {
			continue
		}
		if provider != nil && d.ProviderID != "" {
			if err := provider.Delete(ctx, d.ProviderID); err != nil {
				return err
			}
		}
		return st.DeleteDomain(ctx, a.ID, hostname)
	}
	return Errorf(CodeDomainNotFound, "no custom domain %q", hostname)
}
