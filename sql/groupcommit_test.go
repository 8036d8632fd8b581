package store

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "arena/sql/sqlitedriver"
)

// The ledger the group commit tests write: each batch is one row of
// batches, two of rows and one more on the counter, or (a doomed batch)
// fails on its second row and must leave nothing.
const ledgerSchema = `
CREATE TABLE batches (id INTEGER PRIMARY KEY);
CREATE TABLE rows (batch INTEGER NOT NULL, k INTEGER NOT NULL, PRIMARY KEY (batch, k));
CREATE TABLE counter (id INTEGER PRIMARY KEY CHECK (id = 1), total INTEGER NOT NULL);
INSERT INTO counter (id, total) VALUES (1, 0);`

func ledgerBatch(id int64, doomed bool) []Stmt {
	second := int64(2)
	if doomed {
		second = 1 // the primary key of the first row again
	}
	return []Stmt{
		{SQL: "INSERT INTO batches (id) VALUES (?)", Args: []any{id}},
		{SQL: "UPDATE counter SET total = total + 1 WHERE id = ?", Args: []any{1}},
		{SQL: "INSERT INTO rows (batch, k) VALUES (?, ?)", Args: []any{id, 1}},
		{SQL: "INSERT INTO rows (batch, k) VALUES (?, ?)", Args: []any{id, second}},
	}
}

func openLedger(t *testing.T, path string, create bool) *DB {
	t.Helper()
	db, err := Open("file:"+path, "")
	require.NoError(t, err)
	if create {
		_, err = db.ExecContext(context.Background(), ledgerSchema)
		require.NoError(t, err)
	}
	return db
}

// checkLedger asserts the ledger is whole: the acknowledged batches are
// all there, the refused ones are not, no batch is there in part, and the
// counter agrees with the batches. It returns the batches there.
func checkLedger(t *testing.T, db *DB, acked, refused []int64) int {
	t.Helper()
	ctx := context.Background()
	var integrity string
	require.NoError(t, db.QueryRowContext(ctx, "PRAGMA integrity_check").Scan(&integrity))
	assert.Equal(t, "ok", integrity)
	var batches, total, partial, orphans int
	require.NoError(t, db.QueryRowContext(ctx, "SELECT count(*) FROM batches").Scan(&batches))
	require.NoError(t, db.QueryRowContext(ctx, "SELECT total FROM counter").Scan(&total))
	require.NoError(t, db.QueryRowContext(ctx,
		"SELECT count(*) FROM batches b WHERE (SELECT count(*) FROM rows r WHERE r.batch = b.id) != 2").Scan(&partial))
	require.NoError(t, db.QueryRowContext(ctx,
		"SELECT count(*) FROM rows r WHERE NOT EXISTS (SELECT 1 FROM batches b WHERE b.id = r.batch)").Scan(&orphans))
	assert.Equal(t, batches, total, "the counter counts the batches there")
	assert.Zero(t, partial, "no batch is there in part")
	assert.Zero(t, orphans, "no rows without their batch")
	present := func(id int64) bool {
		var n int
		require.NoError(t, db.QueryRowContext(ctx, "SELECT count(*) FROM batches WHERE id = ?", id).Scan(&n))
		return n == 1
	}
	lost := 0
	for _, id := range acked {
		if !present(id) {
			lost++
		}
	}
	assert.Zero(t, lost, "acknowledged batches lost")
	applied := 0
	for _, id := range refused {
		if present(id) {
			applied++
		}
	}
	assert.Zero(t, applied, "refused batches applied")
	return batches
}

// TestGroupCommitEachBatchItsOwnOutcome: concurrent batches share
// transactions, and each caller is told its own batch's outcome: the
// doomed ones fail and leave nothing, the others all apply.
func TestGroupCommitEachBatchItsOwnOutcome(t *testing.T) {
	db := openLedger(t, filepath.Join(t.TempDir(), "ledger.db"), true)
	defer db.Close()
	var mu sync.Mutex
	var acked, refused []int64
	var wg sync.WaitGroup
	for w := range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 40 {
				id := int64(w*1000 + i)
				doomed := id%7 == 3
				err := db.Batch(context.Background(), ledgerBatch(id, doomed)...)
				mu.Lock()
				if err == nil {
					acked = append(acked, id)
				} else {
					refused = append(refused, id)
				}
				mu.Unlock()
				assert.Equal(t, doomed, err != nil, "batch %d: %v", id, err)
			}
		}()
	}
	wg.Wait()
	assert.Equal(t, len(acked), checkLedger(t, db, acked, refused))
	groups, batches := db.group.groups.Load(), db.group.batches.Load()
	assert.Equal(t, uint64(64*40), batches)
	assert.Less(t, groups, batches, "concurrent batches shared transactions")
	t.Logf("%d batches in %d transactions", batches, groups)
}

// TestGroupCommitCallerGone: a batch whose caller gave up before its turn
// does not run, and the others of its group still apply.
func TestGroupCommitCallerGone(t *testing.T) {
	db := openLedger(t, filepath.Join(t.TempDir(), "ledger.db"), true)
	defer db.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := db.Batch(ctx, ledgerBatch(1, false)...)
	require.Error(t, err)
	require.NoError(t, db.Batch(context.Background(), ledgerBatch(2, false)...))
	assert.Equal(t, 1, checkLedger(t, db, []int64{2}, []int64{1}))
}

// TestGroupCommitSurvivesKill kills a process (SIGKILL) while 32 of its
// goroutines commit batches in groups, several times over, and checks
// after each kill that every batch the process was told had committed is
// there, whole, and that nothing is there in part: what group commit
// acknowledges is durable, and a transaction cut off mid-commit is not
// half-applied.
func TestGroupCommitSurvivesKill(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	path := filepath.Join(t.TempDir(), "ledger.db")
	db := openLedger(t, path, true)
	require.NoError(t, db.Close())
	var acked, refused []int64
	checkpointed := 0
	for round := range 4 {
		child := exec.Command(os.Args[0], "-test.run=^TestGroupCommitKillChild$", "-test.count=1")
		child.Env = append(os.Environ(), "ARENA_LEDGER="+path, "ARENA_LEDGER_ROUND="+strconv.Itoa(round))
		out, err := child.StdoutPipe()
		require.NoError(t, err)
		require.NoError(t, child.Start())
		// Kill after a random number of acknowledgements, with batches in
		// flight, once batches have shared a transaction (on a loaded
		// machine the first few hundred may each have had their own).
		killAt := 300 + rand.IntN(1500)
		lines := bufio.NewScanner(out)
		seen, coalesced, killed := 0, false, false
		for lines.Scan() {
			f := strings.Fields(lines.Text())
			if len(f) != 2 {
				continue
			}
			id, _ := strconv.ParseInt(f[1], 10, 64)
			switch f[0] {
			case "ok":
				acked = append(acked, id)
				seen++
			case "err":
				refused = append(refused, id)
			case "coalesced":
				coalesced = true
			case "checkpointed":
				checkpointed++
			case "torn":
				t.Errorf("round %d: a read on the writer saw a batch in part: %s", round, lines.Text())
			}
			if seen >= killAt && coalesced && !killed {
				require.NoError(t, child.Process.Signal(syscall.SIGKILL))
				killed = true
			}
		}
		err = child.Wait()
		var exit *exec.ExitError
		require.True(t, errors.As(err, &exit), "the child ran until killed: %v", err)
		assert.Equal(t, syscall.SIGKILL, exit.Sys().(syscall.WaitStatus).Signal())
		assert.True(t, coalesced, "round %d: batches shared transactions before the kill", round)

		db := openLedger(t, path, false)
		n := checkLedger(t, db, acked, refused)
		require.NoError(t, db.Close())
		t.Logf("round %d: killed after %d acknowledgements; %d batches there, %d acknowledged in all", round, seen, n, len(acked))
	}
	assert.Positive(t, checkpointed, "checkpoints ran before some kill")
}

// TestGroupCommitKillChild is TestGroupCommitSurvivesKill's process: it
// commits batches from 32 goroutines until killed, writing "ok ID" once a
// batch is committed and "err ID" once refused (unbuffered, so the parent
// has every acknowledgement the process made), and "coalesced 1" once a
// transaction has carried several batches; 4 more goroutines read the
// ledger on the writer meanwhile, and checkpoints run every 256 batches,
// so kills land during those too.
func TestGroupCommitKillChild(t *testing.T) {
	path := os.Getenv("ARENA_LEDGER")
	if path == "" {
		t.Skip("run by TestGroupCommitSurvivesKill")
	}
	round, _ := strconv.Atoi(os.Getenv("ARENA_LEDGER_ROUND"))
	db, err := Open("file:"+path, "")
	if err != nil {
		panic(err)
	}
	var mu sync.Mutex
	say := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		_, _ = fmt.Fprintf(os.Stdout, format, args...)
	}
	var told, toldCkpt atomic.Bool
	for w := range 32 {
		go func() {
			for i := 0; ; i++ {
				id := int64(round)<<40 | int64(w)<<24 | int64(i)
				if err := db.Batch(context.Background(), ledgerBatch(id, i%9 == 4)...); err != nil {
					say("err %d\n", id)
				} else {
					say("ok %d\n", id)
				}
				if !told.Load() && db.group.batches.Load() > db.group.groups.Load() {
					told.Store(true)
					say("coalesced 1\n")
				}
				if !toldCkpt.Load() && db.ckpt.done.Load() > 0 {
					toldCkpt.Store(true)
					say("checkpointed 1\n")
				}
			}
		}()
	}
	// Reads queued with the batches (readOnWriter) must never see one in
	// part: "torn BATCHES TOTAL" if one does.
	for range 4 {
		go func() {
			for {
				var batches, total int64
				err := db.readOnWriter(context.Background(), func(row scanner) error { return row.Scan(&batches, &total) },
					"SELECT (SELECT count(*) FROM batches), (SELECT total FROM counter)")
				if err == nil && batches != total {
					say("torn %d %d\n", batches, total)
				}
			}
		}()
	}
	time.Sleep(time.Minute) // killed long before
	t.Fatal("not killed")
}

// TestReadOnWriterSeesWhatWasCommitted: reads queued on the writer among
// concurrent batches see exactly what was committed: never a batch in
// part (the counter always agrees with the batches), never less than was
// acknowledged before the read began, never more than had begun once it
// returned, and never a refused batch.
func TestReadOnWriterSeesWhatWasCommitted(t *testing.T) {
	db := openLedger(t, filepath.Join(t.TempDir(), "ledger.db"), true)
	defer db.Close()
	ctx := context.Background()
	var acked, started atomic.Int64
	var wg sync.WaitGroup
	for w := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 60 {
				id := int64(w*1000 + i)
				started.Add(1)
				if err := db.Batch(ctx, ledgerBatch(id, id%5 == 2)...); err == nil {
					acked.Add(1)
				}
			}
		}()
	}
	reads := 0
	for r := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			last := int64(-1)
			for range 80 {
				before := acked.Load()
				var batches, total, doomed int64
				err := db.readOnWriter(ctx, func(row scanner) error { return row.Scan(&batches, &total, &doomed) },
					"SELECT (SELECT count(*) FROM batches), (SELECT total FROM counter), (SELECT count(*) FROM batches WHERE id % 5 = 2)")
				after := started.Load()
				if !assert.NoError(t, err) {
					return
				}
				assert.Equal(t, batches, total, "reader %d: the counter agrees with the batches", r)
				assert.Zero(t, doomed, "reader %d: no refused batch seen", r)
				assert.GreaterOrEqual(t, batches, before, "reader %d: every batch acknowledged before the read is seen", r)
				assert.LessOrEqual(t, batches, after, "reader %d: nothing seen that was not begun by then", r)
				assert.GreaterOrEqual(t, batches, last, "reader %d: reads never go back", r)
				last = batches
			}
		}()
		reads += 80
	}
	wg.Wait()
	assert.Equal(t, uint64(reads), db.group.reads.Load(), "the reads ran in the writer's groups")

	var gone int64
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	err := db.readOnWriter(cancelled, func(row scanner) error { return row.Scan(&gone) }, "SELECT count(*) FROM batches")
	assert.ErrorIs(t, err, context.Canceled, "a read whose caller gave up does not run")
	err = db.readOnWriter(ctx, func(row scanner) error { return row.Scan(&gone) }, "SELECT id FROM batches WHERE id < 0")
	assert.ErrorIs(t, err, sql.ErrNoRows)
}

// TestCheckpointsBesideTheWriter: the writer never checkpoints (its
// wal_autocheckpoint is 0); a reading connection does, every
// checkpointEvery writes, so the log stays near SQLite's own size while
// thousands of batches commit, and nothing is lost.
func TestCheckpointsBesideTheWriter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ledger.db")
	db := openLedger(t, path, true)
	ctx := context.Background()
	var auto int
	require.NoError(t, db.writer.QueryRowContext(ctx, "PRAGMA wal_autocheckpoint").Scan(&auto))
	assert.Zero(t, auto, "the writer leaves checkpoints to the readers")

	var mu sync.Mutex
	var acked []int64
	var wg sync.WaitGroup
	const workers, each = 16, 250
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				id := int64(w*10000 + i)
				if assert.NoError(t, db.Batch(ctx, ledgerBatch(id, false)...)) {
					mu.Lock()
					acked = append(acked, id)
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	require.Eventually(t, func() bool { return !db.ckpt.running.Load() }, 10*time.Second, 10*time.Millisecond)
	done := db.ckpt.done.Load()
	assert.GreaterOrEqual(t, done, uint64(workers*each/checkpointEvery/2), "checkpoints ran as the writes went on")
	wal, err := os.Stat(path + "-wal")
	require.NoError(t, err)
	assert.Less(t, wal.Size(), int64(16<<20), "the log stays bounded (%d checkpoints)", done)
	t.Logf("%d batches, %d checkpoints, log %d KiB", workers*each, done, wal.Size()>>10)
	assert.Equal(t, len(acked), checkLedger(t, db, acked, nil))
	require.NoError(t, db.Close())
}

// TestCloseWaitsForTheCheckpoint: a database closed right after the write
// that starts a checkpoint closes once that checkpoint is done, instead of
// pulling the connections from under it.
func TestCloseWaitsForTheCheckpoint(t *testing.T) {
	db := openLedger(t, filepath.Join(t.TempDir(), "ledger.db"), true)
	for i := range checkpointEvery {
		require.NoError(t, db.Batch(context.Background(), ledgerBatch(int64(i), false)...))
	}
	require.NoError(t, db.Close())
	assert.False(t, db.ckpt.running.Load())
	assert.Equal(t, uint64(1), db.ckpt.done.Load(), "the checkpoint the last write started ran to its end")
}

// TestWaitForTheWriterBounded: while something else holds a local
// database's writer (a long migration, a stuck statement), batches and
// writes queued for it give up by the database's deadline, with an
// error Unavailable recognizes, and none of them is applied later; once
// the writer is free, writes go through again.
func TestWaitForTheWriterBounded(t *testing.T) {
	const timeout = 200 * time.Millisecond
	const slack = time.Second // scheduling on a busy machine
	path := filepath.Join(t.TempDir(), "ledger.db")
	openLedger(t, path, true).Close()
	db, err := Opener{Timeout: timeout}.Open("file:"+path, "")
	require.NoError(t, err)
	defer db.Close()
	ctx := context.Background()
	held, err := db.writer.Conn(ctx)
	require.NoError(t, err)

	var wg sync.WaitGroup
	var refused []int64
	var mu sync.Mutex
	for id := range int64(8) { // one group waiting for the writer, the rest queued behind it
		wg.Add(1)
		go func() {
			defer wg.Done()
			start := time.Now()
			err := db.Batch(ctx, ledgerBatch(id+1, false)...)
			took := time.Since(start)
			assert.True(t, Unavailable(err), "batch %d: %v", id+1, err)
			assert.Less(t, took, timeout+slack, "batch %d", id+1)
			mu.Lock()
			refused = append(refused, id+1)
			mu.Unlock()
		}()
	}
	start := time.Now()
	_, err = db.write(ctx, "UPDATE counter SET total = total + 100")
	assert.True(t, Unavailable(err), "%v", err)
	err = db.writeRow(ctx, "UPDATE counter SET total = total + 100 RETURNING total").Scan(new(int64))
	assert.True(t, Unavailable(err), "%v", err)
	assert.Less(t, time.Since(start), 2*timeout+slack)
	wg.Wait()

	require.NoError(t, held.Close())
	time.Sleep(2 * timeout) // nothing given up is applied late
	require.NoError(t, db.Batch(ctx, ledgerBatch(100, false)...))
	assert.Equal(t, 1, checkLedger(t, db, []int64{100}, refused))
	var total int64
	require.NoError(t, db.QueryRowContext(ctx, "SELECT total FROM counter").Scan(&total))
	assert.Equal(t, int64(1), total, "the writes that gave up changed nothing")
}
