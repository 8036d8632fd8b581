package server

import (
	"context"
	"net/http"

	"arena/app"
	"arena/core"
)

// Custom domains (DESIGN.md "Custom domains"): the arena admin attaches
// hostnames of their own; with a provider configured (Config.
// CustomHostnames: Cloudflare for SaaS on the edge) each routes once the
// provider reports it active, which the scheduled job checks.

type domainRequest struct {
	Hostname string `json:"hostname" validate:"required,max=253"`
}

// domainView is a custom domain as the admin API shows it.
type domainView struct {
	Hostname     string              `json:"hostname"`
	Status       string              `json:"status"`
	SSLStatus    string              `json:"sslStatus"`
	Active       bool                `json:"active"`
	Verification []core.DomainRecord `json:"verification"`
	CreatedAt    string              `json:"createdAt"`
	UpdatedAt    string              `json:"updatedAt"`
}

func viewDomain(d *core.CustomDomain) domainView {
	return domainView{Hostname: d.Hostname, Status: d.Status, SSLStatus: d.SSLStatus, Active: d.Active(),
		Verification: d.Verification, CreatedAt: isoTime(d.CreatedAt), UpdatedAt: isoTime(d.UpdatedAt)}
}

// handleAddDomain attaches a hostname: 201 with the records its owner
// publishes; 409 host_taken when an arena uses it.
func (s *Server) handleAddDomain(w http.ResponseWriter, r *http.Request, t *Tenant) {
	var req domainRequest
	if err := decodeJSON(w, r, &req); err != nil {
		writeError(w, r, err)
		return
	}
	d, err := s.AddDomain(r.Context(), t.Arena, req.Hostname)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, viewDomain(d))
}

// handleListDomains lists the arena's custom domains, oldest first.
func (s *Server) handleListDomains(w http.ResponseWriter, r *http.Request, t *Tenant) {
	domains, err := s.dir.Domains(r.Context(), t.Arena.ID)
	if err != nil {
		writeError(w, r, err)
		return
	}
	out := make([]domainView, len(domains))
	for i := range domains {
		out[i] = viewDomain(&domains[i])
	}
	writeJSON(w, http.StatusOK, map[string]any{"domains": out})
}

// handleDeleteDomain detaches a hostname: 204, or 404 domain_not_found.
func (s *Server) handleDeleteDomain(w http.ResponseWriter, r *http.Request, t *Tenant) {
	if err := s.RemoveDomain(r.Context(), t.Arena, r.PathValue("hostname")); err != nil {
		writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// AddDomain attaches hostname to the arena (the admin API and the admin
// pages both call it).
func (s *Server) AddDomain(ctx context.Context, a *core.Arena, hostname string) (*core.CustomDomain, error) {
	return core.AddCustomDomain(ctx, s.dir, s.cfg.CustomHostnames, a, hostname, s.now())
}

// RemoveDomain detaches the arena's hostname.
func (s *Server) RemoveDomain(ctx context.Context, a *core.Arena, hostname string) error {
	return core.RemoveCustomDomain(ctx, s.dir, s.cfg.CustomHostnames, a, hostname)
}

// refreshDomains is the scheduled job that asks the provider about the
// arena's domains that do not route yet.
func (s *Server) refreshDomains(ctx context.Context, t *app.Session) (bool, error) {
	n, err := core.RefreshCustomDomains(ctx, s.dir, s.cfg.CustomHostnames, t.Arena, t.Deps.Now)
	return n > 0, err
}

// DomainsVerified reports whether a provider verifies custom domains
// before they route (else they route at once).
func (s *Server) DomainsVerified() bool { return s.cfg.CustomHostnames != nil }
