// Package objects holds the adapters of core.ObjectStore: a local
// directory (the native default, uploads through the service's signed
// route), an S3-compatible bucket (presigned URLs), and R2 (presigned
// URLs through R2's S3 API; reads, deletes and local-route writes
// through the Workers binding).
package objects

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"arena/core"
)

// Local keeps objects as files under Dir (natively data/objects), one
// file per key. It writes through a temporary file renamed into place,
// so a crash never leaves a half-written object under a key.
type Local struct {
	Dir string
}

var (
	_ core.ObjectStore  = Local{}
	_ core.ObjectWriter = Local{}
)

// keyPattern is the shape of the keys the service makes: path segments
// of lowercase letters, digits, dots, hyphens and underscores, no segment
// starting with a dot.
var keyPattern = core.LazyRegexp(`^[a-z0-9_-][a-z0-9._-]*(/[a-z0-9_-][a-z0-9._-]*)*$`)

// ValidKey reports whether key is an object key the adapters accept.
func ValidKey(key string) bool { return len(key) <= 512 && keyPattern().MatchString(key) }

func (l Local) path(key string) (string, error) {
	if !ValidKey(key) {
		return "", fmt.Errorf("objects: invalid key %q", key)
	}
	return filepath.Join(l.Dir, filepath.FromSlash(key)), nil
}

// Stat implements core.ObjectStore.
func (l Local) Stat(_ context.Context, key string) (core.ObjectInfo, error) {
	p, err := l.path(key)
	if err != nil {
		return core.ObjectInfo{}, err
	}
	fi, err := os.Stat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return core.ObjectInfo{}, nil
	}
	if err != nil {
		return core.ObjectInfo{}, err
	}
	return core.ObjectInfo{Found: true, Size: fi.Size()}, nil
}

// Read implements core.ObjectStore: the file, from offset, at most length
// bytes, streamed.
func (l Local) Read(_ context.Context, key string, offset, length int64) (io.ReadCloser, error) {
	p, err := l.path(key)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	return limitedBody{Reader: io.NewSectionReader(f, offset, length), Closer: f}, nil
}

// Delete implements core.ObjectStore.
func (l Local) Delete(_ context.Context, key string) error {
	p, err := l.path(key)
	if err != nil {
		return err
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// Copy implements core.ObjectStore with a hard link: the same file under
// a second name, at no cost in bytes or time. It is a snapshot because
// nothing here writes a file in place: Write renames a new file over a
// key, Delete unlinks a name. Where links are refused, the bytes are
// copied (through a temporary file renamed into place).
func (l Local) Copy(ctx context.Context, from, to string) (bool, error) {
	src, err := l.path(from)
	if err != nil {
		return false, err
	}
	dst, err := l.path(to)
	if err != nil {
		return false, err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return false, err
	}
	if err := os.Remove(dst); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, err
	}
	err = os.Link(src, dst)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, fs.ErrNotExist):
		if _, serr := os.Stat(src); errors.Is(serr, fs.ErrNotExist) {
			return false, nil
		}
		return false, err
	}
	f, err := os.Open(src)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer f.Close()
	_, err = l.Write(ctx, to, core.ReplayContentType, f, math.MaxInt64-1) // a copy, whatever its size
	return err == nil, err
}

// Write implements core.ObjectWriter: the body streamed to a temporary
// file beside the object (synced), then renamed over the key; a body
// over maxBytes is CodeRecordingTooLarge and leaves nothing behind.
func (l Local) Write(ctx context.Context, key, _ string, body io.Reader, maxBytes int64) (int64, error) {
	p, err := l.path(key)
	if err != nil {
		return 0, err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return 0, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".upload-*")
	if err != nil {
		return 0, err
	}
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	n, err := io.Copy(tmp, io.LimitReader(contextReader{ctx, body}, maxBytes+1))
	if err != nil {
		return 0, err
	}
	if n > maxBytes {
		return 0, core.Errorf(core.CodeRecordingTooLarge, "the upload is over %d bytes", maxBytes)
	}
	if err := tmp.Sync(); err != nil {
		return 0, err
	}
	if err := tmp.Close(); err != nil {
		return 0, err
	}
	if err := os.Rename(tmp.Name(), p); err != nil {
		return 0, err
	}
	done = true
	return n, nil
}

// contextReader stops reading once ctx is done (a client gone mid-upload).
type contextReader struct {
	ctx context.Context
	r   io.Reader
}

func (c contextReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// RemoveStaleUploads deletes the temporary files of uploads cut off
// before they were renamed into place (a crash or a kill mid-upload),
// when older than cutoff. The native start runs it once.
func (l Local) RemoveStaleUploads(cutoff time.Time) (int, error) {
	removed := 0
	err := filepath.WalkDir(l.Dir, func(path string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil || d.IsDir() || !strings.HasPrefix(d.Name(), ".upload-") {
			return err
		}
		info, err := d.Info()
		if err != nil || !info.ModTime().Before(cutoff) {
			return err
		}
		if err := os.Remove(path); err != nil {
			return err
		}
		removed++
		return nil
	})
	return removed, err
}
