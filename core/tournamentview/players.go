package tournamentview

import (
	"context"

	"arena/core"
)

// PlayerReader looks up players' profiles.
type PlayerReader interface {
	// Players returns the profiles the arena keeps of ids, by id.
	Players(ctx context.Context, ids []string) (map[string]core.PlayerProfile, error)
}

// Players are the profiles of the players a read names, by account id.
type Players map[string]core.PlayerProfile

// ReadPlayers looks up the profiles of ids ("" and repeats are skipped)
// in one query, or none when no id is left.
func ReadPlayers(ctx context.Context, st PlayerReader, ids []string) (Players, error) {
	seen := make(map[string]bool, len(ids))
	unique := make([]string, 0, len(ids))
	for _, id := range ids {
		if id != "" && !seen[id] {
			seen[id] = true
			unique = append(unique, id)
		}
	}
	if len(unique) == 0 {
		return Players{}, nil
	}
	profiles, err := st.Players(ctx, unique)
	if err != nil {
		return nil, err
	}
	return Players(profiles), nil
}

// Profile is the player with the id as the API shows them: nil for ""
// (an undecided side), the stored profile, or a placeholder for an id the
// arena does not know.
func (p Players) Profile(id string) *core.PlayerProfile {
	if id == "" {
		return nil
	}
	if profile, ok := p[id]; ok {
		return &profile
	}
	return &core.PlayerProfile{PlatformID: id, PersonaName: core.PlaceholderName(id)}
}

// Named is the player with the id as the pages show them: the stored
// profile when it has a name, otherwise the placeholder name (and no
// avatar). The id must not be "".
func (p Players) Named(id string) core.PlayerProfile {
	if profile, ok := p[id]; ok && profile.PersonaName != "" {
		return core.PlayerProfile{PlatformID: id, PersonaName: profile.PersonaName, AvatarURL: profile.AvatarURL}
	}
	return core.PlayerProfile{PlatformID: id, PersonaName: core.PlaceholderName(id)}
}
