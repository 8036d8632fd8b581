package edge

import (
	"bytes"
	"io"
	"net/http"
	"strconv"
)

// Transport is an http.RoundTripper that has the JS side of the request
// found in the outbound request's context make the call (libSQL over
// HTTP, the platform's and the Turso APIs). Every outbound call must carry
// its request's context; one that does not is deferred (see Bridge.Do).
type Transport struct{ Bridge *Bridge }

// RoundTrip implements http.RoundTripper.
func (t Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		b, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		body = b
	}
	header := req.Header.Clone()
	if header == nil {
		header = http.Header{}
	}
	if req.Host != "" && req.Host != req.URL.Host {
		header.Set("Host", req.Host)
	}
	fetch := &Fetch{Method: req.Method, URL: req.URL.String(), Header: header, Body: body}
	if deadline, ok := req.Context().Deadline(); ok {
		fetch.TimeoutMs = max(deadline.Sub(t.Bridge.now()).Milliseconds(), 1)
	}
	r, err := t.Bridge.Do(req.Context(), Command{Kind: KindFetch, Fetch: fetch})
	if err != nil {
		return nil, err
	}
	if r.Header == nil {
		r.Header = http.Header{}
	}
	n := int64(len(r.Body))
	r.Header.Set("Content-Length", strconv.FormatInt(n, 10))
	return &http.Response{
		Status:        strconv.Itoa(r.Status) + " " + http.StatusText(r.Status),
		StatusCode:    r.Status,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        r.Header,
		Body:          io.NopCloser(bytes.NewReader(r.Body)),
		ContentLength: n,
		Request:       req,
	}, nil
}
