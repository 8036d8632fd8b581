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

// TestViewerParts: a player's own things read at once are what the
// single reads give, on both backends.
func TestViewerParts(t *testing.T) {
	backends(t, func(t *testing.T, open func() *store.DB) {
		ctx := context.Background()
		s := openArenaStore(t, open)
		tour := seededBracket(t, s, "mine", 1, 2, 3, 4)
		st := goLive(t, s, tour, "SF1")
		_, err := core.ReportResult(ctx, s, st, st.P1, st.P1, nil, core.Deps{Now: playoffsAt.Add(30 * time.Minute), Random: rand.Reader})
		require.NoError(t, err)
		statuses := []core.MatchStatus{core.MatchScheduled, core.MatchLive, core.MatchAwaitingResult}
		for _, who := range []string{st.P1, pid(3), pid(9)} {
			got, err := s.ViewerParts(ctx, who, statuses...)
			require.NoError(t, err)
			matches, err := s.PlayerMatches(ctx, who, statuses...)
			require.NoError(t, err)
			assert.Equal(t, matches, got.Matches, who)
			captains, err := s.RosterCaptains(ctx, who)
			require.NoError(t, err)
			assert.Equal(t, captains, got.Captains, who)
			for _, m := range matches {
				rep, err := s.MatchReport(ctx, m.ID)
				require.NoError(t, err)
				assert.Equal(t, rep, got.Reports[m.ID], who)
				assert.Contains(t, got.Players, m.P1)
				assert.Contains(t, got.Players, m.P2)
			}
		}
		mine, err := s.ViewerParts(ctx, st.P1, statuses...)
		require.NoError(t, err)
		require.Len(t, mine.Matches, 1)
		require.NotNil(t, mine.Reports[st.ID], "the pending report")
		assert.Equal(t, map[int64]bool{tour.ID: false}, mine.CheckedIn)
	})
}
