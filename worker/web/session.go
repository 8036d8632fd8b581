package web

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"arena/core"
	"arena/core/playerview"
	"arena/i18n"
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

// A session lives in the arena's database (core.WebSession): the cookie
// carries its random id, the arena and the expiry, signed with the arena's
// key, so a forged or another arena's cookie is refused without a read.
// Signing out deletes the row, so a replayed cookie opens nothing; a
// session started with the mock form counts only while the arena is in
// mock mode. The edge keeps no memory between requests: each request that
// needs its viewer reads the row once (one read that also brings the
// player's name, avatar and admin flag).
type sessionPayload struct {
	ID      string `json:"s"`
	Arena   string `json:"a"`
	Expires int64  `json:"e"`
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

// startSession signs the player in on this arena's host: a new session in
// the arena's database and its cookie. Without a usable session key
// nobody signs in (logged); the error is the store's.
func (s *Site) startSession(w http.ResponseWriter, r *http.Request, t *server.Tenant, platformID string) error {
	if len(s.cfg.SessionKey) < minSessionKey {
		// A missing or short key would make cookies forgeable: nobody signs in.
		s.cfg.Logger.ErrorContext(r.Context(), "sign-in refused: the session key (ARENA_SESSION_KEY) is missing or shorter than 16 bytes")
		return nil
	}
	id, err := core.RandomHex(s.srv.Random(), 16)
	if err != nil {
		return err
	}
	expires := s.srv.Now().Add(sessionLifetime)
	// The language the player signs in in is the one their alerts and
	// pushes speak until they choose another with the picker.
	locale := i18n.From(r.Context()).Locale()
	if !core.IsLocale(locale) {
		locale = "" // the pseudo-locale of the tests
	}
	if err := t.StartWebSession(r.Context(), id, platformID, mockSignIn(t), expires, locale); err != nil {
		return err
	}
	payload, _ := json.Marshal(sessionPayload{ID: id, Arena: t.Arena.Slug, Expires: expires.Unix()})
	value := base64.RawURLEncoding.EncodeToString(payload) + "." + s.sign(t.Arena.Slug, payload)
	http.SetCookie(w, &http.Cookie{
		Name: sessionCookie, Value: value, Path: "/", MaxAge: int(sessionLifetime.Seconds()),
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: secureRequest(r),
	})
	return nil
}

// endSession signs the player out: the session is deleted on the server
// (the cookie's copies open nothing afterwards) and the cookie cleared.
func (s *Site) endSession(w http.ResponseWriter, r *http.Request, t *server.Tenant) error {
	if id := s.sessionID(r, t); id != "" {
		if err := t.EndWebSession(r.Context(), id); err != nil {
			return err
		}
	}
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: "", Path: "/", MaxAge: -1,
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: secureRequest(r)})
	return nil
}

// secureRequest reports whether the request came over HTTPS (directly or
// through the edge).
func secureRequest(r *http.Request) bool {
	return r.TLS != nil || r.Header.Get("X-Forwarded-Proto") == "https" || r.URL.Scheme == "https"
}

// sessionID returns the session id of the request's cookie when the
// cookie is this arena's, signed and unexpired, or "".
func (s *Site) sessionID(r *http.Request, t *server.Tenant) string {
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
	if json.Unmarshal(payload, &p) != nil || p.Arena != t.Arena.Slug || s.srv.Now().Unix() >= p.Expires || p.ID == "" {
		return ""
	}
	return p.ID
}

// sessionPlayer returns the signed-in account of the request on this
// arena, or "" for a visitor.
func (s *Site) sessionPlayer(r *http.Request, t *server.Tenant) string {
	if v := s.viewer(r.Context(), r, t); v != nil {
		return v.PlatformID
	}
	return ""
}

// viewerMemo holds a request's viewer once looked up, so a page that asks
// for it several times (frame, action boxes, admin check) reads the
// session once.
type viewerMemo struct {
	looked bool
	viewer *views.Viewer
	err    error // why the session could not be read, when it could not
	id     string
}

type viewerMemoKey struct{}

// withViewerMemo gives the request a place to keep its viewer and plans
// the read of its session, if it has one, with the page's first read
// (the request's plan, DESIGN.md "Round trips and placement"): no round
// trip of its own.
func (s *Site) withViewerMemo(r *http.Request, t *server.Tenant) *http.Request {
	memo := &viewerMemo{id: s.sessionID(r, t)}
	if memo.id != "" {
		t.PlanWebSession(r.Context(), memo.id)
	}
	return r.WithContext(context.WithValue(r.Context(), viewerMemoKey{}, memo))
}

// planViewerParts plans the read of the signed-in viewer's own things
// (their matches, reports, sides) with the page's first read, keyed by
// the session cookie; nil for a visitor. A page showing the viewer's
// panel calls it before its own reads.
func (s *Site) planViewerParts(r *http.Request, t *server.Tenant) func(context.Context) (*playerview.Parts, error) {
	memo, _ := r.Context().Value(viewerMemoKey{}).(*viewerMemo)
	if memo == nil || memo.id == "" || memo.looked && memo.viewer == nil {
		return nil
	}
	return t.PlanViewerParts(r.Context(), memo.id, nextStatuses...)
}

// viewer returns the signed-in player with their name and admin flag, or
// nil for a visitor (no cookie, a forged, expired or signed-out session, a
// mock session on an arena that signs in through the platform now).
func (s *Site) viewer(ctx context.Context, r *http.Request, t *server.Tenant) *views.Viewer {
	memo, _ := ctx.Value(viewerMemoKey{}).(*viewerMemo)
	if memo != nil && memo.looked {
		return memo.viewer
	}
	v, err := s.lookUpViewer(ctx, r, t)
	if memo != nil {
		memo.looked, memo.viewer, memo.err = true, v, err
	}
	return v
}

// signInFirst answers a request that needs a signed-in player and has
// none: 303 to the sign-in page coming back to next, or, when the
// session could not be read because the database did not answer, the
// 503 page (sending a signed-in player to sign in again would be wrong).
func (s *Site) signInFirst(w http.ResponseWriter, r *http.Request, t *server.Tenant, next string) {
	if memo, _ := r.Context().Value(viewerMemoKey{}).(*viewerMemo); memo != nil && memo.err != nil &&
		server.ErrorCode(memo.err) == core.CodeDatabaseUnavailable {
		s.unavailable(w, r, t, memo.err)
		return
	}
	http.Redirect(w, r, signInURL(next), http.StatusSeeOther)
}

// lookUpViewer reads the request's session; a session that cannot be
// read is served as a visitor (the error says why).
func (s *Site) lookUpViewer(ctx context.Context, r *http.Request, t *server.Tenant) (*views.Viewer, error) {
	// The cookie was checked once, by withViewerMemo, when it set the memo.
	var id string
	if memo, _ := ctx.Value(viewerMemoKey{}).(*viewerMemo); memo != nil {
		id = memo.id
	} else {
		id = s.sessionID(r, t)
	}
	if id == "" {
		return nil, nil
	}
	ws, err := t.WebSession(ctx, id)
	if err != nil {
		s.cfg.Logger.WarnContext(ctx, "session unavailable: serving a visitor", slog.String("arena", t.Arena.Slug), slog.String("error", err.Error()))
		return nil, err
	}
	if ws == nil || (ws.Mock && !mockSignIn(t)) {
		return nil, nil
	}
	v := &views.Viewer{PlatformID: ws.PlatformID, Name: ws.PersonaName, AvatarURL: ws.AvatarURL, IsAdmin: ws.IsAdmin,
		Unread: ws.Unread, StreamLogin: ws.StreamLogin, Follows: ws.Follows}
	if v.Name == "" {
		v.Name = core.PlaceholderName(ws.PlatformID)
	}
	return v, nil
}
