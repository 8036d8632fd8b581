package server

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	store "arena/sql"
	_ "arena/sql/sqlitedriver"
)

func TestArenaPool(t *testing.T) {
	dir := t.TempDir()
	url := func(name string) string { return "file:" + filepath.Join(dir, name+".db") }
	isOpen := func(db *store.DB) bool { return db.Ping() == nil }

	t.Run("ClosesTheLeastRecentlyUsedBeyondTheBound", func(t *testing.T) {
		p := newArenaPool(store.Open, 2)
		a, releaseA, err := p.acquire(url("a"), "")
		require.NoError(t, err)
		releaseA()
		b, releaseB, err := p.acquire(url("b"), "")
		require.NoError(t, err)
		releaseB()
		_, releaseA, err = p.acquire(url("a"), "") // a is now the most recent
		require.NoError(t, err)
		releaseA()
		_, releaseC, err := p.acquire(url("c"), "")
		require.NoError(t, err)
		releaseC()
		assert.Equal(t, 2, p.openCount())
		assert.True(t, isOpen(a))
		assert.False(t, isOpen(b), "b was the least recently used")
		p.close()
	})
	t.Run("NeverClosesADatabaseInUse", func(t *testing.T) {
		p := newArenaPool(store.Open, 1)
		a, releaseA, err := p.acquire(url("a"), "")
		require.NoError(t, err)
		b, releaseB, err := p.acquire(url("b"), "")
		require.NoError(t, err)
		assert.Equal(t, 2, p.openCount(), "over the bound while both are held")
		assert.True(t, isOpen(a))
		assert.True(t, isOpen(b))
		releaseA()
		releaseA() // a second call changes nothing
		assert.Equal(t, 1, p.openCount())
		assert.False(t, isOpen(a), "released and beyond the bound")
		assert.True(t, isOpen(b))
		releaseB()
		assert.True(t, isOpen(b), "within the bound")
		p.close()
		assert.False(t, isOpen(b))
	})
	t.Run("CloseWaitsForHolders", func(t *testing.T) {
		p := newArenaPool(store.Open, 4)
		a, releaseA, err := p.acquire(url("a"), "")
		require.NoError(t, err)
		b, releaseB, err := p.acquire(url("b"), "")
		require.NoError(t, err)
		releaseB()
		p.close()
		assert.False(t, isOpen(b), "idle: closed at once")
		assert.True(t, isOpen(a), "held by a request: still open")
		releaseA()
		assert.False(t, isOpen(a), "closed when its request ended")
		assert.Zero(t, p.openCount())
	})
	t.Run("DefaultBound", func(t *testing.T) {
		assert.Equal(t, DefaultMaxOpenArenas, newArenaPool(store.Open, 0).max)
	})
}

// TestArenaPoolConcurrent has many goroutines acquire, use and release a
// few databases through a pool smaller than their number: no database is
// closed under a holder, and the pool ends within its bound.
func TestArenaPoolConcurrent(t *testing.T) {
	dir := t.TempDir()
	p := newArenaPool(store.Open, 2)
	defer p.close()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 25 {
				db, release, err := p.acquire("file:"+filepath.Join(dir, fmt.Sprintf("%d.db", (g+i)%5)), "")
				if !assert.NoError(t, err) {
					return
				}
				assert.NoError(t, db.Ping(), "a held database is open")
				release()
			}
		}()
	}
	wg.Wait()
	assert.LessOrEqual(t, p.openCount(), 2)
}

// TestArenaPoolWatch: a follower holding no reference is told of a write
// through the open database, of its eviction, and of its next opening.
func TestArenaPoolWatch(t *testing.T) {
	dir := t.TempDir()
	url := func(name string) string { return "file:" + filepath.Join(dir, name+".db") }
	closed := func(ch <-chan struct{}) bool {
		select {
		case <-ch:
			return true
		default:
			return false
		}
	}
	p := newArenaPool(store.Open, 1)
	defer p.close()

	changed, gone, opened := p.watch(url("a"))
	require.Nil(t, changed)
	require.Nil(t, gone)
	db, release, err := p.acquire(url("a"), "")
	require.NoError(t, err)
	assert.True(t, closed(opened), "the opening is told")
	release()

	changed, gone, opened = p.watch(url("a"))
	require.Nil(t, opened)
	assert.False(t, closed(changed))
	require.NoError(t, db.Batch(context.Background(), store.Stmt{SQL: "CREATE TABLE t (x)"}))
	assert.True(t, closed(changed), "a write is told")
	assert.False(t, closed(gone))

	_, release, err = p.acquire(url("b"), "") // a, idle, is evicted
	require.NoError(t, err)
	release()
	assert.True(t, closed(gone), "the eviction is told")
	_, _, opened = p.watch(url("a"))
	assert.False(t, closed(opened))
}
