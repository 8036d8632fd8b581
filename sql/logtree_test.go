package store_test

import (
	"context"
	"crypto/ed25519"
	"database/sql"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"

	"arena/core"
	store "arena/sql"
)

const testOrigin = "alpha.test/log"

// appendEvents appends n events to the log, unsealed.
func appendEvents(t *testing.T, db *store.DB, from, n int) {
	stmts := make([]store.Stmt, n)
	for i := range stmts {
		stmts[i] = store.Stmt{SQL: `INSERT INTO event_log (at, type, data) VALUES (:at, 'match.live', :data)`,
			Args: []any{sql.Named("at", t0.Format(time.RFC3339Nano)), sql.Named("data", fmt.Sprintf(`{"n":%d}`, from+i))}}
	}
	require.NoError(t, db.Batch(context.Background(), stmts...))
}

// referenceTree builds the tree of the log's sealed events with x/mod
// alone, from the events' entries (as GET /api/v1/events serves them).
func referenceTree(t *testing.T, st core.EventLogStore) (tlog.HashReader, int64) {
	ctx := context.Background()
	page, err := core.ReadEventLog(ctx, st, 0, core.EventLogMaxLimit)
	require.NoError(t, err)
	var all []core.LogEvent
	for after := int64(0); ; {
		page, err = core.ReadEventLog(ctx, st, after, core.EventLogMaxLimit)
		require.NoError(t, err)
		all = append(all, page.Events...)
		if page.Next == nil {
			break
		}
		after = *page.Next
	}
	var hashes []tlog.Hash
	r := tlog.HashReaderFunc(func(idx []int64) ([]tlog.Hash, error) {
		out := make([]tlog.Hash, len(idx))
		for i, x := range idx {
			out[i] = hashes[x]
		}
		return out, nil
	})
	for i, e := range all {
		entry, err := core.EventEntry(e)
		require.NoError(t, err)
		sh, err := tlog.StoredHashes(int64(i), entry, r)
		require.NoError(t, err)
		hashes = append(hashes, sh...)
	}
	return r, int64(len(all))
}

func openCheckpoint(t *testing.T, msg []byte, pub ed25519.PublicKey) tlog.Tree {
	vkey, err := note.NewEd25519VerifierKey(testOrigin, pub)
	require.NoError(t, err)
	v, err := note.NewVerifier(vkey)
	require.NoError(t, err)
	n, err := note.Open(msg, note.VerifierList(v))
	require.NoError(t, err)
	lines := strings.Split(n.Text, "\n")
	require.Len(t, lines, 4)
	require.Equal(t, testOrigin, lines[0])
	size, err := strconv.ParseInt(lines[1], 10, 64)
	require.NoError(t, err)
	root, err := tlog.ParseHash(lines[2])
	require.NoError(t, err)
	return tlog.Tree{N: size, Hash: root}
}

// TestLogTreeCheckpointsConcurrent: checkpoints signed while events are
// appended and many sealers race never sign two trees of one size; each
// is the tree x/mod builds from the served events, and every two are
// consistent (tlog.ProveTree, tlog.CheckTree).
func TestLogTreeCheckpointsConcurrent(t *testing.T) {
	backends(t, func(t *testing.T, open func() *store.DB) {
		db := open()
		mustMigrate(t, db, store.ArenaMigrations)
		st := store.NewArena(db)
		ctx := context.Background()
		_, key, err := ed25519.GenerateKey(nil)
		require.NoError(t, err)
		var mu sync.Mutex
		seen := map[int64]string{}
		record := func(cp core.Checkpoint) {
			mu.Lock()
			defer mu.Unlock()
			if prev, ok := seen[cp.Size]; ok {
				assert.Equal(t, prev, string(cp.Note), "two checkpoints of size %d", cp.Size)
			}
			seen[cp.Size] = string(cp.Note)
		}
		var wg sync.WaitGroup
		done := make(chan struct{})
		for range 6 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					cp, err := core.ReadCheckpoint(ctx, st, testOrigin, key)
					if !assert.NoError(t, err) {
						return
					}
					record(cp)
					select {
					case <-done:
						return
					default:
					}
				}
			}()
		}
		total := 0
		for i := range 30 {
			appendEvents(t, db, total, 1+i*7%23)
			total += 1 + i*7%23
			if i%3 == 0 {
				cp, err := core.ReadCheckpoint(ctx, st, testOrigin, key)
				require.NoError(t, err)
				record(cp)
			}
		}
		close(done)
		wg.Wait()
		ref, size := referenceTree(t, st)
		require.EqualValues(t, total, size)
		final, err := core.ReadCheckpoint(ctx, st, testOrigin, key)
		require.NoError(t, err)
		record(final)
		pub := key.Public().(ed25519.PublicKey)
		last := openCheckpoint(t, final.Note, pub)
		require.EqualValues(t, total, last.N)
		root, err := tlog.TreeHash(size, ref)
		require.NoError(t, err)
		require.Equal(t, root, last.Hash, "the served tree is the one x/mod builds from the events")
		require.Greater(t, len(seen), 3)
		for _, msg := range seen {
			tree := openCheckpoint(t, []byte(msg), pub)
			want, err := tlog.TreeHash(tree.N, ref)
			require.NoError(t, err)
			assert.Equal(t, want, tree.Hash, "size %d", tree.N)
			if tree.N == 0 || tree.N == last.N {
				continue
			}
			proof, err := tlog.ProveTree(last.N, tree.N, ref)
			require.NoError(t, err)
			assert.NoError(t, tlog.CheckTree(proof, last.N, last.Hash, tree.N, tree.Hash))
		}
	})
}

// TestLogTreeReceiptAndTiles: a receipt verifies with x/mod alone and
// with core.VerifyReceipt, a tampered one does not; tiles are the ones
// x/mod computes.
func TestLogTreeReceiptAndTiles(t *testing.T) {
	backends(t, func(t *testing.T, open func() *store.DB) {
		db := open()
		mustMigrate(t, db, store.ArenaMigrations)
		st := store.NewArena(db)
		ctx := context.Background()
		_, key, err := ed25519.GenerateKey(nil)
		require.NoError(t, err)
		pub := key.Public().(ed25519.PublicKey)
		appendEvents(t, db, 0, 600)
		rc, err := core.ReadReceipt(ctx, st, testOrigin, key, 300)
		require.NoError(t, err)
		file := rc.Format()

		// x/mod alone.
		parsed, err := core.ParseReceipt(file)
		require.NoError(t, err)
		tree := openCheckpoint(t, parsed.Checkpoint, pub)
		require.EqualValues(t, 299, parsed.Index)
		require.NoError(t, tlog.CheckRecord(parsed.Proof, tree.N, tree.Hash, parsed.Index, tlog.RecordHash(parsed.Extra)))
		e, err := core.VerifyReceipt(file, testOrigin, pub)
		require.NoError(t, err)
		assert.EqualValues(t, 300, e.Seq)

		lines := strings.Split(string(file), "\n")
		tamper := func(i int, line string) []byte {
			c := append([]string(nil), lines...)
			c[i] = line
			return []byte(strings.Join(c, "\n"))
		}
		other, err := core.EventEntry(core.LogEvent{Seq: 300, Type: "match.live", Data: []byte(`{"n":1}`)})
		require.NoError(t, err)
		for name, bad := range map[string][]byte{
			"entry":      tamper(1, "extra "+base64.StdEncoding.EncodeToString(other)),
			"proof":      tamper(3, base64.StdEncoding.EncodeToString(make([]byte, 32))),
			"index":      tamper(2, "index 298"),
			"checkpoint": []byte(strings.Replace(string(file), "\n600\n", "\n601\n", 1)),
		} {
			_, err := core.VerifyReceipt(bad, testOrigin, pub)
			assert.Error(t, err, name)
		}
		_, err = core.VerifyReceipt(file, "beta.test/log", pub)
		assert.Error(t, err, "another origin")

		ref, size := referenceTree(t, st)
		require.EqualValues(t, 600, size)
		for _, c := range []struct{ l, n, w int }{{0, 0, 256}, {0, 1, 256}, {0, 2, 88}, {1, 0, 2}} {
			got, err := core.ReadTile(ctx, st, c.l, int64(c.n), c.w)
			require.NoError(t, err, "%+v", c)
			want, err := tlog.ReadTileData(tlog.Tile{H: 8, L: c.l, N: int64(c.n), W: c.w}, ref)
			require.NoError(t, err)
			assert.Equal(t, want, got, "%+v", c)
		}
		for _, c := range []struct{ l, n, w int }{{0, 2, 256}, {0, 2, 89}, {1, 0, 3}, {2, 0, 1}, {-1, 2, 89}} {
			_, err := core.ReadTile(ctx, st, c.l, int64(c.n), c.w)
			assert.ErrorIs(t, err, core.ErrNotInTree, "%+v", c)
		}
		bundle, err := core.ReadTile(ctx, st, -1, 1, 256)
		require.NoError(t, err)
		for i := range 256 {
			n := int(binary.BigEndian.Uint16(bundle))
			h := tlog.RecordHash(bundle[2 : 2+n])
			want, err := ref.ReadHashes([]int64{tlog.StoredHashIndex(0, int64(256+i))})
			require.NoError(t, err)
			require.Equal(t, want[0], h, "entry %d", 256+i)
			bundle = bundle[2+n:]
		}
		assert.Empty(t, bundle)
	})
}
