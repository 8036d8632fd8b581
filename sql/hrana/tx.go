package hrana

import (
	"context"
	"errors"
	"fmt"
)

// tx is an interactive transaction on one stream. Its requests go one
// after another, each with the baton the previous answer gave. The first
// statement's request also carries BEGIN, as a batch whose statement runs
// only if BEGIN succeeded; COMMIT and ROLLBACK carry the stream's close.
type tx struct {
	conn  *conn
	baton *string         // the stream's baton; nil until a request opened it
	url   string          // where the stream's requests go (the server may move it)
	ctx   context.Context // the latest statement's, uncancelled: COMMIT and ROLLBACK take none
	begun bool            // BEGIN ran on the stream
	err   error           // why the stream is gone; every later call fails with it
}

// beginSQL takes the write lock at BEGIN, as the local database's
// transactions do (_txlock=immediate): a transaction that reads and then
// writes waits for the lock up front instead of failing on the upgrade.
const beginSQL = "BEGIN IMMEDIATE"

// follow takes the stream's next baton (and address) from an answer.
func (t *tx) follow(resp *pipelineResponse) {
	t.baton = resp.Baton
	if resp.BaseURL != nil && *resp.BaseURL != "" {
		t.url = *resp.BaseURL + "/v2/pipeline"
	}
}

// lose marks the stream gone for cause (nil: the server closed it).
func (t *tx) lose(cause error) error {
	if cause == nil {
		t.err = ErrStreamLost
	} else {
		t.err = fmt.Errorf("%w: %w", ErrStreamLost, cause)
	}
	return t.err
}

// run executes s in the transaction.
func (t *tx) run(ctx context.Context, s stmt) (*stmtResult, error) {
	if t.err != nil {
		return nil, t.err
	}
	t.ctx = context.WithoutCancel(ctx)
	req := executeRequest(s)
	if !t.begun {
		req = streamRequest{Type: "batch", Batch: &batch{Steps: []batchStep{
			{Stmt: stmt{SQL: beginSQL}},
			{Stmt: s, Condition: ptr(stepOK(0))},
		}}}
	}
	resp, err := t.conn.c.send(ctx, t.url, t.baton, []streamRequest{req})
	if err != nil {
		return nil, t.lose(err)
	}
	if resp.Baton == nil {
		return nil, t.lose(nil)
	}
	t.follow(resp)
	if t.begun {
		return stmtOutcome(resp.Results[0])
	}
	res, err := batchOutcome(resp.Results[0], 2)
	if err != nil {
		return nil, err
	}
	if e := res.StepErrors[0]; e != nil {
		return nil, e // BEGIN failed: no transaction yet, the next statement tries again
	}
	t.begun = true
	if e := res.StepErrors[1]; e != nil {
		return nil, e
	}
	if res.StepResults[1] == nil {
		return nil, fmt.Errorf("hrana: the server skipped the statement after BEGIN")
	}
	return res.StepResults[1], nil
}

// Commit commits the transaction and closes its stream in one request.
// Its error is COMMIT's; when the request failed on the way, whether the
// commit happened is unknown and the error says so.
func (t *tx) Commit() error {
	return t.end("COMMIT")
}

// Rollback rolls the transaction back and closes its stream in one
// request. A transaction whose stream is gone has nothing left to roll
// back.
func (t *tx) Rollback() error {
	if t.err != nil {
		t.conn.tx = nil
		return nil
	}
	return t.end("ROLLBACK")
}

func (t *tx) end(sql string) error {
	t.conn.tx = nil
	if t.err != nil {
		return t.err
	}
	if !t.begun {
		// Nothing ran: no transaction is open. A stream opened to ask
		// whether the server keeps streams expires on its own.
		return nil
	}
	// database/sql ends a transaction without a context: the request
	// carries the last statement's (its values, not its cancellation), so
	// a transport that finds its request through the context finds it.
	resp, err := t.conn.c.send(t.ctx, t.url, t.baton,
		[]streamRequest{executeRequest(stmt{SQL: sql}), {Type: "close"}})
	var herr *HTTPError
	switch {
	case err == nil:
	case errors.As(err, &herr) && herr.Status < 500:
		return fmt.Errorf("%w: %w", ErrStreamLost, err) // refused before it ran
	case sql == "COMMIT":
		return fmt.Errorf("hrana: the COMMIT request failed, so whether the transaction was committed is unknown: %w", err)
	default:
		return err
	}
	_, err = stmtOutcome(resp.Results[0])
	return err
}

func ptr[T any](v T) *T { return &v }
