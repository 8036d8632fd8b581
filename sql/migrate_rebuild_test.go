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
		migrateTo(t, db, 8)
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

// migrateTo applies the first n arena migrations by hand, as an arena
// stored before the later ones would be.
func migrateTo(t *testing.T, db *store.DB, n int) {
	t.Helper()
	ctx := context.Background()
	_, err := db.ExecContext(ctx, `CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL,
		applied_at TEXT NOT NULL DEFAULT '')`)
	require.NoError(t, err)
	for _, m := range store.ArenaMigrations.Migrations()[:n] {
		var stmts []store.Stmt
		for _, s := range m.Statements {
			stmts = append(stmts, store.Stmt{SQL: s})
		}
		require.NoError(t, db.Batch(ctx, append(stmts,
			store.Stmt{SQL: "INSERT INTO schema_migrations (version, name) VALUES (?, ?)", Args: []any{m.Version, m.Name}})...))
	}
}

// TestMigrateRecordingsPerGame: 0024 rebuilds recordings and traces with
// their game's session under their children. A recording of a live
// match takes the match's session and game, a casual one none, a trace
// the session it names; segments still point at their recordings, and
// finalizing a recording still logs recording.ready (the trigger is
// rebuilt with the table), now with its game.
func TestMigrateRecordingsPerGame(t *testing.T) {
	backends(t, func(t *testing.T, open func() *store.DB) {
		ctx := context.Background()
		db := open()
		migrateTo(t, db, 23)
		for _, q := range []string{
			`INSERT INTO tournaments (id, slug, name, format, max_players, registration_opens_at, registration_closes_at,
				starts_at, match_window_minutes, created_at, updated_at) VALUES (1, 'a', 'A', 'playoffs_only', 4, 'x', 'x', 'x', 60, 'x', 'x')`,
			`INSERT INTO matches (id, tournament_id, stage, round_label, round_number, opens_at, closes_at, created_at,
				updated_at, decision_token, best_of, session_nonce, status) VALUES (5, 1, 'final', 'Final', 1, 'x', 'x', 'x', 'x', 'tok', 3, 'n2', 'live')`,
			`INSERT INTO match_games (match_id, game, winner_platform_id, result_source, session_nonce, decided_at)
				VALUES (5, 1, 'p', 'game_client', 'n1', 'x')`,
			`INSERT INTO recordings (id, match_id, uploader_id, scope, visibility, object_key, max_bytes, created_at)
				VALUES (7, 5, 'p', 'full', 'arena', 'a/rec/1.gz', 10, 'x')`,
			`INSERT INTO recordings (id, match_id, uploader_id, scope, visibility, object_key, max_bytes, created_at)
				VALUES (8, NULL, 'p', 'public', 'private', 'a/rec/2.gz', 10, 'x')`,
			`INSERT INTO recording_segments (recording_id, seq, object_key, created_at) VALUES (7, 0, 'a/rec/1-seg-0.gz', 'x')`,
			`INSERT INTO gameplay_traces (match_id, slot, trace, trace_hash, received_at)
				VALUES (5, 1, '{"matchId":5,"sessionNonce":"n1"}', 'h', 'x')`,
		} {
			_, err := db.ExecContext(ctx, q)
			require.NoError(t, err, q)
		}
		v, err := store.Migrate(ctx, db, store.ArenaMigrations)
		require.NoError(t, err)
		assert.Equal(t, store.ArenaMigrations.Latest(), v)

		var game int
		var nonce string
		require.NoError(t, db.QueryRowContext(ctx, `SELECT r.game, r.session_nonce FROM recordings r
			JOIN recording_segments s ON s.recording_id = r.id WHERE r.id = 7`).Scan(&game, &nonce))
		assert.Equal(t, 2, game, "the game being played")
		assert.Equal(t, "n2", nonce)
		require.NoError(t, db.QueryRowContext(ctx, `SELECT game, session_nonce FROM recordings WHERE id = 8`).Scan(&game, &nonce))
		assert.Equal(t, 0, game, "a casual recording has no game")
		assert.Equal(t, "", nonce)
		require.NoError(t, db.QueryRowContext(ctx, `SELECT session_nonce FROM gameplay_traces WHERE match_id = 5 AND slot = 1`).Scan(&nonce))
		assert.Equal(t, "n1", nonce, "a trace keeps the session it names")

		_, err = db.ExecContext(ctx, `UPDATE recordings SET state = 'ready', ready_at = 'y' WHERE id = 7`)
		require.NoError(t, err)
		var data string
		require.NoError(t, db.QueryRowContext(ctx, `SELECT data FROM event_log WHERE type = 'recording.ready'`).Scan(&data))
		assert.JSONEq(t, `{"recordingId":7,"platformId":"p","scope":"full","visibility":"arena","game":2}`, data)
		if db.Local {
			_, err = db.ExecContext(ctx, `INSERT INTO recording_segments (recording_id, seq, object_key, created_at) VALUES (99, 0, 'k', 'x')`)
			assert.ErrorContains(t, err, "FOREIGN KEY", "foreign keys are on again")
		}
	})
}
