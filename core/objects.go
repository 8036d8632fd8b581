package core

import (
	"context"
	"io"
	"time"
)

// ObjectStore is where recordings and segments live (spec 1.5): one port,
// an adapter per place (a local directory, an S3-compatible store, R2).
// Clients upload by HTTP PUT to a URL the service hands out, never
// through the API; the service only stats, reads a bounded range and
// deletes. Keys are the service's own ("<arena>/rec/<id>-<random>.gz").
//
// An adapter also offers one of two ways in (found by type assertion):
// ObjectPresigner when clients reach the store directly (S3, R2), or
// ObjectWriter when the service writes the objects itself and clients
// PUT to its signed route (upload.local: the local directory, and R2
// through its binding under wrangler dev).
type ObjectStore interface {
	// Stat returns the stored object's size, or found false when no
	// object has the key.
	Stat(ctx context.Context, key string) (ObjectInfo, error)
	// Read returns a reader of at most length bytes of the object from
	// offset: a bounded read, streamed, never the whole object in memory
	// unless the adapter's transport forces it (then in bounded chunks).
	// A missing object is found false from Stat; Read on it fails.
	Read(ctx context.Context, key string, offset, length int64) (io.ReadCloser, error)
	// Delete removes the object; deleting a missing one is not an error.
	Delete(ctx context.Context, key string) error
	// Copy stores at to a copy of the object at from as it is now: a
	// snapshot that no later write to from reaches. found is false when
	// from has no object (then nothing is stored). Finalize checks such a
	// copy, under a key no upload URL names, and serves only it.
	Copy(ctx context.Context, from, to string) (found bool, err error)
}

// ObjectInfo is what Stat knows about an object.
type ObjectInfo struct {
	Found bool
	Size  int64
}

// ObjectPresigner is an ObjectStore that clients reach directly through
// presigned URLs (SigV4). The adapter reads its own wall clock: the store
// checks the signature's time against real time, whatever the service
// clock says.
type ObjectPresigner interface {
	// PresignPut returns a URL accepting PUT of key with exactly
	// contentType (part of the signature) for ttl.
	PresignPut(ctx context.Context, key, contentType string, ttl time.Duration) (string, error)
	// PresignGet returns a URL serving key for ttl.
	PresignGet(ctx context.Context, key string, ttl time.Duration) (string, error)
}

// ObjectWriter is an ObjectStore the service writes itself: clients PUT
// to the service's signed route, which hands the body here.
type ObjectWriter interface {
	// Write stores body under key, streamed, and returns its size. A body
	// longer than maxBytes is refused with CodeRecordingTooLarge and
	// nothing is kept.
	Write(ctx context.Context, key, contentType string, body io.Reader, maxBytes int64) (int64, error)
}

// ReplayContentType is the one content type of uploads (spec 4.1).
const ReplayContentType = "application/gzip"

// How long the URLs the service hands out stay valid: an upload URL long
// enough for a slow connection to send 16 MB, a fetch URL long enough to
// start a download.
const (
	UploadURLTTL = 15 * time.Minute
	FetchURLTTL  = 5 * time.Minute
)

// Errors of the service's own signed object route (upload.local).
const (
	CodeInvalidSignature = "invalid_signature" // 403: tampered, unsigned, or another method, key or Content-Type
	CodeURLExpired       = "url_expired"       // 403: past the URL's expiry
)

// CodeStorageUnavailable: the deployment has no object storage
// configured (503).
const CodeStorageUnavailable = "storage_unavailable"

// CodeRecordingFinalized: a PUT to the service's upload route after the
// recording or segment it names was finalized (409). Nothing it sent
// would be served anyway: what finalize checked is a copy.
const CodeRecordingFinalized = "recording_finalized"

// CheckedCopyClaimWindow is how long a finalize may take to claim the
// copy it checked: the copy's removal is scheduled this far ahead before
// the copy is made, and a finalize claims it (cancelling the removal)
// only before then. A copy a crashed or losing finalize left behind is
// removed by the scheduled job once due.
const CheckedCopyClaimWindow = time.Hour

// MaxObjectRemovalsPerRun bounds the objects one scheduled run removes
// per arena; the rest wait for the next run.
const MaxObjectRemovalsPerRun = 200
