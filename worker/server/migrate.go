package server

import (
	"context"
	"fmt"
	"io"

	store "arena/sql"
)

// MigrateAll migrates the directory, then every arena database in slug
// order, writing one progress line per arena ("[n/N] slug: ...") to out.
// It stops at the first failure and returns an error naming the arena.
func (s *Server) MigrateAll(ctx context.Context, out io.Writer) error {
	v, err := store.Migrate(ctx, s.cfg.Directory, store.DirectoryMigrations)
	if err != nil {
		return fmt.Errorf("directory: %w", err)
	}
	fmt.Fprintf(out, "directory: at version %d\n", v)
	arenas, err := s.dir.Arenas(ctx)
	if err != nil {
		return err
	}
	latest := store.ArenaMigrations.Latest()
	for i := range arenas {
		a := &arenas[i]
		before := a.SchemaVersion
		fmt.Fprintf(out, "[%d/%d] %s: ", i+1, len(arenas), a.Slug)
		db, err := s.cfg.OpenDB(a.DatabaseURL, a.DatabaseToken)
		if err == nil {
			v, err = store.Migrate(ctx, db, store.ArenaMigrations)
			_ = db.Close()
		}
		if err == nil {
			err = s.dir.SetSchemaVersion(ctx, a.ID, v)
		}
		if err != nil {
			fmt.Fprintln(out, "FAILED")
			return fmt.Errorf("migration stopped at arena %s (%d of %d): %w", a.Slug, i+1, len(arenas), err)
		}
		if before == v {
			fmt.Fprintf(out, "up to date (version %d of %d)\n", v, latest)
		} else {
			fmt.Fprintf(out, "migrated from version %d to %d\n", before, v)
		}
	}
	fmt.Fprintf(out, "%d arenas migrated\n", len(arenas))
	return nil
}
