package web

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"time"
)

// AdminTestSessionCookie signs platformID in on the arena the way a
// session started at now would, for tests that need a signed-in player
// without going through a sign-in route.
func AdminTestSessionCookie(sessionKey []byte, arenaSlug, platformID string, now time.Time) *http.Cookie {
	s := &Site{cfg: Config{SessionKey: sessionKey}}
	payload, _ := json.Marshal(sessionPayload{PlatformID: platformID, Arena: arenaSlug, Expires: now.Add(sessionLifetime).Unix()})
	return &http.Cookie{Name: sessionCookie, Value: base64.RawURLEncoding.EncodeToString(payload) + "." + s.sign(arenaSlug, payload), Path: "/"}
}
