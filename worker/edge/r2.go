package edge

import (
	"context"
	"errors"
	"net/http"
	"strconv"
)

// KindR2 asks the request's JS side to use an R2 bucket binding (R2Op).
const KindR2 = "r2"

// R2Op is one call on an R2 bucket binding: get, head, put or delete.
type R2Op struct {
	Binding     string // the binding's name in wrangler.toml, e.g. RECORDINGS
	Op          string
	Key         string
	ContentType string // put
	Body        []byte // put
}

// R2Bucket is an R2 bucket binding reached through each request's JS side
// (Go never calls the binding itself: see the package comment).
type R2Bucket struct {
	Bridge  *Bridge
	Binding string
}

// R2Object is a stored object; Body only from Get.
type R2Object struct {
	Key         string
	Size        int64
	ETag        string
	ContentType string
	Body        []byte
}

// ErrObjectNotFound is returned by Get and Head for a missing key.
var ErrObjectNotFound = errors.New("edge: R2 object not found")

// Get returns the object at key, or ErrObjectNotFound.
func (b R2Bucket) Get(ctx context.Context, key string) (*R2Object, error) {
	return b.object(ctx, "get", key)
}

// Head returns the object's metadata without its body, or ErrObjectNotFound.
func (b R2Bucket) Head(ctx context.Context, key string) (*R2Object, error) {
	return b.object(ctx, "head", key)
}

// Put stores body at key.
func (b R2Bucket) Put(ctx context.Context, key string, body []byte, contentType string) error {
	_, err := b.do(ctx, &R2Op{Op: "put", Key: key, Body: body, ContentType: contentType})
	return err
}

// Delete removes the object at key; a missing one is not an error.
func (b R2Bucket) Delete(ctx context.Context, key string) error {
	_, err := b.do(ctx, &R2Op{Op: "delete", Key: key})
	return err
}

func (b R2Bucket) object(ctx context.Context, op, key string) (*R2Object, error) {
	r, err := b.do(ctx, &R2Op{Op: op, Key: key})
	if err != nil {
		return nil, err
	}
	if r.Status == http.StatusNotFound {
		return nil, ErrObjectNotFound
	}
	size, _ := strconv.ParseInt(r.Header.Get("Content-Length"), 10, 64)
	return &R2Object{Key: key, Size: size, ETag: r.Header.Get("Etag"), ContentType: r.Header.Get("Content-Type"), Body: r.Body}, nil
}

func (b R2Bucket) do(ctx context.Context, op *R2Op) (Result, error) {
	op.Binding = b.Binding
	return b.Bridge.Do(ctx, Command{Kind: KindR2, R2: op})
}
