package core

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io"
	"strings"
	"time"
)

// Bearer token kinds. A token is "<kind>_<8 hex id>_<secret>": the id
// finds the stored row, the SHA-256 of the whole token proves it. Only
// the hash is ever stored.
const (
	TokenAdmin  = "admkey"
	TokenAPIKey = "apikey"
)

// CodeLastAdminToken: an arena keeps at least one unrevoked admin token,
// so its API is never locked for good.
const CodeLastAdminToken = "last_admin_token"

var tokenPattern = LazyRegexp(`^(admkey|apikey)_([0-9a-f]{8})_([A-Za-z0-9_-]+)$`)

// MintedToken is a freshly minted bearer token. Token is shown once;
// ID and Hash are what the store keeps.
type MintedToken struct {
	Token string
	ID    string
	Hash  string
}

// MintToken creates a token of the given kind from the random source.
func MintToken(kind string, random io.Reader) (MintedToken, error) {
	var b [4 + 32]byte
	if _, err := io.ReadFull(random, b[:]); err != nil {
		return MintedToken{}, fmt.Errorf("core: unable to read randomness: %w", err)
	}
	id := hex.EncodeToString(b[:4])
	token := kind + "_" + id + "_" + base64.RawURLEncoding.EncodeToString(b[4:])
	return MintedToken{Token: token, ID: id, Hash: HashToken(token)}, nil
}

// TokenStore keeps an arena's minted tokens: only their ids and hashes.
type TokenStore interface {
	// AddToken stores the id and hash of a minted token of the kind.
	AddToken(ctx context.Context, kind string, t MintedToken, label string, at time.Time) error
}

// IssueToken checks the draft's label, mints a token of the kind from
// deps.Random and stores it at deps.Now. The returned token is the only
// copy of its secret: it is shown once; label is the label stored.
// Errors: the draft's problems (CodeInvalidField, field label).
func IssueToken(ctx context.Context, st TokenStore, kind string, d TokenDraft, deps Deps) (minted MintedToken, label string, err error) {
	label, problems := d.Check()
	if err := problems.Err(); err != nil {
		return MintedToken{}, label, err
	}
	minted, err = MintToken(kind, deps.Random)
	if err != nil {
		return MintedToken{}, label, err
	}
	if err := st.AddToken(ctx, kind, minted, label, deps.Now); err != nil {
		return MintedToken{}, label, err
	}
	return minted, label, nil
}

// ParseToken returns the id of a token of the given kind, or ok false
// when s does not have the token's shape.
func ParseToken(kind, s string) (id string, ok bool) {
	m := tokenPattern().FindStringSubmatch(s)
	if m == nil || m[1] != kind || len(s) > 200 {
		return "", false
	}
	return m[2], true
}

// HashToken returns the lowercase hex SHA-256 of a token.
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// TokenMatches reports, in constant time, whether token hashes to hash.
func TokenMatches(token, hash string) bool {
	return subtle.ConstantTimeCompare([]byte(HashToken(token)), []byte(hash)) == 1
}

// RandomHex returns n random bytes from random as lowercase hex.
func RandomHex(random io.Reader, n int) (string, error) {
	b := make([]byte, n)
	if _, err := io.ReadFull(random, b); err != nil {
		return "", fmt.Errorf("core: unable to read randomness: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// MaxTokenLabelRunes bounds the label an admin gives a key or token.
const MaxTokenLabelRunes = 100

// TokenDraft is a key or token to mint as an admin gives it (the admin
// API's body or the admin pages' form).
type TokenDraft struct {
	Label string `json:"label"`
}

// Check returns the trimmed label, or its problem.
func (d *TokenDraft) Check() (string, Problems) {
	var p Problems
	label := strings.TrimSpace(d.Label)
	checkText(&p, "label", label, MaxTokenLabelRunes)
	return label, p
}

// ListedToken is an admin token or API key as listed to the arena admin:
// never its secret or hash.
type ListedToken struct {
	ID        string     `json:"id"`
	Label     string     `json:"label"`
	CreatedAt time.Time  `json:"createdAt"`
	RevokedAt *time.Time `json:"revokedAt"`
}
