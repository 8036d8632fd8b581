package store_test

import (
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	store "arena/sql"
)

// TestNewFileOpensConcurrently: the first connections to a new database
// file, opened at once by concurrent callers, all succeed. Each sets WAL
// mode, which on a file not yet in it fails one of two at once with
// SQLITE_BUSY unless they open one at a time.
func TestNewFileOpensConcurrently(t *testing.T) {
	dir := t.TempDir()
	for i := range 100 {
		db, err := store.Open("file:"+filepath.Join(dir, fmt.Sprintf("%d.db", i)), "")
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := db.Ping(); err != nil {
					t.Errorf("database %d: %v", i, err)
				}
			}()
		}
		wg.Wait()
		var mode string
		if err := db.QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
			t.Errorf("database %d: journal mode %q, %v", i, mode, err)
		}
		db.Close()
	}
}
