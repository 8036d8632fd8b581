package web

import (
	"fmt"
	"hash/fnv"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"arena/core"
	"arena/i18n"
	"arena/views"
	"arena/worker/server"
)

// mockSignIn reports whether the arena signs players in with the mock
// form: it has no platform publisher key (DESIGN "Modes").
func mockSignIn(t *server.Tenant) bool { return t.Arena.PublisherKey == "" }

// maxFormBytes caps an account form's body.
const maxFormBytes = 64 << 10

// parseForm reads a POSTed form of at most maxFormBytes; a malformed or
// oversized one is answered with the 400 page.
func (s *Site) parseForm(w http.ResponseWriter, r *http.Request, t *server.Tenant) bool {
	r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
	if err := r.ParseForm(); err != nil {
		tr := i18n.From(r.Context())
		s.render(w, r, t, http.StatusBadRequest, views.ErrorPage(s.layout(r, t, tr.T("error.badRequest")), http.StatusBadRequest, tr.T("error.badForm")))
		return false
	}
	return true
}

// safeNext returns raw when it is a path on this site ("/..." but not
// "//..." or "/\..."), else "": redirects never leave the arena.
func safeNext(raw string) string {
	if raw == "" || len(raw) > 2048 || raw[0] != '/' || strings.HasPrefix(raw, "//") || strings.HasPrefix(raw, "/\\") {
		return ""
	}
	for i := 0; i < len(raw); i++ {
		if c := raw[i]; c < 0x20 || c == 0x7f || c == '\\' {
			return ""
		}
	}
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil {
		return ""
	}
	return raw
}

// withNotice returns the local path next with ?notice=code: the flash
// message the next page's action box shows (see noticeMessages).
func withNotice(next, code string) string {
	u, err := url.Parse(next)
	if err != nil {
		return "/"
	}
	q := u.Query()
	q.Set("notice", code)
	u.RawQuery = q.Encode()
	return u.String()
}

// withMatchNotice is withNotice naming the match the action was about
// (?match=): a page showing several matches confirms it in that one's box.
func withMatchNotice(next, code string, id int64) string {
	u, err := url.Parse(withNotice(next, code))
	if err != nil {
		return "/"
	}
	q := u.Query()
	q.Set("match", strconv.FormatInt(id, 10))
	u.RawQuery = q.Encode()
	return u.String()
}

// signInURL is the sign-in page coming back to next.
func signInURL(next string) string {
	if next == "" {
		return "/signin"
	}
	return "/signin?next=" + url.QueryEscape(next)
}

// signInPage shows the mock form or the platform button; a signed-in
// player sees who they are and can sign out.
func (s *Site) signInPage(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
	w.Header().Set("Cache-Control", "no-store")
	s.render(w, r, t, http.StatusOK, views.SignInView(s.signInProps(r, t, safeNext(r.URL.Query().Get("next")))))
}

func (s *Site) signInProps(r *http.Request, t *server.Tenant, next string) views.SignInPage {
	l := s.layout(r, t, i18n.From(r.Context()).T("signin.title"))
	l.SignInMock = mockSignIn(t)
	return views.SignInPage{Layout: l, Mock: l.SignInMock, Next: next}
}

// mockSignIn signs in any 17-digit account id (mock mode only): the player
// is stored with a placeholder name (unless known) and avatar, the session
// cookie set, and the browser sent to next (or home). An invalid id shows
// the form again with its message (422); a real-mode arena refuses (403).
func (s *Site) mockSignIn(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
	if !s.parseForm(w, r, t) {
		return
	}
	tr := i18n.From(r.Context())
	if !mockSignIn(t) {
		s.render(w, r, t, http.StatusForbidden, views.ErrorPage(s.layout(r, t, tr.T("signin.title")), http.StatusForbidden,
			tr.T("signin.mock.refused")))
		return
	}
	next := safeNext(r.PostFormValue("next"))
	id := strings.TrimSpace(r.PostFormValue("platformId"))
	if !core.ValidPlatformID(id) {
		p := s.signInProps(r, t, next)
		p.PlatformID = id
		p.FieldError = tr.T("signin.mock.invalidId")
		s.render(w, r, t, http.StatusUnprocessableEntity, views.SignInView(p))
		return
	}
	player := core.PlayerProfile{PlatformID: id, PersonaName: core.PlaceholderName(id), AvatarURL: placeholderAvatarURL(id)}
	if err := t.SignInMockPlayer(r.Context(), player); err != nil {
		s.fail(w, r, t, err)
		return
	}
	if err := s.startSession(w, r, t, id); err != nil {
		s.fail(w, r, t, err)
		return
	}
	http.Redirect(w, r, orHome(next), http.StatusSeeOther)
}

func orHome(next string) string {
	if next == "" {
		return "/"
	}
	return next
}

// signOut ends the session on the server and goes home.
func (s *Site) signOut(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
	if err := s.endSession(w, r, t); err != nil {
		s.fail(w, r, t, err)
		return
	}
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

// placeholderAvatarURL is the mock-mode avatar of an account: a path on
// the arena's own host, so it works on every host of the arena.
func placeholderAvatarURL(platformID string) string { return "/avatars/" + platformID + ".svg" }

// placeholderAvatar serves GET /avatars/{platformId}.svg: a round badge
// with the id's last two digits on a colour drawn from the id. The same
// id always gets the same picture, so browsers may keep it for a year.
func (s *Site) placeholderAvatar(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
	id, ok := strings.CutSuffix(r.PathValue("file"), ".svg")
	if !ok || !core.ValidPlatformID(id) {
		s.notFound(w, r)
		return
	}
	svgHeaders(w, "public, max-age=31536000, immutable")
	_, _ = w.Write([]byte(avatarSVG(id)))
}

// avatarSVG draws the placeholder avatar of a valid account id (digits
// only, so nothing needs escaping).
func avatarSVG(id string) string {
	f := fnv.New32a()
	f.Write([]byte(id))
	hue := f.Sum32() % 360
	return fmt.Sprintf(`<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64" role="img" aria-label="Player %s">`+
		`<circle cx="32" cy="32" r="32" fill="hsl(%d,55%%,30%%)"/>`+
		`<text x="32" y="41" font-family="system-ui,sans-serif" font-size="26" font-weight="700" text-anchor="middle" fill="#fff">%s</text></svg>`,
		id[len(id)-4:], hue, id[len(id)-2:])
}
