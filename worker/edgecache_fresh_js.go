//go:build js && wasm && edgefresh

package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"time"

	"github.com/syumai/workers/cloudflare/cache"

	"arena/worker/server"
)

// edgeCache keeps public reads in the Workers Cache API of the data center
// the request reached, called from Go: right only in the fresh-instance
// build, where the instance belongs to one request. Keys are synthetic
// URLs under a host nobody serves.
type edgeCache struct{}

func cacheRequest(key string) (*http.Request, error) {
	return http.NewRequest(http.MethodGet, "https://public-cache.arena.invalid/"+key, nil)
}

// Get implements server.SharedCache.
func (edgeCache) Get(ctx context.Context, key string) ([]byte, string, bool) {
	req, err := cacheRequest(key)
	if err != nil {
		return nil, "", false
	}
	res, err := cache.New().Match(req, nil)
	if err != nil {
		return nil, "", false
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, "", false
	}
	return body, res.Header.Get("ETag"), true
}

// Put implements server.SharedCache.
func (edgeCache) Put(ctx context.Context, key string, body []byte, etag string, ttl time.Duration) {
	req, err := cacheRequest(key)
	if err != nil {
		return
	}
	res := &http.Response{
		StatusCode: http.StatusOK,
		Header: http.Header{
			"Content-Type":  {"application/json"},
			"Cache-Control": {server.CacheControl(ttl)},
			"ETag":          {etag},
		},
		Body:          io.NopCloser(bytes.NewReader(body)),
		ContentLength: int64(len(body)),
	}
	_ = cache.New().Put(req, res)
}
