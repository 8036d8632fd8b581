package client

import (
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"fmt"

	"arena/core"
)

// ErrReceiptInvalid: a receipt (a C2SP tlog-proof of a match's deciding
// event, docs/events.md "Receipts") does not verify: its checkpoint's
// signature, its origin, its inclusion proof or its entry.
var ErrReceiptInvalid = errors.New("client: the receipt does not verify")

// LogKey reads the arena's log key and origin from GET /api/v1
// (log.publicKey, log.origin).
func (c *Client) LogKey(ctx context.Context, opts VerifyLogOptions) (string, ed25519.PublicKey, error) {
	var meta struct {
		Log struct {
			PublicKey string `json:"publicKey"`
			Origin    string `json:"origin"`
		} `json:"log"`
	}
	if err := c.publicRead(ctx, "/api/v1", opts, &meta); err != nil {
		return "", nil, err
	}
	pub, err := base64.StdEncoding.DecodeString(meta.Log.PublicKey)
	if err != nil || len(pub) != ed25519.PublicKeySize || meta.Log.Origin == "" {
		return "", nil, fmt.Errorf("%w: the arena's log.publicKey or log.origin is missing or malformed", ErrBadResponse)
	}
	return meta.Log.Origin, pub, nil
}

// VerifyReceipt checks a receipt offline with the log's public key:
// origin "" takes the checkpoint's own (the key's name binds it to the
// signature). It returns the event the receipt proves; a receipt that
// does not verify is ErrReceiptInvalid.
func VerifyReceipt(receipt []byte, origin string, pub ed25519.PublicKey) (core.LogEvent, error) {
	if origin == "" {
		parsed, err := core.ParseReceipt(receipt)
		if err != nil {
			return core.LogEvent{}, fmt.Errorf("%w: %w", ErrReceiptInvalid, err)
		}
		origin, _, _ = cutLine(string(parsed.Checkpoint))
	}
	e, err := core.VerifyReceipt(receipt, origin, pub)
	if err != nil {
		return core.LogEvent{}, fmt.Errorf("%w: %w", ErrReceiptInvalid, err)
	}
	return e, nil
}

func cutLine(s string) (string, string, bool) {
	for i := range len(s) {
		if s[i] == '\n' {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}
