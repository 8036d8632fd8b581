// Package streamstest is an httptest twin of the streaming provider,
// answering as its documented endpoints do: the OAuth authorize redirect
// (client_id, redirect_uri, response_type=code, scope, state), the token
// endpoint's authorization-code and client-credentials grants, Helix
// /users and /streams (user_login repeated, at most 100, Client-Id and
// Bearer required) and 429 with Ratelimit-Reset.
package streamstest

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"sync"
	"time"
)

// Credentials of the twin's registered application.
const (
	ClientID     = "twin-client"
	ClientSecret = "twin-secret"
)

// Twin is a running provider twin.
type Twin struct {
	*httptest.Server
	// RedirectURL is the one callback address registered for ClientID.
	RedirectURL string

	mu sync.Mutex
	// AuthorizeAs is the channel login (as the provider spells it) that
	// the next authorize request approves.
	AuthorizeAs string
	codes       map[string]string // code -> login
	userTokens  map[string]string // user token -> login
	appTokens   map[string]bool
	live        map[string]string // login -> stream id
	limitUntil  time.Time         // answer 429 until then
	// Authorizations, AppTokenGrants and StreamBatches record what was
	// asked: each authorize query, each client-credentials grant, the
	// logins of each /streams call.
	Authorizations []url.Values
	AppTokenGrants int
	StreamBatches  [][]string
	// AppTokenTTL is the expires_in of app tokens.
	AppTokenTTL time.Duration
	// Now is the provider's clock (Ratelimit-Reset); time.Now when nil.
	Now func() time.Time
}

// Start starts a twin whose registered callback is redirectURL; it stops
// when the test ends.
func Start(tb interface{ Cleanup(func()) }, redirectURL string) *Twin {
	t := &Twin{RedirectURL: redirectURL, codes: map[string]string{}, userTokens: map[string]string{},
		appTokens: map[string]bool{}, live: map[string]string{}, AppTokenTTL: time.Hour, AuthorizeAs: "TwinCaster"}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /oauth2/authorize", t.authorize)
	mux.HandleFunc("POST /oauth2/token", t.token)
	mux.HandleFunc("GET /helix/users", t.users)
	mux.HandleFunc("GET /helix/streams", t.streams)
	t.Server = httptest.NewServer(mux)
	tb.Cleanup(t.Close)
	return t
}

// AuthURL and APIURL are the twin's bases for the provider adapter.
func (t *Twin) AuthURL() string { return t.URL + "/oauth2" }
func (t *Twin) APIURL() string  { return t.URL + "/helix" }

// SetLive sets which logins are live, each with its stream id.
func (t *Twin) SetLive(streams map[string]string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.live = streams
}

// RateLimitUntil makes /streams answer 429 with Ratelimit-Reset until.
func (t *Twin) RateLimitUntil(until time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.limitUntil = until
}

// RevokeAppTokens forgets every app token (the next /streams is 401).
func (t *Twin) RevokeAppTokens() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.appTokens = map[string]bool{}
}

// Calls returns a copy of what was asked so far.
func (t *Twin) Calls() (auths []url.Values, grants int, batches [][]string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]url.Values(nil), t.Authorizations...), t.AppTokenGrants, append([][]string(nil), t.StreamBatches...)
}

func random() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func fail(w http.ResponseWriter, status int, message string) {
	writeJSON(w, status, map[string]any{"status": status, "message": message})
}

// authorize approves at once (the user consents) and redirects to the
// registered callback with a code and the state.
func (t *Twin) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	t.mu.Lock()
	t.Authorizations = append(t.Authorizations, q)
	login := t.AuthorizeAs
	t.mu.Unlock()
	if q.Get("client_id") != ClientID || q.Get("redirect_uri") != t.RedirectURL || q.Get("response_type") != "code" {
		fail(w, http.StatusBadRequest, "invalid authorize request")
		return
	}
	code := random()
	t.mu.Lock()
	t.codes[code] = login
	t.mu.Unlock()
	http.Redirect(w, r, t.RedirectURL+"?"+url.Values{"code": {code}, "scope": {""}, "state": {q.Get("state")}}.Encode(), http.StatusFound)
}

func (t *Twin) token(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		fail(w, http.StatusBadRequest, "bad form")
		return
	}
	if r.PostForm.Get("client_id") != ClientID || r.PostForm.Get("client_secret") != ClientSecret {
		fail(w, http.StatusForbidden, "invalid client secret")
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	switch r.PostForm.Get("grant_type") {
	case "authorization_code":
		login, ok := t.codes[r.PostForm.Get("code")]
		if !ok || r.PostForm.Get("redirect_uri") != t.RedirectURL {
			fail(w, http.StatusBadRequest, "Invalid authorization code")
			return
		}
		delete(t.codes, r.PostForm.Get("code"))
		tok := random()
		t.userTokens[tok] = login
		writeJSON(w, http.StatusOK, map[string]any{"access_token": tok, "expires_in": 14400, "refresh_token": random(), "scope": []string{}, "token_type": "bearer"})
	case "client_credentials":
		tok := random()
		t.appTokens[tok] = true
		t.AppTokenGrants++
		writeJSON(w, http.StatusOK, map[string]any{"access_token": tok, "expires_in": int(t.AppTokenTTL.Seconds()), "token_type": "bearer"})
	default:
		fail(w, http.StatusBadRequest, "unsupported grant type")
	}
}

// bearer returns the request's token when Client-Id is the twin's.
func bearer(r *http.Request) (string, bool) {
	const prefix = "Bearer "
	h := r.Header.Get("Authorization")
	if r.Header.Get("Client-Id") != ClientID || len(h) <= len(prefix) || h[:len(prefix)] != prefix {
		return "", false
	}
	return h[len(prefix):], true
}

func (t *Twin) users(w http.ResponseWriter, r *http.Request) {
	tok, ok := bearer(r)
	t.mu.Lock()
	login, known := t.userTokens[tok]
	t.mu.Unlock()
	if !ok || !known {
		fail(w, http.StatusUnauthorized, "Invalid OAuth token")
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"data": []any{map[string]any{
		"id": "141981764", "login": login, "display_name": login, "type": "", "broadcaster_type": "",
	}}})
}

func (t *Twin) streams(w http.ResponseWriter, r *http.Request) {
	tok, ok := bearer(r)
	t.mu.Lock()
	defer t.mu.Unlock()
	now := time.Now()
	if t.Now != nil {
		now = t.Now()
	}
	if now.Before(t.limitUntil) {
		w.Header().Set("Ratelimit-Limit", "800")
		w.Header().Set("Ratelimit-Remaining", "0")
		w.Header().Set("Ratelimit-Reset", strconv.FormatInt(t.limitUntil.Unix(), 10))
		fail(w, http.StatusTooManyRequests, "Too Many Requests")
		return
	}
	if !ok || !t.appTokens[tok] {
		fail(w, http.StatusUnauthorized, "Invalid OAuth token")
		return
	}
	logins := r.URL.Query()["user_login"]
	if len(logins) > 100 {
		fail(w, http.StatusBadRequest, "The parameter \"user_login\" may only be specified up to 100 times.")
		return
	}
	t.StreamBatches = append(t.StreamBatches, logins)
	data := []any{}
	for _, l := range logins {
		if id, live := t.live[l]; live {
			data = append(data, map[string]any{"id": id, "user_id": "1", "user_login": l, "user_name": l,
				"game_id": "0", "type": "live", "title": "Casting", "viewer_count": 12, "started_at": "2026-11-20T11:00:00Z"})
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"data": data, "pagination": map[string]any{}})
}
