package openapitest

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"slices"
	"sync"
	"testing"
)

// Recorder checks every response passing through its Handler or
// RoundTripper against the document, failing its test on any mismatch,
// and remembers which documented operations were exercised. It is safe
// for concurrent use.
type Recorder struct {
	tb testing.TB

	mu                sync.Mutex
	covered           map[string]int // operationId -> responses checked
	allowUndocumented bool
}

// NewRecorder returns a Recorder that reports mismatches to tb. It fails
// tb at once when the document itself is unusable.
func NewRecorder(tb testing.TB) *Recorder {
	tb.Helper()
	if _, err := load(); err != nil {
		tb.Fatalf("%v", err)
	}
	return &Recorder{tb: tb, covered: map[string]int{}}
}

// AllowUndocumented makes the Recorder skip responses to requests that
// match no documented operation (a suite probing unknown routes or wrong
// methods) instead of failing them. Responses of documented operations
// are still checked in full.
func (r *Recorder) AllowUndocumented() {
	r.mu.Lock()
	r.allowUndocumented = true
	r.mu.Unlock()
}

// Validate checks one response like ValidateResponse and records its
// operation as covered.
func (r *Recorder) Validate(method, path string, status int, header http.Header, body []byte) {
	r.tb.Helper()
	id, err := CheckResponse(method, path, status, header, body)
	r.mu.Lock()
	if id != "" {
		r.covered[id]++
	}
	skip := r.allowUndocumented && errors.Is(err, ErrUndocumented)
	r.mu.Unlock()
	if err != nil && !skip {
		r.tb.Errorf("%v", err)
	}
}

// Covered returns the operationIds of the documented operations that had
// at least one response checked, sorted.
func (r *Recorder) Covered() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return sortedKeys(r.covered)
}

// Uncovered returns the operationIds of the documented operations that
// had no response checked yet, sorted: empty once a suite exercised the
// whole document.
func (r *Recorder) Uncovered() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, id := range Operations() {
		if r.covered[id] == 0 {
			out = append(out, id)
		}
	}
	return out
}

// Operations returns the operationIds of every documented operation,
// sorted. It returns nil when the document is unusable (NewRecorder and
// ValidateResponse report why).
func Operations() []string {
	s, err := load()
	if err != nil {
		return nil
	}
	ids := make([]string, 0, len(s.operations))
	for _, op := range s.operations {
		ids = append(ids, op.id)
	}
	slices.Sort(ids)
	return ids
}

// Handler wraps next so that every response it writes is checked once
// the handler returns (method and r.URL.Path of the request, the status,
// the headers as they were when the status was written, and the body).
// The response still reaches the client unchanged. HEAD requests fall
// back to the GET operation without a body check.
func (r *Recorder) Handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		cw := &captureWriter{ResponseWriter: w}
		next.ServeHTTP(cw, req)
		if cw.status == 0 {
			cw.capture(http.StatusOK)
		}
		r.Validate(req.Method, req.URL.Path, cw.status, cw.header, cw.body.Bytes())
	})
}

// RoundTripper wraps next (http.DefaultTransport when nil) so that every
// response it returns is read, checked and handed on with its body
// intact. Transport errors pass through unchecked.
func (r *Recorder) RoundTripper(next http.RoundTripper) http.RoundTripper {
	if next == nil {
		next = http.DefaultTransport
	}
	return roundTripper{r: r, next: next}
}

type roundTripper struct {
	r    *Recorder
	next http.RoundTripper
}

func (t roundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	body, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	t.r.Validate(req.Method, req.URL.Path, resp.StatusCode, resp.Header, body)
	return resp, nil
}

// captureWriter passes a response through while keeping a copy of its
// status, headers and body.
type captureWriter struct {
	http.ResponseWriter
	status int
	header http.Header
	body   bytes.Buffer
}

func (w *captureWriter) capture(status int) {
	w.status = status
	w.header = w.ResponseWriter.Header().Clone()
}

func (w *captureWriter) WriteHeader(status int) {
	if w.status == 0 && status >= 200 { // 1xx responses are interim
		w.capture(status)
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *captureWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.capture(http.StatusOK)
	}
	w.body.Write(b)
	return w.ResponseWriter.Write(b)
}

// Flush lets streaming handlers flush through the wrapper.
func (w *captureWriter) Flush() {
	if w.status == 0 {
		w.capture(http.StatusOK)
	}
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap gives http.ResponseController the underlying writer.
func (w *captureWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
