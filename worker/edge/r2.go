package edge

import (
	"context"
	"fmt"
	"net/http"

	"arena/worker/objects"
)

// KindR2 asks the request's JS side to make one call on an R2 bucket
// binding (R2Op).
const KindR2 = "r2"

// R2Op is one call (objects.R2Call: head, ranged get, put or delete) on
// the R2 bucket binding named Binding.
type R2Op struct {
	Binding string // the binding's name in wrangler.go.toml, e.g. RECORDINGS
	objects.R2Call
}

// R2Binding is objects.R2Binding for the kept-instance build: each call
// is a command to the JS side of the request in its context (Go never
// calls the binding itself: see the package comment), which answers
// Result.Status 200 with the object's Size (and, for a get, the range's
// bytes in Body), or 404 when no object has the key. Put and delete
// answer 200.
type R2Binding struct {
	Bridge  *Bridge
	Binding string
}

var _ objects.R2Binding = R2Binding{}

// CallR2 implements objects.R2Binding.
func (b R2Binding) CallR2(ctx context.Context, call objects.R2Call) (objects.R2Result, error) {
	r, err := b.Bridge.Do(ctx, Command{Kind: KindR2, R2: &R2Op{Binding: b.Binding, R2Call: call}})
	if err != nil {
		return objects.R2Result{}, err
	}
	switch r.Status {
	case http.StatusOK:
		return objects.R2Result{Found: true, Size: r.Size, Body: r.Body}, nil
	case http.StatusNotFound:
		return objects.R2Result{}, nil
	}
	return objects.R2Result{}, fmt.Errorf("edge: r2 %s: unexpected status %d", call.Op, r.Status)
}
