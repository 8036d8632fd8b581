package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"arena/core"
)

// ClaimOpenIDNonce records a platform sign-in's response nonce and reports
// whether it was new: an assertion signs a player in once. Nonces seen
// before keepSince are swept.
func (s *Arena) ClaimOpenIDNonce(ctx context.Context, nonce string, at, keepSince time.Time) (bool, error) {
	var got string
	err := s.db.writeRow(ctx, q("claim_openid_nonce"), sql.Named("nonce", nonce),
		sql.Named("at", formatTime(at))).Scan(&got)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("store: unable to claim the sign-in nonce: %w", err)
	}
	if _, err := s.db.write(ctx, q("sweep_openid_nonces"), sql.Named("keep_since", formatTime(keepSince))); err != nil {
		return false, fmt.Errorf("store: unable to sweep sign-in nonces: %w", err)
	}
	return true, nil
}

// SignInMockPlayer stores a player signed in with the mock form: a new
// player gets p's placeholder name and avatar; a known one keeps their
// name and gains the avatar if they had none.
func (s *Arena) SignInMockPlayer(ctx context.Context, p core.PlayerProfile, at time.Time) error {
	now := formatTime(at)
	if _, err := s.db.write(ctx, q("mock_signin_player"), sql.Named("player", p.PlatformID),
		sql.Named("persona_name", p.PersonaName), sql.Named("avatar_url", p.AvatarURL),
		sql.Named("now", now)); err != nil {
		return fmt.Errorf("store: unable to store the signed-in player: %w", err)
	}
	return nil
}

// FreshSummaries returns which of ids had their platform summary read at
// or after since.
func (s *Arena) FreshSummaries(ctx context.Context, ids []string, since time.Time) (map[string]bool, error) {
	out := map[string]bool{}
	if len(ids) == 0 {
		return out, nil
	}
	list, err := json.Marshal(ids)
	if err != nil {
		return nil, err
	}
	rows, err := s.db.query(ctx, q("fresh_summaries"), sql.Named("players", string(list)),
		sql.Named("since", formatTime(since)))
	if err != nil {
		return nil, fmt.Errorf("store: unable to read summary freshness: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out[id] = true
	}
	return out, rows.Err()
}

// CacheSummaries stores the platform's names and avatars of found and
// marks the known players among missing (the platform returned nothing
// for them) as read, in one batch.
func (s *Arena) CacheSummaries(ctx context.Context, found []core.PlayerProfile, missing []string, at time.Time) error {
	now := formatTime(at)
	stmts := make([]Stmt, 0, len(found)+len(missing))
	for _, p := range found {
		stmts = append(stmts, Stmt{SQL: q("cache_summary"), Args: []any{sql.Named("player", p.PlatformID),
			sql.Named("persona_name", p.PersonaName), sql.Named("avatar_url", p.AvatarURL),
			sql.Named("now", now)}})
	}
	for _, id := range missing {
		stmts = append(stmts, Stmt{SQL: q("summary_missing"), Args: []any{sql.Named("now", now),
			sql.Named("player", id)}})
	}
	if err := s.db.Batch(ctx, stmts...); err != nil {
		return fmt.Errorf("store: unable to cache player summaries: %w", err)
	}
	return nil
}

// StartWebSession stores a new session id for the player until expires,
// and sweeps the sessions expired at at, in one batch; a player with no
// language yet takes locale ("" keeps none) for alerts and pushes.
func (s *Arena) StartWebSession(ctx context.Context, id, platformID string, mock bool, at, expires time.Time, locale string) error {
	err := s.db.Batch(ctx,
		Stmt{SQL: q("sweep_web_sessions"), Args: []any{sql.Named("at", formatTime(at))}},
		Stmt{SQL: q("insert_web_session"), Args: []any{sql.Named("session", id),
			sql.Named("player", platformID), sql.Named("mock", mock), sql.Named("at", formatTime(at)),
			sql.Named("expires", formatTime(expires))}},
		Stmt{SQL: q("first_player_locale"), Args: []any{sql.Named("player", platformID), sql.Named("locale", locale)}},
	)
	if err != nil {
		return fmt.Errorf("store: unable to start a web session: %w", err)
	}
	return nil
}

// WebSession returns the session with the id that is still open at now,
// with its player's name, avatar and admin flag, in one read; nil when
// there is none (never started, signed out or expired).
func (s *Arena) WebSession(ctx context.Context, id string, now time.Time) (*core.WebSession, error) {
	return s.PlanWebSession(ctx, id, now)(ctx)
}

// PlanWebSession plans WebSession's read on the request's plan
// (Planning): it goes along with the request's first ReadAll. The
// function returned gives the session, reading it then if no ReadAll
// took it. WebSession of the same id under ctx is then this read.
func (s *Arena) PlanWebSession(ctx context.Context, id string, now time.Time) func(context.Context) (*core.WebSession, error) {
	found := new(*core.WebSession)
	read := Read{SQL: q("web_session_viewer"), Args: []any{sql.Named("session", id), sql.Named("now", formatTime(now))},
		Row: func(row Scanner) error {
			var ws core.WebSession
			var name, avatar sql.NullString
			var follows string
			if err := row.Scan(&ws.PlatformID, &ws.Mock, &name, &avatar, &ws.IsAdmin, &ws.Unread, &ws.StreamLogin, &follows); err != nil {
				return err
			}
			ws.PersonaName, ws.AvatarURL = name.String, avatar.String
			if follows != "" {
				ws.Follows = strings.Split(follows, ",")
			}
			*found = &ws
			return nil
		}}
	p := s.db.plan(ctx, "web_session "+id, found, read)
	if p != nil {
		found = p.out.(**core.WebSession)
	}
	return func(ctx context.Context) (*core.WebSession, error) {
		var err error
		if p != nil {
			err = p.wait(ctx)
		} else {
			err = s.db.ReadAll(ctx, read)
		}
		if err != nil {
			return nil, fmt.Errorf("store: unable to read the web session: %w", err)
		}
		return *found, nil
	}
}

// EndWebSession ends the session with the id (signing out); an unknown id
// is no error.
func (s *Arena) EndWebSession(ctx context.Context, id string) error {
	if _, err := s.db.write(ctx, q("end_web_session"), sql.Named("session", id)); err != nil {
		return fmt.Errorf("store: unable to end the web session: %w", err)
	}
	return nil
}
