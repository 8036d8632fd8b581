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
	// BeginArena starts an arena's creation: it stores the arena and its
	// hosts in one atomic step, marked as being created, and sets a.ID.
	// From then on the slug and hosts are taken (CodeSlugTaken,
	// CodeHostTaken for a later claim), but no host routes to the arena
	// and Arenas does not list it until CompleteArena. provisioned says the
	// service creates the arena's database (see DatabaseRemover).
	BeginArena(ctx context.Context, a *Arena, provisioned bool) error
	// SetCreatingDatabase records the database provisioned for an arena
	// being created, before anything is written to it. CodeArenaNotFound
	// when the creation was abandoned meanwhile.
	SetCreatingDatabase(ctx context.Context, arenaID int64, url, token string) error
	// CompleteArena ends a creation, storing a's database URL, token and
	// schema version: the commit point, after which its hosts route to it.
	// CodeArenaNotFound when the creation was abandoned meanwhile.
	CompleteArena(ctx context.Context, a *Arena) error
	// AbandonArena deletes an arena being created and its hosts; a
	// completed arena is left alone.
	AbandonArena(ctx context.Context, arenaID int64) error
	// UnfinishedArenas returns the arenas being created, oldest first.
	UnfinishedArenas(ctx context.Context) ([]UnfinishedArena, error)
	// Arenas returns every arena ordered by slug.
	Arenas(ctx context.Context) ([]Arena, error)
	// ArenaByHost returns the arena serving the normalized host, or
	// CodeArenaNotFound.
	ArenaByHost(ctx context.Context, host string) (*Arena, error)
	// ArenaBySlug returns the arena with the slug, or CodeArenaNotFound.
	ArenaBySlug(ctx context.Context, slug string) (*Arena, error)
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
	// MoveArenaHosts stores a's settings as UpdateArenaSettings does and
	// replaces the arena's own hosts (not its custom domains) with hosts,
	// primary first, in one atomic step; then a.Hosts is the arena's hosts
	// as routed (custom domains after the new ones). CodeHostTaken, with
	// nothing changed, when one of hosts is another arena's host or any
	// arena's custom domain (pending ones too).
	MoveArenaHosts(ctx context.Context, a *Arena, hosts []string) error
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
	// Locale is the language the player reads alerts and pushes in ("":
	// the arena's defaultLocale); Players reads it, nothing shows it.
	Locale string `json:"-"`
}

// UnfinishedArena is an arena whose creation began and has not completed:
// still under way, or abandoned by a failure or a crash.
type UnfinishedArena struct {
	ID          int64
	Slug        string
	DatabaseURL string // "" until a provisioned database is recorded
	Provisioned bool   // the service creates (and so removes) its database
	BegunAt     time.Time
}

// ArenaCreationTimeout is how long an arena creation may take: the
// scheduled jobs drop a creation begun longer ago that has not completed,
// with the database provisioned for it.
const ArenaCreationTimeout = 10 * time.Minute

// DatabaseProvisioner creates a new, empty database for an arena and
// returns how to reach it.
type DatabaseProvisioner interface {
	ProvisionDatabase(ctx context.Context, slug string) (url, token string, err error)
}

// Arena creation errors.
const (
	// CodeDatabaseUnreachable: the operator's databaseUrl cannot be
	// opened or migrated (422, field databaseUrl).
	CodeDatabaseUnreachable = "database_unreachable"
	// CodeDatabaseURLRequired: no databaseUrl and no provisioner (422).
	CodeDatabaseURLRequired = "database_url_required"
	// CodeProvisioningFailed: the database provider refused or failed (502).
	CodeProvisioningFailed = "provisioning_failed"
	// CodeDatabaseInUse: another arena already uses the databaseUrl (409).
	CodeDatabaseInUse = "database_in_use"
	// CodeLastAdmin: an arena keeps at least one admin player.
	CodeLastAdmin = "last_admin"
)

// DatabaseRemover is a DatabaseProvisioner that can delete a database it
// provisioned for the arena slug (url as ProvisionDatabase returned it, or
// "" when that answer was never recorded). A database already gone is no
// error. The service removes what an abandoned arena creation provisioned.
type DatabaseRemover interface {
	RemoveDatabase(ctx context.Context, slug, url string) error
}
