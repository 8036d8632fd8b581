package web

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"arena/core"
	"arena/views"
	"arena/worker/server"
)

// sessionCookie is the signed-in player's cookie: host-only (bound to the
// arena's host), HttpOnly, SameSite=Lax, Secure over HTTPS.
const sessionCookie = "arena_session"

// minSessionKey is the shortest master session key the site accepts.
const minSessionKey = 16

// sessionLifetime is how long a sign-in lasts.
const sessionLifetime = 30 * 24 * time.Hour

type sessionPayload struct {
	PlatformID string `json:"p"`
	Arena      string `json:"a"`
	Expires    int64  `json:"e"`
}

// arenaKey derives an arena's session key from the master key, so a
// cookie of one arena is worthless on another.
func (s *Site) arenaKey(slug string) []byte {
	mac := hmac.New(sha256.New, s.cfg.SessionKey)
	mac.Write([]byte("arena-session:" + slug))
	return mac.Sum(nil)
}

func (s *Site) sign(slug string, payload []byte) string {
	mac := hmac.New(sha256.New, s.arenaKey(slug))
	mac.Write(payload)
	return base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}

// startSession signs the player in on this arena's host.
func (s *Site) startSession(w http.ResponseWriter, r *http.Request, t *server.Tenant, platformID string) {
	if len(s.cfg.SessionKey) < minSessionKey {
		// A missing or short key would make cookies forgeable: nobody signs in.
		s.cfg.Logger.ErrorContext(r.Context(), "sign-in refused: the session key (ARENA_SESSION_KEY) is missing or shorter than 16 bytes")
		return
	}
	payload, _ := json.Marshal(sessionPayload{PlatformID: platformID, Arena: t.Arena.Slug, Expires: s.srv.Now().Add(sessionLifetime).Unix()})
	value := base64.RawURLEncoding.EncodeToString(payload) + "." + s.sign(t.Arena.Slug, payload)
	http.SetCookie(w, &http.Cookie{
		Name: sessionCookie, Value: value, Path: "/", MaxAge: int(sessionLifetime.Seconds()),
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: secureRequest(r),
	})
}

// endSession signs the player out.
func (s *Site) endSession(w http.ResponseWriter, r *http.Request) {
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: "", Path: "/", MaxAge: -1,
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: secureRequest(r)})
}

// secureRequest reports whether the request came over HTTPS (directly or
// through the edge).
func secureRequest(r *http.Request) bool {
	return r.TLS != nil || r.Header.Get("X-Forwarded-Proto") == "https" || r.URL.Scheme == "https"
}

// sessionPlayer returns the signed-in account of the request on this
// arena, or "" (no cookie, bad signature, another arena's, expired).
func (s *Site) sessionPlayer(r *http.Request, t *server.Tenant) string {
	c, err := r.Cookie(sessionCookie)
	if err != nil || len(s.cfg.SessionKey) < minSessionKey {
		return ""
	}
	enc, sig, ok := strings.Cut(c.Value, ".")
	if !ok {
		return ""
	}
	payload, err := base64.RawURLEncoding.DecodeString(enc)
	if err != nil || !hmac.Equal([]byte(sig), []byte(s.sign(t.Arena.Slug, payload))) {
		return ""
	}
	var p sessionPayload
	if json.Unmarshal(payload, &p) != nil || p.Arena != t.Arena.Slug || s.srv.Now().Unix() >= p.Expires || !core.ValidPlatformID(p.PlatformID) {
		return ""
	}
	return p.PlatformID
}

// viewer returns the signed-in player with their name and admin flag, or
// nil for a visitor.
func (s *Site) viewer(ctx context.Context, r *http.Request, t *server.Tenant) *views.Viewer {
	id := s.sessionPlayer(r, t)
	if id == "" {
		return nil
	}
	v := &views.Viewer{PlatformID: id, Name: core.PlaceholderName(id)}
	if p, err := t.Store.Player(ctx, id); err == nil {
		v.Name, v.AvatarURL = p.PersonaName, p.AvatarURL
	}
	if admins, err := t.Store.ArenaAdmins(ctx); err == nil {
		for _, a := range admins {
			if a == id {
				v.IsAdmin = true
			}
		}
	}
	return v
}
