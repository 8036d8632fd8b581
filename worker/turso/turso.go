// Package turso provisions arena databases through the Turso Platform
// API: one database per arena in the configured organization and group,
// with a database auth token for the service.
package turso

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"arena/core"
	"arena/worker/httpjson"
)

// DefaultBaseURL is the Platform API's address.
const DefaultBaseURL = "https://api.turso.tech"

// Provisioner creates databases with the Platform API.
type Provisioner struct {
	BaseURL      string // DefaultBaseURL unless testing
	Organization string
	Group        string
	APIToken     string
	// DatabasePrefix is put before the arena slug in database names, so
	// one organization can serve several deployments ("arena-" by default).
	DatabasePrefix string
	Client         *http.Client
}

var (
	_ core.DatabaseProvisioner = (*Provisioner)(nil)
	_ core.DatabaseRemover     = (*Provisioner)(nil)
)

// createDatabaseResponse is the Platform API's answer to a database
// creation ("database": { "DbId", "Hostname", "Name" }).
type createDatabaseResponse struct {
	Database struct {
		DbID     string `json:"DbId"`
		Hostname string `json:"Hostname"`
		Name     string `json:"Name"`
	} `json:"database"`
}

type createTokenResponse struct {
	JWT string `json:"jwt"`
}

// ProvisionDatabase creates the database "<prefix><slug>" in the group and
// a full-access, non-expiring token for it. It returns the libsql:// URL
// and the token.
func (p *Provisioner) ProvisionDatabase(ctx context.Context, slug string) (string, string, error) {
	name := p.databaseName(slug)
	org := url.PathEscape(p.Organization)
	var created createDatabaseResponse
	body := map[string]string{"name": name, "group": p.Group}
	if err := p.call(ctx, http.MethodPost, "/v1/organizations/"+org+"/databases", body, &created); err != nil {
		return "", "", fmt.Errorf("turso: create database %s: %w", name, err)
	}
	if created.Database.Hostname == "" {
		return "", "", fmt.Errorf("turso: create database %s: answer has no Hostname", name)
	}
	var token createTokenResponse
	path := "/v1/organizations/" + org + "/databases/" + url.PathEscape(name) + "/auth/tokens?expiration=never&authorization=full-access"
	if err := p.call(ctx, http.MethodPost, path, nil, &token); err != nil {
		return "", "", fmt.Errorf("turso: create token for %s: %w", name, err)
	}
	if token.JWT == "" {
		return "", "", fmt.Errorf("turso: create token for %s: answer has no jwt", name)
	}
	return "libsql://" + created.Database.Hostname, token.JWT, nil
}

// RemoveDatabase deletes the database "<prefix><slug>" (the URL is not
// needed: the name follows from the slug). A database already gone is no
// error.
func (p *Provisioner) RemoveDatabase(ctx context.Context, slug, _ string) error {
	name := p.databaseName(slug)
	path := "/v1/organizations/" + url.PathEscape(p.Organization) + "/databases/" + url.PathEscape(name)
	var deleted struct {
		Database string `json:"database"`
	}
	err := p.call(ctx, http.MethodDelete, path, nil, &deleted)
	var apiErr *apiError
	if errors.As(err, &apiErr) && apiErr.status == http.StatusNotFound {
		return nil
	}
	if err != nil {
		return fmt.Errorf("turso: delete database %s: %w", name, err)
	}
	return nil
}

func (p *Provisioner) databaseName(slug string) string {
	prefix := p.DatabasePrefix
	if prefix == "" {
		prefix = "arena-"
	}
	return prefix + slug
}

// apiError is a non-2xx Platform API answer.
type apiError struct {
	status  int
	message string
}

func (e *apiError) Error() string { return fmt.Sprintf("status %d: %s", e.status, e.message) }

// call sends one Platform API request and decodes a 2xx JSON answer into
// out. Non-2xx answers become errors carrying the API's "error" text.
func (p *Provisioner) call(ctx context.Context, method, path string, in, out any) error {
	base := p.BaseURL
	if base == "" {
		base = DefaultBaseURL
	}
	status, b, err := httpjson.Do(ctx, p.Client, method, strings.TrimRight(base, "/")+path, p.APIToken, in)
	if err != nil {
		return err
	}
	if status/100 != 2 {
		var apiErr struct {
			Error string `json:"error"`
		}
		_ = json.Unmarshal(b, &apiErr)
		if apiErr.Error == "" {
			apiErr.Error = http.StatusText(status)
		}
		return &apiError{status: status, message: apiErr.Error}
	}
	return json.Unmarshal(b, out)
}
