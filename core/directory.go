package core

import (
	"context"
	"time"
)

// Directory lists the arenas: the one database every request consults to
// find its tenant by host.
type Directory interface {
	// CreateArena stores a new arena and its hosts in one atomic step and
	// sets a.ID. Returns CodeSlugTaken or CodeHostTaken when another arena
	// already has the slug or one of the hosts.
	CreateArena(ctx context.Context, a *Arena) error
	// Arenas returns every arena ordered by slug.
	Arenas(ctx context.Context) ([]Arena, error)
	// ArenaByHost returns the arena serving the normalized host, or
	// CodeArenaNotFound.
	ArenaByHost(ctx context.Context, host string) (*Arena, error)
	// HostsTaken returns which of hosts already belong to an arena, as a
	// host or a custom domain (pending ones too).
	HostsTaken(ctx context.Context, hosts []string) ([]string, error)
	// SlugTaken reports whether an arena already has the slug.
	SlugTaken(ctx context.Context, slug string) (bool, error)
	// DatabaseInUse reports whether an arena already uses the database URL.
	DatabaseInUse(ctx context.Context, url string) (bool, error)
	// UpdateArenaSettings stores the arena's mutable settings (name, plan,
	// AppIDs, publisher key, identity, referee, grace period).
	UpdateArenaSettings(ctx context.Context, a *Arena) error
	// SetSchemaVersion records the arena database's migration level.
	SetSchemaVersion(ctx context.Context, arenaID int64, version int) error
}

// AdminTokenRecord is a stored arena admin token: only its hash.
type AdminTokenRecord struct {
	ID        string
	Hash      string
	Label     string
	CreatedAt time.Time
	RevokedAt *time.Time
}

// ArenaStore is an arena's own database.
type ArenaStore interface {
	// AddAdminToken stores a minted admin token's id and hash.
	AddAdminToken(ctx context.Context, t AdminTokenRecord) error
	// AdminToken returns the unrevoked admin token with the id, or
	// CodeUnauthorized.
	AdminToken(ctx context.Context, id string) (*AdminTokenRecord, error)
	// AddArenaAdmins records players who administer the arena on the web.
	AddArenaAdmins(ctx context.Context, platformIDs []string, at time.Time) error
	// ArenaAdmins returns the admin players' account ids, sorted.
	ArenaAdmins(ctx context.Context) ([]string, error)
	// UpsertPlayers stores players, updating names and avatars.
	UpsertPlayers(ctx context.Context, players []PlayerProfile, at time.Time) error
	// PlayerCount returns how many players the arena knows.
	PlayerCount(ctx context.Context) (int, error)
}

// PlayerProfile is a player as the arena knows them: the platform account
// id with a display name and avatar.
type PlayerProfile struct {
	PlatformID  string `json:"platformId"`
	PersonaName string `json:"personaName"`
	AvatarURL   string `json:"avatarUrl"`
}

// DatabaseProvisioner creates a new, empty database for an arena and
// returns how to reach it.
type DatabaseProvisioner interface {
	ProvisionDatabase(ctx context.Context, slug string) (url, token string, err error)
}
