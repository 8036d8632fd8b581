package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
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

// OpenIn returns an opener that resolves relative file: URLs against dir
// and opens everything else as Open does.
func OpenIn(dir string) func(url, token string) (*DB, error) {
	return func(url, token string) (*DB, error) {
		if path, ok := cutFilePrefix(url); ok && !filepath.IsAbs(path) {
			url = "file:" + filepath.Join(dir, path)
		}
		return Open(url, token)
	}
}

func cutFilePrefix(url string) (string, bool) {
	if len(url) > 5 && url[:5] == "file:" {
		return url[5:], true
	}
	return "", false
}
