package objects

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"arena/core"
)

// S3 keeps objects in an S3-compatible bucket (R2, S3, MinIO,
// versitygw), path-style. Clients upload and download through presigned
// URLs (SigV4, Content-Type signed on uploads); the service's own stat,
// bounded read and delete are presigned requests too, so one signing
// routine serves everything. Signatures carry the wall clock's time (the
// store checks them against real time, whatever the service clock says).
type S3 struct {
	// Endpoint is the store's origin, e.g. https://<account>.r2.cloudflarestorage.com.
	Endpoint        string
	Bucket          string
	Region          string // "auto" for R2; us-east-1 when empty
	AccessKeyID     string
	SecretAccessKey string
	// HTTP makes the service's own requests; http.DefaultClient when nil.
	HTTP *http.Client
}

var (
	_ core.ObjectStore     = (*S3)(nil)
	_ core.ObjectPresigner = (*S3)(nil)
)

// opTTL is how long the presigned URL of one of the service's own
// requests lives.
const opTTL = time.Minute

// objectURL is the path-style URL of key.
func (s *S3) objectURL(key string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimRight(s.Endpoint, "/"))
	if err != nil || u.Scheme == "" || u.Host == "" {
		return nil, fmt.Errorf("objects: S3 endpoint %q is not an origin", s.Endpoint)
	}
	parts := strings.Split(key, "/")
	for i, p := range parts {
		parts[i] = url.PathEscape(p)
	}
	u.Path = "/" + s.Bucket + "/" + strings.Join(parts, "/")
	u.RawPath = "/" + url.PathEscape(s.Bucket) + "/" + strings.Join(parts, "/")
	return u, nil
}

func (s *S3) region() string {
	if s.Region == "" {
		return "us-east-1"
	}
	return s.Region
}

func (s *S3) client() *http.Client {
	if s.HTTP == nil {
		return http.DefaultClient
	}
	return s.HTTP
}

// presign returns a presigned URL for method on key; contentType, when
// set, is a signed header the request must carry.
func (s *S3) presign(ctx context.Context, method, key, contentType string, ttl time.Duration) (string, error) {
	var signed http.Header
	if contentType != "" {
		signed = http.Header{"Content-Type": {contentType}}
	}
	return s.presignHeaders(ctx, method, key, signed, ttl)
}

// presignHeaders returns a presigned URL for method on key whose request
// must carry the signed headers.
func (s *S3) presignHeaders(ctx context.Context, method, key string, signed http.Header, ttl time.Duration) (string, error) {
	u, err := s.objectURL(key)
	if err != nil {
		return "", err
	}
	if ttl < time.Second || ttl > 7*24*time.Hour {
		return "", fmt.Errorf("objects: presign TTL %s is outside 1s to 7 days", ttl)
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), nil)
	if err != nil {
		return "", err
	}
	for k, v := range signed {
		req.Header[k] = v
	}
	return presignV4(req, s.AccessKeyID, s.SecretAccessKey, s.region(), ttl)
}

// PresignPut implements core.ObjectPresigner.
func (s *S3) PresignPut(ctx context.Context, key, contentType string, ttl time.Duration) (string, error) {
	return s.presign(ctx, http.MethodPut, key, contentType, ttl)
}

// PresignGet implements core.ObjectPresigner.
func (s *S3) PresignGet(ctx context.Context, key string, ttl time.Duration) (string, error) {
	return s.presign(ctx, http.MethodGet, key, "", ttl)
}

// do sends a presigned request for the service itself; signed headers
// are part of the signature (every x-amz- header must be), the others
// (Range) are only sent.
func (s *S3) do(ctx context.Context, method, key string, signedHeader, header http.Header) (*http.Response, error) {
	target, err := s.presignHeaders(ctx, method, key, signedHeader, opTTL)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, method, target, nil)
	if err != nil {
		return nil, err
	}
	for _, h := range []http.Header{signedHeader, header} {
		for k, v := range h {
			req.Header[k] = v
		}
	}
	resp, err := s.client().Do(req)
	if err != nil {
		return nil, fmt.Errorf("objects: %s %s: %w", method, key, err)
	}
	return resp, nil
}

// Stat implements core.ObjectStore with a HEAD request.
func (s *S3) Stat(ctx context.Context, key string) (core.ObjectInfo, error) {
	resp, err := s.do(ctx, http.MethodHead, key, nil, nil)
	if err != nil {
		return core.ObjectInfo{}, err
	}
	resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return core.ObjectInfo{}, nil
	case resp.StatusCode != http.StatusOK:
		return core.ObjectInfo{}, fmt.Errorf("objects: HEAD %s: status %d", key, resp.StatusCode)
	}
	size, err := strconv.ParseInt(resp.Header.Get("Content-Length"), 10, 64)
	if err != nil || size < 0 {
		return core.ObjectInfo{}, fmt.Errorf("objects: HEAD %s: no size", key)
	}
	return core.ObjectInfo{Found: true, Size: size}, nil
}

// Read implements core.ObjectStore with a ranged GET, streamed.
func (s *S3) Read(ctx context.Context, key string, offset, length int64) (io.ReadCloser, error) {
	if offset < 0 || length <= 0 {
		return nil, errors.New("objects: read needs offset >= 0 and length > 0")
	}
	header := http.Header{"Range": {fmt.Sprintf("bytes=%d-%d", offset, offset+length-1)}}
	resp, err := s.do(ctx, http.MethodGet, key, nil, header)
	if err != nil {
		return nil, err
	}
	switch resp.StatusCode {
	case http.StatusPartialContent:
	case http.StatusOK: // a store that ignores Range: skip to offset
		if _, err := io.CopyN(io.Discard, resp.Body, offset); err != nil {
			resp.Body.Close()
			return nil, fmt.Errorf("objects: GET %s: %w", key, err)
		}
	default:
		resp.Body.Close()
		return nil, fmt.Errorf("objects: GET %s: status %d", key, resp.StatusCode)
	}
	return limitedBody{Reader: io.LimitReader(resp.Body, length), Closer: resp.Body}, nil
}

// Delete implements core.ObjectStore.
func (s *S3) Delete(ctx context.Context, key string) error {
	resp, err := s.do(ctx, http.MethodDelete, key, nil, nil)
	if err != nil {
		return err
	}
	resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusOK, http.StatusNoContent, http.StatusNotFound:
		return nil
	}
	return fmt.Errorf("objects: DELETE %s: status %d", key, resp.StatusCode)
}

// Copy implements core.ObjectStore with CopyObject: the store copies
// the object itself (nothing passes through the service), as a
// snapshot. A copy can answer 200 with an error in its body (S3 does
// for long copies), so the body is read too.
func (s *S3) Copy(ctx context.Context, from, to string) (bool, error) {
	src, err := s.objectURL(from)
	if err != nil {
		return false, err
	}
	signed := http.Header{"X-Amz-Copy-Source": {src.EscapedPath()}}
	resp, err := s.do(ctx, http.MethodPut, to, signed, nil)
	if err != nil {
		return false, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if err != nil {
		return false, fmt.Errorf("objects: copy %s: %w", from, err)
	}
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return false, nil
	case resp.StatusCode != http.StatusOK || bytes.Contains(body, []byte("<Error>")):
		if bytes.Contains(body, []byte("<Code>NoSuchKey</Code>")) {
			return false, nil
		}
		return false, fmt.Errorf("objects: copy %s to %s: status %d: %.200s", from, to, resp.StatusCode, body)
	}
	return true, nil
}

// limitedBody reads a bounded part of a response body and closes it.
type limitedBody struct {
	io.Reader
	io.Closer
}
