package client

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// The arena's public reads the log's checks make (VerifyTiles,
// VerifyReceiptOf): no ticket, an API key when given, a 429 read again
// after its Retry-After.

// DefaultReadRetries is how many times a public read answered 429
// rate_limited is repeated before it gives up (TlogOptions.Retries).
const DefaultReadRetries = 5

// maxRetryAfter bounds one wait on a 429's Retry-After.
const maxRetryAfter = 120 * time.Second

// publicRead performs a public read (no ticket; the API key when set) and
// decodes its 200 answer (a *[]byte takes the body as is). A 429 is
// repeated after its Retry-After, up to retries times (0:
// DefaultReadRetries, negative: none).
func (c *Client) publicRead(ctx context.Context, path, apiKey string, retries int, out any) error {
	auth := ""
	if apiKey != "" {
		auth = "Bearer " + apiKey
	}
	if retries == 0 {
		retries = DefaultReadRetries
	}
	for attempt := 0; ; attempt++ {
		status, data, hdr, err := c.doHeader(ctx, http.MethodGet, path, nil, auth)
		if err != nil {
			return err
		}
		if status == http.StatusTooManyRequests && attempt < retries {
			wait := RetryAfter(hdr.Get("Retry-After"))
			c.logf("client: GET %s: 429, retrying in %s", path, wait)
			if err := c.sleep(ctx, wait); err != nil {
				return err
			}
			continue
		}
		if raw, ok := out.(*[]byte); ok {
			if status != http.StatusOK {
				return apiError(http.MethodGet, path, status, data)
			}
			*raw = data
			return nil
		}
		_, err = decodeAnswer(http.MethodGet, path, status, data, out)
		return err
	}
}

// RetryAfter is the wait a 429's Retry-After asks for: its seconds (an
// HTTP date is read too), at least 1 s (also when absent or unreadable)
// and at most two minutes.
func RetryAfter(v string) time.Duration {
	d := time.Second
	if n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil {
		d = time.Duration(min(max(n, 1), int64(maxRetryAfter/time.Second))) * time.Second
	} else if t, err := http.ParseTime(v); err == nil {
		d = time.Until(t)
	}
	return min(max(d, time.Second), maxRetryAfter)
}

// invalid marks a verification failure as ErrLogInvalid.
func invalid(err error) error { return fmt.Errorf("%w: %w", ErrLogInvalid, err) }
