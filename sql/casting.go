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
	_ core.CastingStore = (*Arena)(nil)
	_ core.FollowStore  = (*Arena)(nil)
)

// AddCaster implements core.CastStore: one conditional statement; when it
// seats nobody, one read tells why.
func (s *Arena) AddCaster(ctx context.Context, seat core.CasterSeat) error {
	var id int64
	err := s.db.writeRow(ctx, q("add_caster"),
		sql.Named("match", seat.MatchID), sql.Named("stream_login", seat.StreamLogin),
		sql.Named("source", seat.Source), sql.Named("player", nullString(seat.PlatformID)),
		sql.Named("invited_by", nullString(seat.InvitedBy)),
		sql.Named("created_at", formatTime(seat.CreatedAt)),
		sql.Named("max_casters", core.MaxCastersPerMatch)).Scan(&id)
	if err == nil {
		return nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("store: unable to seat the caster: %w", err)
	}
	var status string
	var active int
	err = s.db.queryRow(ctx, q("caster_refusal"), sql.Named("match", seat.MatchID)).Scan(&status, &active)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return core.Errorf(core.CodeMatchNotFound, "no match %d", seat.MatchID)
	case err != nil:
		return fmt.Errorf("store: unable to read match %d: %w", seat.MatchID, err)
	case core.MatchStatus(status).Resolved():
		return core.Errorf(core.CodeAlreadyResolved, "match %d is decided", seat.MatchID)
	default:
		return core.Errorf(core.CodeCastersFull, "match %d has %d casters", seat.MatchID, active)
	}
}

// RetireCaster implements core.CastingStore.
func (s *Arena) RetireCaster(ctx context.Context, matchID int64, platformID string, at time.Time) error {
	if _, err := s.db.write(ctx, q("retire_caster"), sql.Named("at", formatTime(at)),
		sql.Named("match", matchID), sql.Named("player", platformID)); err != nil {
		return fmt.Errorf("store: unable to retire the caster: %w", err)
	}
	return nil
}

// Casters returns the match's active seats, oldest first.
func (s *Arena) Casters(ctx context.Context, matchID int64) ([]core.CasterSeat, error) {
	return s.casterSeats(ctx, q("match_casters"), sql.Named("match", matchID))
}

// ActiveCasting implements core.CastStore.
func (s *Arena) ActiveCasting(ctx context.Context) ([]core.CasterSeat, []core.MatchStream, error) {
	seats, err := s.casterSeats(ctx, q("active_casters"))
	if err != nil {
		return nil, nil, err
	}
	streams, err := s.matchStreams(ctx, q("active_streams"))
	return seats, streams, err
}

func (s *Arena) casterSeats(ctx context.Context, query string, args ...any) ([]core.CasterSeat, error) {
	rows, err := s.db.query(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("store: unable to list casters: %w", err)
	}
	defer rows.Close()
	var out []core.CasterSeat
	for rows.Next() {
		c, err := scanCasterSeat(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// scanCasterSeat reads a caster seat's row.
func scanCasterSeat(row scanner) (core.CasterSeat, error) {
	var c core.CasterSeat
	var created string
	err := row.Scan(&c.MatchID, &c.StreamLogin, &c.Source, &c.PlatformID, &c.InvitedBy, &created)
	if err == nil {
		c.CreatedAt, err = parseTime(created)
	}
	return c, err
}

// scanMatchStream reads a player's stream of a match.
func scanMatchStream(row scanner) (core.MatchStream, error) {
	var m core.MatchStream
	err := row.Scan(&m.MatchID, &m.PlatformID, &m.StreamLogin)
	return m, err
}

// SetMatchStream implements core.CastingStore.
func (s *Arena) SetMatchStream(ctx context.Context, matchID int64, platformID, login string, at time.Time) error {
	var err error
	if login == "" {
		_, err = s.db.write(ctx, q("delete_match_stream"), sql.Named("match", matchID), sql.Named("player", platformID))
	} else {
		_, err = s.db.write(ctx, q("set_match_stream"), sql.Named("match", matchID),
			sql.Named("player", platformID), sql.Named("login", login), sql.Named("at", formatTime(at)))
	}
	if err != nil {
		return fmt.Errorf("store: unable to store the match stream: %w", err)
	}
	return nil
}

// MatchStreams returns the match's POV streams.
func (s *Arena) MatchStreams(ctx context.Context, matchID int64) ([]core.MatchStream, error) {
	return s.matchStreams(ctx, q("match_streams"), sql.Named("match", matchID))
}

func (s *Arena) matchStreams(ctx context.Context, query string, args ...any) ([]core.MatchStream, error) {
	rows, err := s.db.query(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("store: unable to list match streams: %w", err)
	}
	defer rows.Close()
	var out []core.MatchStream
	for rows.Next() {
		m, err := scanMatchStream(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// SetFollow implements core.FollowStore.
func (s *Arena) SetFollow(ctx context.Context, platformID string, f core.Follow, on bool, at time.Time) error {
	var err error
	if on {
		_, err = s.db.write(ctx, q("follow"), sql.Named("player", platformID), sql.Named("kind", f.Kind),
			sql.Named("target", f.TargetID), sql.Named("at", formatTime(at)))
	} else {
		_, err = s.db.write(ctx, q("unfollow"), sql.Named("player", platformID), sql.Named("kind", f.Kind),
			sql.Named("target", f.TargetID))
	}
	if err != nil {
		return fmt.Errorf("store: unable to store the follow: %w", err)
	}
	return nil
}

// Follows returns what the player follows.
func (s *Arena) Follows(ctx context.Context, platformID string) ([]core.Follow, error) {
	rows, err := s.db.query(ctx, q("follows"), sql.Named("player", platformID))
	if err != nil {
		return nil, fmt.Errorf("store: unable to list follows: %w", err)
	}
	defer rows.Close()
	var out []core.Follow
	for rows.Next() {
		var f core.Follow
		if err := rows.Scan(&f.Kind, &f.TargetID); err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, rows.Err()
}
