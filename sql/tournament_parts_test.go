package store_test

import (
	"context"
	"crypto/rand"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/core"
	store "arena/sql"
)

// TestTournamentParts: the read model's parts read at once are what the
// single reads give, by slug and by id, on both backends.
func TestTournamentParts(t *testing.T) {
	backends(t, func(t *testing.T, open func() *store.DB) {
		ctx := context.Background()
		s := openArenaStore(t, open)
		tour := seededBracket(t, s, "parts", 1, 2, 3, 4)
		st := goLive(t, s, tour, "SF1")
		_, err := core.ReportResult(ctx, s, st, st.P1, st.P1, nil, core.Deps{Now: playoffsAt.Add(30 * time.Minute), Random: rand.Reader})
		require.NoError(t, err)
		want, err := s.Tournament(ctx, "parts")
		require.NoError(t, err)
		regs, err := s.Registrations(ctx, want.ID)
		require.NoError(t, err)
		matches, err := s.Matches(ctx, want.ID)
		require.NoError(t, err)
		players, err := s.Players(ctx, []string{pid(1), pid(2), pid(3), pid(4)})
		require.NoError(t, err)
		for _, key := range []struct {
			slug string
			id   int64
		}{{"parts", 0}, {"", want.ID}} {
			got, err := s.TournamentParts(ctx, key.slug, key.id)
			require.NoError(t, err, key)
			assert.Equal(t, want, got.Tournament)
			assert.Equal(t, regs, got.Registrations)
			assert.Equal(t, matches, got.Matches)
			assert.Equal(t, players, got.Players)
			assert.Empty(t, got.Podium)
		}
		_, err = s.TournamentParts(ctx, "nope", 0)
		assert.Equal(t, core.CodeTournamentNotFound, core.ErrorCode(err))
		_, err = s.TournamentParts(ctx, "", 999)
		assert.Equal(t, core.CodeTournamentNotFound, core.ErrorCode(err))
	})
}

// TestReadAll: reads in one go see one snapshot, hand over every row in
// order, read named types, and fail as a whole on a failing statement.
func TestReadAll(t *testing.T) {
	backends(t, func(t *testing.T, open func() *store.DB) {
		ctx := context.Background()
		db := open()
		_, err := db.ExecContext(ctx, "CREATE TABLE n (i INTEGER, s TEXT, b INTEGER, f REAL)")
		require.NoError(t, err)
		_, err = db.ExecContext(ctx, "INSERT INTO n VALUES (1, 'asap', 1, 1.5), (2, NULL, 0, 2)")
		require.NoError(t, err)
		type row struct {
			i int
			p core.Pacing
			b bool
			f float64
		}
		var got []row
		var count int64
		err = db.ReadAll(ctx,
			store.Read{SQL: "SELECT i, coalesce(s, ''), b, f FROM n ORDER BY i", Row: func(r store.Scanner) error {
				var x row
				err := r.Scan(&x.i, &x.p, &x.b, &x.f)
				got = append(got, x)
				return err
			}},
			store.Read{SQL: "SELECT count(*) FROM n WHERE i > ?", Args: []any{0}, Row: func(r store.Scanner) error {
				return r.Scan(&count)
			}},
		)
		require.NoError(t, err)
		assert.Equal(t, []row{{1, core.PacingASAP, true, 1.5}, {2, "", false, 2}}, got)
		assert.Equal(t, int64(2), count)
		err = db.ReadAll(ctx,
			store.Read{SQL: "SELECT i FROM n", Row: func(store.Scanner) error { return nil }},
			store.Read{SQL: "SELECT nope FROM n", Row: func(store.Scanner) error { return nil }},
		)
		assert.Error(t, err, "a failing statement fails the read")
	})
}
