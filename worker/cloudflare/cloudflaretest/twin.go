// Package cloudflaretest is an httptest twin of the Cloudflare API's
// custom hostnames (Cloudflare for SaaS), following its documented wire
// format: the v4 envelope { success, errors, messages, result }, bearer
// tokens, POST/GET/DELETE /zones/{zone}/custom_hostnames[/{id}], new
// hostnames pending with ownership and certificate (TXT) validation
// records, 409 with code 1406 for a duplicate hostname.
package cloudflaretest

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// Twin is the fake API. Tests move hostnames along with Activate.
type Twin struct {
	URL    string // the API base, like https://api.cloudflare.com/client/v4
	Token  string
	ZoneID string

	mu        sync.Mutex
	hostnames map[string]*hostname // by id
	down      bool
	calls     int
}

type hostname struct {
	ID                    string            `json:"id"`
	Hostname              string            `json:"hostname"`
	Status                string            `json:"status"`
	SSL                   ssl               `json:"ssl"`
	OwnershipVerification map[string]string `json:"ownership_verification,omitempty"`
	CreatedAt             string            `json:"created_at"`
}

type ssl struct {
	ID                string              `json:"id"`
	Status            string              `json:"status"`
	Method            string              `json:"method"`
	Type              string              `json:"type"`
	ValidationRecords []map[string]string `json:"validation_records"`
}

// New returns a twin accepting token for zone; serve it with its
// ServeHTTP and set URL to where it answers plus "/client/v4".
func New(token, zoneID string) *Twin {
	return &Twin{Token: token, ZoneID: zoneID, hostnames: map[string]*hostname{}}
}

// Start serves a twin until the test ends.
func Start(t testing.TB) *Twin {
	tw := New("cf-"+randomHex(12), randomHex(16))
	srv := httptest.NewServer(tw)
	t.Cleanup(srv.Close)
	tw.URL = srv.URL + "/client/v4"
	return tw
}

// ActivatePath is the twin's own control route (not Cloudflare's):
// POST a form with hostname=... to Activate it, from another process.
const ActivatePath = "/__twin/activate"

// Activate makes the hostname, and its certificate, active, as Cloudflare
// does once the owner published the records.
func (tw *Twin) Activate(name string) {
	tw.mu.Lock()
	defer tw.mu.Unlock()
	for _, h := range tw.hostnames {
		if h.Hostname == name {
			h.Status, h.SSL.Status = "active", "active"
			h.OwnershipVerification, h.SSL.ValidationRecords = nil, nil
		}
	}
}

// Hostnames returns the registered hostnames.
func (tw *Twin) Hostnames() []string {
	tw.mu.Lock()
	defer tw.mu.Unlock()
	var out []string
	for _, h := range tw.hostnames {
		out = append(out, h.Hostname)
	}
	return out
}

// SetDown makes every call fail with 500 (or work again).
func (tw *Twin) SetDown(down bool) {
	tw.mu.Lock()
	tw.down = down
	tw.mu.Unlock()
}

// Calls counts the API calls served.
func (tw *Twin) Calls() int {
	tw.mu.Lock()
	defer tw.mu.Unlock()
	return tw.calls
}

// ServeHTTP implements http.Handler: the API, and ActivatePath.
func (tw *Twin) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == ActivatePath && r.Method == http.MethodPost {
		tw.Activate(r.FormValue("hostname"))
		w.WriteHeader(http.StatusNoContent)
		return
	}
	tw.mu.Lock()
	defer tw.mu.Unlock()
	tw.calls++
	if tw.down {
		fail(w, http.StatusInternalServerError, 10000, "Internal Server Error")
		return
	}
	if r.Header.Get("Authorization") != "Bearer "+tw.Token {
		fail(w, http.StatusForbidden, 10000, "Authentication error")
		return
	}
	prefix := "/client/v4/zones/" + tw.ZoneID + "/custom_hostnames"
	rest, ok := strings.CutPrefix(r.URL.Path, prefix)
	if !ok {
		fail(w, http.StatusNotFound, 7003, "Could not route to "+r.URL.Path+", perhaps your object identifier is invalid?")
		return
	}
	id := strings.TrimPrefix(rest, "/")
	switch {
	case r.Method == http.MethodPost && id == "":
		tw.create(w, r)
	case r.Method == http.MethodGet && id != "":
		h, ok := tw.hostnames[id]
		if !ok {
			fail(w, http.StatusNotFound, 1436, "The custom hostname was not found.")
			return
		}
		ok200(w, h)
	case r.Method == http.MethodDelete && id != "":
		if _, ok := tw.hostnames[id]; !ok {
			fail(w, http.StatusNotFound, 1436, "The custom hostname was not found.")
			return
		}
		delete(tw.hostnames, id)
		ok200(w, map[string]string{"id": id})
	default:
		fail(w, http.StatusMethodNotAllowed, 10405, "Method not allowed for this authentication scheme")
	}
}

func (tw *Twin) create(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Hostname string `json:"hostname"`
		SSL      struct {
			Method string `json:"method"`
			Type   string `json:"type"`
		} `json:"ssl"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Hostname == "" {
		fail(w, http.StatusBadRequest, 1411, "Invalid custom hostname.")
		return
	}
	for _, h := range tw.hostnames {
		if h.Hostname == req.Hostname {
			fail(w, http.StatusConflict, 1406, "Duplicate custom hostname found.")
			return
		}
	}
	h := &hostname{
		ID: randomHex(16), Hostname: req.Hostname, Status: "pending",
		SSL: ssl{ID: randomHex(16), Status: "pending_validation", Method: req.SSL.Method, Type: req.SSL.Type,
			ValidationRecords: []map[string]string{{"txt_name": "_acme-challenge." + req.Hostname, "txt_value": randomHex(20), "status": "pending"}}},
		OwnershipVerification: map[string]string{"type": "txt", "name": "_cf-custom-hostname." + req.Hostname, "value": randomHex(18)},
		CreatedAt:             time.Now().UTC().Format(time.RFC3339Nano),
	}
	tw.hostnames[h.ID] = h
	ok200(w, h)
}

func ok200(w http.ResponseWriter, result any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"success": true, "errors": []any{}, "messages": []any{}, "result": result})
}

func fail(w http.ResponseWriter, status, code int, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"success": false, "errors": []any{map[string]any{"code": code, "message": message}}, "messages": []any{}, "result": nil})
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
