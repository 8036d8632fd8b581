package objects

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"time"

	"arena/core"
)

// R2Call is one call on the Workers R2 binding (RECORDINGS), as data: on
// the edge the request's own JavaScript side makes it (workerd ties every
// binding call to the request that made it), so Go hands it over instead
// of calling JavaScript from whichever request happens to run it.
//
//	head:   env.RECORDINGS.head(Key)                        -> Found, Size
//	get:    env.RECORDINGS.get(Key, {range: {offset: Offset, length: Length}})
//	                                                        -> Found, Size, Body (the range)
//	put:    env.RECORDINGS.put(Key, Body, {httpMetadata: {contentType: ContentType}})
//	delete: env.RECORDINGS.delete(Key)
//	copy:   o = env.RECORDINGS.get(From); env.RECORDINGS.put(Key, o.body, {httpMetadata: o.httpMetadata})
//	                                                        -> Found (From had an object), Size
type R2Call struct {
	Op          string // head, get, put, delete or copy
	Key         string
	From        string // copy: the source key
	Offset      int64
	Length      int64
	ContentType string
	Body        []byte
}

// R2Result is what a call returned.
type R2Result struct {
	Found bool
	Size  int64
	Body  []byte
}

// R2Binding makes R2Calls on the request found in ctx. The edge entry
// supplies it: directly through syscall/js when each request has its own
// Go instance (NewR2BindingJS), or through the request bridge when one
// instance serves many.
type R2Binding interface {
	CallR2(ctx context.Context, call R2Call) (R2Result, error)
}

// r2Chunk bounds one ranged read: a finalize of 16 MB reads in 1 MiB
// calls, never the whole object at once.
const r2Chunk = 1 << 20

// R2 is the edge's object store: reads, stats and deletes through the
// binding; uploads and downloads through presigned URLs of R2's S3 API.
type R2 struct {
	Binding R2Binding
	S3      *S3 // region auto, the account's endpoint, an R2 API token
}

// R2Local is R2 without S3 credentials (wrangler dev, where no S3 API
// exists): clients upload through the service's signed route, which
// writes into the binding (upload.local).
type R2Local struct {
	Binding R2Binding
}

var (
	_ core.ObjectPresigner = R2{}
	_ core.ObjectWriter    = R2Local{}
)

// NewR2 returns the edge's object store: presigned when s3 is set, else
// local-route mode.
func NewR2(binding R2Binding, s3 *S3) core.ObjectStore {
	if s3 == nil {
		return R2Local{Binding: binding}
	}
	return R2{Binding: binding, S3: s3}
}

// Stat implements core.ObjectStore.
func (r R2) Stat(ctx context.Context, key string) (core.ObjectInfo, error) {
	return r2Stat(ctx, r.Binding, key)
}

// Read implements core.ObjectStore.
func (r R2) Read(ctx context.Context, key string, offset, length int64) (io.ReadCloser, error) {
	return r2Read(ctx, r.Binding, key, offset, length)
}

// Delete implements core.ObjectStore.
func (r R2) Delete(ctx context.Context, key string) error { return r2Delete(ctx, r.Binding, key) }

// PresignPut implements core.ObjectPresigner.
func (r R2) PresignPut(ctx context.Context, key, contentType string, ttl time.Duration) (string, error) {
	return r.S3.PresignPut(ctx, key, contentType, ttl)
}

// PresignGet implements core.ObjectPresigner.
func (r R2) PresignGet(ctx context.Context, key string, ttl time.Duration) (string, error) {
	return r.S3.PresignGet(ctx, key, ttl)
}

// Copy implements core.ObjectStore through the binding (R2 has no copy
// call there): the JS side streams the object's body into the put, so
// it never passes through Go.
func (r R2) Copy(ctx context.Context, from, to string) (bool, error) {
	return r2Copy(ctx, r.Binding, from, to)
}

// Copy implements core.ObjectStore, as R2's.
func (r R2Local) Copy(ctx context.Context, from, to string) (bool, error) {
	return r2Copy(ctx, r.Binding, from, to)
}

// Stat implements core.ObjectStore.
func (r R2Local) Stat(ctx context.Context, key string) (core.ObjectInfo, error) {
	return r2Stat(ctx, r.Binding, key)
}

// Read implements core.ObjectStore.
func (r R2Local) Read(ctx context.Context, key string, offset, length int64) (io.ReadCloser, error) {
	return r2Read(ctx, r.Binding, key, offset, length)
}

// Delete implements core.ObjectStore.
func (r R2Local) Delete(ctx context.Context, key string) error { return r2Delete(ctx, r.Binding, key) }

// Write implements core.ObjectWriter: the binding takes whole bodies, so
// at most maxBytes+1 bytes are read to refuse a larger one.
func (r R2Local) Write(ctx context.Context, key, contentType string, body io.Reader, maxBytes int64) (int64, error) {
	b, err := io.ReadAll(io.LimitReader(body, maxBytes+1))
	if err != nil {
		return 0, err
	}
	if int64(len(b)) > maxBytes {
		return 0, core.Errorf(core.CodeRecordingTooLarge, "the upload is over %d bytes", maxBytes)
	}
	if _, err := r.Binding.CallR2(ctx, R2Call{Op: "put", Key: key, ContentType: contentType, Body: b}); err != nil {
		return 0, fmt.Errorf("objects: R2 put %s: %w", key, err)
	}
	return int64(len(b)), nil
}

func r2Stat(ctx context.Context, b R2Binding, key string) (core.ObjectInfo, error) {
	res, err := b.CallR2(ctx, R2Call{Op: "head", Key: key})
	if err != nil {
		return core.ObjectInfo{}, fmt.Errorf("objects: R2 head %s: %w", key, err)
	}
	return core.ObjectInfo{Found: res.Found, Size: res.Size}, nil
}

func r2Copy(ctx context.Context, b R2Binding, from, to string) (bool, error) {
	res, err := b.CallR2(ctx, R2Call{Op: "copy", Key: to, From: from})
	if err != nil {
		return false, fmt.Errorf("objects: R2 copy %s to %s: %w", from, to, err)
	}
	return res.Found, nil
}

func r2Delete(ctx context.Context, b R2Binding, key string) error {
	if _, err := b.CallR2(ctx, R2Call{Op: "delete", Key: key}); err != nil {
		return fmt.Errorf("objects: R2 delete %s: %w", key, err)
	}
	return nil
}

// r2Read streams [offset, offset+length) in ranged calls of r2Chunk.
func r2Read(ctx context.Context, b R2Binding, key string, offset, length int64) (io.ReadCloser, error) {
	if offset < 0 || length <= 0 {
		return nil, fmt.Errorf("objects: read needs offset >= 0 and length > 0")
	}
	return &r2Reader{ctx: ctx, b: b, key: key, next: offset, end: offset + length}, nil
}

type r2Reader struct {
	ctx       context.Context
	b         R2Binding
	key       string
	next, end int64
	buf       bytes.Reader
}

func (r *r2Reader) Read(p []byte) (int, error) {
	for r.buf.Len() == 0 {
		if r.next >= r.end {
			return 0, io.EOF
		}
		n := min(r.end-r.next, r2Chunk)
		res, err := r.b.CallR2(r.ctx, R2Call{Op: "get", Key: r.key, Offset: r.next, Length: n})
		if err != nil {
			return 0, fmt.Errorf("objects: R2 get %s: %w", r.key, err)
		}
		if !res.Found {
			return 0, fmt.Errorf("objects: R2 get %s: gone", r.key)
		}
		if len(res.Body) == 0 { // the object is shorter than asked
			return 0, io.EOF
		}
		r.next += int64(len(res.Body))
		r.buf.Reset(res.Body)
	}
	return r.buf.Read(p)
}

func (r *r2Reader) Close() error { return nil }
