package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"arena/core"
)

var _ core.OrganizerStore = (*Arena)(nil)

// RemoveSide implements core.OrganizerStore: one batch deletes the side's
// roster and registration while the tournament is before its draw; one
// query then checks the registration is gone.
func (s *Arena) RemoveSide(ctx context.Context, t *core.Tournament, captain string) error {
	err := s.db.Batch(ctx,
		Stmt{SQL: q("remove_roster"), Args: []any{t.ID, captain, t.ID}},
		Stmt{SQL: q("remove_registration"), Args: []any{t.ID, captain, t.ID}},
	)
	if err != nil {
		return fmt.Errorf("store: unable to remove %s from %s: %w", captain, t.Slug, err)
	}
	var n int
	if err := s.db.queryRow(ctx, q("registration_exists"), t.ID, captain).Scan(&n); err != nil {
		return fmt.Errorf("store: unable to check the removal: %w", err)
	}
	if n > 0 {
		return core.Errorf(core.CodeInvalidTransition, "%s was drawn meanwhile", t.Slug)
	}
	return nil
}

// DisqualifySide implements core.OrganizerStore.
func (s *Arena) DisqualifySide(ctx context.Context, t *core.Tournament, captain string, at time.Time) error {
	var id string
	err := s.db.writeRow(ctx, q("disqualify_side"), formatTime(at), t.ID, captain, t.ID).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return core.Errorf(core.CodeInvalidTransition, "%s is not running", t.Slug)
	}
	if err != nil {
		return fmt.Errorf("store: unable to disqualify %s in %s: %w", captain, t.Slug, err)
	}
	return nil
}

// ForfeitDisqualified implements core.OrganizerStore.
func (s *Arena) ForfeitDisqualified(ctx context.Context, matchID int64, at time.Time, token string) (bool, error) {
	now := formatTime(at)
	return s.decide(ctx, matchID, token, at, Stmt{SQL: q("forfeit_disqualified"), Args: []any{now, now, now, token, matchID}})
}

// DisqualifiedMatches implements core.OrganizerStore.
func (s *Arena) DisqualifiedMatches(ctx context.Context) ([]int64, error) {
	return s.ids(ctx, q("disqualified_matches"))
}

// UpdateTournamentDetails implements core.OrganizerStore.
func (s *Arena) UpdateTournamentDetails(ctx context.Context, t *core.Tournament, status core.TournamentStatus) error {
	var id int64
	err := s.db.writeRow(ctx, q("update_tournament_details"), t.Name, t.Description,
		formatTime(t.RegistrationOpensAt), formatTime(t.RegistrationClosesAt), formatTime(t.StartsAt),
		t.CheckInMinutes, formatTime(t.UpdatedAt), t.ID, string(status)).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return core.Errorf(core.CodeInvalidTransition, "%s moved on meanwhile", t.Slug)
	}
	if err != nil {
		return fmt.Errorf("store: unable to update %s: %w", t.Slug, err)
	}
	return nil
}
