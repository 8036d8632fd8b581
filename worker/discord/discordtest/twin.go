// Package discordtest is a twin of Discord for tests and dev mode: one
// application with its Ed25519 key pair (signatures made with CIRCL's
// Ed25519, an implementation apart from Go's, which Arena verifies
// with), the OAuth2 code grant (scope identify) for its members, the
// bulk overwrite of the application's commands, and interactions sent to
// an endpoint as Discord sends them (X-Signature-Ed25519 over
// X-Signature-Timestamp + body). Paths and bodies follow Discord's
// documentation (API v10).
package discordtest

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cloudflare/circl/sign/ed25519"

	"arena/core"
)

// Twin is the Discord twin.
type Twin struct {
	*httptest.Server
	ApplicationID string
	PublicKey     string // hex, as the developer portal shows it
	ClientSecret  string
	BotToken      string
	key           ed25519.PrivateKey

	mu       sync.Mutex
	members  map[string]core.DiscordUser // by id
	current  string                      // the member the consent page signs in as
	codes    map[string]grant            // OAuth2 codes not exchanged yet
	tokens   map[string]string           // access token -> member id
	commands json.RawMessage             // the last commands PUT
	seq      int
	guild    string                     // the arena's interactions endpoint the guild page posts to
	edits    map[string]json.RawMessage // a deferred interaction's message, by its token
	order    []string                   // the members' ids, in the order they were added
}

// grant is an OAuth2 code's grant.
type grant struct {
	member, redirectURI string
}

// Start starts the twin on loopback; Close stops it.
func Start() *Twin {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		panic(err)
	}
	t := &Twin{
		ApplicationID: "1180000000000000001", PublicKey: hex.EncodeToString(pub),
		ClientSecret: "twin-client-secret", BotToken: "twin.bot.token", key: priv,
		members: map[string]core.DiscordUser{}, codes: map[string]grant{}, tokens: map[string]string{},
		edits: map[string]json.RawMessage{},
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /oauth2/authorize", t.authorize)
	mux.HandleFunc("POST /api/v10/oauth2/token", t.token)
	mux.HandleFunc("GET /api/v10/users/@me", t.me)
	mux.HandleFunc("PUT /api/v10/applications/{app}/commands", t.putCommands)
	mux.HandleFunc("PATCH /api/v10/webhooks/{app}/{token}/messages/@original", t.editOriginal)
	mux.HandleFunc("GET /{$}", t.guildPage)
	mux.HandleFunc("POST /guild", t.guildCommand)
	t.Server = httptest.NewServer(mux)
	return t
}

// App is the arena's settings for this application.
func (t *Twin) App() core.DiscordApp {
	return core.DiscordApp{ApplicationID: t.ApplicationID, PublicKey: t.PublicKey, BotToken: t.BotToken, ClientSecret: t.ClientSecret}
}

// Member adds a guild member and makes them the one the consent page
// signs in as.
func (t *Twin) Member(id, username string) core.DiscordUser {
	t.mu.Lock()
	defer t.mu.Unlock()
	u := core.DiscordUser{ID: id, Username: username, GlobalName: strings.ToUpper(username[:1]) + username[1:]}
	if _, known := t.members[id]; !known {
		t.order = append(t.order, id)
	}
	t.members[id], t.current = u, id
	return u
}

// Commands is the body of the last commands registration.
func (t *Twin) Commands() json.RawMessage {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.commands
}

func (t *Twin) next() string {
	t.seq++
	return strconv.Itoa(t.seq)
}

func problem(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"message": msg, "code": 0})
}

// authorize is the consent page: the current member consents at once.
func (t *Twin) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	t.mu.Lock()
	defer t.mu.Unlock()
	switch {
	case q.Get("client_id") != t.ApplicationID:
		problem(w, http.StatusBadRequest, "Unknown application")
		return
	case q.Get("response_type") != "code" || !strings.Contains(" "+q.Get("scope")+" ", " identify "):
		problem(w, http.StatusBadRequest, "Invalid OAuth2 request")
		return
	case t.current == "":
		problem(w, http.StatusUnauthorized, "Nobody is signed in to the twin")
		return
	}
	back, err := url.Parse(q.Get("redirect_uri"))
	if err != nil || back.Host == "" {
		problem(w, http.StatusBadRequest, "Invalid redirect_uri")
		return
	}
	code := "code-" + t.next()
	t.codes[code] = grant{member: t.current, redirectURI: q.Get("redirect_uri")}
	v := back.Query()
	v.Set("code", code)
	v.Set("state", q.Get("state"))
	back.RawQuery = v.Encode()
	http.Redirect(w, r, back.String(), http.StatusFound)
}

// token exchanges a code (client credentials in basic auth).
func (t *Twin) token(w http.ResponseWriter, r *http.Request) {
	id, secret, ok := r.BasicAuth()
	if !ok || id != t.ApplicationID || secret != t.ClientSecret {
		problem(w, http.StatusUnauthorized, "invalid_client")
		return
	}
	if err := r.ParseForm(); err != nil || r.PostForm.Get("grant_type") != "authorization_code" {
		problem(w, http.StatusBadRequest, "unsupported_grant_type")
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	g, found := t.codes[r.PostForm.Get("code")]
	delete(t.codes, r.PostForm.Get("code"))
	if !found || g.redirectURI != r.PostForm.Get("redirect_uri") {
		problem(w, http.StatusBadRequest, "invalid_grant")
		return
	}
	token := "token-" + t.next()
	t.tokens[token] = g.member
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"access_token": token, "token_type": "Bearer", "expires_in": 604800,
		"refresh_token": "refresh-" + token, "scope": "identify"})
}

// me is GET /users/@me with a bearer token.
func (t *Twin) me(w http.ResponseWriter, r *http.Request) {
	token, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	t.mu.Lock()
	u, ok := t.members[t.tokens[token]]
	t.mu.Unlock()
	if !ok {
		problem(w, http.StatusUnauthorized, "401: Unauthorized")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(u)
}

// putCommands is the bulk overwrite of global commands, with the bot
// token.
func (t *Twin) putCommands(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("Authorization") != "Bot "+t.BotToken || r.PathValue("app") != t.ApplicationID {
		problem(w, http.StatusUnauthorized, "401: Unauthorized")
		return
	}
	body, _ := io.ReadAll(r.Body)
	var cmds []map[string]any
	if err := json.Unmarshal(body, &cmds); err != nil {
		problem(w, http.StatusBadRequest, "Invalid Form Body")
		return
	}
	t.mu.Lock()
	t.commands = body
	for _, c := range cmds {
		c["id"], c["application_id"], c["version"] = "1190000000000000"+t.next(), t.ApplicationID, "1"
	}
	t.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(cmds)
}

// editOriginal is a deferred interaction finished: its message, PATCHed
// through the interaction's token.
func (t *Twin) editOriginal(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	if r.PathValue("app") != t.ApplicationID || !json.Valid(body) {
		problem(w, http.StatusBadRequest, "Invalid Form Body")
		return
	}
	t.mu.Lock()
	t.edits[r.PathValue("token")] = body
	t.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(body)
}

// Edited returns the message a deferred interaction was finished with,
// nil before.
func (t *Twin) Edited(token string) json.RawMessage {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.edits[token]
}

// Interaction is one interaction's answer as Discord got it.
type Interaction struct {
	Status int
	Body   []byte
}

// Sign signs an interaction's body as Discord does: the X-Signature-
// Ed25519 (hex) and X-Signature-Timestamp headers' values.
func (t *Twin) Sign(body []byte) (signature, timestamp string) {
	timestamp = strconv.FormatInt(time.Now().Unix(), 10)
	return hex.EncodeToString(ed25519.Sign(t.key, append([]byte(timestamp), body...))), timestamp
}

// Send posts an interaction to endpoint (an arena's /discord/interactions,
// host given) signed as Discord signs it; with badSignature the body
// sent is not the one signed (one byte more).
func (t *Twin) Send(endpoint, host string, interaction map[string]any, badSignature bool) (Interaction, error) {
	body, err := json.Marshal(interaction)
	if err != nil {
		return Interaction{}, err
	}
	sig, ts := t.Sign(body)
	if badSignature {
		body = append(body, ' ')
	}
	req, err := http.NewRequest(http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		return Interaction{}, err
	}
	if host != "" {
		req.Host = host
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Discord-Interactions/1.0 (+https://discord.com)")
	req.Header.Set("X-Signature-Ed25519", sig)
	req.Header.Set("X-Signature-Timestamp", ts)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return Interaction{}, err
	}
	defer res.Body.Close()
	out, err := io.ReadAll(res.Body)
	return Interaction{Status: res.StatusCode, Body: out}, err
}

// Command is a slash command's interaction, as a guild member runs it:
// /arena <sub> [tournament:<value>].
func (t *Twin) Command(member core.DiscordUser, sub, tournament string) map[string]any {
	opt := map[string]any{"type": 1, "name": sub}
	if tournament != "" {
		opt["options"] = []any{map[string]any{"type": 3, "name": "tournament", "value": tournament}}
	}
	t.mu.Lock()
	id := "1200000000000000" + t.next()
	t.mu.Unlock()
	return map[string]any{
		"id": id, "application_id": t.ApplicationID, "type": 2, "token": "interaction-token-" + id, "version": 1,
		"guild_id": "1210000000000000001", "channel_id": "1220000000000000001", "locale": "en-US",
		"data":   map[string]any{"id": "1190000000000000001", "name": "arena", "type": 1, "options": []any{opt}},
		"member": map[string]any{"user": member, "roles": []string{}, "permissions": "0", "joined_at": "2026-01-01T00:00:00.000000+00:00"},
	}
}

// Ping is Discord's PING, sent when the endpoint is saved in the
// developer portal.
func (t *Twin) Ping() map[string]any {
	return map[string]any{"id": "1230000000000000001", "application_id": t.ApplicationID, "type": 1, "token": "ping-token", "version": 1}
}

// String names the twin.
func (t *Twin) String() string {
	return fmt.Sprintf("discord twin at %s (application %s)", t.URL, t.ApplicationID)
}
