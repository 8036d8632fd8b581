package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"arena/core"
)

var _ core.DomainStore = (*Directory)(nil)

// AddDomain implements core.DomainStore. A pending domain is one
// conditional insert; an active one is inserted with its route in one
// batch, which a taken host (a unique violation) rolls back.
func (d *Directory) AddDomain(ctx context.Context, dom *core.CustomDomain) error {
	records, err := json.Marshal(dom.Verification)
	if err != nil {
		return err
	}
	insert := Stmt{SQL: q("insert_domain"), Args: []any{
		sql.Named("hostname", dom.Hostname), sql.Named("arena", dom.ArenaID),
		sql.Named("provider", dom.ProviderID), sql.Named("status", dom.Status),
		sql.Named("ssl_status", dom.SSLStatus), sql.Named("records", string(records)),
		sql.Named("created_at", formatTime(dom.CreatedAt)), sql.Named("updated_at", formatTime(dom.UpdatedAt)),
	}}
	if dom.Active() {
		err = d.db.Batch(ctx, insert, Stmt{SQL: q("insert_domain_host"), Args: []any{sql.Named("hostname", dom.Hostname),
			sql.Named("arena", dom.ArenaID)}})
	} else {
		var h string
		err = d.db.writeRow(ctx, insert.SQL, insert.Args...).Scan(&h)
		if errors.Is(err, sql.ErrNoRows) {
			return core.Errorf(core.CodeHostTaken, "%q is an arena's host", dom.Hostname)
		}
	}
	if isUniqueViolation(err, "custom_domains.hostname") || isUniqueViolation(err, "arena_hosts.host") {
		return core.Errorf(core.CodeHostTaken, "%q is taken", dom.Hostname)
	}
	if err != nil {
		return fmt.Errorf("store: unable to add domain %q: %w", dom.Hostname, err)
	}
	return nil
}

// Domains implements core.DomainStore.
func (d *Directory) Domains(ctx context.Context, arenaID int64) ([]core.CustomDomain, error) {
	rows, err := d.db.query(ctx, q("domains"), sql.Named("arena", arenaID))
	if err != nil {
		return nil, fmt.Errorf("store: unable to list domains: %w", err)
	}
	defer rows.Close()
	out := []core.CustomDomain{}
	for rows.Next() {
		var (
			dom              core.CustomDomain
			records          string
			created, updated string
		)
		if err := rows.Scan(&dom.Hostname, &dom.ArenaID, &dom.ProviderID, &dom.Status, &dom.SSLStatus, &records, &created, &updated); err != nil {
			return nil, err
		}
		if err := json.Unmarshal([]byte(records), &dom.Verification); err != nil {
			return nil, fmt.Errorf("store: domain %q has malformed verification: %w", dom.Hostname, err)
		}
		if dom.CreatedAt, err = parseTime(created); err != nil {
			return nil, err
		}
		if dom.UpdatedAt, err = parseTime(updated); err != nil {
			return nil, err
		}
		out = append(out, dom)
	}
	return out, rows.Err()
}

// UpdateDomain implements core.DomainStore: the update and the route
// change are one batch; a domain deleted meanwhile gets no route.
func (d *Directory) UpdateDomain(ctx context.Context, dom *core.CustomDomain) error {
	records, err := json.Marshal(dom.Verification)
	if err != nil {
		return err
	}
	update := Stmt{SQL: q("update_domain"), Args: []any{
		sql.Named("provider", dom.ProviderID), sql.Named("status", dom.Status),
		sql.Named("ssl_status", dom.SSLStatus), sql.Named("records", string(records)),
		sql.Named("updated_at", formatTime(dom.UpdatedAt)), sql.Named("hostname", dom.Hostname),
		sql.Named("arena", dom.ArenaID),
	}}
	route := Stmt{SQL: q("unroute_domain"), Args: []any{sql.Named("hostname", dom.Hostname),
		sql.Named("arena", dom.ArenaID)}}
	if dom.Active() {
		route = Stmt{SQL: q("route_domain"), Args: []any{sql.Named("hostname", dom.Hostname),
			sql.Named("arena", dom.ArenaID)}}
	}
	if err := d.db.Batch(ctx, update, route); err != nil {
		return fmt.Errorf("store: unable to update domain %q: %w", dom.Hostname, err)
	}
	return nil
}

// DeleteDomain implements core.DomainStore: the domain and its route go
// in one batch.
func (d *Directory) DeleteDomain(ctx context.Context, arenaID int64, hostname string) error {
	err := d.db.Batch(ctx,
		Stmt{SQL: q("unroute_domain"), Args: []any{sql.Named("hostname", hostname), sql.Named("arena", arenaID)}},
		Stmt{SQL: q("delete_domain"), Args: []any{sql.Named("hostname", hostname), sql.Named("arena", arenaID)}},
	)
	if err != nil {
		return fmt.Errorf("store: unable to delete domain %q: %w", hostname, err)
	}
	return nil
}
