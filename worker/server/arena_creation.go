package server

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"arena/core"
	store "arena/sql"
)

// arenaFill writes an arena's first data into its new database, before
// the arena is completed (the demo's players and tournaments).
type arenaFill func(ctx context.Context, st *store.Arena) error

// buildArena does what comes after BeginArena: provisions the database
// when asked (recording it before anything is written to it), migrates
// it, stores the admins, mints the first admin token, runs fill, then
// completes the arena. When a step fails it removes what the creation
// made: the database it provisioned and the claim on slug and hosts.
// Nothing is removed from a database the operator gave (its tables and
// the unused admin token's hash stay).
func (s *Server) buildArena(ctx context.Context, a *core.Arena, provision bool, admins []string, fill arenaFill) (string, error) {
	adminToken, err := s.buildArenaSteps(ctx, a, provision, admins, fill)
	if err == nil {
		return adminToken, nil
	}
	// Clean up even when the operator's request was cancelled.
	cleanup := context.WithoutCancel(ctx)
	u := core.UnfinishedArena{ID: a.ID, Slug: a.Slug, Provisioned: provision, BegunAt: a.CreatedAt}
	if provision {
		u.DatabaseURL = a.DatabaseURL
	}
	if aerr := s.abandonArena(cleanup, u, true); aerr != nil {
		logger(ctx).ErrorContext(ctx, "abandoning an arena creation failed; the scheduled jobs retry",
			slog.String("arena", a.Slug), slog.String("error", aerr.Error()))
	}
	return "", err
}

func (s *Server) buildArenaSteps(ctx context.Context, a *core.Arena, provision bool, admins []string, fill arenaFill) (string, error) {
	if provision {
		url, token, err := s.cfg.Provisioner.ProvisionDatabase(ctx, a.Slug)
		if err != nil {
			logger(ctx).ErrorContext(ctx, "provisioning failed", "arena", a.Slug, "error", err.Error())
			return "", core.Errorf(core.CodeProvisioningFailed, "provision database for %s", a.Slug)
		}
		a.DatabaseURL, a.DatabaseToken = url, token
		if err := s.dir.SetCreatingDatabase(ctx, a.ID, url, token); err != nil {
			return "", fmt.Errorf("arena %s: %v", a.Slug, err) // abandoned meanwhile: internal
		}
	}
	adminToken, err := s.prepareArenaDatabase(ctx, a, admins, fill)
	if err != nil {
		return "", err
	}
	if err := s.dir.CompleteArena(ctx, a); err != nil {
		return "", fmt.Errorf("arena %s: %v", a.Slug, err)
	}
	return adminToken, nil
}

// prepareArenaDatabase migrates the arena's new database, stores the
// first admin players, mints the first admin token (returned in full) and
// runs fill. The database is closed again: requests open it through the
// pool once the arena is complete. A database that cannot be reached is
// the operator's input error.
func (s *Server) prepareArenaDatabase(ctx context.Context, a *core.Arena, admins []string, fill arenaFill) (string, error) {
	db, err := s.cfg.OpenDB(a.DatabaseURL, a.DatabaseToken)
	if err != nil {
		return "", core.Errorf(core.CodeDatabaseUnreachable, "%v", err)
	}
	defer db.Close()
	v, err := store.Migrate(ctx, db, store.ArenaMigrations)
	if err != nil {
		return "", &core.Error{Code: core.CodeDatabaseUnreachable, Field: "databaseUrl", Message: err.Error()}
	}
	a.SchemaVersion = v
	st := store.NewArena(db)
	if len(admins) > 0 {
		if err := st.AddArenaAdmins(ctx, admins, a.CreatedAt); err != nil {
			return "", err
		}
	}
	token, err := s.mintAdminToken(ctx, st, a.CreatedAt)
	if err != nil {
		return "", err
	}
	if fill != nil {
		if err := fill(ctx, st); err != nil {
			return "", err
		}
	}
	return token, nil
}

// mintAdminToken stores a new admin token labelled "operator" and returns
// it in full (the only time it is shown).
func (s *Server) mintAdminToken(ctx context.Context, st *store.Arena, at time.Time) (string, error) {
	minted, err := core.MintToken(core.TokenAdmin, s.rand)
	if err != nil {
		return "", err
	}
	err = st.AddAdminToken(ctx, core.AdminTokenRecord{ID: minted.ID, Hash: minted.Hash, Label: "operator", CreatedAt: at})
	if err != nil {
		return "", err
	}
	return minted.Token, nil
}

// abandonArena removes an unfinished creation: first the database the
// service provisioned for it, then its directory row and hosts, so a
// crash in between leaves the row for the next cleanup to finish. With
// verify it first checks the creation is still unfinished (a completed
// arena's database is never removed).
func (s *Server) abandonArena(ctx context.Context, u core.UnfinishedArena, verify bool) error {
	if verify {
		unfinished, err := s.dir.UnfinishedArenas(ctx)
		if err != nil {
			return err
		}
		found := false
		for _, x := range unfinished {
			found = found || x.ID == u.ID
		}
		if !found {
			return nil
		}
	}
	if u.Provisioned {
		remover, ok := s.cfg.Provisioner.(core.DatabaseRemover)
		if ok {
			if err := remover.RemoveDatabase(ctx, u.Slug, u.DatabaseURL); err != nil {
				return err
			}
		} else {
			s.log.WarnContext(ctx, "abandoned arena creation: the provisioner cannot remove its database",
				slog.String("arena", u.Slug), slog.String("database", u.DatabaseURL))
		}
	}
	return s.dir.AbandonArena(ctx, u.ID)
}

// DropUnfinishedArenas removes every arena creation that has not
// completed, with the database provisioned for it, and returns how many
// it removed. The native binary calls it at start, as the directory's
// only writer: no creation can be under way then, so whatever is
// unfinished was cut off by a crash. The scheduled jobs drop creations
// older than core.ArenaCreationTimeout.
func (s *Server) DropUnfinishedArenas(ctx context.Context) (int, error) {
	return s.dropUnfinishedArenas(ctx, time.Time{})
}

// dropUnfinishedArenas removes the unfinished creations begun before
// cutoff (all of them for the zero time).
func (s *Server) dropUnfinishedArenas(ctx context.Context, cutoff time.Time) (int, error) {
	var unfinished []core.UnfinishedArena
	err := s.withDirectory(ctx, func() (err error) {
		unfinished, err = s.dir.UnfinishedArenas(ctx)
		return err
	})
	if err != nil {
		return 0, err
	}
	dropped := 0
	for _, u := range unfinished {
		if !cutoff.IsZero() && !u.BegunAt.Before(cutoff) {
			continue
		}
		if err := s.abandonArena(ctx, u, false); err != nil {
			return dropped, fmt.Errorf("arena %s: %w", u.Slug, err)
		}
		s.log.InfoContext(ctx, "dropped an unfinished arena creation", slog.String("arena", u.Slug), slog.Time("begun_at", u.BegunAt))
		dropped++
	}
	return dropped, nil
}
