package client

import (
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"

	"arena/core"
)

// The arena's event log as a transparency log (docs/events.md,
// "Receipts"; C2SP tlog-tiles, tlog-checkpoint and tlog-proof), checked
// as the TypeScript and C# clients check it (docs/protocol.md,
// "verify-log" and "verify-receipt"), with golang.org/x/mod's sumdb/tlog
// and sumdb/note doing the hashing and the signatures.

// TlogOptions say how VerifyTiles and VerifyReceiptOf reach the arena and
// which key they trust.
type TlogOptions struct {
	// Key is the log key: base64 of its 32 bytes (log.publicKey), or a
	// signed-note verifier key <origin>+<key hash>+<base64(0x01 || key)>,
	// which names the origin too. Empty: GET /api/v1's log.publicKey.
	Key string
	// Origin is the origin the checkpoints must have (<arena host>/log);
	// empty: the verifier key's name, else the arena's log.origin when it
	// was fetched, else any origin the key signed (the signature's key
	// hash binds the key to the name it signed).
	Origin string
	// Head is a checkpoint saved earlier (its signed note): the tree must
	// extend it (VerifyTiles).
	Head []byte
	// APIKey, when set, is a public-API key of the arena
	// (apikey_<id>_<secret>), sent as "Authorization: Bearer <key>": the
	// reads then count against the key's limit, not the anonymous one.
	APIKey string
	// Retries is how many times a read answered 429 is repeated, after its
	// Retry-After (at most two minutes; 1 s when absent); 0 is
	// DefaultReadRetries, negative none.
	Retries int
}

// VerifiedTree is the checkpoint a VerifyTiles verified: verify-log's
// line, and the head a later run takes.
type VerifiedTree struct {
	TreeSize int64  `json:"treeSize"`
	RootHash string `json:"rootHash"` // base64
	Origin   string `json:"origin"`
	// Checkpoint is the signed note as the arena served it.
	Checkpoint string `json:"checkpoint"`
}

// ErrReceiptInvalid: a receipt (a C2SP tlog-proof of a match's deciding
// event, docs/events.md "Receipts") does not verify: its checkpoint's
// signature, its origin, its inclusion proof or its entry.
var ErrReceiptInvalid = errors.New("client: the receipt does not verify")

// VerifiedReceipt is what a receipt proves: verify-receipt's line.
type VerifiedReceipt struct {
	Index    int64  `json:"index"`
	TreeSize int64  `json:"treeSize"`
	RootHash string `json:"rootHash"` // base64
	Origin   string `json:"origin"`
	Verified bool   `json:"verified"`
	// Entry is the entry proved: the event's JSON, or the base64 of bytes
	// that are not JSON.
	Entry json.RawMessage `json:"entry"`
}

// ErrInvalidKey: a log key that is neither 32 bytes of base64 nor a
// signed-note Ed25519 verifier key (or whose name is not the origin
// asked for): a usage error, not a verdict on the log.
var ErrInvalidKey = errors.New("client: the log key is not a base64 Ed25519 public key nor a verifier key")

// logKey is a key to check checkpoints with: the public key and, when
// known, the origin it must have signed.
type logKey struct {
	pub    ed25519.PublicKey
	origin string
}

// parseLogKey reads a key as TlogOptions.Key gives it.
func parseLogKey(s, origin string) (logKey, error) {
	var k logKey
	if raw, err := base64.StdEncoding.DecodeString(s); err == nil && len(raw) == ed25519.PublicKeySize {
		k.pub = raw
	} else {
		v, err := note.NewVerifier(s)
		if err != nil {
			return k, ErrInvalidKey
		}
		parts := strings.SplitN(s, "+", 3)
		b, err := base64.StdEncoding.DecodeString(parts[2])
		if err != nil || len(b) != 1+ed25519.PublicKeySize || b[0] != 1 {
			return k, ErrInvalidKey
		}
		k.pub, k.origin = b[1:], v.Name()
	}
	if origin != "" {
		if k.origin != "" && k.origin != origin {
			return k, fmt.Errorf("%w: the verifier key is named %q, not the origin %q", ErrInvalidKey, k.origin, origin)
		}
		k.origin = origin
	}
	return k, nil
}

// key is the key opts trust: given, or the arena's (GET /api/v1).
func (c *Client) key(ctx context.Context, opts TlogOptions) (logKey, error) {
	if opts.Key != "" {
		return parseLogKey(opts.Key, opts.Origin)
	}
	var meta struct {
		Log struct {
			PublicKey string `json:"publicKey"`
			Origin    string `json:"origin"`
		} `json:"log"`
	}
	if err := c.publicRead(ctx, "/api/v1", opts.APIKey, opts.Retries, &meta); err != nil {
		return logKey{}, err
	}
	pub, err := base64.StdEncoding.DecodeString(meta.Log.PublicKey)
	if err != nil || len(pub) != ed25519.PublicKeySize {
		return logKey{}, fmt.Errorf("%w: the arena's log.publicKey is not a base64 Ed25519 key", ErrBadResponse)
	}
	k := logKey{pub: pub, origin: meta.Log.Origin}
	if opts.Origin != "" {
		k.origin = opts.Origin
	}
	return k, nil
}

// open verifies a checkpoint with k (its origin, else the checkpoint's
// own first line).
func (k logKey) open(msg []byte) (tlog.Tree, string, error) {
	origin := k.origin
	if origin == "" {
		origin, _, _ = strings.Cut(string(msg), "\n")
	}
	tree, err := core.OpenCheckpoint(msg, origin, k.pub)
	return tree, origin, err
}

// read GETs a path of the arena's public reads: its body, or, for a 404
// when missingOK, nil.
func (c *Client) read(ctx context.Context, path string, opts TlogOptions, missingOK bool) ([]byte, error) {
	var raw []byte
	err := c.publicRead(ctx, path, opts.APIKey, opts.Retries, &raw)
	var apiErr *APIError
	if missingOK && errors.As(err, &apiErr) && apiErr.Status == http.StatusNotFound {
		return nil, nil
	}
	return raw, err
}

// readTile reads a tile of width (an entry bundle at level -1): the
// partial one, or, when it is gone (a log may drop a partial tile once
// the full one exists), the full one. full says which it is.
func (c *Client) readTile(ctx context.Context, opts TlogOptions, level int, n int64, width int) (body []byte, path string, full bool, err error) {
	path = "/log/tile/" + core.TilePath(level, n, width)
	partial := width < core.LogTileWidth
	if body, err = c.read(ctx, path, opts, partial); err != nil || body != nil {
		return body, path, !partial, err
	}
	path = "/log/tile/" + core.TilePath(level, n, core.LogTileWidth)
	body, err = c.read(ctx, path, opts, false)
	return body, path, true, err
}

// bundleEntries splits an entry bundle of width entries (each a
// big-endian uint16 length, then the entry); false when it is not one.
func bundleEntries(b []byte, width int) ([][]byte, bool) {
	out := make([][]byte, 0, width)
	for range width {
		if len(b) < 2 {
			return nil, false
		}
		n := int(binary.BigEndian.Uint16(b))
		if len(b) < 2+n {
			return nil, false
		}
		out, b = append(out, b[2:2+n]), b[2+n:]
	}
	return out, len(b) == 0
}

// levels are a tree's hashes by level, as read from its entries: a
// tlog.HashReader for TreeHash.
type levels [][]tlog.Hash

func (l levels) ReadHashes(indexes []int64) ([]tlog.Hash, error) {
	out := make([]tlog.Hash, len(indexes))
	for i, x := range indexes {
		level, n := tlog.SplitStoredHashIndex(x)
		if level >= len(l) || n >= int64(len(l[level])) {
			return nil, fmt.Errorf("no hash %d at level %d", n, level)
		}
		out[i] = l[level][n]
	}
	return out, nil
}

// VerifyTiles checks the arena's log as a transparency log: the
// checkpoint (GET /log/checkpoint) is signed by the log key; every entry
// bundle of its tree (GET /log/tile/entries/...) rebuilds the RFC 6962
// tree, every hash tile (GET /log/tile/<L>/...) is that tree's, and its
// root is the checkpoint's. Given a saved head (opts.Head), that one's
// signature and origin are checked too and the tree must extend it (the
// root of its first entries is the saved root). A log that does not
// verify is ErrLogInvalid; a bad key ErrInvalidKey; a read that failed is
// returned as is.
func (c *Client) VerifyTiles(ctx context.Context, opts TlogOptions) (VerifiedTree, error) {
	var out VerifiedTree
	k, err := c.key(ctx, opts)
	if err != nil {
		return out, err
	}
	raw, err := c.read(ctx, "/log/checkpoint", opts, false)
	if err != nil {
		return out, err
	}
	tree, origin, err := k.open(raw)
	if err != nil {
		return out, invalid(fmt.Errorf("the arena's checkpoint: %w", err))
	}
	var head *tlog.Tree
	if opts.Head != nil {
		k.origin = origin
		h, _, err := k.open(opts.Head)
		if err != nil {
			return out, invalid(fmt.Errorf("the saved head: %w", err))
		}
		if h.N > tree.N {
			return out, invalid(fmt.Errorf("the saved head (size %d) is past the arena's checkpoint (size %d)", h.N, tree.N))
		}
		head = &h
	}
	n := tree.N
	width := func(count, t int64) int { return int(min(core.LogTileWidth, count-t*core.LogTileWidth)) }
	tree0 := levels{nil}
	for t := int64(0); t*core.LogTileWidth < n; t++ {
		w := width(n, t)
		body, path, full, err := c.readTile(ctx, opts, -1, t, w)
		if err != nil {
			return out, err
		}
		bw := w
		if full {
			bw = core.LogTileWidth
		}
		entries, ok := bundleEntries(body, bw)
		if !ok {
			return out, invalid(fmt.Errorf("%s is not %d length-prefixed entries", path, bw))
		}
		for _, e := range entries[:w] {
			tree0[0] = append(tree0[0], tlog.RecordHash(e))
		}
	}
	for lv := 1; len(tree0[lv-1]) > 1; lv++ {
		below := tree0[lv-1]
		level := make([]tlog.Hash, 0, len(below)/2)
		for j := 0; j+1 < len(below); j += 2 {
			level = append(level, tlog.NodeHash(below[j], below[j+1]))
		}
		tree0 = append(tree0, level)
	}
	for l := 0; core.LogTileHeight*l < len(tree0); l++ {
		hashes := tree0[core.LogTileHeight*l]
		for t := int64(0); t*core.LogTileWidth < int64(len(hashes)); t++ {
			w := width(int64(len(hashes)), t)
			body, path, full, err := c.readTile(ctx, opts, l, t, w)
			if err != nil {
				return out, err
			}
			bw := w
			if full {
				bw = core.LogTileWidth
			}
			ok := len(body) == tlog.HashSize*bw
			for i := 0; ok && i < w; i++ {
				ok = tlog.Hash(body[tlog.HashSize*i:tlog.HashSize*(i+1)]) == hashes[t*core.LogTileWidth+int64(i)]
			}
			if !ok {
				return out, invalid(fmt.Errorf("%s is not the tree of the entry bundles", path))
			}
		}
	}
	if root, err := tlog.TreeHash(n, tree0); err != nil || root != tree.Hash {
		return out, invalid(fmt.Errorf("the entries' tree of %d is not the checkpoint's root", n))
	}
	if head != nil {
		if root, err := tlog.TreeHash(head.N, tree0); err != nil || root != head.Hash {
			return out, invalid(fmt.Errorf("the tree does not extend the saved head (size %d): its first %d entries have another root", head.N, head.N))
		}
	}
	return VerifiedTree{TreeSize: n, RootHash: base64.StdEncoding.EncodeToString(tree.Hash[:]), Origin: origin, Checkpoint: string(raw)}, nil
}

// VerifyReceiptOf checks a receipt (a .tlog-proof file: C2SP tlog-proof):
// its checkpoint is signed by the log key, and its inclusion proof proves
// the entry at its index in the checkpoint's tree. The entry is the extra
// line; a receipt without one reads it from the entry bundle at the
// client's base. With opts.Key and an extra line nothing is fetched. A
// receipt that does not verify is ErrReceiptInvalid.
func (c *Client) VerifyReceiptOf(ctx context.Context, receipt []byte, opts TlogOptions) (VerifiedReceipt, error) {
	var out VerifiedReceipt
	r, err := core.ParseReceipt(receipt)
	if err != nil {
		return out, fmt.Errorf("%w: %w", ErrReceiptInvalid, err)
	}
	k, err := c.key(ctx, opts)
	if err != nil {
		return out, err
	}
	tree, origin, err := k.open(r.Checkpoint)
	if err != nil {
		return out, fmt.Errorf("%w: %w", ErrReceiptInvalid, err)
	}
	if r.Index >= tree.N {
		return out, fmt.Errorf("%w: index %d is not in a tree of %d", ErrReceiptInvalid, r.Index, tree.N)
	}
	entry := r.Extra
	if entry == nil {
		t := r.Index / core.LogTileWidth
		w := int(min(core.LogTileWidth, tree.N-t*core.LogTileWidth))
		body, path, full, err := c.readTile(ctx, opts, -1, t, w)
		if err != nil {
			return out, err
		}
		if full {
			w = core.LogTileWidth
		}
		entries, ok := bundleEntries(body, w)
		if !ok {
			return out, fmt.Errorf("%w: the entry bundle %s is not %d entries", ErrReceiptInvalid, path, w)
		}
		entry = entries[r.Index%core.LogTileWidth]
	}
	if err := tlog.CheckRecord(r.Proof, tree.N, tree.Hash, r.Index, tlog.RecordHash(entry)); err != nil {
		return out, fmt.Errorf("%w: the proof does not prove the entry at index %d in the checkpoint's tree of %d", ErrReceiptInvalid, r.Index, tree.N)
	}
	out = VerifiedReceipt{Index: r.Index, TreeSize: tree.N, RootHash: base64.StdEncoding.EncodeToString(tree.Hash[:]),
		Origin: origin, Verified: true, Entry: entry}
	if !json.Valid(entry) {
		out.Entry, _ = json.Marshal(base64.StdEncoding.EncodeToString(entry))
	}
	return out, nil
}
