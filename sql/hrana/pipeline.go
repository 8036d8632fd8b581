package hrana

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// send posts one pipeline to pipelineURL on the stream of baton (nil:
// a new stream) and returns the server's answer, one result per request.
// It sends the request once: a failure on the way is returned, never
// retried, since the server may have run it. The request ends by the
// Connector's Timeout; a request the server did not answer fails with
// ErrUnavailable.
func (c *Connector) send(ctx context.Context, pipelineURL string, baton *string, reqs []streamRequest) (*pipelineResponse, error) {
	if c.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.Timeout)
		defer cancel() // the answer is read whole before send returns
	}
	body, err := json.Marshal(pipelineRequest{Baton: baton, Requests: reqs})
	if err != nil {
		return nil, fmt.Errorf("hrana: unable to encode the request: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, pipelineURL, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("hrana: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	client := c.HTTP
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, unanswered(ctx, fmt.Errorf("hrana: request to %s failed: %w", c.redacted, unwrapURLError(err)))
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, unanswered(ctx, fmt.Errorf("hrana: reading the answer of %s failed: %w", c.redacted, err))
	}
	if resp.StatusCode != http.StatusOK {
		return nil, httpError(resp.StatusCode, answer)
	}
	var out pipelineResponse
	if err := json.Unmarshal(answer, &out); err != nil {
		return nil, fmt.Errorf("hrana: unreadable answer from %s: %w", c.redacted, err)
	}
	if len(out.Results) != len(reqs) {
		return nil, fmt.Errorf("hrana: the server answered %d of %d requests", len(out.Results), len(reqs))
	}
	return &out, nil
}

// unanswered marks err, a request that failed on the way, as
// ErrUnavailable, unless the caller itself gave up (its context was
// cancelled, not timed out): then nobody waits for the answer.
func unanswered(ctx context.Context, err error) error {
	if errors.Is(ctx.Err(), context.Canceled) {
		return err
	}
	return fmt.Errorf("%w: %w", ErrUnavailable, err)
}

// unwrapURLError drops net/http's "Post <url>:" wrapping (the URL is
// named by the caller's message).
func unwrapURLError(err error) error {
	if inner := errors.Unwrap(err); inner != nil {
		return inner
	}
	return err
}

// httpError reads an error answer: a JSON Error when it is one, else its
// text, shortened.
func httpError(status int, body []byte) *HTTPError {
	e := &HTTPError{Status: status}
	var se serverError
	if json.Unmarshal(body, &se) == nil && (se.Message != "" || se.Error != "") {
		e.Message, e.Code = se.Message, se.Code
		if e.Message == "" {
			e.Message = se.Error
		}
		return e
	}
	msg := strings.TrimSpace(string(body))
	if len(msg) > 500 {
		msg = msg[:500] + "..."
	}
	e.Message = msg
	return e
}

// learn records from an answer to a request that did not close its
// stream whether the server keeps streams.
func (c *Connector) learn(resp *pipelineResponse) {
	if resp.Baton != nil {
		c.streams.Store(streamsKept)
	} else {
		c.streams.Store(streamsNone)
	}
}

// oneShot runs reqs on a new stream and closes it in the same request
// where the server keeps streams (so none is left open). The answer's
// results are those of reqs.
func (c *Connector) oneShot(ctx context.Context, reqs ...streamRequest) ([]streamResult, error) {
	kept := c.streams.Load() == streamsKept
	if kept {
		reqs = append(reqs, streamRequest{Type: "close"})
	}
	resp, err := c.send(ctx, c.pipelineURL, nil, reqs)
	if err != nil {
		return nil, err
	}
	if kept {
		return resp.Results[:len(reqs)-1], nil
	}
	c.learn(resp)
	return resp.Results, nil
}

// executeRequest is the request executing s.
func executeRequest(s stmt) streamRequest { return streamRequest{Type: "execute", Stmt: &s} }

// stmtOutcome returns an execute request's statement result or the
// server's error for it.
func stmtOutcome(r streamResult) (*stmtResult, error) {
	if r.Type == "error" || r.Error != nil {
		if r.Error == nil {
			return nil, &Error{Message: "the server reported an error without a message"}
		}
		return nil, r.Error
	}
	if r.Response == nil || r.Response.Type != "execute" {
		return nil, fmt.Errorf("hrana: the server answered an execute with %+v", r.Response)
	}
	return &r.Response.Result.stmtResult, nil
}

// batchOutcome returns a batch request's result or the server's error
// for the whole request.
func batchOutcome(r streamResult, steps int) (*result, error) {
	if r.Type == "error" || r.Error != nil {
		if r.Error == nil {
			return nil, &Error{Message: "the server reported an error without a message"}
		}
		return nil, r.Error
	}
	if r.Response == nil || r.Response.Type != "batch" {
		return nil, fmt.Errorf("hrana: the server answered a batch with %+v", r.Response)
	}
	res := &r.Response.Result
	if len(res.StepResults) != steps || len(res.StepErrors) != steps {
		return nil, fmt.Errorf("hrana: the server answered %d of %d batch steps", len(res.StepResults), steps)
	}
	return res, nil
}
