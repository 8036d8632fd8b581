package client

import (
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"golang.org/x/mod/sumdb/tlog"

	"arena/core"
)

// verifyLogPage is how many events VerifyLog reads a request: the log's
// largest page (core.EventLogMaxLimit), so a long log costs as few reads
// of the public rate limit as it can.
const verifyLogPage = core.EventLogMaxLimit

// DefaultReadRetries is how many times VerifyLog repeats a read answered
// 429 rate_limited before it gives up (VerifyLogOptions.Retries).
const DefaultReadRetries = 5

// maxRetryAfter bounds one wait on a 429's Retry-After.
const maxRetryAfter = 120 * time.Second

// VerifyLogOptions are VerifyLog's inputs; the zero value verifies the
// whole log anonymously.
type VerifyLogOptions struct {
	// Saved is a head saved by an earlier check (nil for none): it must
	// be signed, and the log must still hold its event unchanged. The
	// walk then starts at its seq: the events before it were checked
	// when it was saved.
	Saved *core.LogHead
	// APIKey, when set, is a public-API key of the arena
	// (apikey_<id>_<secret>), sent as "Authorization: Bearer <key>": the
	// reads then count against the key's limit, not the anonymous one.
	APIKey string
	// Retries is how many times a read answered 429 is repeated, after
	// its Retry-After (at most two minutes; 1 s when absent); 0 is
	// DefaultReadRetries, negative none.
	Retries int
}

// VerifyLog checks the arena's public event log (docs/events.md): it reads
// the signed head, checks its signature with the arena's public key (the
// meta object's log.publicKey), and walks the log to the head recomputing
// every hash and prevHash link: from its first event, or, given a saved
// head (opts.Saved), from the saved head's event, which must be in the
// log unchanged (its hash and time) and signed: the log then still
// extends what was saved. It returns the head it verified (worth saving
// for the next check).
//
// A log, head or saved head that does not verify is ErrLogInvalid; a read
// that failed (network, a status other than 200 after the 429 retries, an
// answer of the wrong shape) is returned as is: the log could not be
// fetched, which says nothing of its integrity.
func (c *Client) VerifyLog(ctx context.Context, opts VerifyLogOptions) (core.LogHead, error) {
	saved := opts.Saved
	var meta struct {
		Tenant struct {
			Slug string `json:"slug"`
		} `json:"tenant"`
		Log struct {
			PublicKey string `json:"publicKey"`
			Origin    string `json:"origin"`
		} `json:"log"`
	}
	if err := c.publicRead(ctx, "/api/v1", opts, &meta); err != nil {
		return core.LogHead{}, err
	}
	pub, err := base64.StdEncoding.DecodeString(meta.Log.PublicKey)
	if err != nil || len(pub) != ed25519.PublicKeySize {
		return core.LogHead{}, fmt.Errorf("%w: the arena's log.publicKey is not a base64 Ed25519 key", ErrBadResponse)
	}
	var head core.LogHead
	if err := c.publicRead(ctx, "/api/v1/events/head", opts, &head); err != nil {
		return core.LogHead{}, err
	}
	if err := core.VerifyHead(pub, meta.Tenant.Slug, head); err != nil {
		return core.LogHead{}, invalid(err)
	}
	if head.Seq == 0 && head.Hash != core.GenesisHash {
		return core.LogHead{}, invalid(fmt.Errorf("event log: the empty log's head hash is not %s", core.GenesisHash))
	}
	tree, err := c.logTree(ctx, opts, meta.Log.Origin, pub, head.Seq)
	if err != nil {
		return core.LogHead{}, err
	}
	seq, prev := int64(0), core.GenesisHash
	if saved != nil {
		if err := core.VerifyHead(pub, meta.Tenant.Slug, *saved); err != nil {
			return core.LogHead{}, invalid(fmt.Errorf("the saved head: %w", err))
		}
		if saved.Seq > head.Seq {
			return core.LogHead{}, invalid(fmt.Errorf("event log: the saved head (seq %d) is past the arena's head (seq %d)", saved.Seq, head.Seq))
		}
		if saved.Seq == 0 && saved.Hash != core.GenesisHash {
			return core.LogHead{}, invalid(fmt.Errorf("event log: the saved empty head's hash is not %s", core.GenesisHash))
		}
		if saved.Seq > 0 {
			// Start at the saved head's own event: its hash must be the
			// one saved, and the walk links on from it.
			var page core.EventLogPage
			path := fmt.Sprintf("/api/v1/events?after=%d&limit=1", saved.Seq-1)
			if err := c.publicRead(ctx, path, opts, &page); err != nil {
				return core.LogHead{}, err
			}
			if len(page.Events) == 0 || page.Events[0].Seq != saved.Seq {
				return core.LogHead{}, invalid(fmt.Errorf("event log: the log has no event %d, the saved head's", saved.Seq))
			}
			e := page.Events[0]
			if e.Hash != saved.Hash || e.At != saved.At {
				return core.LogHead{}, invalid(fmt.Errorf("event log: event %d is not the one the saved head signed", e.Seq))
			}
			if err := core.VerifyChain(e.Seq-1, e.PrevHash, page.Events[:1]); err != nil {
				return core.LogHead{}, invalid(err)
			}
			if e.Seq == head.Seq && (e.Hash != head.Hash || e.At != head.At) {
				return core.LogHead{}, invalid(fmt.Errorf("event log: event %d is not the one the head signed", e.Seq))
			}
			seq, prev = e.Seq, e.Hash
		}
	}
	for seq < head.Seq {
		var page core.EventLogPage
		if err := c.publicRead(ctx, fmt.Sprintf("/api/v1/events?after=%d&limit=%d", seq, verifyLogPage), opts, &page); err != nil {
			return core.LogHead{}, err
		}
		if len(page.Events) == 0 {
			return core.LogHead{}, invalid(fmt.Errorf("event log: the log ends at seq %d, before its head (seq %d)", seq, head.Seq))
		}
		// Events appended after the head was read are not checked.
		events := page.Events
		for i, e := range events {
			if e.Seq > head.Seq {
				events = events[:i]
				break
			}
		}
		if len(events) == 0 {
			return core.LogHead{}, invalid(fmt.Errorf("event log: the page after seq %d starts past the head (seq %d)", seq, head.Seq))
		}
		if err := core.VerifyChain(seq, prev, events); err != nil {
			return core.LogHead{}, invalid(err)
		}
		if err := tree.check(events); err != nil {
			return core.LogHead{}, err
		}
		for _, e := range events {
			if e.Seq == head.Seq && (e.Hash != head.Hash || e.At != head.At) {
				return core.LogHead{}, invalid(fmt.Errorf("event log: event %d is not the one the head signed", e.Seq))
			}
		}
		seq, prev = events[len(events)-1].Seq, events[len(events)-1].Hash
	}
	return head, nil
}

// publicRead performs a public read (no ticket; the API key of opts when
// set) and decodes its 200 answer. A 429 is repeated after its
// Retry-After, up to opts.Retries times.
func (c *Client) publicRead(ctx context.Context, path string, opts VerifyLogOptions, out any) error {
	auth := ""
	if opts.APIKey != "" {
		auth = "Bearer " + opts.APIKey
	}
	retries := opts.Retries
	if retries == 0 {
		retries = DefaultReadRetries
	}
	for attempt := 0; ; attempt++ {
		status, data, hdr, err := c.doHeader(ctx, http.MethodGet, path, nil, auth)
		if err != nil {
			return err
		}
		if status == http.StatusTooManyRequests && attempt < retries {
			wait := RetryAfter(hdr.Get("Retry-After"))
			c.logf("client: GET %s: 429, retrying in %s", path, wait)
			if err := c.sleep(ctx, wait); err != nil {
				return err
			}
			continue
		}
		if raw, ok := out.(*[]byte); ok {
			if status != http.StatusOK {
				return apiError(http.MethodGet, path, status, data)
			}
			*raw = data
			return nil
		}
		_, err = decodeAnswer(http.MethodGet, path, status, data, out)
		return err
	}
}

// RetryAfter is the wait a 429's Retry-After asks for: its seconds (an
// HTTP date is read too), at least 1 s (also when absent or unreadable)
// and at most two minutes.
func RetryAfter(v string) time.Duration {
	d := time.Second
	if n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil {
		d = time.Duration(min(max(n, 1), int64(maxRetryAfter/time.Second))) * time.Second
	} else if t, err := http.ParseTime(v); err == nil {
		d = time.Until(t)
	}
	return min(max(d, time.Second), maxRetryAfter)
}

// invalid marks a verification failure as ErrLogInvalid.
func invalid(err error) error { return fmt.Errorf("%w: %w", ErrLogInvalid, err) }

// logTreeCheck checks walked events against the log's signed checkpoint
// through its tiles (docs/events.md, "The log as a transparency log"):
// each event's entry must be the tree's leaf of its seq. A nil check (an
// arena that serves no checkpoint: 404) checks nothing.
type logTreeCheck struct {
	c      *Client
	ctx    context.Context
	opts   VerifyLogOptions
	reader tlog.HashReader
	tiles  map[tlog.Tile][]byte
	failed error // a tile that could not be fetched
}

// logTree reads and verifies the checkpoint (signed by pub under origin,
// at least as large as the head's seq).
func (c *Client) logTree(ctx context.Context, opts VerifyLogOptions, origin string, pub ed25519.PublicKey, headSeq int64) (*logTreeCheck, error) {
	var raw []byte
	if err := c.publicRead(ctx, "/log/checkpoint", opts, &raw); err != nil {
		var apiErr *APIError
		if errors.As(err, &apiErr) && apiErr.Status == http.StatusNotFound {
			return nil, nil
		}
		return nil, err
	}
	if origin == "" {
		return nil, fmt.Errorf("%w: the arena serves a checkpoint but no log.origin", ErrBadResponse)
	}
	tree, err := core.OpenCheckpoint(raw, origin, pub)
	if err != nil {
		return nil, invalid(err)
	}
	if tree.N < headSeq {
		return nil, invalid(fmt.Errorf("event log: the checkpoint (size %d) is behind the head (seq %d)", tree.N, headSeq))
	}
	t := &logTreeCheck{c: c, ctx: ctx, opts: opts, tiles: map[tlog.Tile][]byte{}}
	t.reader = tlog.TileHashReader(tree, t)
	return t, nil
}

func (t *logTreeCheck) check(events []core.LogEvent) error {
	if t == nil || len(events) == 0 {
		return nil
	}
	indexes := make([]int64, len(events))
	for i, e := range events {
		indexes[i] = tlog.StoredHashIndex(0, e.Seq-1)
	}
	hashes, err := t.reader.ReadHashes(indexes)
	if err != nil {
		if t.failed != nil {
			return t.failed
		}
		return invalid(fmt.Errorf("event log: the tiles do not verify against the checkpoint: %w", err))
	}
	for i, e := range events {
		entry, err := core.EventEntry(e)
		if err != nil {
			return invalid(err)
		}
		if tlog.RecordHash(entry) != hashes[i] {
			return invalid(fmt.Errorf("event log: event %d is not the checkpoint's leaf %d", e.Seq, e.Seq-1))
		}
	}
	return nil
}

// Height, ReadTiles and SaveTiles make logTreeCheck a tlog.TileReader
// over the C2SP tile paths.
func (t *logTreeCheck) Height() int { return core.LogTileHeight }

func (t *logTreeCheck) ReadTiles(tiles []tlog.Tile) ([][]byte, error) {
	out := make([][]byte, len(tiles))
	for i, tile := range tiles {
		if data, ok := t.tiles[tile]; ok {
			out[i] = data
			continue
		}
		var raw []byte
		if err := t.c.publicRead(t.ctx, "/log/tile/"+core.TilePath(tile.L, tile.N, tile.W), t.opts, &raw); err != nil {
			t.failed = err
			return nil, err
		}
		out[i] = raw
	}
	return out, nil
}

func (t *logTreeCheck) SaveTiles(tiles []tlog.Tile, data [][]byte) {
	for i, tile := range tiles {
		t.tiles[tile] = data[i]
	}
}
