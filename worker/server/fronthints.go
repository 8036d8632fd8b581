package server

import (
	"context"
	"time"

	"arena/core"
)

// FrontHints receives facts about a request that a cache in front of the
// server (the edge's JS entry) needs to answer later requests without
// it: which arena a host reaches, and which public reads are cacheable for
// which caller class. Nil natively.
type FrontHints interface {
	// Tenant: the request reached arena a, as the server knew it; that
	// knowledge may be trusted for fresh more at most (0: no bound). What
	// the front learns from the answer must not outlive it: that is what
	// keeps another instance's write seen within one bound, not two.
	Tenant(ctx context.Context, a *core.Arena, fresh time.Duration)
	// PublicRead: the request is a public read answered for the caller
	// class keyID names: "" for anonymous callers, else the API key's id.
	PublicRead(ctx context.Context, keyID string)
	// Changed: the request changed arena slug in the directory from
	// another host (the operator's routes): whatever the front learned of
	// the arena's hosts, and its cached reads, are stale.
	Changed(ctx context.Context, slug string)
}
