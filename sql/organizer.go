package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"arena/core"
)

var (
	_ core.OrganizerStore   = (*Arena)(nil)
	_ core.SideRemovalStore = (*Arena)(nil)
)

// RemoveSide implements core.SideRemovalStore: one batch deletes the side's
// roster and registration while the tournament is before its draw; one
// query then checks the registration is gone.
func (s *Arena) RemoveSide(ctx context.Context, t *core.Tournament, captain string) error {
	err := s.db.Batch(ctx,
		Stmt{SQL: q("remove_roster"), Args: []any{sql.Named("tournament", t.ID), sql.Named("captain", captain)}},
		Stmt{SQL: q("remove_registration"), Args: []any{sql.Named("tournament", t.ID), sql.Named("captain", captain)}},
	)
	if err != nil {
		return fmt.Errorf("store: unable to remove %s from %s: %w", captain, t.Slug, err)
	}
	var n int
	if err := s.db.queryRow(ctx, q("registration_exists"), sql.Named("tournament", t.ID),
		sql.Named("captain", captain)).Scan(&n); err != nil {
		return fmt.Errorf("store: unable to check the removal: %w", err)
	}
	if n > 0 {
		return core.Errorf(core.CodeInvalidTransition, "%s was drawn meanwhile", t.Slug)
	}
	return nil
}

// DisqualifySide implements core.SideRemovalStore.
func (s *Arena) DisqualifySide(ctx context.Context, t *core.Tournament, captain string, at time.Time) error {
	var id string
	err := s.db.writeRow(ctx, q("disqualify_side"), sql.Named("at", formatTime(at)),
		sql.Named("tournament", t.ID), sql.Named("captain", captain)).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return core.Errorf(core.CodeInvalidTransition, "%s is not running", t.Slug)
	}
	if err != nil {
		return fmt.Errorf("store: unable to disqualify %s in %s: %w", captain, t.Slug, err)
	}
	return nil
}

// ForfeitDisqualified implements core.SideRemovalStore.
func (s *Arena) ForfeitDisqualified(ctx context.Context, matchID int64, at time.Time, token string) (bool, error) {
	now := formatTime(at)
	return s.decide(ctx, matchID, token, at, Stmt{SQL: q("forfeit_disqualified"), Args: []any{sql.Named("now", now),
		sql.Named("token", token), sql.Named("match", matchID)}})
}

// DisqualifiedMatches implements core.SideRemovalStore.
func (s *Arena) DisqualifiedMatches(ctx context.Context) ([]int64, error) {
	return s.ids(ctx, q("disqualified_matches"))
}

// UpdateTournamentDetails implements core.OrganizerStore.
func (s *Arena) UpdateTournamentDetails(ctx context.Context, t *core.Tournament, status core.TournamentStatus) error {
	var id int64
	err := s.db.writeRow(ctx, q("update_tournament_details"), sql.Named("name", t.Name),
		sql.Named("description", t.Description),
		sql.Named("registration_opens_at", formatTime(t.RegistrationOpensAt)),
		sql.Named("registration_closes_at", formatTime(t.RegistrationClosesAt)),
		sql.Named("starts_at", formatTime(t.StartsAt)), sql.Named("check_in_minutes", t.CheckInMinutes),
		sql.Named("grace_period_minutes", t.GracePeriodMinutes),
		sql.Named("updated_at", formatTime(t.UpdatedAt)), sql.Named("tournament", t.ID),
		sql.Named("status", string(status))).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return core.Errorf(core.CodeInvalidTransition, "%s moved on meanwhile", t.Slug)
	}
	if err != nil {
		return fmt.Errorf("store: unable to update %s: %w", t.Slug, err)
	}
	return nil
}
