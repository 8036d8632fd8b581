package hrana_test

import (
	"bytes"
	"context"
	"database/sql"
	"io"
	"net/http"
	"strings"
	"testing"

	"arena/sql/hrana"
)

// The driver's own CPU per statement: the request built and encoded, the
// answer decoded and scanned. The server is a canned answer in place of
// http.DefaultTransport, so no network or server time is counted. Run
// natively and under WebAssembly (the Workers build):
//
//	go test -run '^$' -bench . ./sql/hrana/
//	GOOS=js GOARCH=wasm go test -run '^$' -bench . -exec "$(go env GOROOT)/lib/wasm/go_js_wasm_exec" ./sql/hrana/

// benchInsert is shaped like the store's result submission: one INSERT
// with a subquery and 15 arguments.
const benchInsert = `INSERT INTO match_submissions (match_id, side, submitter_id, app_id, result, result_hash, winner_id,
	winner_side_id, client_role, started_at, ended_at, received_at, token)
SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?
WHERE EXISTS (SELECT 1 FROM matches WHERE id = ? AND status IN ('live', 'awaiting_result') AND session_nonce = ?)
ON CONFLICT (match_id, side) DO NOTHING`

var benchInsertArgs = []any{int64(42), int64(1), "76561198000000001", "480", `{"winner":"76561198000000001","score":[3,1]}`,
	"5f2b8c0d9e", "76561198000000001", "76561198000000001", "player", "2026-11-01T12:00:00.000Z",
	"2026-11-01T12:20:00.000Z", "2026-11-01T12:20:01.000Z", "tok-abc", int64(42), "nonce-xyz"}

const benchInsertAnswer = `{"baton":null,"base_url":null,"results":[{"type":"ok","response":{"type":"execute","result":` +
	`{"cols":[],"rows":[],"affected_row_count":1,"last_insert_rowid":"7","replication_index":null,"rows_read":3,"rows_written":1,"query_duration_ms":0.1}}}]}`

// benchSelect reads one row of twelve columns, as the store's match
// reads do.
const benchSelect = `SELECT m.id, m.tournament_id, m.stage, m.round_label, m.round_number, coalesce(m.group_name, ''),
	m.status, coalesce(m.p1_platform_id, ''), coalesce(m.p2_platform_id, ''), m.opens_at, m.closes_at, t.slug
FROM matches m JOIN tournaments t ON t.id = m.tournament_id WHERE m.id = ? AND t.id = ?`

var benchSelectAnswer = func() string {
	var cols, row []string
	for i, v := range []string{`{"type":"integer","value":"42"}`, `{"type":"integer","value":"3"}`, `{"type":"text","value":"final"}`,
		`{"type":"text","value":"Final"}`, `{"type":"integer","value":"1"}`, `{"type":"text","value":""}`,
		`{"type":"text","value":"live"}`, `{"type":"text","value":"76561198000000001"}`, `{"type":"text","value":"76561198000000002"}`,
		`{"type":"text","value":"2026-11-01T12:00:00.000Z"}`, `{"type":"text","value":"2026-11-01T13:00:00.000Z"}`,
		`{"type":"text","value":"spring-cup"}`} {
		cols = append(cols, `{"name":"c`+string(rune('a'+i))+`","decltype":null}`)
		row = append(row, v)
	}
	return `{"baton":null,"base_url":null,"results":[{"type":"ok","response":{"type":"execute","result":{"cols":[` +
		strings.Join(cols, ",") + `],"rows":[[` + strings.Join(row, ",") + `]],"affected_row_count":0,"last_insert_rowid":null}}}]}`
}()

// cannedTransport answers every request with body, after reading the
// request as a server would.
type cannedTransport struct{ body []byte }

func (t cannedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	_, _ = io.Copy(io.Discard, req.Body)
	req.Body.Close()
	return &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(bytes.NewReader(t.body)), Request: req}, nil
}

// withCannedServer replaces http.DefaultTransport for the benchmark.
func withCannedServer(b *testing.B, answer string) {
	prev := http.DefaultTransport
	http.DefaultTransport = cannedTransport{body: []byte(answer)}
	b.Cleanup(func() { http.DefaultTransport = prev })
}

func openCanned(b *testing.B) *sql.DB {
	c, err := hrana.NewConnector("http://127.0.0.1:1", "")
	if err != nil {
		b.Fatal(err)
	}
	db := sql.OpenDB(c)
	b.Cleanup(func() { db.Close() })
	return db
}

func BenchmarkStatement(b *testing.B) {
	ctx := context.Background()
	b.Run("insert", func(b *testing.B) {
		withCannedServer(b, benchInsertAnswer)
		db := openCanned(b)
		b.ReportAllocs()
		for b.Loop() {
			if _, err := db.ExecContext(ctx, benchInsert, benchInsertArgs...); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("select", func(b *testing.B) {
		withCannedServer(b, benchSelectAnswer)
		db := openCanned(b)
		dest := make([]any, 12)
		for i := range dest {
			dest[i] = new(any)
		}
		b.ReportAllocs()
		for b.Loop() {
			if err := db.QueryRowContext(ctx, benchSelect, 42, 3).Scan(dest...); err != nil {
				b.Fatal(err)
			}
		}
	})
}
