package web

import (
	"bufio"
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"arena/core"
	"arena/i18n"
	"arena/views"
	"arena/worker/server"
)

// Platform sign-in is OpenID 2.0 (TOOLCHAIN "External services"). The
// browser goes to the platform with checkid_setup and comes back to
// openIDCallbackPath with a positive assertion, which is checked here and
// then verified by the platform itself (check_authentication, POSTed to
// the configured endpoint, never one named in the request).

const (
	openIDNS                 = "http://specs.openid.net/auth/2.0"
	openIDIdentifierSelect   = "http://specs.openid.net/auth/2.0/identifier_select"
	defaultOpenIDEndpoint    = "https://steamcommunity.com/openid/login"
	openIDCallbackPath       = "/auth/openid/callback"
	openIDStateCookie        = "arena_openid_state"
	openIDStateLifetime      = 10 * time.Minute
	openIDNonceMaxAge        = 10 * time.Minute // an assertion older than this is refused
	openIDNonceMaxSkew       = 2 * time.Minute  // the platform's clock may run this far ahead
	openIDNonceKeep          = 24 * time.Hour   // claimed nonces are kept this long
	openIDVerifyTimeout      = 10 * time.Second
	maxOpenIDVerifyBodyBytes = 64 << 10
)

// claimedIDPattern is the only claimed id accepted: the platform's
// identity URL of a 17-digit account id.
var claimedIDPattern = core.LazyRegexp(`^https://steamcommunity\.com/openid/id/(7656119[0-9]{10})/?$`)

// openIDSignedFields must all be covered by the platform's signature, or
// an unsigned (forgeable) copy could be slipped in (OpenID 2.0 §10.1).
var openIDSignedFields = []string{"op_endpoint", "return_to", "response_nonce", "assoc_handle", "claimed_id", "identity"}

// openIDEndpoint is the platform's OpenID endpoint: the configured one or
// the public default.
func (s *Site) openIDEndpoint() string {
	if s.cfg.OpenIDEndpoint != "" {
		return s.cfg.OpenIDEndpoint
	}
	return defaultOpenIDEndpoint
}

// siteOrigin is the origin the browser reached this arena at.
func siteOrigin(r *http.Request) string {
	scheme := "http"
	if secureRequest(r) {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// openIDStart sends the browser to the platform's sign-in (real mode).
// A random state goes both into a short-lived cookie and into return_to;
// the callback requires them to match, so nobody can sign a victim's
// browser into the attacker's account with an assertion of their own.
func (s *Site) openIDStart(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
	next := safeNext(r.URL.Query().Get("next"))
	if mockSignIn(t) {
		http.Redirect(w, r, signInURL(next), http.StatusSeeOther)
		return
	}
	state, err := core.RandomHex(s.srv.Random(), 16)
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	http.SetCookie(w, &http.Cookie{
		Name: openIDStateCookie, Value: state, Path: openIDCallbackPath, MaxAge: int(openIDStateLifetime.Seconds()),
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: secureRequest(r),
	})
	back := url.Values{"state": {state}}
	if next != "" {
		back.Set("next", next)
	}
	origin := siteOrigin(r)
	params := url.Values{
		"openid.ns":         {openIDNS},
		"openid.mode":       {"checkid_setup"},
		"openid.return_to":  {origin + openIDCallbackPath + "?" + back.Encode()},
		"openid.realm":      {origin},
		"openid.identity":   {openIDIdentifierSelect},
		"openid.claimed_id": {openIDIdentifierSelect},
	}
	endpoint := s.openIDEndpoint()
	sep := "?"
	if strings.Contains(endpoint, "?") {
		sep = "&"
	}
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, endpoint+sep+params.Encode(), http.StatusSeeOther)
}

// signInRefusal is why a platform sign-in was refused: what the player
// reads (its catalog id), and the detail for the log.
type signInRefusal struct {
	status    int
	messageID string
	reason    string
}

func (e *signInRefusal) Error() string { return e.reason }

func refuse(reason string) *signInRefusal {
	return &signInRefusal{status: http.StatusUnauthorized, messageID: "signin.refused.notConfirmed", reason: reason}
}

// openIDCallback checks the platform's answer and, when everything holds,
// caches the player's name and avatar and starts the session. Anything
// else is the sign-in page with the reason, and no session.
func (s *Site) openIDCallback(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
	w.Header().Set("Cache-Control", "no-store")
	if mockSignIn(t) {
		http.Redirect(w, r, "/signin", http.StatusSeeOther)
		return
	}
	// The state cookie is single-use whatever happens.
	http.SetCookie(w, &http.Cookie{Name: openIDStateCookie, Value: "", Path: openIDCallbackPath, MaxAge: -1,
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: secureRequest(r)})
	ctx := r.Context()
	id, next, err := s.verifyOpenID(ctx, r, t)
	if err != nil {
		var ref *signInRefusal
		if !errors.As(err, &ref) {
			s.fail(w, r, t, err)
			return
		}
		s.cfg.Logger.WarnContext(ctx, "platform sign-in refused", slog.String("arena", t.Arena.Slug), slog.String("reason", ref.reason))
		p := s.signInProps(r, t, next)
		p.Problem = i18n.From(ctx).T(ref.messageID)
		s.render(w, r, t, ref.status, views.SignInView(p))
		return
	}
	if err := s.refreshSummaries(ctx, t, []string{id}, true); err != nil {
		// The name can wait for the next sign-in; the sign-in itself holds.
		s.cfg.Logger.WarnContext(ctx, "player summary unavailable", slog.String("arena", t.Arena.Slug), slog.String("error", err.Error()))
	}
	if err := s.startSession(w, r, t, id); err != nil {
		s.fail(w, r, t, err)
		return
	}
	http.Redirect(w, r, orHome(next), http.StatusSeeOther)
}

// verifyOpenID applies the sign-in rules to the callback request, cheap
// local checks first, then asks the platform, then claims the response
// nonce so the assertion serves once. It returns the account id and the
// local path to return to.
func (s *Site) verifyOpenID(ctx context.Context, r *http.Request, t *server.Tenant) (string, string, error) {
	q := r.URL.Query()
	returnTo := q.Get("openid.return_to")
	next := ""
	callback := siteOrigin(r) + openIDCallbackPath
	if returnTo == callback || strings.HasPrefix(returnTo, callback+"?") {
		if u, err := url.Parse(returnTo); err == nil {
			next = safeNext(u.Query().Get("next"))
		}
	}
	switch mode := q.Get("openid.mode"); mode {
	case "id_res":
	case "cancel":
		return "", next, &signInRefusal{status: http.StatusUnauthorized, messageID: "signin.refused.cancelled", reason: "cancelled"}
	default:
		return "", next, refuse("mode " + mode)
	}
	if q.Get("openid.ns") != openIDNS {
		return "", next, refuse("namespace")
	}
	if q.Get("openid.op_endpoint") != s.openIDEndpoint() {
		return "", next, refuse("op_endpoint is not the configured endpoint")
	}
	claimed := q.Get("openid.claimed_id")
	if claimed != q.Get("openid.identity") {
		return "", next, refuse("claimed_id differs from identity")
	}
	m := claimedIDPattern().FindStringSubmatch(claimed)
	if m == nil {
		return "", next, refuse("claimed_id is not a platform account")
	}
	id := m[1]
	if err := checkReturnTo(returnTo, callback, q, r); err != nil {
		return "", next, err
	}
	signed := map[string]bool{}
	for _, f := range strings.Split(q.Get("openid.signed"), ",") {
		signed[f] = true
	}
	for _, f := range openIDSignedFields {
		if !signed[f] {
			return "", next, refuse("unsigned " + f)
		}
	}
	nonce := q.Get("openid.response_nonce")
	now := s.srv.Now()
	if err := checkResponseNonce(nonce, now); err != nil {
		return "", next, err
	}
	if err := s.checkAuthentication(ctx, q); err != nil {
		return "", next, err
	}
	fresh, err := t.ClaimOpenIDNonce(ctx, nonce, now, now.Add(-openIDNonceKeep))
	if err != nil {
		return "", next, err
	}
	if !fresh {
		return "", next, refuse("response nonce replayed")
	}
	return id, next, nil
}

// checkReturnTo requires return_to to be this host's callback, the
// request to carry return_to's own parameters (OpenID 2.0 §11.1), and its
// state to be the browser's state cookie.
func checkReturnTo(returnTo, callback string, q url.Values, r *http.Request) error {
	if returnTo != callback && !strings.HasPrefix(returnTo, callback+"?") {
		return refuse("return_to is not this host's callback")
	}
	u, err := url.Parse(returnTo)
	if err != nil {
		return refuse("return_to unparsable")
	}
	for k, vs := range u.Query() {
		if len(vs) != 1 || q.Get(k) != vs[0] {
			return refuse("request does not match return_to")
		}
	}
	state := u.Query().Get("state")
	c, err := r.Cookie(openIDStateCookie)
	if err != nil || state == "" || subtle.ConstantTimeCompare([]byte(c.Value), []byte(state)) != 1 {
		return &signInRefusal{status: http.StatusUnauthorized, reason: "state cookie missing or different",
			messageID: "signin.refused.otherBrowser"}
	}
	return nil
}

// checkResponseNonce requires the nonce's timestamp (its first 20
// characters, UTC) to be recent.
func checkResponseNonce(nonce string, now time.Time) error {
	if len(nonce) < 20 || len(nonce) > 255 {
		return refuse("response nonce malformed")
	}
	at, err := time.Parse("2006-01-02T15:04:05Z", nonce[:20])
	if err != nil {
		return refuse("response nonce malformed")
	}
	if at.Before(now.Add(-openIDNonceMaxAge)) || at.After(now.Add(openIDNonceMaxSkew)) {
		return refuse("response nonce too old or in the future")
	}
	return nil
}

// checkAuthentication asks the configured endpoint whether the assertion
// is the platform's own: the received openid.* fields, mode changed to
// check_authentication. Only "is_valid:true" passes.
func (s *Site) checkAuthentication(ctx context.Context, q url.Values) error {
	form := url.Values{}
	for k, vs := range q {
		if strings.HasPrefix(k, "openid.") {
			form[k] = vs
		}
	}
	form.Set("openid.mode", "check_authentication")
	ctx, cancel := context.WithTimeout(ctx, openIDVerifyTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.openIDEndpoint(), strings.NewReader(form.Encode()))
	if err != nil {
		return fmt.Errorf("openid: %w", err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := s.cfg.HTTP.Do(req)
	if err != nil {
		return platformUnavailable("check_authentication: " + unwrapURLError(err).Error())
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxOpenIDVerifyBodyBytes))
	if err != nil {
		return platformUnavailable("check_authentication body: " + err.Error())
	}
	if resp.StatusCode != http.StatusOK {
		return platformUnavailable(fmt.Sprintf("check_authentication status %d", resp.StatusCode))
	}
	kv := parseKeyValueForm(string(body))
	if kv["ns"] != openIDNS || kv["is_valid"] != "true" {
		return refuse("the platform says the assertion is not valid")
	}
	return nil
}

func platformUnavailable(reason string) *signInRefusal {
	return &signInRefusal{status: http.StatusBadGateway, reason: reason,
		messageID: "signin.refused.unavailable"}
}

// unwrapURLError drops the URL from a client error: URLs may carry keys.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// parseKeyValueForm reads OpenID's key-value form: "key:value" lines.
func parseKeyValueForm(body string) map[string]string {
	out := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(body))
	for sc.Scan() {
		if k, v, ok := strings.Cut(strings.TrimRight(sc.Text(), "\r"), ":"); ok {
			out[k] = v
		}
	}
	return out
}
