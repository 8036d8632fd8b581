// Package cloudflare is the custom domains provider on the edge:
// Cloudflare for SaaS custom hostnames, through the three calls of the
// Cloudflare API v4 Arena makes (create, get, delete). It is written by
// hand: measured on the Workers build, cloudflare-go/v6's custom_hostnames
// and option packages (v6.10.0; without the root package, which pulls in
// every service for +18.7 MB) add 0.80 MB raw / 0.16 MB gzip, while this
// client and the whole custom-domains feature add 0.10 MB / 0.02 MB.
package cloudflare

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"arena/core"
	"arena/worker/httpjson"
)

// DefaultBaseURL is the Cloudflare API's address.
const DefaultBaseURL = "https://api.cloudflare.com/client/v4"

// CustomHostnames manages the custom hostnames of one zone (the SaaS zone
// that serves the arenas).
type CustomHostnames struct {
	BaseURL  string // DefaultBaseURL unless testing
	APIToken string // needs SSL and Certificates: Edit on the zone
	ZoneID   string
	// CNAMETarget, when set, is the hostname owners point their domain at
	// (the zone's fallback origin): shown as the first record to publish.
	CNAMETarget string
	Client      *http.Client // http.DefaultClient when nil
}

var _ core.CustomHostnames = (*CustomHostnames)(nil)

// customHostname is the API's custom hostname object (the fields Arena
// reads).
type customHostname struct {
	ID                    string `json:"id"`
	Hostname              string `json:"hostname"`
	Status                string `json:"status"`
	OwnershipVerification *struct {
		Type  string `json:"type"`
		Name  string `json:"name"`
		Value string `json:"value"`
	} `json:"ownership_verification"`
	SSL struct {
		Status            string `json:"status"`
		ValidationRecords []struct {
			TxtName     string `json:"txt_name"`
			TxtValue    string `json:"txt_value"`
			HTTPURL     string `json:"http_url"`
			HTTPBody    string `json:"http_body"`
			CNAME       string `json:"cname"`
			CNAMETarget string `json:"cname_target"`
		} `json:"validation_records"`
	} `json:"ssl"`
}

// envelope is the API's answer shape.
type envelope struct {
	Success bool `json:"success"`
	Errors  []struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"errors"`
	Result json.RawMessage `json:"result"`
}

// Create implements core.CustomHostnames: a DV certificate validated over
// HTTP (the hostname must already point at the zone) or TXT.
func (c *CustomHostnames) Create(ctx context.Context, hostname string) (core.CustomHostname, error) {
	body := map[string]any{"hostname": hostname, "ssl": map[string]any{"method": "txt", "type": "dv"}}
	var ch customHostname
	if err := c.call(ctx, http.MethodPost, "", body, &ch); err != nil {
		return core.CustomHostname{}, err
	}
	return c.view(hostname, ch), nil
}

// Get implements core.CustomHostnames.
func (c *CustomHostnames) Get(ctx context.Context, id string) (core.CustomHostname, error) {
	var ch customHostname
	if err := c.call(ctx, http.MethodGet, "/"+url.PathEscape(id), nil, &ch); err != nil {
		return core.CustomHostname{}, err
	}
	return c.view(ch.Hostname, ch), nil
}

// Delete implements core.CustomHostnames.
func (c *CustomHostnames) Delete(ctx context.Context, id string) error {
	err := c.call(ctx, http.MethodDelete, "/"+url.PathEscape(id), nil, nil)
	if core.ErrorCode(err) == core.CodeDomainNotFound {
		return nil
	}
	return err
}

// view turns the API's object into the records an owner publishes.
func (c *CustomHostnames) view(hostname string, ch customHostname) core.CustomHostname {
	out := core.CustomHostname{ID: ch.ID, Status: ch.Status, SSLStatus: ch.SSL.Status, Verification: []core.DomainRecord{}}
	if c.CNAMETarget != "" {
		out.Verification = append(out.Verification, core.DomainRecord{Type: "CNAME", Name: hostname, Value: c.CNAMETarget})
	}
	if o := ch.OwnershipVerification; o != nil && o.Name != "" {
		out.Verification = append(out.Verification, core.DomainRecord{Type: strings.ToUpper(o.Type), Name: o.Name, Value: o.Value})
	}
	for _, r := range ch.SSL.ValidationRecords {
		switch {
		case r.TxtName != "":
			out.Verification = append(out.Verification, core.DomainRecord{Type: "TXT", Name: r.TxtName, Value: r.TxtValue})
		case r.HTTPURL != "":
			out.Verification = append(out.Verification, core.DomainRecord{Type: "HTTP", Name: r.HTTPURL, Value: r.HTTPBody})
		case r.CNAME != "":
			out.Verification = append(out.Verification, core.DomainRecord{Type: "CNAME", Name: r.CNAME, Value: r.CNAMETarget})
		}
	}
	return out
}

// codeHostnameNotFound is the API's error code for an unknown custom
// hostname (a wrong zone is another 404, and must not look like "gone").
const codeHostnameNotFound = 1436

// call sends one API request about the zone's custom hostnames and decodes
// the result into out. An unknown hostname is CodeDomainNotFound; any other failure
// CodeDomainProviderFailed (its detail logged, never shown: it may name
// the zone).
func (c *CustomHostnames) call(ctx context.Context, method, path string, body, out any) error {
	base := c.BaseURL
	if base == "" {
		base = DefaultBaseURL
	}
	u := strings.TrimSuffix(base, "/") + "/zones/" + url.PathEscape(c.ZoneID) + "/custom_hostnames" + path
	status, raw, err := httpjson.Do(ctx, c.Client, method, u, c.APIToken, body)
	if err != nil {
		return core.Errorf(core.CodeDomainProviderFailed, "cloudflare %s custom_hostnames%s: %v", method, path, err)
	}
	var env envelope
	if err := json.Unmarshal(raw, &env); err != nil || !env.Success || status >= 300 {
		detail := fmt.Sprintf("HTTP %d", status)
		for _, e := range env.Errors {
			if e.Code == codeHostnameNotFound {
				return core.Errorf(core.CodeDomainNotFound, "cloudflare: custom hostname not found")
			}
			detail += fmt.Sprintf("; %d %s", e.Code, e.Message)
		}
		return core.Errorf(core.CodeDomainProviderFailed, "cloudflare %s custom_hostnames%s: %s", method, path, detail)
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(env.Result, out); err != nil {
		return core.Errorf(core.CodeDomainProviderFailed, "cloudflare: unreadable result: %v", err)
	}
	return nil
}
