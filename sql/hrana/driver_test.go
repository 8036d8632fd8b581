package hrana_test

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/sql/hrana"
	"arena/sql/libsqltest"
)

// server is a libSQL server a test runs against.
type server struct {
	URL string
	// streams: the server keeps streams (sqld, Turso, the streams
	// server), binds named arguments and reports changes. tursodb's sync
	// server does none of that.
	streams bool
	twin    *streamServer // the streams server, when it is one
}

// servers runs test against a real libSQL server (tursodb, fresh for
// the test) and against the streams server: the same statements, the
// same assertions, except where a server lacks a feature.
func servers(t *testing.T, test func(t *testing.T, srv server)) {
	t.Run("tursodb", func(t *testing.T) {
		t.Parallel()
		test(t, server{URL: libsqltest.Start(t)})
	})
	t.Run("streams", func(t *testing.T) {
		t.Parallel()
		twin := startStreamServer(t)
		test(t, server{URL: twin.URL, streams: true, twin: twin})
	})
}

func open(t *testing.T, rawURL, token string) *sql.DB {
	t.Helper()
	c, err := hrana.NewConnector(rawURL, token)
	require.NoError(t, err)
	db := sql.OpenDB(c)
	t.Cleanup(func() { db.Close() })
	return db
}

func mustExec(t *testing.T, db *sql.DB, query string, args ...any) {
	t.Helper()
	_, err := db.ExecContext(context.Background(), query, args...)
	require.NoError(t, err, query)
}

func count(t *testing.T, db *sql.DB, table string) int {
	t.Helper()
	var n int
	require.NoError(t, db.QueryRowContext(context.Background(), "SELECT count(*) FROM "+table).Scan(&n))
	return n
}

func TestValuesRoundTrip(t *testing.T) {
	when := time.Date(2026, 11, 1, 12, 30, 0, 500_000_000, time.UTC)
	cases := []struct {
		name string
		arg  any
		want any // as database/sql scans it into an any
	}{
		{"IntegerMax", int64(math.MaxInt64), int64(math.MaxInt64)},
		{"IntegerMin", int64(math.MinInt64), int64(math.MinInt64)},
		{"IntegerZero", int64(0), int64(0)},
		{"GoInt", 7, int64(7)},
		{"Uint32", uint32(4000000000), int64(4000000000)},
		{"Float", 1.5, 1.5},
		{"FloatNegative", -2.25, -2.25},
		{"FloatLarge", 1e308, 1e308},
		{"FloatTiny", 5e-324, 5e-324},
		{"Text", "héllo ✓", "héllo ✓"},
		{"TextEmpty", "", ""},
		{"TextQuotesAndNul", "it's \"quoted\"\x00\n\\", "it's \"quoted\"\x00\n\\"},
		{"Blob", []byte{0, 1, 0xfe, 0xff}, []byte{0, 1, 0xfe, 0xff}},
		{"BlobEmpty", []byte{}, []byte{}},
		{"BlobLonger", []byte("three bytes make four base64 letters: padding off"), []byte("three bytes make four base64 letters: padding off")},
		{"Null", nil, nil},
		{"NilBlobIsNull", []byte(nil), nil},
		{"True", true, int64(1)},
		{"False", false, int64(0)},
		{"Time", when, "2026-11-01 12:30:00.5+00:00"},
		{"NamedStringType", testKind("final"), "final"},
	}
	servers(t, func(t *testing.T, srv server) {
		db := open(t, srv.URL, "")
		ctx := context.Background()
		mustExec(t, db, "CREATE TABLE vals (name TEXT PRIMARY KEY, v)")
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				var got any
				require.NoError(t, db.QueryRowContext(ctx, "SELECT ?", c.arg).Scan(&got))
				assert.Equal(t, c.want, got, "SELECT ?")

				mustExec(t, db, "INSERT INTO vals (name, v) VALUES (?, ?)", c.name, c.arg)
				var typ string
				require.NoError(t, db.QueryRowContext(ctx, "SELECT v, typeof(v) FROM vals WHERE name = ?", c.name).Scan(&got, &typ))
				assert.Equal(t, c.want, got, "stored and read back")
				assert.Equal(t, map[string]string{"int64": "integer", "float64": "real", "string": "text", "[]uint8": "blob", "<nil>": "null"}[fmt.Sprintf("%T", c.want)], typ)
			})
		}
		t.Run("ScanConversions", func(t *testing.T) {
			var n int
			var f float64
			var s string
			var b []byte
			var ns sql.NullString
			var ni sql.NullInt64
			require.NoError(t, db.QueryRowContext(ctx, "SELECT 42, 2.5, 'text', x'00ff', NULL, NULL").Scan(&n, &f, &s, &b, &ns, &ni))
			assert.Equal(t, 42, n)
			assert.Equal(t, 2.5, f)
			assert.Equal(t, "text", s)
			assert.Equal(t, []byte{0, 0xff}, b)
			assert.False(t, ns.Valid)
			assert.False(t, ni.Valid)
		})
		t.Run("ManyRowsAndColumns", func(t *testing.T) {
			mustExec(t, db, "CREATE TABLE n (i INTEGER PRIMARY KEY)")
			values := strings.Repeat("(NULL),", 499) + "(NULL)"
			mustExec(t, db, "INSERT INTO n (i) VALUES "+values)
			rows, err := db.QueryContext(ctx, `SELECT i, 'row ' || i AS label, i * 0.5 AS half FROM n ORDER BY i`)
			require.NoError(t, err)
			defer rows.Close()
			cols, err := rows.Columns()
			require.NoError(t, err)
			assert.Equal(t, []string{"i", "label", "half"}, cols)
			seen := 0
			for rows.Next() {
				var i int64
				var label string
				var half float64
				require.NoError(t, rows.Scan(&i, &label, &half))
				seen++
				assert.Equal(t, int64(seen), i)
				assert.Equal(t, fmt.Sprintf("row %d", seen), label)
				assert.Equal(t, float64(seen)/2, half)
			}
			require.NoError(t, rows.Err())
			assert.Equal(t, 500, seen)
		})
		t.Run("NaNRefused", func(t *testing.T) {
			_, err := db.ExecContext(ctx, "SELECT ?", math.NaN())
			assert.ErrorContains(t, err, "NaN")
		})
	})
}

type testKind string

func TestArguments(t *testing.T) {
	servers(t, func(t *testing.T, srv server) {
		db := open(t, srv.URL, "")
		ctx := context.Background()
		t.Run("PositionalInOrder", func(t *testing.T) {
			var a, b string
			require.NoError(t, db.QueryRowContext(ctx, "SELECT ?, ? || '!'", "first", "second").Scan(&a, &b))
			assert.Equal(t, []string{"first", "second!"}, []string{a, b})
		})
		t.Run("NumberedPositional", func(t *testing.T) {
			var a, b string
			require.NoError(t, db.QueryRowContext(ctx, "SELECT ?2, ?1", "one", "two").Scan(&a, &b))
			assert.Equal(t, []string{"two", "one"}, []string{a, b})
		})
		t.Run("Named", func(t *testing.T) {
			if !srv.streams {
				t.Skip("tursodb's sync server binds positional arguments only")
			}
			var a, b, c string
			require.NoError(t, db.QueryRowContext(ctx, "SELECT :who, @what || $who", sql.Named("who", "me"), sql.Named("what", "it")).Scan(&a, &b))
			assert.Equal(t, "me", a)
			assert.Equal(t, "itme", b)
			last := srv.twin.Log()[len(srv.twin.Log())-1]
			assert.Equal(t, []string{"who", "what"}, last.NamedArgs, "names go as written; the server finds the prefix")
			require.NoError(t, db.QueryRowContext(ctx, "SELECT ? || :x", "a", sql.Named("x", "b")).Scan(&c))
			assert.Equal(t, "ab", c, "positional and named together")
		})
		t.Run("PreparedStatement", func(t *testing.T) {
			st, err := db.PrepareContext(ctx, "SELECT ? * 2")
			require.NoError(t, err)
			defer st.Close()
			for i := range 3 {
				var n int
				require.NoError(t, st.QueryRowContext(ctx, i).Scan(&n))
				assert.Equal(t, i*2, n)
			}
		})
	})
}

func TestServerErrors(t *testing.T) {
	servers(t, func(t *testing.T, srv server) {
		db := open(t, srv.URL, "")
		ctx := context.Background()
		mustExec(t, db, "CREATE TABLE players (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)")
		mustExec(t, db, "INSERT INTO players (name) VALUES (?)", "ann")
		cases := []struct {
			name  string
			query string
			args  []any
			want  string
		}{
			{"Syntax", "SELEC 1", nil, "syntax error"},
			{"NoSuchTable", "SELECT * FROM nowhere", nil, "no such table"},
			{"NoSuchColumn", "SELECT missing_column FROM players", nil, "no such column"},
			{"Unique", "INSERT INTO players (name) VALUES (?)", []any{"ann"}, "UNIQUE constraint failed: players.name"},
			{"NotNull", "INSERT INTO players (name) VALUES (NULL)", nil, "NOT NULL constraint failed: players.name"},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				_, err := db.ExecContext(ctx, c.query, c.args...)
				require.Error(t, err)
				assert.ErrorContains(t, err, c.want)
				var herr *hrana.Error
				require.ErrorAs(t, err, &herr)
				assert.NotEmpty(t, herr.Code, "the server's code is kept")
				assert.Contains(t, err.Error(), herr.Code)
			})
		}
		t.Run("ConstraintCode", func(t *testing.T) {
			if !srv.streams {
				t.Skip("tursodb's sync server words every failure with a generic code")
			}
			_, err := db.ExecContext(ctx, "INSERT INTO players (name) VALUES (?)", "ann")
			var herr *hrana.Error
			require.ErrorAs(t, err, &herr)
			assert.Equal(t, "SQLITE_CONSTRAINT", herr.Code)
		})
		assert.Equal(t, 1, count(t, db, "players"), "failed statements changed nothing")
	})
}

func TestBatch(t *testing.T) {
	ctx := context.Background()
	batch := func(db *sql.DB, stmts ...hrana.Statement) error {
		conn, err := db.Conn(ctx)
		if err != nil {
			return err
		}
		defer conn.Close()
		return conn.Raw(func(dc any) error { return dc.(hrana.Batcher).Batch(ctx, stmts) })
	}
	insert := func(name string) hrana.Statement {
		return hrana.Statement{SQL: "INSERT INTO players (name) VALUES (?)", Args: []any{name}}
	}
	servers(t, func(t *testing.T, srv server) {
		db := open(t, srv.URL, "")
		mustExec(t, db, "CREATE TABLE players (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)")
		mustExec(t, db, "INSERT INTO players (name) VALUES (?)", "ann")

		t.Run("AllApplied", func(t *testing.T) {
			require.NoError(t, batch(db, insert("bob"), insert("cy"),
				hrana.Statement{SQL: "UPDATE players SET name = name || ? WHERE name = ?", Args: []any{"!", "ann"}}))
			var names string
			require.NoError(t, db.QueryRowContext(ctx, "SELECT group_concat(name, ',') FROM (SELECT name FROM players ORDER BY id)").Scan(&names))
			assert.Equal(t, "ann!,bob,cy", names)
		})
		t.Run("ThirdFailsNothingChanges", func(t *testing.T) {
			before := count(t, db, "players")
			err := batch(db, insert("dee"), insert("eve"), insert("bob"), insert("fay"))
			require.Error(t, err)
			var berr *hrana.BatchError
			require.ErrorAs(t, err, &berr)
			assert.Equal(t, 2, berr.Statement, "the third statement (from 0) failed")
			assert.ErrorContains(t, err, "batch statement 3")
			assert.ErrorContains(t, err, "UNIQUE constraint failed: players.name")
			var herr *hrana.Error
			assert.ErrorAs(t, err, &herr)
			assert.Equal(t, before, count(t, db, "players"), "dee and eve were rolled back")
			var n int
			require.NoError(t, db.QueryRowContext(ctx, "SELECT count(*) FROM players WHERE name IN ('dee', 'eve', 'fay')").Scan(&n))
			assert.Zero(t, n)
		})
		t.Run("FirstFails", func(t *testing.T) {
			err := batch(db, hrana.Statement{SQL: "INSERT INTO nowhere VALUES (1)"}, insert("gus"))
			var berr *hrana.BatchError
			require.ErrorAs(t, err, &berr)
			assert.Equal(t, 0, berr.Statement)
			assert.ErrorContains(t, err, "no such table")
		})
		t.Run("NextBatchUnaffected", func(t *testing.T) {
			// A failed batch leaves no transaction open behind it.
			require.NoError(t, batch(db, insert("hal")))
			var n int
			require.NoError(t, db.QueryRowContext(ctx, "SELECT count(*) FROM players WHERE name = 'hal'").Scan(&n))
			assert.Equal(t, 1, n)
		})
		t.Run("SchemaAndData", func(t *testing.T) {
			require.NoError(t, batch(db,
				hrana.Statement{SQL: "CREATE TABLE seasons (id INTEGER PRIMARY KEY, name TEXT)"},
				hrana.Statement{SQL: "INSERT INTO seasons (name) VALUES (?)", Args: []any{"one"}},
			))
			assert.Equal(t, 1, count(t, db, "seasons"))
			err := batch(db,
				hrana.Statement{SQL: "CREATE TABLE cups (id INTEGER PRIMARY KEY)"},
				hrana.Statement{SQL: "INSERT INTO cups (nope) VALUES (1)"},
			)
			require.Error(t, err)
			_, err = db.ExecContext(ctx, "SELECT * FROM cups")
			assert.ErrorContains(t, err, "no such table", "the CREATE was rolled back with the batch")
		})
		t.Run("OneRequest", func(t *testing.T) {
			if srv.twin == nil {
				t.Skip("counted on the streams server")
			}
			before := len(srv.twin.Log())
			require.NoError(t, batch(db, insert("ida"), insert("jo")))
			log := srv.twin.Log()[before:]
			require.Len(t, log, 1)
			assert.Equal(t, []string{"batch:BEGIN IMMEDIATE", "close"}, log[0].Types, "a new stream, closed in the same request")
			assert.Zero(t, srv.twin.OpenStreams()-1, "no stream left but the one the first request opened")
		})
	})
}

func TestTransactions(t *testing.T) {
	ctx := context.Background()
	t.Run("NoStreams", func(t *testing.T) {
		db := open(t, libsqltest.Start(t), "")
		mustExec(t, db, "CREATE TABLE players (name TEXT)")
		_, err := db.BeginTx(ctx, nil)
		require.ErrorIs(t, err, hrana.ErrNoStreams)
		_, err = db.BeginTx(ctx, nil)
		require.ErrorIs(t, err, hrana.ErrNoStreams, "remembered")
		// No BEGIN reached the server: its one connection is not left
		// inside a transaction, so a batch (which begins one) still works.
		conn, err := db.Conn(ctx)
		require.NoError(t, err)
		defer conn.Close()
		require.NoError(t, conn.Raw(func(dc any) error {
			return dc.(hrana.Batcher).Batch(ctx, []hrana.Statement{{SQL: "INSERT INTO players VALUES ('ann')"}})
		}))
		assert.Equal(t, 1, count(t, db, "players"))
	})

	setup := func(t *testing.T) (*streamServer, *sql.DB) {
		twin := startStreamServer(t)
		db := open(t, twin.URL, "")
		mustExec(t, db, "CREATE TABLE players (id INTEGER PRIMARY KEY, name TEXT UNIQUE)")
		return twin, db
	}
	t.Run("Commit", func(t *testing.T) {
		twin, db := setup(t)
		before := len(twin.Log())
		tx, err := db.BeginTx(ctx, nil)
		require.NoError(t, err)
		_, err = tx.ExecContext(ctx, "INSERT INTO players (name) VALUES (?)", "ann")
		require.NoError(t, err)
		var n int
		require.NoError(t, tx.QueryRowContext(ctx, "SELECT count(*) FROM players").Scan(&n))
		assert.Equal(t, 1, n, "the transaction sees its own write")
		assert.Equal(t, 0, count(t, db, "players"), "others do not before the commit")
		_, err = tx.ExecContext(ctx, "INSERT INTO players (name) VALUES (?)", "bob")
		require.NoError(t, err)
		require.NoError(t, tx.Commit())
		assert.Equal(t, 2, count(t, db, "players"))

		var txLog []loggedPipeline
		for _, p := range twin.Log()[before:] {
			if p.Baton != nil || strings.HasPrefix(strings.Join(p.Types, ","), "batch:BEGIN") {
				txLog = append(txLog, p)
			}
		}
		require.Len(t, txLog, 4, "BEGIN with the first statement, two more, COMMIT with the close")
		assert.Equal(t, []string{"batch:BEGIN IMMEDIATE"}, txLog[0].Types)
		assert.Equal(t, []string{"execute"}, txLog[1].Types)
		assert.Equal(t, []string{"execute", "close"}, txLog[3].Types)
		for i := 1; i < len(txLog); i++ {
			require.NotNil(t, txLog[i].Baton)
			assert.Equal(t, *txLog[i-1].AnsweredBaton, *txLog[i].Baton, "each request carries the previous answer's baton")
		}
		assert.Nil(t, txLog[3].AnsweredBaton, "the stream is closed")
	})
	t.Run("Rollback", func(t *testing.T) {
		_, db := setup(t)
		mustExec(t, db, "INSERT INTO players (name) VALUES ('ann')")
		tx, err := db.BeginTx(ctx, nil)
		require.NoError(t, err)
		_, err = tx.ExecContext(ctx, "INSERT INTO players (name) VALUES ('bob')")
		require.NoError(t, err)
		_, err = tx.ExecContext(ctx, "DELETE FROM players WHERE name = 'ann'")
		require.NoError(t, err)
		require.NoError(t, tx.Rollback())
		var names string
		require.NoError(t, db.QueryRowContext(ctx, "SELECT group_concat(name) FROM players").Scan(&names))
		assert.Equal(t, "ann", names)
	})
	t.Run("StatementFailsTransactionGoesOn", func(t *testing.T) {
		_, db := setup(t)
		tx, err := db.BeginTx(ctx, nil)
		require.NoError(t, err)
		_, err = tx.ExecContext(ctx, "INSERT INTO players (name) VALUES ('ann')")
		require.NoError(t, err)
		_, err = tx.ExecContext(ctx, "INSERT INTO players (name) VALUES ('ann')")
		assert.ErrorContains(t, err, "UNIQUE constraint failed: players.name")
		_, err = tx.ExecContext(ctx, "INSERT INTO players (name) VALUES ('bob')")
		require.NoError(t, err)
		require.NoError(t, tx.Commit())
		assert.Equal(t, 2, count(t, db, "players"))
	})
	t.Run("FirstStatementFails", func(t *testing.T) {
		_, db := setup(t)
		tx, err := db.BeginTx(ctx, nil)
		require.NoError(t, err)
		_, err = tx.ExecContext(ctx, "INSERT INTO nowhere VALUES (1)")
		assert.ErrorContains(t, err, "no such table")
		_, err = tx.ExecContext(ctx, "INSERT INTO players (name) VALUES ('ann')")
		require.NoError(t, err)
		require.NoError(t, tx.Rollback())
		assert.Equal(t, 0, count(t, db, "players"))
	})
	t.Run("EmptyTransactionSendsNothing", func(t *testing.T) {
		twin, db := setup(t)
		warm, err := db.BeginTx(ctx, nil) // asks once whether streams are kept
		require.NoError(t, err)
		require.NoError(t, warm.Rollback())
		before := len(twin.Log())
		tx, err := db.BeginTx(ctx, nil)
		require.NoError(t, err)
		require.NoError(t, tx.Commit())
		assert.Len(t, twin.Log(), before)
	})
	t.Run("BatonExpired", func(t *testing.T) {
		twin, db := setup(t)
		tx, err := db.BeginTx(ctx, nil)
		require.NoError(t, err)
		_, err = tx.ExecContext(ctx, "INSERT INTO players (name) VALUES ('ann')")
		require.NoError(t, err)
		twin.set(&twin.expireNext)
		_, err = tx.ExecContext(ctx, "INSERT INTO players (name) VALUES ('bob')")
		require.ErrorIs(t, err, hrana.ErrStreamLost)
		var herr *hrana.HTTPError
		require.ErrorAs(t, err, &herr)
		assert.Equal(t, "STREAM_EXPIRED", herr.Code)
		_, err = tx.ExecContext(ctx, "INSERT INTO players (name) VALUES ('cy')")
		require.ErrorIs(t, err, hrana.ErrStreamLost, "never continued on another stream")
		require.ErrorIs(t, tx.Commit(), hrana.ErrStreamLost)
		assert.Equal(t, 0, count(t, db, "players"), "nothing committed")
	})
	t.Run("StreamClosedByServer", func(t *testing.T) {
		twin, db := setup(t)
		tx, err := db.BeginTx(ctx, nil)
		require.NoError(t, err)
		_, err = tx.ExecContext(ctx, "INSERT INTO players (name) VALUES ('ann')")
		require.NoError(t, err)
		twin.set(&twin.dropNext)
		_, err = tx.ExecContext(ctx, "INSERT INTO players (name) VALUES ('bob')")
		require.ErrorIs(t, err, hrana.ErrStreamLost)
		require.ErrorIs(t, tx.Commit(), hrana.ErrStreamLost)
		assert.Equal(t, 0, count(t, db, "players"), "nothing committed")
		assert.Zero(t, twin.OpenStreams()-1)
	})
	t.Run("ConnectionReusedAfter", func(t *testing.T) {
		twin, db := setup(t)
		db.SetMaxOpenConns(1)
		for i := range 3 {
			tx, err := db.BeginTx(ctx, nil)
			require.NoError(t, err)
			_, err = tx.ExecContext(ctx, "INSERT INTO players (name) VALUES (?)", fmt.Sprint("p", i))
			require.NoError(t, err)
			if i == 1 {
				require.NoError(t, tx.Rollback())
			} else {
				require.NoError(t, tx.Commit())
			}
			mustExec(t, db, "INSERT INTO players (name) VALUES (?)", fmt.Sprint("q", i))
		}
		assert.Equal(t, 5, count(t, db, "players"))
		assert.LessOrEqual(t, twin.OpenStreams(), 1, "every transaction's stream was closed")
	})
	t.Run("Unsupported", func(t *testing.T) {
		_, db := setup(t)
		_, err := db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
		assert.Error(t, err)
		_, err = db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelSerializable})
		assert.Error(t, err)
	})
}

func TestResults(t *testing.T) {
	twin := startStreamServer(t)
	db := open(t, twin.URL, "")
	ctx := context.Background()
	mustExec(t, db, "CREATE TABLE players (id INTEGER PRIMARY KEY, name TEXT)")
	res, err := db.ExecContext(ctx, "INSERT INTO players (id, name) VALUES (41, 'ann'), (42, 'bob')")
	require.NoError(t, err)
	id, _ := res.LastInsertId()
	n, _ := res.RowsAffected()
	assert.Equal(t, int64(42), id)
	assert.Equal(t, int64(2), n)
	res, err = db.ExecContext(ctx, "UPDATE players SET name = upper(name)")
	require.NoError(t, err)
	n, _ = res.RowsAffected()
	assert.Equal(t, int64(2), n)
}

func TestConcurrency(t *testing.T) {
	servers(t, func(t *testing.T, srv server) {
		db := open(t, srv.URL, "")
		ctx := context.Background()
		mustExec(t, db, "CREATE TABLE hits (worker INTEGER, n INTEGER)")
		const workers, each = 32, 10
		var wg sync.WaitGroup
		errs := make(chan error, workers)
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range each {
					if _, err := db.ExecContext(ctx, "INSERT INTO hits (worker, n) VALUES (?, ?)", w, i); err != nil {
						errs <- err
						return
					}
					var mine int
					if err := db.QueryRowContext(ctx, "SELECT count(*) FROM hits WHERE worker = ?", w).Scan(&mine); err != nil {
						errs <- err
						return
					}
					if mine != i+1 {
						errs <- fmt.Errorf("worker %d sees %d rows of its own after %d inserts", w, mine, i+1)
						return
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		assert.Equal(t, workers*each, count(t, db, "hits"))
	})
}

// countingProxy forwards to target and counts requests and their
// Authorization headers.
type countingProxy struct {
	URL  string
	n    atomic.Int32
	mu   sync.Mutex
	auth []string
}

func startCountingProxy(t *testing.T, target string) *countingProxy {
	u, err := url.Parse(target)
	require.NoError(t, err)
	p := &countingProxy{}
	rp := httputil.NewSingleHostReverseProxy(u)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.n.Add(1)
		p.mu.Lock()
		p.auth = append(p.auth, r.Header.Get("Authorization"))
		p.mu.Unlock()
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	p.URL = srv.URL
	return p
}

func TestTransport(t *testing.T) {
	ctx := context.Background()
	t.Run("BearerToken", func(t *testing.T) {
		p := startCountingProxy(t, libsqltest.Start(t))
		mustExec(t, open(t, p.URL, "secret-token"), "SELECT 1")
		mustExec(t, open(t, p.URL+"?authToken=from-url", ""), "SELECT 1")
		mustExec(t, open(t, p.URL, ""), "SELECT 1")
		assert.Equal(t, []string{"Bearer secret-token", "Bearer from-url", ""}, p.auth)
	})
	t.Run("NotFound", func(t *testing.T) {
		db := open(t, libsqltest.Start(t)+"/elsewhere", "")
		_, err := db.ExecContext(ctx, "SELECT 1")
		var herr *hrana.HTTPError
		require.ErrorAs(t, err, &herr)
		assert.Equal(t, http.StatusNotFound, herr.Status)
		assert.ErrorContains(t, err, "HTTP 404")
		assert.NotErrorIs(t, err, hrana.ErrUnavailable, "the server answered")
	})
	t.Run("ServerErrorNotRetried", func(t *testing.T) {
		twin := startStreamServer(t)
		db := open(t, twin.URL, "")
		mustExec(t, db, "CREATE TABLE players (name TEXT)")
		before := len(twin.Log())
		twin.set(&twin.failNext)
		_, err := db.ExecContext(ctx, "INSERT INTO players VALUES ('ann')")
		var herr *hrana.HTTPError
		require.ErrorAs(t, err, &herr)
		assert.Equal(t, http.StatusInternalServerError, herr.Status)
		assert.ErrorIs(t, err, hrana.ErrUnavailable, "a 5xx is the server not serving")
		assert.Len(t, twin.Log(), before+1, "sent once")
		assert.Equal(t, 1, count(t, db, "players"), "the server ran it: applied once, not twice")
	})
	t.Run("ConnectionRefusedNotRetried", func(t *testing.T) {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(t, err)
		var accepted atomic.Int32
		go func() {
			for {
				c, err := l.Accept()
				if err != nil {
					return
				}
				accepted.Add(1)
				c.Close() // the request is lost on the way
			}
		}()
		defer l.Close()
		db := open(t, "http://"+l.Addr().String(), "")
		_, err = db.ExecContext(ctx, "INSERT INTO players VALUES ('ann')")
		require.Error(t, err)
		var herr *hrana.HTTPError
		assert.False(t, errors.As(err, &herr))
		assert.ErrorIs(t, err, hrana.ErrUnavailable)
		assert.Equal(t, int32(1), accepted.Load(), "one attempt: the write may have run")
	})
	t.Run("ContextCarried", func(t *testing.T) {
		release := make(chan struct{})
		hanging := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.Copy(io.Discard, r.Body)
			select {
			case <-r.Context().Done():
			case <-release:
			}
		}))
		defer hanging.Close()
		defer close(release) // before Close, which waits for the handler
		db := open(t, hanging.URL, "")
		cctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
		defer cancel()
		_, err := db.ExecContext(cctx, "SELECT 1")
		assert.ErrorIs(t, err, context.DeadlineExceeded, "the request carries the statement's context")
	})
	t.Run("GivenClient", func(t *testing.T) {
		c, err := hrana.NewConnector(libsqltest.Start(t), "")
		require.NoError(t, err)
		rt := &markedTransport{}
		c.HTTP = &http.Client{Transport: rt}
		db := sql.OpenDB(c)
		defer db.Close()
		mctx := context.WithValue(ctx, requestMark{}, "submission")
		var n int
		require.NoError(t, db.QueryRowContext(mctx, "SELECT 1").Scan(&n))
		conn, err := db.Conn(mctx)
		require.NoError(t, err)
		defer conn.Close()
		require.NoError(t, conn.Raw(func(dc any) error {
			return dc.(hrana.Batcher).Batch(mctx, []hrana.Statement{{SQL: "CREATE TABLE t (a)"}, {SQL: "INSERT INTO t VALUES (1)"}})
		}))
		assert.Equal(t, []string{"submission", "submission"}, rt.marks, "every request went through the given client, with its caller's context")
	})
	t.Run("OneShotsCloseTheirStreams", func(t *testing.T) {
		twin := startStreamServer(t)
		db := open(t, twin.URL, "")
		for range 20 {
			mustExec(t, db, "SELECT 1")
		}
		assert.LessOrEqual(t, twin.OpenStreams(), 1, "only the very first request, which learned that streams are kept, left one")
		log := twin.Log()
		assert.Equal(t, []string{"execute", "close"}, log[len(log)-1].Types)
		assert.Nil(t, log[len(log)-1].Baton)
	})
}

// TestTimeout: a server that never answers (a paused process: the
// kernel takes the connection and the request, nothing reads them) fails
// the statement by the Connector's Timeout or the context's deadline,
// whichever comes first, with ErrUnavailable; an answered error is not
// ErrUnavailable.
func TestTimeout(t *testing.T) {
	// Listening but never accepting: connections wait in the backlog.
	silent, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer silent.Close()
	silentURL := "http://" + silent.Addr().String()
	// slack covers scheduling on a busy machine; the point is that the
	// call ends near its deadline instead of never.
	const slack = time.Second
	connector := func(t *testing.T, url string, timeout time.Duration) *sql.DB {
		c, err := hrana.NewConnector(url, "")
		require.NoError(t, err)
		c.Timeout = timeout
		db := sql.OpenDB(c)
		t.Cleanup(func() { db.Close() })
		return db
	}
	timed := func(f func() error) (time.Duration, error) {
		start := time.Now()
		err := f()
		return time.Since(start), err
	}
	t.Run("ConnectorTimeout", func(t *testing.T) {
		db := connector(t, silentURL, 300*time.Millisecond)
		took, err := timed(func() error {
			_, err := db.ExecContext(context.Background(), "INSERT INTO players VALUES ('ann')")
			return err
		})
		assert.ErrorIs(t, err, hrana.ErrUnavailable)
		assert.ErrorIs(t, err, context.DeadlineExceeded)
		assert.Less(t, took, 300*time.Millisecond+slack)
	})
	t.Run("ContextDeadlineFirst", func(t *testing.T) {
		db := connector(t, silentURL, time.Hour)
		cctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		took, err := timed(func() error {
			var n int
			return db.QueryRowContext(cctx, "SELECT 1").Scan(&n)
		})
		assert.ErrorIs(t, err, hrana.ErrUnavailable)
		assert.Less(t, took, 200*time.Millisecond+slack)
	})
	t.Run("Batch", func(t *testing.T) {
		db := connector(t, silentURL, 300*time.Millisecond)
		conn, err := db.Conn(context.Background())
		require.NoError(t, err)
		defer conn.Close()
		took, err := timed(func() error {
			return conn.Raw(func(dc any) error {
				return dc.(hrana.Batcher).Batch(context.Background(), []hrana.Statement{{SQL: "INSERT INTO players VALUES ('ann')"}})
			})
		})
		assert.ErrorIs(t, err, hrana.ErrUnavailable)
		assert.Less(t, took, 300*time.Millisecond+slack)
	})
	t.Run("ConnectionRefused", func(t *testing.T) {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(t, err)
		addr := l.Addr().String()
		l.Close()
		_, err = connector(t, "http://"+addr, time.Second).ExecContext(context.Background(), "SELECT 1")
		assert.ErrorIs(t, err, hrana.ErrUnavailable)
	})
	t.Run("CallerGaveUp", func(t *testing.T) {
		cctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(100*time.Millisecond, cancel)
		_, err := connector(t, silentURL, time.Hour).ExecContext(cctx, "SELECT 1")
		assert.ErrorIs(t, err, context.Canceled)
		assert.NotErrorIs(t, err, hrana.ErrUnavailable, "nobody waits for this answer")
	})
	t.Run("AnsweredErrorIsNot", func(t *testing.T) {
		db := connector(t, libsqltest.Start(t), time.Second)
		mustExec(t, db, "CREATE TABLE players (name TEXT UNIQUE)")
		mustExec(t, db, "INSERT INTO players VALUES ('ann')")
		_, err := db.ExecContext(context.Background(), "INSERT INTO players VALUES ('ann')")
		assert.ErrorContains(t, err, "UNIQUE constraint failed")
		assert.NotErrorIs(t, err, hrana.ErrUnavailable)
	})
}

// requestMark is a context key the markedTransport reads.
type requestMark struct{}

// markedTransport records the requestMark of every request's context and
// sends it on with http.DefaultTransport.
type markedTransport struct {
	mu    sync.Mutex
	marks []string
}

func (m *markedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	mark, _ := req.Context().Value(requestMark{}).(string)
	m.mu.Lock()
	m.marks = append(m.marks, mark)
	m.mu.Unlock()
	return http.DefaultTransport.RoundTrip(req)
}

func TestBatchRead(t *testing.T) {
	ctx := context.Background()
	batchRead := func(db *sql.DB, read hrana.Statement, stmts ...hrana.Statement) (row []driver.Value, err error) {
		conn, err := db.Conn(ctx)
		if err != nil {
			return nil, err
		}
		defer conn.Close()
		err = conn.Raw(func(dc any) error {
			row, err = dc.(hrana.Batcher).BatchRead(ctx, stmts, read)
			return err
		})
		return row, err
	}
	servers(t, func(t *testing.T, srv server) {
		db := open(t, srv.URL, "")
		mustExec(t, db, "CREATE TABLE players (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)")
		insert := func(name string) hrana.Statement {
			return hrana.Statement{SQL: "INSERT INTO players (name) VALUES (?)", Args: []any{name}}
		}
		t.Run("ReadsWhatTheBatchDid", func(t *testing.T) {
			row, err := batchRead(db, hrana.Statement{SQL: "SELECT count(*), group_concat(name, ',') FROM players"},
				insert("ann"), insert("bob"))
			require.NoError(t, err)
			assert.Equal(t, []driver.Value{int64(2), "ann,bob"}, row)
		})
		t.Run("NoRow", func(t *testing.T) {
			row, err := batchRead(db, hrana.Statement{SQL: "SELECT name FROM players WHERE name = ?", Args: []any{"zed"}}, insert("cy"))
			require.NoError(t, err)
			assert.Nil(t, row)
			assert.Equal(t, 3, count(t, db, "players"), "the batch itself applied")
		})
		t.Run("FailingReadRollsBack", func(t *testing.T) {
			_, err := batchRead(db, hrana.Statement{SQL: "SELECT * FROM nowhere"}, insert("dee"))
			var berr *hrana.BatchError
			require.ErrorAs(t, err, &berr)
			assert.Equal(t, 1, berr.Statement, "the read, after the one statement")
			assert.Equal(t, 3, count(t, db, "players"), "dee was rolled back")
		})
	})
}
