package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"arena/core"
)

// UpdateTournament stores every setting of t (slug included) while the
// tournament with t.ID is still a draft, in one conditional statement
// (its series' lengths and pace too).
// Errors: CodeTournamentNotFound, CodeTournamentNotDraft, CodeSlugTaken
// (field slug).
func (s *Arena) UpdateTournament(ctx context.Context, t *core.Tournament) error {
	var id int64
	err := s.db.writeRow(ctx, q("update_draft_tournament"), append(tournamentArgs(t), sql.Named("tournament", t.ID))...).Scan(&id)
	if isUniqueViolation(err, "tournaments.slug") {
		return core.FieldError(core.CodeSlugTaken, "slug")
	}
	if errors.Is(err, sql.ErrNoRows) {
		if _, err := s.TournamentByID(ctx, t.ID); err != nil {
			return err
		}
		return core.Errorf(core.CodeTournamentNotDraft, "tournament %d is no longer a draft", t.ID)
	}
	if err != nil {
		return fmt.Errorf("store: unable to update tournament %d: %w", t.ID, err)
	}
	return nil
}

// SetSeeds sets the seeds of the tournament's sides (captain -> seed, 0
// clears one) in one conditional statement, while the tournament is in
// registration_open or registration_closed. Captains without a
// registration are skipped. Errors: CodeTournamentNotFound, CodeSeedsLocked.
func (s *Arena) SetSeeds(ctx context.Context, tournamentID int64, seeds map[string]int) error {
	if len(seeds) == 0 {
		return nil
	}
	raw, err := json.Marshal(seeds)
	if err != nil {
		return err
	}
	n, err := s.db.countReturned(ctx, q("set_seeds"), sql.Named("seeds", string(raw)),
		sql.Named("tournament", tournamentID))
	if err != nil {
		return fmt.Errorf("store: unable to set seeds of tournament %d: %w", tournamentID, err)
	}
	if n > 0 {
		return nil
	}
	t, err := s.TournamentByID(ctx, tournamentID)
	if err != nil {
		return err
	}
	if t.Status != core.StatusRegistrationOpen && t.Status != core.StatusRegistrationClosed {
		return core.Errorf(core.CodeSeedsLocked, "%s is %s", t.Slug, t.Status)
	}
	return nil // none of the captains is registered
}

// RemoveArenaAdmin removes an admin player, unless they are the arena's
// last one, in one conditional statement. Errors: core.CodeNotFound (not
// an admin), CodeLastAdmin.
func (s *Arena) RemoveArenaAdmin(ctx context.Context, platformID string) error {
	var got string
	err := s.db.writeRow(ctx, q("remove_arena_admin"), sql.Named("player", platformID)).Scan(&got)
	if err == nil {
		return nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("store: unable to remove arena admin: %w", err)
	}
	var n int
	if err := s.db.queryRow(ctx, q("arena_admin_exists"), sql.Named("player", platformID)).Scan(&n); err != nil {
		return fmt.Errorf("store: unable to check arena admin: %w", err)
	}
	if n == 0 {
		return core.Errorf(core.CodeNotFound, "%s is not an admin", platformID)
	}
	return core.Errorf(core.CodeLastAdmin, "%s is the last admin", platformID)
}

// countReturned executes a data-changing statement with RETURNING and
// counts the rows it returned (the rows it changed); it bumps Version.
func (db *DB) countReturned(ctx context.Context, query string, args ...any) (int, error) {
	if err := db.gaveUp(ctx); err != nil {
		return 0, err
	}
	query, args, err := bind(query, args)
	if err != nil {
		return 0, err
	}
	defer db.wrote()
	ctx, cancel := db.bound(ctx)
	defer cancel()
	rows, err := db.writer.QueryContext(ctx, query, args...)
	if err != nil {
		return 0, db.failed(ctx, err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		n++
	}
	return n, db.failed(ctx, rows.Err())
}
