package core

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"time"
)

// Live streams (docs/events.md): the event log's events for one
// tournament, one match or the whole arena, as Server-Sent Events. Each
// message is one event: id = seq, event = type, data = the event's JSON;
// a client that reconnects with Last-Event-ID (or ?after=) resumes from
// the log without a gap. Natively the server holds each stream and
// pushes events as they are sealed; on the edge each answer is one
// finite page and the front holds the stream, asking again every
// LiveRetry.

// Live stream limits.
const (
	// LiveRetry is the reconnection delay an answer tells EventSource
	// (SSE retry), and how often the edge's front asks for the next page.
	LiveRetry = time.Second
	// LiveKeepAlive is how long a held stream may stay silent: a comment
	// is sent after it, so proxies and clients see the stream alive.
	LiveKeepAlive = 20 * time.Second
	// LiveBacklog bounds the events queued for one watcher; a watcher
	// that falls this far behind is closed and resumes by Last-Event-ID.
	// The queue grows as events come, up to it: nothing is set aside for
	// a watcher that is keeping up.
	LiveBacklog = 1024
	// LiveWriteTimeout bounds one write to a held stream: a watcher that
	// does not read for this long is dropped (its slot freed); the client
	// resumes by Last-Event-ID.
	LiveWriteTimeout = 10 * time.Second
	// LiveMaxStreamsAnonymous is how many streams one client IP holds at
	// once without an API key, across the arenas a process serves;
	// LiveMaxStreamsKey how many one API key holds. The next is 429
	// CodeTooManyStreams.
	LiveMaxStreamsAnonymous = 8
	LiveMaxStreamsKey       = 64
	// LivePage bounds the events one read of the log returns to a stream.
	LivePage = EventLogMaxLimit
)

// CodeTooManyStreams: the caller already holds its most live streams
// (LiveMaxStreamsAnonymous per IP, LiveMaxStreamsKey per API key).
const CodeTooManyStreams = "too_many_streams"

// ErrLiveCursorAhead: a stream's cursor is beyond the log's last event
// (a cursor from another arena or another log); the HTTP layer answers
// invalid_field naming the field the cursor came in.
var ErrLiveCursorAhead = errors.New("live: the cursor is beyond the log's last event")

// ParseSeq reads a cursor into the event log (?after= of the log's pages,
// a live stream's Last-Event-ID or ?after=): a seq in plain decimal, as
// the log writes it (0, or digits without a leading zero), up to 2^62.
// A sign, leading zeros, spaces or anything else is not a seq.
func ParseSeq(raw string) (int64, bool) {
	if raw == "" || len(raw) > 19 || (raw[0] == '0' && len(raw) > 1) {
		return 0, false
	}
	for i := 0; i < len(raw); i++ {
		if raw[i] < '0' || raw[i] > '9' {
			return 0, false
		}
	}
	v, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || v > 1<<62 {
		return 0, false
	}
	return v, true
}

// LiveFilter picks the events a stream shows: one tournament's (by
// slug), one match's, or, with neither set, the whole arena's.
type LiveFilter struct {
	Tournament string
	MatchID    int64
}

// Match reports whether the stream shows e.
func (f LiveFilter) Match(e LogEvent) bool {
	switch {
	case f.MatchID != 0:
		return e.MatchID != nil && *e.MatchID == f.MatchID
	case f.Tournament != "":
		return e.Tournament != nil && *e.Tournament == f.Tournament
	}
	return true
}

// LiveMessage is the SSE message of one event.
func LiveMessage(e LogEvent) ([]byte, error) {
	data, err := json.Marshal(e)
	if err != nil {
		return nil, err
	}
	msg := make([]byte, 0, len(data)+len(e.Type)+40)
	msg = append(msg, "id: "...)
	msg = strconv.AppendInt(msg, e.Seq, 10)
	msg = append(msg, "\nevent: "...)
	msg = append(msg, e.Type...)
	msg = append(msg, "\ndata: "...)
	msg = append(msg, data...)
	return append(msg, "\n\n"...), nil
}

// LiveRetryField is the SSE field telling the client how long to wait
// before reconnecting.
func LiveRetryField() []byte {
	return []byte("retry: " + strconv.FormatInt(LiveRetry.Milliseconds(), 10) + "\n\n")
}

// LiveEvents returns the events after seq that f shows, reading the log
// (sealing it first) up to LivePage events on; last is the seq the
// stream is at after them (the last event read, shown or not), and more
// says the log has events beyond last. A seq beyond the log's last event
// is ErrLiveCursorAhead.
//
// A sealed log, quiet or not, costs one read (EventLogStore.ReadLog).
func LiveEvents(ctx context.Context, st EventLogStore, after int64, f LiveFilter) (events []LogEvent, last int64, more bool, err error) {
	v, err := readSealed(ctx, st, after, LivePage+1)
	if err == nil && v.End < after {
		err = ErrLiveCursorAhead
	}
	if err != nil || v.End <= after {
		return nil, after, false, err
	}
	page := pageOf(v.Events, LivePage)
	last = after
	for _, e := range page.Events {
		if f.Match(e) {
			events = append(events, e)
		}
		last = e.Seq
	}
	return events, last, page.Next != nil, nil
}
