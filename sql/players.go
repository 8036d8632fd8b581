package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"arena/core"
)

// Players implements core.PlayerStore.
func (s *Arena) Players(ctx context.Context, ids []string) (map[string]core.PlayerProfile, error) {
	out := map[string]core.PlayerProfile{}
	if len(ids) == 0 {
		return out, nil
	}
	list, err := json.Marshal(ids)
	if err != nil {
		return nil, err
	}
	rows, err := s.db.query(ctx, q("players_in"), sql.Named("players", string(list)))
	if err != nil {
		return nil, fmt.Errorf("store: unable to read players: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var p core.PlayerProfile
		if err := rows.Scan(&p.PlatformID, &p.PersonaName, &p.AvatarURL, &p.Locale); err != nil {
			return nil, err
		}
		out[p.PlatformID] = p
	}
	return out, rows.Err()
}

// SetPlayerLocale implements core.LocaleStore.
func (s *Arena) SetPlayerLocale(ctx context.Context, id, locale string) error {
	if _, err := s.db.write(ctx, q("set_player_locale"), sql.Named("player", id), sql.Named("locale", locale)); err != nil {
		return fmt.Errorf("store: unable to keep the player's locale: %w", err)
	}
	return nil
}

// Player implements core.TournamentStore.
func (s *Arena) Player(ctx context.Context, id string) (*core.PlayerProfile, error) {
	var p core.PlayerProfile
	err := s.db.queryRow(ctx, q("player"), sql.Named("player", id)).Scan(&p.PlatformID, &p.PersonaName, &p.AvatarURL)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, core.Errorf(core.CodePlayerNotFound, "no player %s", id)
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to read player: %w", err)
	}
	return &p, nil
}

// Ladder implements core.SeasonStore.
func (s *Arena) Ladder(ctx context.Context, seasonID int64) ([]core.LadderRow, error) {
	rows, err := s.db.query(ctx, q("ladder"), sql.Named("season", seasonID))
	if err != nil {
		return nil, fmt.Errorf("store: unable to read ladder: %w", err)
	}
	defer rows.Close()
	var out []core.LadderRow
	for rows.Next() {
		var r core.LadderRow
		if err := rows.Scan(&r.PlatformID, &r.Points, &r.Tournaments); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// Setting implements core.SettingStore.
func (s *Arena) Setting(ctx context.Context, key string, v any) (bool, error) {
	raw, err := readPlanned(ctx, s.db, "setting "+key, func() (*sql.NullString, []Read) { return settingRead(key) })
	if err != nil {
		return false, fmt.Errorf("store: unable to read setting %s: %w", key, err)
	}
	if !raw.Valid {
		return false, nil
	}
	if err := json.Unmarshal([]byte(raw.String), v); err != nil {
		return false, fmt.Errorf("store: setting %s is malformed: %w", key, err)
	}
	return true, nil
}

// PlanSetting plans Setting's read of key with the request's first
// ReadAll (plan.go).
func (s *Arena) PlanSetting(ctx context.Context, key string) {
	planAhead(ctx, s.db, "setting "+key, func() (*sql.NullString, []Read) { return settingRead(key) })
}

// settingRead is Setting's read of key: its JSON, or not Valid when unset.
func settingRead(key string) (*sql.NullString, []Read) {
	var raw sql.NullString
	return &raw, []Read{{SQL: q("setting"), Args: []any{sql.Named("key", key)}, Row: func(row Scanner) error {
		var value string
		err := row.Scan(&value)
		raw = sql.NullString{String: value, Valid: err == nil}
		return err
	}}}
}

// SetSetting implements core.StreamStore.
func (s *Arena) SetSetting(ctx context.Context, key string, v any) error {
	raw, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if _, err := s.db.write(ctx, q("set_setting"), sql.Named("key", key), sql.Named("value", string(raw))); err != nil {
		return fmt.Errorf("store: unable to store setting %s: %w", key, err)
	}
	return nil
}

// PlayersNamed returns at most limit players whose name contains text
// (ASCII letters in any case), by name: the admin's name search.
func (s *Arena) PlayersNamed(ctx context.Context, text string, limit int) ([]core.PlayerProfile, error) {
	escaped := strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`).Replace(text)
	rows, err := s.db.query(ctx, q("players_named"), sql.Named("pattern", escaped), sql.Named("limit", limit))
	if err != nil {
		return nil, fmt.Errorf("store: unable to search players: %w", err)
	}
	defer rows.Close()
	var out []core.PlayerProfile
	for rows.Next() {
		var p core.PlayerProfile
		if err := rows.Scan(&p.PlatformID, &p.PersonaName, &p.AvatarURL); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}
