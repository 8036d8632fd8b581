package edge

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/core"
	"arena/worker/objects"
)

// jsSide plays a request's JS side the way js/go.mjs does: ask for the
// next command, perform it, deliver the result, until the answer.
func jsSide(b *Bridge, id int64, perform func(Command) Result) Response {
	for {
		next := make(chan Command, 1)
		b.Next(id, func(c Command) { next <- c })
		cmd := <-next
		if cmd.Kind == KindRespond {
			return *cmd.Response
		}
		b.Deliver(id, cmd.Seq, perform(cmd))
	}
}

func newBridge() *Bridge {
	return New(time.Now, func(string, ...any) {})
}

// echoFetch answers a fetch with its URL and which call performed it.
func echoFetch(id int64) func(Command) Result {
	return func(c Command) Result {
		if c.Kind != KindFetch {
			return Result{Err: "unexpected " + c.Kind}
		}
		return Result{Status: 200, Header: http.Header{"X-Call": {fmt.Sprint(id)}}, Body: []byte(c.Fetch.URL)}
	}
}

func TestEachRequestsFetchesRunOnItsOwnSide(t *testing.T) {
	b := newBridge()
	client := &http.Client{Transport: Transport{Bridge: b}}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for i := range 3 { // several round trips, like a submission's queries
			res, err := client.Do(mustRequest(r.Context(), fmt.Sprintf("http://db.test/%s/%d", r.URL.Path, i)))
			if err != nil {
				http.Error(w, err.Error(), 500)
				return
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			fmt.Fprintf(w, "%s by %s;", body, res.Header.Get("X-Call"))
		}
	})
	const n = 32
	var wg sync.WaitGroup
	answers := make([]Response, n)
	for i := range n {
		id := int64(i + 1)
		req, _ := http.NewRequest("GET", fmt.Sprintf("http://arena.test/r%d", id), nil)
		require.NoError(t, b.ServeHTTP(id, h, req))
		wg.Add(1)
		go func() {
			defer wg.Done()
			answers[i] = jsSide(b, id, echoFetch(id))
		}()
	}
	wg.Wait()
	for i, a := range answers {
		id := i + 1
		want := ""
		for j := range 3 {
			want += fmt.Sprintf("http://db.test//r%d/%d by %d;", id, j, id)
		}
		assert.Equal(t, 200, a.Status)
		assert.Equal(t, want, string(a.Body), "request %d", id)
	}
	assert.Zero(t, b.InFlight(), "every call handed over its answer")
}

func mustRequest(ctx context.Context, url string) *http.Request {
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		panic(err)
	}
	return req
}

func TestAPanicAnswers500AndTheBridgeServesOn(t *testing.T) {
	b := newBridge()
	req, _ := http.NewRequest("GET", "http://arena.test/", nil)
	require.NoError(t, b.ServeHTTP(1, http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("boom") }), req))
	a := jsSide(b, 1, echoFetch(1))
	assert.Equal(t, http.StatusInternalServerError, a.Status)
	assert.JSONEq(t, `{"error":"internal"}`, string(a.Body))
	require.NoError(t, b.ServeHTTP(2, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(204) }), req))
	assert.Equal(t, 204, jsSide(b, 2, echoFetch(2)).Status)
}

func TestAnIdInFlightIsRefused(t *testing.T) {
	b := newBridge()
	block := make(chan struct{})
	require.NoError(t, b.Start(7, func(context.Context) Response { <-block; return Response{Status: 200} }))
	assert.Error(t, b.Start(7, func(context.Context) Response { return Response{} }))
	close(block)
	assert.Equal(t, 200, jsSide(b, 7, echoFetch(7)).Status)
	assert.Equal(t, 500, jsSide(b, 7, echoFetch(7)).Status, "an answered call is unknown")
}

func TestCancelEndsAWaitingCommand(t *testing.T) {
	b := newBridge()
	got := make(chan error, 1)
	require.NoError(t, b.Start(1, func(ctx context.Context) Response {
		_, err := b.Do(ctx, Command{Kind: KindFetch, Fetch: &Fetch{Method: "GET", URL: "http://slow.test"}})
		got <- err
		return Response{Status: 504}
	}))
	next := make(chan Command, 1)
	b.Next(1, func(c Command) { next <- c })
	cmd := <-next
	require.Equal(t, KindFetch, cmd.Kind, "the JS side is performing the fetch")
	b.Cancel(1) // its deadline passed
	assert.ErrorIs(t, <-got, context.Canceled)
	b.Deliver(1, cmd.Seq, Result{Status: 200}) // too late: dropped
	assert.Equal(t, 504, jsSide(b, 1, echoFetch(1)).Status)
}

func TestStaleCallsAreCancelled(t *testing.T) {
	now := time.Now()
	b := New(func() time.Time { return now }, func(string, ...any) {})
	got := make(chan error, 1)
	require.NoError(t, b.Start(1, func(ctx context.Context) Response {
		_, err := b.Do(ctx, Command{Kind: KindFetch, Fetch: &Fetch{Method: "GET", URL: "http://gone.test"}})
		got <- err
		return Response{Status: 500}
	}))
	now = now.Add(staleAfter + time.Second) // its request was dropped by the runtime
	require.NoError(t, b.Start(2, func(context.Context) Response { return Response{Status: 200} }))
	assert.ErrorIs(t, <-got, context.Canceled)
	assert.Equal(t, 200, jsSide(b, 2, echoFetch(2)).Status)
}

func TestIOOutsideARequestIsDeferredToTheNextAnswer(t *testing.T) {
	b := newBridge()
	client := &http.Client{Transport: Transport{Bridge: b}}
	_, err := client.Post("http://db.test/v2/pipeline", "application/json", strings.NewReader(`{"close":true}`))
	assert.ErrorIs(t, err, ErrNoRequest)
	_, err = b.Do(context.Background(), Command{Kind: KindRateLimit, RateLimit: &RateLimit{Binding: "X", Key: "k"}})
	assert.ErrorIs(t, err, ErrNoRequest)
	require.NoError(t, b.Start(1, func(context.Context) Response { return Response{Status: 200} }))
	a := jsSide(b, 1, echoFetch(1))
	require.Len(t, a.Deferred, 1, "only fetches are deferred")
	assert.Equal(t, "http://db.test/v2/pipeline", a.Deferred[0].URL)
	assert.Equal(t, `{"close":true}`, string(a.Deferred[0].Body))
	require.NoError(t, b.Start(2, func(context.Context) Response { return Response{Status: 200} }))
	assert.Empty(t, jsSide(b, 2, echoFetch(2)).Deferred, "sent once")
}

func TestAFailedJSCallIsAnError(t *testing.T) {
	b := newBridge()
	var err error
	require.NoError(t, b.Start(1, func(ctx context.Context) Response {
		_, err = Transport{Bridge: b}.RoundTrip(mustRequest(ctx, "http://down.test/"))
		return Response{Status: 502}
	}))
	jsSide(b, 1, func(Command) Result { return Result{Err: "TypeError: fetch failed"} })
	assert.ErrorContains(t, err, "fetch failed")
}

// TestR2ThroughTheJSSide drives the recordings store (objects.NewR2 in
// local-route mode, as under wrangler dev) through the bridge, with the
// JS side playing the bucket: the upload is one put, a read of a
// 2.5 MiB object comes in 1 MiB ranged gets, a missing object is not
// found, a delete removes it.
func TestR2ThroughTheJSSide(t *testing.T) {
	b := newBridge()
	store := objects.NewR2(R2Binding{Bridge: b, Binding: "RECORDINGS"}, nil)
	object := bytes.Repeat([]byte("0123456789abcdef"), 5<<15) // 2.5 MiB
	var (
		written          int64
		info, gone       core.ObjectInfo
		read             []byte
		missing          core.ObjectInfo
		writeErr, errAll error
	)
	require.NoError(t, b.Start(1, func(ctx context.Context) Response {
		written, writeErr = store.(core.ObjectWriter).Write(ctx, "a/rec/1.gz", core.ReplayContentType, bytes.NewReader(object), 16<<20)
		info, errAll = store.Stat(ctx, "a/rec/1.gz")
		if r, err := store.Read(ctx, "a/rec/1.gz", 0, info.Size); err == nil {
			read, _ = io.ReadAll(r)
		}
		missing, _ = store.Stat(ctx, "a/rec/2.gz")
		_ = store.Delete(ctx, "a/rec/1.gz")
		gone, _ = store.Stat(ctx, "a/rec/1.gz")
		return Response{Status: 200}
	}))
	bucket := map[string][]byte{}
	var calls []string
	jsSide(b, 1, func(c Command) Result {
		op := c.R2
		require.Equal(t, "RECORDINGS", op.Binding)
		calls = append(calls, fmt.Sprintf("%s %s %d+%d", op.Op, op.Key, op.Offset, op.Length))
		o, found := bucket[op.Key]
		switch op.Op {
		case "put":
			assert.Equal(t, core.ReplayContentType, op.ContentType)
			bucket[op.Key] = op.Body
			return Result{Status: 200, Size: int64(len(op.Body))}
		case "delete":
			delete(bucket, op.Key)
			return Result{Status: 200}
		}
		if !found {
			return Result{Status: 404}
		}
		if op.Op == "get" {
			end := min(op.Offset+op.Length, int64(len(o)))
			return Result{Status: 200, Size: int64(len(o)), Body: o[op.Offset:end]}
		}
		return Result{Status: 200, Size: int64(len(o))}
	})
	require.NoError(t, writeErr)
	require.NoError(t, errAll)
	assert.Equal(t, int64(len(object)), written)
	assert.Equal(t, core.ObjectInfo{Found: true, Size: int64(len(object))}, info)
	assert.Equal(t, object, read, "read back whole, byte for byte")
	assert.False(t, missing.Found)
	assert.False(t, gone.Found, "deleted")
	assert.Equal(t, []string{
		"put a/rec/1.gz 0+0",
		"head a/rec/1.gz 0+0",
		"get a/rec/1.gz 0+1048576",
		"get a/rec/1.gz 1048576+1048576",
		"get a/rec/1.gz 2097152+524288",
		"head a/rec/2.gz 0+0",
		"delete a/rec/1.gz 0+0",
		"head a/rec/1.gz 0+0",
	}, calls, "reads in ranges of at most 1 MiB")
}

func TestAnR2StatusOtherThanFoundOrNotIsAnError(t *testing.T) {
	b := newBridge()
	var err error
	require.NoError(t, b.Start(1, func(ctx context.Context) Response {
		_, err = R2Binding{Bridge: b, Binding: "RECORDINGS"}.CallR2(ctx, objects.R2Call{Op: "head", Key: "k"})
		return Response{Status: 200}
	}))
	jsSide(b, 1, func(Command) Result { return Result{Status: 500} })
	assert.ErrorContains(t, err, "unexpected status 500")
}

// TestFetchCarriesItsDeadline: a fetch whose context has a deadline (a
// database call's) tells the JS side how long it may run, so the JS side
// stops awaiting a server that never answers when Go stops waiting;
// without a deadline it runs as long as it takes.
func TestFetchCarriesItsDeadline(t *testing.T) {
	b := newBridge()
	client := &http.Client{Transport: Transport{Bridge: b}}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 300*time.Millisecond)
		defer cancel()
		for _, c := range []context.Context{ctx, r.Context()} {
			res, err := client.Do(mustRequest(c, "http://db.test/v2/pipeline"))
			if err != nil {
				http.Error(w, err.Error(), 500)
				return
			}
			res.Body.Close()
		}
	})
	req, _ := http.NewRequest("GET", "http://arena.test/", nil)
	require.NoError(t, b.ServeHTTP(1, h, req))
	var timeouts []int64
	res := jsSide(b, 1, func(c Command) Result {
		timeouts = append(timeouts, c.Fetch.TimeoutMs)
		return Result{Status: 200}
	})
	require.Equal(t, 200, res.Status, string(res.Body))
	require.Len(t, timeouts, 2)
	assert.Greater(t, timeouts[0], int64(0), "the deadline's fetch is bounded")
	assert.LessOrEqual(t, timeouts[0], int64(300), "by what is left of it")
	assert.Zero(t, timeouts[1], "no deadline: unbounded")
}

// TestWorkAfterTheAnswer: a job a request leaves for after its answer
// does not hold the answer; the answer asks for an "after" call, whose
// own JS side performs the job's I/O.
func TestWorkAfterTheAnswer(t *testing.T) {
	b := newBridge()
	client := &http.Client{Transport: Transport{Bridge: b}}
	done := make(chan string, 1)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b.After(r.Context(), func(ctx context.Context) {
			res, err := client.Do(mustRequest(ctx, "http://directory.test/refresh"))
			if err != nil {
				done <- err.Error()
				return
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			done <- string(body) + " by " + res.Header.Get("X-Call")
		})
		w.WriteHeader(http.StatusOK)
	})
	req, _ := http.NewRequest("GET", "http://arena.test/", nil)
	require.NoError(t, b.ServeHTTP(1, h, req))
	answer := jsSide(b, 1, echoFetch(1))
	assert.Equal(t, http.StatusOK, answer.Status)
	assert.Equal(t, "1", answer.Hints[HintAfter], "the answer asks for the call after it")
	assert.Empty(t, done, "the job waits for its own call")

	require.NoError(t, b.RunAfter(2))
	after := jsSide(b, 2, echoFetch(2))
	assert.Equal(t, http.StatusNoContent, after.Status)
	assert.Equal(t, "http://directory.test/refresh by 2", <-done, "the after call's side performed the job's fetch")

	require.NoError(t, b.RunAfter(3))
	assert.Equal(t, http.StatusNoContent, jsSide(b, 3, echoFetch(3)).Status, "nothing left: answered at once")
	assert.Empty(t, done)

	b.After(context.Background(), func(context.Context) { t.Error("a job outside any call runs") })
	require.NoError(t, b.RunAfter(4))
	jsSide(b, 4, echoFetch(4))
	assert.Zero(t, b.InFlight())
}
