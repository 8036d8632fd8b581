package web

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"arena/core"
	"arena/worker/server"
)

// Names and avatars come from the platform's player summaries in real
// mode (ISteamUser/GetPlayerSummaries/v0002, at most 100 ids per call,
// with the arena's publisher key) and are cached in the arena's players
// table; mock mode never calls out (placeholder names and avatars).

const (
	defaultPlayerAPI = "https://api.steampowered.com"
	summaryBatch     = 100
	summaryMaxAge    = 24 * time.Hour // a cached summary is read again after this
	summaryTimeout   = 10 * time.Second
	maxSummaryBytes  = 1 << 20
)

// playerAPI is the platform's web API base: the configured one or the
// public default.
func (s *Site) playerAPI() string {
	if s.cfg.PlayerAPI != "" {
		return strings.TrimSuffix(s.cfg.PlayerAPI, "/")
	}
	return defaultPlayerAPI
}

// refreshSummaries makes the arena's cached names and avatars of ids
// fresh: ids whose summary was read less than summaryMaxAge ago are
// skipped (unless force), the rest are asked in batches of at most 100 and
// cached, players the platform does not know included (so they are not
// asked again at once). Mock mode does nothing.
func (s *Site) refreshSummaries(ctx context.Context, t *server.Tenant, ids []string, force bool) error {
	if mockSignIn(t) {
		return nil
	}
	ids = uniquePlatformIDs(ids)
	if len(ids) == 0 {
		return nil
	}
	key := t.Arena.PublisherKey
	return t.RefreshSummaries(ctx, ids, force, summaryMaxAge, summaryBatch, func(ctx context.Context, batch []string) (map[string]core.PlayerProfile, error) {
		return s.fetchSummaries(ctx, key, batch)
	})
}

// summariesResponse is GetPlayerSummaries' answer.
type summariesResponse struct {
	Response struct {
		Players []struct {
			SteamID      string `json:"steamid"`
			PersonaName  string `json:"personaname"`
			AvatarFull   string `json:"avatarfull"`
			AvatarMedium string `json:"avatarmedium"`
			Avatar       string `json:"avatar"`
		} `json:"players"`
	} `json:"response"`
}

// fetchSummaries asks the platform for up to 100 players' summaries and
// returns those it answered for, among ids. Errors never carry the
// request URL (it holds the key).
func (s *Site) fetchSummaries(ctx context.Context, key string, ids []string) (map[string]core.PlayerProfile, error) {
	if len(ids) > summaryBatch {
		return nil, fmt.Errorf("summaries: %d ids in one call (at most %d)", len(ids), summaryBatch)
	}
	ctx, cancel := context.WithTimeout(ctx, summaryTimeout)
	defer cancel()
	q := url.Values{"key": {key}, "steamids": {strings.Join(ids, ",")}}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.playerAPI()+"/ISteamUser/GetPlayerSummaries/v0002/?"+q.Encode(), nil)
	if err != nil {
		return nil, fmt.Errorf("summaries: %w", unwrapURLError(err))
	}
	resp, err := s.cfg.HTTP.Do(req)
	if err != nil {
		return nil, fmt.Errorf("summaries: %w", unwrapURLError(err))
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("summaries: status %d", resp.StatusCode)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxSummaryBytes))
	if err != nil {
		return nil, fmt.Errorf("summaries: %w", err)
	}
	var sr summariesResponse
	if err := json.Unmarshal(body, &sr); err != nil {
		return nil, fmt.Errorf("summaries: malformed answer: %w", err)
	}
	asked := map[string]bool{}
	for _, id := range ids {
		asked[id] = true
	}
	out := map[string]core.PlayerProfile{}
	for _, p := range sr.Response.Players {
		if !asked[p.SteamID] {
			continue
		}
		out[p.SteamID] = core.PlayerProfile{
			PlatformID:  p.SteamID,
			PersonaName: personaName(p.PersonaName, p.SteamID),
			AvatarURL:   firstWebURL(p.AvatarFull, p.AvatarMedium, p.Avatar),
		}
	}
	return out, nil
}

// personaName trims a platform name to what the pages show; an empty one
// is the placeholder.
func personaName(name, id string) string {
	name = strings.TrimSpace(strings.ToValidUTF8(name, ""))
	if utf8.RuneCountInString(name) > core.MaxPersonaNameRunes {
		name = string([]rune(name)[:core.MaxPersonaNameRunes])
	}
	if name == "" {
		return core.PlaceholderName(id)
	}
	return name
}

// firstWebURL returns the first http(s) URL of urls, or "".
func firstWebURL(urls ...string) string {
	for _, raw := range urls {
		if u, err := url.Parse(raw); err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != "" {
			return raw
		}
	}
	return ""
}

// uniquePlatformIDs returns the valid ids of ids, each once, in order.
func uniquePlatformIDs(ids []string) []string {
	seen := map[string]bool{}
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		if core.ValidPlatformID(id) && !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}
