package hrana_test

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	_ "arena/sql/sqlitedriver" // the streams server's SQLite
)

// streamServer serves Hrana over HTTP (v2 pipeline) with streams, over a
// SQLite file: each stream is a connection of its own, named by a new
// baton in every answer, as sqld and Turso do (their wire format is
// libSQL's Hrana spec). tursodb's sync server, the real server the other
// tests use, keeps no streams, binds no named arguments and reports no
// affected rows, so what needs them (interactive transactions, batons,
// closes, named arguments, LastInsertId) is tested against this server.
type streamServer struct {
	URL string
	db  *sql.DB

	mu      sync.Mutex
	streams map[string]*sql.Conn // open streams by their current baton
	log     []loggedPipeline
	// Knobs for the next pipeline that names a baton: answer 400
	// STREAM_EXPIRED without running it, or run it and then close the
	// stream (answering no baton).
	expireNext, dropNext bool
	// failNext runs the next pipeline, then answers 500.
	failNext bool
}

// loggedPipeline is what one POST carried.
type loggedPipeline struct {
	Baton         *string
	Types         []string // request types; a batch's first step as "batch:<sql>"
	NamedArgs     []string // names of named arguments, as sent
	Authorization string
	AnsweredBaton *string
}

func startStreamServer(t *testing.T) *streamServer {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(t.TempDir(), "streams.db")+
		"?_pragma=busy_timeout(5000)&_pragma=journal_mode(WAL)")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxIdleConns(0) // a closed stream's connection really closes
	s := &streamServer{db: db, streams: map[string]*sql.Conn{}}
	srv := httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(func() {
		srv.Close()
		s.mu.Lock()
		for _, c := range s.streams {
			c.Close()
		}
		s.mu.Unlock()
		db.Close()
	})
	s.URL = srv.URL
	return s
}

// OpenStreams counts streams not closed (nor expired).
func (s *streamServer) OpenStreams() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.streams)
}

// Log returns the pipelines received so far.
func (s *streamServer) Log() []loggedPipeline {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]loggedPipeline(nil), s.log...)
}

func (s *streamServer) set(knob *bool) {
	s.mu.Lock()
	*knob = true
	s.mu.Unlock()
}

type twinValue struct {
	Type   string `json:"type"`
	Value  any    `json:"value,omitempty"`
	Base64 string `json:"base64,omitempty"`
}

type twinStmt struct {
	SQL       string      `json:"sql"`
	Args      []twinValue `json:"args"`
	NamedArgs []struct {
		Name  string    `json:"name"`
		Value twinValue `json:"value"`
	} `json:"named_args"`
	WantRows *bool `json:"want_rows"`
}

type twinCond struct {
	Type  string     `json:"type"`
	Step  int        `json:"step"`
	Cond  *twinCond  `json:"cond"`
	Conds []twinCond `json:"conds"`
}

type twinRequest struct {
	Type  string    `json:"type"`
	Stmt  *twinStmt `json:"stmt"`
	Batch *struct {
		Steps []struct {
			Condition *twinCond `json:"condition"`
			Stmt      twinStmt  `json:"stmt"`
		} `json:"steps"`
	} `json:"batch"`
}

type twinError struct {
	Message string `json:"message"`
	Code    string `json:"code"`
}

func (s *streamServer) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v2/pipeline" {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	var req struct {
		Baton    *string       `json:"baton"`
		Requests []twinRequest `json:"requests"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	entry := loggedPipeline{Baton: req.Baton, Authorization: r.Header.Get("Authorization")}
	for _, q := range req.Requests {
		typ := q.Type
		if q.Batch != nil && len(q.Batch.Steps) > 0 {
			typ += ":" + q.Batch.Steps[0].Stmt.SQL
		}
		entry.Types = append(entry.Types, typ)
		if q.Stmt != nil {
			for _, a := range q.Stmt.NamedArgs {
				entry.NamedArgs = append(entry.NamedArgs, a.Name)
			}
		}
	}

	// Take the stream out of the table while it runs: its requests are
	// serial by the protocol.
	s.mu.Lock()
	expire, drop, fail := false, s.dropNext, s.failNext
	s.failNext = false
	var conn *sql.Conn
	if req.Baton != nil {
		expire, s.expireNext = s.expireNext, false
		s.dropNext = false
		conn = s.streams[*req.Baton]
		delete(s.streams, *req.Baton)
		if expire && conn != nil {
			rollbackAndClose(conn)
			conn = nil
		}
	} else {
		drop = false
	}
	s.mu.Unlock()
	if req.Baton != nil && conn == nil {
		s.record(entry)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		_ = json.NewEncoder(w).Encode(twinError{Message: "The stream has expired due to inactivity", Code: "STREAM_EXPIRED"})
		return
	}
	if conn == nil {
		var err error
		if conn, err = s.db.Conn(r.Context()); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
	}

	ctx := context.Background()
	results := make([]any, len(req.Requests))
	closed := false
	for i, q := range req.Requests {
		if closed {
			results[i] = errResult(twinError{Message: "stream is closed", Code: "STREAM_CLOSED"})
			continue
		}
		switch q.Type {
		case "execute":
			res, err := execute(ctx, conn, *q.Stmt)
			if err != nil {
				results[i] = errResult(*err)
			} else {
				results[i] = okResult("execute", res)
			}
		case "batch":
			results[i] = okResult("batch", runBatch(ctx, conn, q))
		case "close":
			closed = true
			results[i] = okResult("close", nil)
		default:
			results[i] = errResult(twinError{Message: "unknown request " + q.Type})
		}
	}
	var baton *string
	if closed || drop {
		rollbackAndClose(conn)
	} else {
		b := newBaton()
		baton = &b
		s.mu.Lock()
		s.streams[b] = conn
		s.mu.Unlock()
	}
	entry.AnsweredBaton = baton
	s.record(entry)
	if fail {
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"baton": baton, "base_url": nil, "results": results})
}

func (s *streamServer) record(e loggedPipeline) {
	s.mu.Lock()
	s.log = append(s.log, e)
	s.mu.Unlock()
}

// rollbackAndClose ends a stream: SQLite would roll back a closed
// connection's transaction; the pool keeps connections, so do it here.
func rollbackAndClose(c *sql.Conn) {
	_, _ = c.ExecContext(context.Background(), "ROLLBACK")
	c.Close()
}

func newBaton() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func okResult(typ string, result any) map[string]any {
	resp := map[string]any{"type": typ}
	if result != nil {
		resp["result"] = result
	}
	return map[string]any{"type": "ok", "response": resp}
}

func errResult(e twinError) map[string]any { return map[string]any{"type": "error", "error": e} }

// execute runs one statement on the stream's connection.
func execute(ctx context.Context, conn *sql.Conn, st twinStmt) (map[string]any, *twinError) {
	var args []any
	for _, a := range st.Args {
		v, err := a.decode()
		if err != nil {
			return nil, &twinError{Message: err.Error()}
		}
		args = append(args, v)
	}
	for _, a := range st.NamedArgs {
		v, err := a.Value.decode()
		if err != nil {
			return nil, &twinError{Message: err.Error()}
		}
		args = append(args, sql.Named(strings.TrimLeft(a.Name, ":@$"), v))
	}
	out := map[string]any{"cols": []any{}, "rows": []any{}, "affected_row_count": 0, "last_insert_rowid": nil}
	if st.WantRows != nil && !*st.WantRows {
		res, err := conn.ExecContext(ctx, st.SQL, args...)
		if err != nil {
			return nil, sqliteError(err)
		}
		n, _ := res.RowsAffected()
		id, _ := res.LastInsertId()
		out["affected_row_count"], out["last_insert_rowid"] = n, strconv.FormatInt(id, 10)
		return out, nil
	}
	rows, err := conn.QueryContext(ctx, st.SQL, args...)
	if err != nil {
		return nil, sqliteError(err)
	}
	defer rows.Close()
	names, _ := rows.Columns()
	cols := make([]any, len(names))
	for i, n := range names {
		cols[i] = map[string]any{"name": n, "decltype": nil}
	}
	var rowsOut []any
	for rows.Next() {
		vals := make([]any, len(names))
		ptrs := make([]any, len(names))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, sqliteError(err)
		}
		row := make([]any, len(vals))
		for i, v := range vals {
			row[i] = encodeTwin(v)
		}
		rowsOut = append(rowsOut, row)
	}
	if err := rows.Err(); err != nil {
		return nil, sqliteError(err)
	}
	out["cols"] = cols
	if rowsOut != nil {
		out["rows"] = rowsOut
	}
	return out, nil
}

// runBatch runs a batch's steps by their conditions.
func runBatch(ctx context.Context, conn *sql.Conn, q twinRequest) map[string]any {
	steps := q.Batch.Steps
	results := make([]any, len(steps))
	errs := make([]any, len(steps))
	ok := make([]bool, len(steps))
	failed := make([]bool, len(steps))
	var eval func(c *twinCond) bool
	eval = func(c *twinCond) bool {
		switch c.Type {
		case "ok":
			return ok[c.Step]
		case "error":
			return failed[c.Step]
		case "not":
			return !eval(c.Cond)
		case "and":
			for i := range c.Conds {
				if !eval(&c.Conds[i]) {
					return false
				}
			}
			return true
		case "or":
			for i := range c.Conds {
				if eval(&c.Conds[i]) {
					return true
				}
			}
			return false
		}
		panic("unknown condition " + c.Type)
	}
	for i, st := range steps {
		if st.Condition != nil && !eval(st.Condition) {
			continue
		}
		res, err := execute(ctx, conn, st.Stmt)
		if err != nil {
			errs[i], failed[i] = err, true
		} else {
			results[i], ok[i] = res, true
		}
	}
	return map[string]any{"step_results": results, "step_errors": errs}
}

func (v twinValue) decode() (any, error) {
	switch v.Type {
	case "null":
		return nil, nil
	case "integer":
		return strconv.ParseInt(v.Value.(string), 10, 64)
	case "float":
		return v.Value.(float64), nil
	case "text":
		return v.Value.(string), nil
	case "blob":
		return base64.RawStdEncoding.DecodeString(strings.TrimRight(v.Base64, "="))
	}
	return nil, fmt.Errorf("bad value type %q", v.Type)
}

func encodeTwin(v any) map[string]any {
	switch x := v.(type) {
	case nil:
		return map[string]any{"type": "null"}
	case int64:
		return map[string]any{"type": "integer", "value": strconv.FormatInt(x, 10)}
	case float64:
		return map[string]any{"type": "float", "value": x}
	case string:
		return map[string]any{"type": "text", "value": x}
	case []byte:
		return map[string]any{"type": "blob", "base64": base64.RawStdEncoding.EncodeToString(x)}
	case time.Time:
		return map[string]any{"type": "text", "value": x.Format(time.RFC3339Nano)}
	}
	panic(fmt.Sprintf("unexpected SQLite value %T", v))
}

// sqliteError words err as sqld does: SQLite's message and its primary
// result code's name.
func sqliteError(err error) *twinError {
	e := &twinError{Message: err.Error(), Code: "SQLITE_ERROR"}
	if c, ok := err.(interface{ Code() int }); ok {
		switch c.Code() & 0xff {
		case 19:
			e.Code = "SQLITE_CONSTRAINT"
		case 5:
			e.Code = "SQLITE_BUSY"
		}
	}
	return e
}
