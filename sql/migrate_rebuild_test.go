package store_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	store "arena/sql"
)

// TestMigrateRebuildKeepsRows applies the arena migrations up to 0008 by
// hand, stores a tournament with a registration, a match and a
// submission, then migrates to the latest: 0009 rebuilds tournaments and
// matches (dropping their enum CHECKs) under their children, and every row
// and reference survives; afterwards a new format is accepted and, on a
// local file, foreign keys are enforced again.
func TestMigrateRebuildKeepsRows(t *testing.T) {
	backends(t, func(t *testing.T, open func() *store.DB) {
		ctx := context.Background()
		db := open()
		_, err := db.ExecContext(ctx, `CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL,
			applied_at TEXT NOT NULL DEFAULT '')`)
		require.NoError(t, err)
		for _, m := range store.ArenaMigrations.Migrations()[:8] {
			var stmts []store.Stmt
			for _, s := range m.Statements {
				stmts = append(stmts, store.Stmt{SQL: s})
			}
			require.NoError(t, db.Batch(ctx, append(stmts,
				store.Stmt{SQL: "INSERT INTO schema_migrations (version, name) VALUES (?, ?)", Args: []any{m.Version, m.Name}})...))
		}
		for _, q := range []string{
			`INSERT INTO tournaments (id, slug, name, format, max_players, registration_opens_at, registration_closes_at,
				starts_at, match_window_minutes, created_at, updated_at) VALUES (1, 'a', 'A', 'playoffs_only', 4, 'x', 'x', 'x', 60, 'x', 'x')`,
			`INSERT INTO registrations (tournament_id, platform_id, registered_at) VALUES (1, 'p', 'x')`,
			`INSERT INTO matches (id, tournament_id, stage, round_label, round_number, opens_at, closes_at, created_at,
				updated_at, decision_token) VALUES (5, 1, 'final', 'Final', 1, 'x', 'x', 'x', 'x', 'tok')`,
			`INSERT INTO match_submissions (match_id, side, submitter_id, result, result_hash, winner_id, winner_side_id,
				received_at, token) VALUES (5, 1, 'p', 'r', 'h', 'w', 'w', 'x', 't')`,
		} {
			_, err := db.ExecContext(ctx, q)
			require.NoError(t, err)
		}
		v, err := store.Migrate(ctx, db, store.ArenaMigrations)
		require.NoError(t, err)
		assert.Equal(t, store.ArenaMigrations.Latest(), v)

		var n int
		var token string
		require.NoError(t, db.QueryRowContext(ctx, `SELECT count(*), max(m.decision_token) FROM matches m
			JOIN match_submissions s ON s.match_id = m.id JOIN tournaments t ON t.id = m.tournament_id
			JOIN registrations r ON r.tournament_id = t.id`).Scan(&n, &token))
		assert.Equal(t, 1, n, "every row and reference survives the rebuild")
		assert.Equal(t, "tok", token)
		_, err = db.ExecContext(ctx, `INSERT INTO tournaments (slug, name, format, max_players, registration_opens_at,
			registration_closes_at, starts_at, match_window_minutes, created_at, updated_at)
			VALUES ('b', 'B', 'swiss', 4, 'x', 'x', 'x', 60, 'x', 'x')`)
		assert.NoError(t, err, "formats are core's enum, not the store's")
		if db.Local {
			_, err = db.ExecContext(ctx, `INSERT INTO registrations (tournament_id, platform_id, registered_at) VALUES (99, 'q', 'x')`)
			assert.ErrorContains(t, err, "FOREIGN KEY", "foreign keys are on again")
		}
	})
}
