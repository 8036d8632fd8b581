package server

import (
	"context"

	"arena/core"
)

// FrontHints receives facts about a request that a cache in front of the
// server (the edge's JS entry) needs to answer later requests without
// it: which arena a host reaches, and which public reads are cacheable for
// which caller class. Nil natively.
type FrontHints interface {
	// Tenant: the request reached arena a.
	Tenant(ctx context.Context, a *core.Arena)
	// PublicRead: the request is a public read answered for the caller
	// class keyID names: "" for anonymous callers, else the API key's id.
	PublicRead(ctx context.Context, keyID string)
	// Changed: the request changed arena slug in the directory from
	// another host (the operator's routes): whatever the front learned of
	// the arena's hosts, and its cached reads, are stale.
	Changed(ctx context.Context, slug string)
}
