package objects

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"net/url"
	"strconv"
	"strings"
	"time"

	"arena/core"
)

// RoutePath is where the service's own object route lives on every
// arena's host: PUT uploads (upload.local), GET downloads.
const RoutePath = "/api/v1/objects/"

// RouteSigner signs and checks the URLs of the service's object route.
// A URL carries its expiry (unix seconds) and an HMAC-SHA256 over the
// method, the object key, the expiry and the content type (empty for a
// GET), so none of them can be changed: another key, a later expiry or
// another Content-Type than the one signed is refused.
type RouteSigner struct {
	// Key is the master secret (natively the session key); the signing
	// key is derived from it for this purpose alone.
	Key []byte
}

func (s RouteSigner) mac(method, key string, expires int64, contentType string) []byte {
	derive := hmac.New(sha256.New, s.Key)
	derive.Write([]byte("arena-objects"))
	m := hmac.New(sha256.New, derive.Sum(nil))
	m.Write([]byte(method + "\n" + key + "\n" + strconv.FormatInt(expires, 10) + "\n" + contentType))
	return m.Sum(nil)
}

// URL returns origin's signed URL for method on key until expires.
func (s RouteSigner) URL(origin, method, key, contentType string, expires time.Time) string {
	exp := expires.Unix()
	q := url.Values{
		"expires": {strconv.FormatInt(exp, 10)},
		"sig":     {base64.RawURLEncoding.EncodeToString(s.mac(method, key, exp, contentType))},
	}
	return strings.TrimRight(origin, "/") + RoutePath + key + "?" + q.Encode()
}

// Check verifies a request's signature for method on key with the
// request's Content-Type: CodeURLExpired once now is past the expiry,
// CodeInvalidSignature for anything tampered or missing.
func (s RouteSigner) Check(method, key, contentType string, query url.Values, now time.Time) error {
	exp, err := strconv.ParseInt(query.Get("expires"), 10, 64)
	sig, serr := base64.RawURLEncoding.DecodeString(query.Get("sig"))
	if err != nil || serr != nil || len(s.Key) == 0 || !hmac.Equal(sig, s.mac(method, key, exp, contentType)) {
		return core.Errorf(core.CodeInvalidSignature, "the URL's signature does not match")
	}
	if now.Unix() > exp {
		return core.Errorf(core.CodeURLExpired, "the URL expired")
	}
	return nil
}
