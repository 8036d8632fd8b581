package client

import (
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"fmt"
	"net/http"

	"arena/core"
)

// verifyLogPage is how many events VerifyLog reads a request (a page
// stays well under maxResponseBytes).
const verifyLogPage = 200

// VerifyLog checks the arena's public event log (docs/events.md): it reads
// the signed head, checks its signature with the arena's public key (the
// meta object's log.publicKey), walks the log from its first event to the
// head recomputing every hash and prevHash link, and, given a head saved
// earlier (saved, nil for none), checks that head is signed too and that
// its event is in the log unchanged: the log then still extends what was
// saved. It returns the head it verified (worth saving for the next
// check).
func (c *Client) VerifyLog(ctx context.Context, saved *core.LogHead) (core.LogHead, error) {
	var meta struct {
		Tenant struct {
			Slug string `json:"slug"`
		} `json:"tenant"`
		Log struct {
			PublicKey string `json:"publicKey"`
		} `json:"log"`
	}
	if err := c.public(ctx, "/api/v1", &meta); err != nil {
		return core.LogHead{}, err
	}
	pub, err := base64.StdEncoding.DecodeString(meta.Log.PublicKey)
	if err != nil || len(pub) != ed25519.PublicKeySize {
		return core.LogHead{}, fmt.Errorf("%w: the arena's log.publicKey is not a base64 Ed25519 key", ErrBadResponse)
	}
	var head core.LogHead
	if err := c.public(ctx, "/api/v1/events/head", &head); err != nil {
		return core.LogHead{}, err
	}
	if err := core.VerifyHead(pub, meta.Tenant.Slug, head); err != nil {
		return core.LogHead{}, invalid(err)
	}
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
	}
	seq, prev := int64(0), core.GenesisHash
	for seq < head.Seq {
		var page core.EventLogPage
		if err := c.public(ctx, fmt.Sprintf("/api/v1/events?after=%d&limit=%d", seq, verifyLogPage), &page); err != nil {
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
		for _, e := range events {
			if saved != nil && e.Seq == saved.Seq && (e.Hash != saved.Hash || e.At != saved.At) {
				return core.LogHead{}, invalid(fmt.Errorf("event log: event %d is not the one the saved head signed", e.Seq))
			}
			if e.Seq == head.Seq && (e.Hash != head.Hash || e.At != head.At) {
				return core.LogHead{}, invalid(fmt.Errorf("event log: event %d is not the one the head signed", e.Seq))
			}
		}
		seq, prev = events[len(events)-1].Seq, events[len(events)-1].Hash
	}
	if head.Seq == 0 && head.Hash != core.GenesisHash {
		return core.LogHead{}, invalid(fmt.Errorf("event log: the empty log's head hash is not %s", core.GenesisHash))
	}
	return head, nil
}

// public performs a public read (no ticket) and decodes its 200 answer.
func (c *Client) public(ctx context.Context, path string, out any) error {
	status, data, err := c.do(ctx, http.MethodGet, path, nil, "")
	if err != nil {
		return err
	}
	_, err = decodeAnswer(http.MethodGet, path, status, data, out)
	return err
}

// invalid marks a verification failure as ErrLogInvalid.
func invalid(err error) error { return fmt.Errorf("%w: %w", ErrLogInvalid, err) }
