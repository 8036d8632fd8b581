package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"arena/core"
)

// Directory is the directory database: the list of arenas.
type Directory struct {
	db    *DB
	hosts *hostCache // nil unless CacheHosts was called
}

// hostCache remembers host lookups for one directory version (and, with
// a ttl, for at most ttl).
type hostCache struct {
	mu         sync.Mutex
	version    uint64
	arenas     map[string]core.Arena
	ttl        time.Duration
	now        func() time.Time
	found      map[string]time.Time // when each host was looked up (with a ttl)
	refreshing map[string]bool      // hosts a RefreshHost is reading
}

// CacheHosts makes ArenaByHost answer from memory for as long as no write
// goes through this directory's DB. Only a process that is the directory's
// sole writer (the native server) may use it.
func (d *Directory) CacheHosts() { d.hosts = &hostCache{arenas: map[string]core.Arena{}} }

// CacheHostsFor makes ArenaByHost answer from memory for at most ttl, and
// not after a write through this directory's DB: for an instance that is
// one of many writers (a warm edge isolate), which then sees another's
// changes to an arena ttl late at most. A lookup past half its ttl is
// still answered from memory, and ArenaByHostFresh says it is due for
// RefreshHost, which the caller runs after its answer: a steadily used
// host is never read on the request path.
func (d *Directory) CacheHostsFor(ttl time.Duration, now func() time.Time) {
	d.hosts = &hostCache{arenas: map[string]core.Arena{}, ttl: ttl, now: now, found: map[string]time.Time{}, refreshing: map[string]bool{}}
}

// keep caches a host's lookup read at version (dropped when the directory
// was written meanwhile).
func (c *hostCache) keep(version uint64, host string, a *core.Arena) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.refreshing, host) // a refresh lost by its caller is due again
	if c.version == version && len(c.arenas) < 10000 {
		c.arenas[host] = *a
		if c.ttl > 0 {
			c.found[host] = c.now()
		}
	}
}

var _ core.Directory = (*Directory)(nil)

// NewDirectory returns the directory kept in db. Call Migrate on db with
// DirectoryMigrations first.
func NewDirectory(db *DB) *Directory { return &Directory{db: db} }

// DB returns the underlying database.
func (d *Directory) DB() *DB { return d.db }

// CreateArena implements core.Directory.
func (d *Directory) CreateArena(ctx context.Context, a *core.Arena) error {
	return d.insertArena(ctx, a, false, false)
}

// BeginArena implements core.Directory.
func (d *Directory) BeginArena(ctx context.Context, a *core.Arena, provisioned bool) error {
	return d.insertArena(ctx, a, true, provisioned)
}

func (d *Directory) insertArena(ctx context.Context, a *core.Arena, creating, provisioned bool) error {
	appIDs, err := json.Marshal(a.AppIDs)
	if err != nil {
		return err
	}
	stmts := []Stmt{{SQL: q("insert_arena"), Args: []any{
		sql.Named("slug", a.Slug), sql.Named("name", a.Name), sql.Named("plan", string(a.Plan)),
		sql.Named("app_ids", string(appIDs)), sql.Named("publisher_key", a.PublisherKey),
		sql.Named("identity", a.Identity), sql.Named("referee_enabled", a.RefereeEnabled),
		sql.Named("grace_period_seconds", a.GracePeriodSeconds), sql.Named("database_url", a.DatabaseURL),
		sql.Named("database_token", a.DatabaseToken), sql.Named("schema_version", a.SchemaVersion),
		sql.Named("created_at", formatTime(a.CreatedAt)), sql.Named("updated_at", formatTime(a.UpdatedAt)),
		sql.Named("creating", creating), sql.Named("provisioned", provisioned),
	}}}
	for i, h := range a.Hosts {
		stmts = append(stmts, Stmt{SQL: q("insert_arena_host"), Args: []any{sql.Named("host", h),
			sql.Named("slug", a.Slug), sql.Named("position", i)}})
	}
	if err := d.db.Batch(ctx, stmts...); err != nil {
		switch {
		case isUniqueViolation(err, "arenas.slug"):
			return core.Errorf(core.CodeSlugTaken, "slug %q is taken", a.Slug)
		case isUniqueViolation(err, "arena_hosts.host"):
			return core.Errorf(core.CodeHostTaken, "a host is taken")
		}
		return fmt.Errorf("store: unable to create arena %q: %w", a.Slug, err)
	}
	created, err := d.arenaWhere(ctx, "WHERE a.slug = :slug", sql.Named("slug", a.Slug))
	if err != nil {
		return err
	}
	a.ID = created.ID
	return nil
}

// SetCreatingDatabase implements core.Directory.
func (d *Directory) SetCreatingDatabase(ctx context.Context, arenaID int64, url, token string) error {
	var id int64
	err := d.db.writeRow(ctx, q("set_creating_database"), sql.Named("url", url), sql.Named("token", token),
		sql.Named("arena", arenaID)).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return core.Errorf(core.CodeArenaNotFound, "creation of arena %d was abandoned", arenaID)
	}
	if err != nil {
		return fmt.Errorf("store: unable to record the database of arena %d: %w", arenaID, err)
	}
	return nil
}

// CompleteArena implements core.Directory.
func (d *Directory) CompleteArena(ctx context.Context, a *core.Arena) error {
	var id int64
	err := d.db.writeRow(ctx, q("complete_arena"), sql.Named("database_url", a.DatabaseURL),
		sql.Named("database_token", a.DatabaseToken), sql.Named("schema_version", a.SchemaVersion),
		sql.Named("arena", a.ID)).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return core.Errorf(core.CodeArenaNotFound, "creation of arena %q was abandoned", a.Slug)
	}
	if err != nil {
		return fmt.Errorf("store: unable to complete arena %q: %w", a.Slug, err)
	}
	return nil
}

// AbandonArena implements core.Directory.
func (d *Directory) AbandonArena(ctx context.Context, arenaID int64) error {
	err := d.db.Batch(ctx,
		Stmt{SQL: q("delete_creating_arena_hosts"), Args: []any{sql.Named("arena", arenaID)}},
		Stmt{SQL: q("delete_creating_arena"), Args: []any{sql.Named("arena", arenaID)}})
	if err != nil {
		return fmt.Errorf("store: unable to abandon arena %d: %w", arenaID, err)
	}
	return nil
}

// UnfinishedArenas implements core.Directory.
func (d *Directory) UnfinishedArenas(ctx context.Context) ([]core.UnfinishedArena, error) {
	rows, err := d.db.query(ctx, q("creating_arenas"))
	if err != nil {
		return nil, fmt.Errorf("store: unable to list unfinished arenas: %w", err)
	}
	defer rows.Close()
	var out []core.UnfinishedArena
	for rows.Next() {
		var u core.UnfinishedArena
		var begun string
		if err := rows.Scan(&u.ID, &u.Slug, &u.DatabaseURL, &u.Provisioned, &begun); err != nil {
			return nil, err
		}
		if u.BegunAt, err = parseTime(begun); err != nil {
			return nil, err
		}
		out = append(out, u)
	}
	return out, rows.Err()
}

// Arenas implements core.Directory.
func (d *Directory) Arenas(ctx context.Context) ([]core.Arena, error) {
	rows, err := d.db.query(ctx, q("arena_columns")+" WHERE a.creating = 0 ORDER BY a.slug")
	if err != nil {
		return nil, fmt.Errorf("store: unable to list arenas: %w", err)
	}
	defer rows.Close()
	var out []core.Arena
	for rows.Next() {
		a, err := scanArena(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, *a)
	}
	return out, rows.Err()
}

// byHost finds the completed arena a host routes to.
const byHost = "WHERE a.id = (SELECT arena_id FROM arena_hosts WHERE host = :host) AND a.creating = 0"

// ArenaByHost implements core.Directory.
func (d *Directory) ArenaByHost(ctx context.Context, host string) (*core.Arena, error) {
	a, _, _, err := d.ArenaByHostFresh(ctx, host)
	return a, err
}

// ArenaByHostFresh is ArenaByHost that also says how much longer the
// answer may be trusted: with CacheHostsFor, the rest of its ttl from the
// moment it was read from the database; otherwise 0, no bound (a sole
// writer's cache is never stale). refresh says the lookup has less than
// half its ttl left: the caller runs RefreshHost after its answer (once
// per host at a time: refresh is true for one caller until it has).
func (d *Directory) ArenaByHostFresh(ctx context.Context, host string) (a *core.Arena, fresh time.Duration, refresh bool, err error) {
	c := d.hosts
	if c == nil {
		found, err := d.arenaWhere(ctx, byHost, sql.Named("host", host))
		return found, 0, false, err
	}
	version := d.db.Version()
	c.mu.Lock()
	if c.version != version {
		c.version, c.arenas, c.found = version, map[string]core.Arena{}, map[string]time.Time{}
	}
	cached, ok := c.arenas[host]
	if ok && c.ttl > 0 {
		fresh = c.ttl - c.now().Sub(c.found[host])
		ok = fresh > 0
		if ok && fresh < c.ttl/2 && !c.refreshing[host] {
			c.refreshing[host], refresh = true, true
		}
	}
	c.mu.Unlock()
	if ok {
		return &cached, fresh, refresh, nil
	}
	found, err := d.arenaWhere(ctx, byHost, sql.Named("host", host))
	if err != nil {
		return nil, 0, false, err
	}
	c.keep(version, host, found)
	return found, c.ttl, false, nil
}

// RefreshHost reads a host's lookup again for the cache of CacheHostsFor
// (ArenaByHostFresh said it is due); a host no longer routed is
// forgotten. Without a ttl it does nothing.
func (d *Directory) RefreshHost(ctx context.Context, host string) error {
	c := d.hosts
	if c == nil || c.ttl <= 0 {
		return nil
	}
	defer func() {
		c.mu.Lock()
		delete(c.refreshing, host)
		c.mu.Unlock()
	}()
	version := d.db.Version()
	found, err := d.arenaWhere(ctx, byHost, sql.Named("host", host))
	if core.ErrorCode(err) == core.CodeArenaNotFound {
		c.mu.Lock()
		delete(c.arenas, host)
		c.mu.Unlock()
		return nil
	}
	if err != nil {
		return err
	}
	c.keep(version, host, found)
	return nil
}

// ArenaBySlug implements core.Directory.
func (d *Directory) ArenaBySlug(ctx context.Context, slug string) (*core.Arena, error) {
	return d.arenaWhere(ctx, "WHERE a.slug = :slug", sql.Named("slug", slug))
}

// arenaWhere reads the arena where selects by its one parameter, arg.
func (d *Directory) arenaWhere(ctx context.Context, where string, arg sql.NamedArg) (*core.Arena, error) {
	a, err := scanArena(d.db.queryRow(ctx, q("arena_columns")+" "+where, arg))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, core.Errorf(core.CodeArenaNotFound, "no arena for %v", arg.Value)
	}
	return a, err
}

// HostsTaken implements core.Directory.
func (d *Directory) HostsTaken(ctx context.Context, hosts []string) ([]string, error) {
	list, err := json.Marshal(hosts)
	if err != nil {
		return nil, err
	}
	rows, err := d.db.query(ctx, q("hosts_taken"), sql.Named("hosts", string(list)))
	if err != nil {
		return nil, fmt.Errorf("store: unable to check hosts: %w", err)
	}
	defer rows.Close()
	var taken []string
	for rows.Next() {
		var h string
		if err := rows.Scan(&h); err != nil {
			return nil, err
		}
		taken = append(taken, h)
	}
	return taken, rows.Err()
}

// SlugTaken implements core.Directory.
func (d *Directory) SlugTaken(ctx context.Context, slug string) (bool, error) {
	var n int
	if err := d.db.queryRow(ctx, q("slug_taken"), sql.Named("slug", slug)).Scan(&n); err != nil {
		return false, fmt.Errorf("store: unable to check slug: %w", err)
	}
	return n > 0, nil
}

// DatabaseInUse implements core.Directory.
func (d *Directory) DatabaseInUse(ctx context.Context, url string) (bool, error) {
	var n int
	if err := d.db.queryRow(ctx, q("database_in_use"), sql.Named("url", url)).Scan(&n); err != nil {
		return false, fmt.Errorf("store: unable to check database URL: %w", err)
	}
	return n > 0, nil
}

// UpdateArenaSettings implements core.Directory.
func (d *Directory) UpdateArenaSettings(ctx context.Context, a *core.Arena) error {
	appIDs, err := json.Marshal(a.AppIDs)
	if err != nil {
		return err
	}
	settings := arenaSettings(a, appIDs)
	var id int64
	err = d.db.writeRow(ctx, settings.SQL, settings.Args...).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return core.Errorf(core.CodeArenaNotFound, "arena %q is gone", a.Slug)
	}
	if err != nil {
		return fmt.Errorf("store: unable to update arena %q: %w", a.Slug, err)
	}
	return nil
}

// arenaSettings is the statement storing a's settings (appIDs: its app
// ids as JSON).
func arenaSettings(a *core.Arena, appIDs []byte) Stmt {
	return Stmt{SQL: q("update_arena_settings"), Args: []any{
		sql.Named("name", a.Name), sql.Named("plan", string(a.Plan)), sql.Named("app_ids", string(appIDs)),
		sql.Named("publisher_key", a.PublisherKey), sql.Named("identity", a.Identity),
		sql.Named("referee_enabled", a.RefereeEnabled), sql.Named("grace_period_seconds", a.GracePeriodSeconds),
		sql.Named("anonymous_per_minute", a.RateLimits.AnonymousPerMinute),
		sql.Named("key_per_minute", a.RateLimits.KeyPerMinute),
		sql.Named("default_locale", a.Locale()),
		sql.Named("updated_at", formatTime(a.UpdatedAt)), sql.Named("arena", a.ID),
	}}
}

// MoveArenaHosts implements core.Directory: the settings and the hosts
// are one batch, which a taken host rolls back whole.
func (d *Directory) MoveArenaHosts(ctx context.Context, a *core.Arena, hosts []string) error {
	appIDs, err := json.Marshal(a.AppIDs)
	if err != nil {
		return err
	}
	stmts := []Stmt{
		arenaSettings(a, appIDs),
		{SQL: q("shift_domain_hosts"), Args: []any{sql.Named("hosts", len(hosts)), sql.Named("arena", a.ID)}},
		{SQL: q("unroute_arena_hosts"), Args: []any{sql.Named("arena", a.ID)}},
	}
	for i, h := range hosts {
		stmts = append(stmts, Stmt{SQL: q("route_arena_host"), Args: []any{sql.Named("host", h),
			sql.Named("arena", a.ID), sql.Named("position", i)}})
	}
	err = d.db.Batch(ctx, stmts...)
	if isUniqueViolation(err, "arena_hosts.host") || isNotNullViolation(err, "arena_hosts.position") {
		return &core.Error{Code: core.CodeHostTaken, Field: "hosts", Message: "a host is another arena's, or a custom domain"}
	}
	if err != nil {
		return fmt.Errorf("store: unable to move the hosts of arena %q: %w", a.Slug, err)
	}
	moved, err := d.arenaWhere(ctx, "WHERE a.id = :arena", sql.Named("arena", a.ID))
	if err != nil {
		return err
	}
	a.Hosts = moved.Hosts
	return nil
}

// SetSchemaVersion implements core.Directory. It never lowers a version.
func (d *Directory) SetSchemaVersion(ctx context.Context, arenaID int64, version int) error {
	if _, err := d.db.write(ctx, q("set_schema_version"), sql.Named("version", version),
		sql.Named("arena", arenaID)); err != nil {
		return fmt.Errorf("store: unable to record schema version: %w", err)
	}
	return nil
}

// scanner is what a row reader scans: *sql.Row, *sql.Rows, a ReadAll row.
type scanner = Scanner

func scanArena(row scanner) (*core.Arena, error) {
	var (
		a                   core.Arena
		plan, appIDs, hosts string
		created, updated    string
		referee             bool
	)
	err := row.Scan(&a.ID, &a.Slug, &a.Name, &plan, &appIDs, &a.PublisherKey, &a.Identity, &referee,
		&a.GracePeriodSeconds, &a.DatabaseURL, &a.DatabaseToken, &a.SchemaVersion, &created, &updated,
		&a.RateLimits.AnonymousPerMinute, &a.RateLimits.KeyPerMinute, &a.DefaultLocale, &hosts)
	if err != nil {
		return nil, err
	}
	a.Plan = core.Plan(plan)
	a.RefereeEnabled = referee
	if err := json.Unmarshal([]byte(appIDs), &a.AppIDs); err != nil {
		return nil, fmt.Errorf("store: arena %q has malformed app_ids: %w", a.Slug, err)
	}
	if err := json.Unmarshal([]byte(hosts), &a.Hosts); err != nil {
		return nil, fmt.Errorf("store: arena %q has malformed hosts: %w", a.Slug, err)
	}
	if a.CreatedAt, err = parseTime(created); err != nil {
		return nil, err
	}
	if a.UpdatedAt, err = parseTime(updated); err != nil {
		return nil, err
	}
	return &a, nil
}
