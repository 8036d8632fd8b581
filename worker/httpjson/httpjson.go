// Package httpjson sends the JSON requests of the providers' APIs the
// service calls with a bearer token (Cloudflare's, Turso's): one request,
// the answer's status and its body read up to MaxBody. Each provider
// package interprets the answer's envelope and errors itself.
package httpjson

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
)

// MaxBody bounds an answer's body that is read.
const MaxBody = 1 << 20

// Do sends in (when not nil) as JSON to url with the bearer token and
// returns the answer's status and body. A nil client is
// http.DefaultClient. The request carries ctx (on the edge, the request
// bridge finds the serving request through it).
func Do(ctx context.Context, client *http.Client, method, url, token string, in any) (int, []byte, error) {
	var body io.Reader
	if in != nil {
		raw, err := json.Marshal(in)
		if err != nil {
			return 0, nil, err
		}
		body = bytes.NewReader(raw)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, body)
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if client == nil {
		client = http.DefaultClient
	}
	res, err := client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(res.Body, MaxBody))
	if err != nil {
		return res.StatusCode, nil, err
	}
	return res.StatusCode, raw, nil
}
