package store

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"arena/core"
)

// LocalProvisioner creates arena databases as files under Dir (the native
// build's data directory). URLs it returns are relative to Dir
// ("file:arenas/<slug>.db") so a data directory can be moved whole; see
// OpenIn.
type LocalProvisioner struct {
	Dir string
}

// ProvisionDatabase picks a file name that no database uses yet: a file
// left behind by an arena creation that failed halfway is never reused.
func (p LocalProvisioner) ProvisionDatabase(ctx context.Context, slug string) (string, string, error) {
	if err := os.MkdirAll(filepath.Join(p.Dir, "arenas"), 0o755); err != nil {
		return "", "", fmt.Errorf("store: unable to create arenas directory: %w", err)
	}
	for i := 1; i < 1000; i++ {
		name := slug + ".db"
		if i > 1 {
			name = fmt.Sprintf("%s-%d.db", slug, i)
		}
		rel := filepath.ToSlash(filepath.Join("arenas", name))
		if _, err := os.Stat(filepath.Join(p.Dir, rel)); os.IsNotExist(err) {
			return "file:" + rel, "", nil
		}
	}
	return "", "", fmt.Errorf("store: no free database file name for %q", slug)
}

var _ core.DatabaseRemover = LocalProvisioner{}

// RemoveDatabase deletes a database file ProvisionDatabase named, with its
// -wal, -shm and -journal files; a URL it cannot have returned is refused.
// Files already gone are no error.
func (p LocalProvisioner) RemoveDatabase(ctx context.Context, slug, url string) error {
	if url == "" {
		return nil // never recorded, so never written: no file exists
	}
	rel, ok := cutFilePrefix(url)
	if !ok || path.Clean(rel) != rel || path.Dir(rel) != "arenas" || !strings.HasSuffix(rel, ".db") {
		return fmt.Errorf("store: %q is not a database this provisioner made", url)
	}
	file := filepath.Join(p.Dir, filepath.FromSlash(rel))
	for _, suffix := range []string{"-wal", "-shm", "-journal", ""} {
		if err := os.Remove(file + suffix); err != nil && !os.IsNotExist(err) {
			return fmt.Errorf("store: unable to remove database %s: %w", url, err)
		}
	}
	return nil
}

// OpenIn returns an opener that resolves relative file: URLs against dir
// and opens everything else as Open does (Opener with Dir).
func OpenIn(dir string) func(url, token string) (*DB, error) {
	return Opener{Dir: dir}.Open
}

func cutFilePrefix(url string) (string, bool) {
	if len(url) > 5 && url[:5] == "file:" {
		return url[5:], true
	}
	return "", false
}
