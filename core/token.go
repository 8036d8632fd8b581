package core

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io"
	"regexp"
	"time"
	"unicode/utf8"
)

// Bearer token kinds. A token is "<kind>_<8 hex id>_<secret>": the id
// finds the stored row, the SHA-256 of the whole token proves it. Only
// the hash is ever stored.
const (
	TokenAdmin  = "admkey"
	TokenAPIKey = "apikey"
)

// MaxTokenLabel is the longest label (in characters) of an admin token
// or an API key.
const MaxTokenLabel = 100

// CodeLastAdminToken: an arena keeps at least one unrevoked admin token,
// so its API is never locked for good.
const CodeLastAdminToken = "last_admin_token"

// CheckTokenLabel returns CodeInvalidField (field "label") when label is
// longer than MaxTokenLabel characters.
func CheckTokenLabel(label string) error {
	if utf8.RuneCountInString(label) > MaxTokenLabel {
		return FieldError(CodeInvalidField, "label")
	}
	return nil
}

var tokenPattern = regexp.MustCompile(`^(admkey|apikey)_([0-9a-f]{8})_([A-Za-z0-9_-]+)$`)

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

// IssueToken checks the label, mints a token of the kind from random and
// stores it at at. The returned token is the only copy of its secret: it is
// shown once. Errors: CodeInvalidField (field label).
func IssueToken(ctx context.Context, st TokenStore, kind, label string, random io.Reader, at time.Time) (MintedToken, error) {
	if err := CheckTokenLabel(label); err != nil {
		return MintedToken{}, err
	}
	minted, err := MintToken(kind, random)
	if err != nil {
		return MintedToken{}, err
	}
	if err := st.AddToken(ctx, kind, minted, label, at); err != nil {
		return MintedToken{}, err
	}
	return minted, nil
}

// ParseToken returns the id of a token of the given kind, or ok false
// when s does not have the token's shape.
func ParseToken(kind, s string) (id string, ok bool) {
	m := tokenPattern.FindStringSubmatch(s)
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
