package core

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/gowebpki/jcs"
)

// The arena's public event log (docs/events.md): every change a player
// or integrator may want to audit, in order, hash-chained and with a
// signed head. The store appends events in the same batch as the change
// (by SQL, without hashes); SealLog hashes them here, lazily, before the
// log is answered. This file is the one definition of an event's hash
// and of the head's signed message: the server and the Go client both
// use it.

// Event types of the log.
const (
	EventLogMatchReady           = "match.ready"
	EventLogMatchLive            = "match.live"
	EventLogMatchSubmission      = "match.submission"
	EventLogMatchReported        = "match.reported"
	EventLogMatchConfirmed       = "match.confirmed"
	EventLogMatchDisputed        = "match.disputed"
	EventLogMatchForfeited       = "match.forfeited"
	EventLogMatchResolved        = "match.resolved"
	EventLogRegistrationAdded    = "registration.added"
	EventLogRegistrationWithdraw = "registration.withdrawn"
	// EventLogMatchGameDecided: a game of a best-of-N series was decided
	// (data: game, winner, source, seriesScore), before the series' own
	// decision event when the game ends the series.
	EventLogMatchGameDecided = "match.game_decided"
	// EventLogMatchReopened: an admin took a decision back (data: admin,
	// and the status, winner and source it had).
	EventLogMatchReopened    = "match.reopened"
	EventLogTournamentStatus = "tournament.status"
	EventLogTitleChanged     = "title.changed"
	EventLogRecordingReady   = "recording.ready"
)

// EventLogTypes are the log's event types, in the order the docs list
// them (what a webhook subscription may choose from).
var EventLogTypes = []string{
	EventLogMatchReady, EventLogMatchLive, EventLogMatchSubmission, EventLogMatchReported, EventLogMatchConfirmed,
	EventLogMatchDisputed, EventLogMatchForfeited, EventLogMatchResolved, EventLogMatchGameDecided, EventLogMatchReopened,
	EventLogRegistrationAdded,
	EventLogRegistrationWithdraw, EventLogTournamentStatus, EventLogTitleChanged, EventLogRecordingReady,
}

// Event log limits.
const (
	// EventLogDefaultLimit and EventLogMaxLimit bound a page of the log.
	EventLogDefaultLimit = 100
	EventLogMaxLimit     = 1000
	// eventLogSealBatch is how many events one read of unsealed events
	// takes.
	eventLogSealBatch = 500
)

// GenesisHash is the prevHash of the first event: 64 zeros.
const GenesisHash = "0000000000000000000000000000000000000000000000000000000000000000"

// LogEvent is one event of the log, as the API serves it.
type LogEvent struct {
	Seq        int64           `json:"seq"`
	At         string          `json:"at"`
	Type       string          `json:"type"`
	Tournament *string         `json:"tournament"`
	MatchID    *int64          `json:"matchId"`
	Data       json.RawMessage `json:"data"`
	PrevHash   string          `json:"prevHash"`
	Hash       string          `json:"hash"`
}

// LogHead is the log's last event, signed: Signature is the base64
// Ed25519 signature of HeadMessage. An empty log's head has seq 0, the
// GenesisHash and an empty at.
type LogHead struct {
	Seq       int64  `json:"seq"`
	Hash      string `json:"hash"`
	At        string `json:"at"`
	Signature string `json:"signature"`
}

// EventHash is the event's hash: lowercase hex SHA-256 of the RFC 8785
// (JCS) form of the event object without its hash member.
func EventHash(e LogEvent) (string, error) {
	raw, err := json.Marshal(e)
	if err != nil {
		return "", fmt.Errorf("event %d: %w", e.Seq, err)
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(raw, &members); err != nil {
		return "", fmt.Errorf("event %d: %w", e.Seq, err)
	}
	delete(members, "hash")
	if raw, err = json.Marshal(members); err != nil {
		return "", fmt.Errorf("event %d: %w", e.Seq, err)
	}
	canonical, err := jcs.Transform(raw)
	if err != nil {
		return "", fmt.Errorf("event %d: canonical form: %w", e.Seq, err)
	}
	sum := sha256.Sum256(canonical)
	return hex.EncodeToString(sum[:]), nil
}

// VerifyChain checks events (consecutive, in seq order) against the
// event before them (prevSeq, prevHash; 0 and GenesisHash before the
// first): no gap, each prevHash links to the hash before it, and each
// hash is the event's.
func VerifyChain(prevSeq int64, prevHash string, events []LogEvent) error {
	for _, e := range events {
		if e.Seq != prevSeq+1 {
			return fmt.Errorf("event log: seq %d follows %d", e.Seq, prevSeq)
		}
		if e.PrevHash != prevHash {
			return fmt.Errorf("event log: event %d's prevHash %q is not the hash before it, %q", e.Seq, e.PrevHash, prevHash)
		}
		h, err := EventHash(e)
		if err != nil {
			return err
		}
		if h != e.Hash {
			return fmt.Errorf("event log: event %d's hash is %s, its content hashes to %s", e.Seq, e.Hash, h)
		}
		prevSeq, prevHash = e.Seq, e.Hash
	}
	return nil
}

// HeadMessage is what a head's signature signs: the UTF-8 bytes of
// "<arena slug>\n<seq>\n<hash>\n<at>".
func HeadMessage(arena string, seq int64, hash, at string) []byte {
	return []byte(arena + "\n" + strconv.FormatInt(seq, 10) + "\n" + hash + "\n" + at)
}

// VerifyHead checks the head's signature with the arena's public key.
func VerifyHead(pub ed25519.PublicKey, arena string, h LogHead) error {
	sig, err := base64.StdEncoding.DecodeString(h.Signature)
	if err != nil || len(pub) != ed25519.PublicKeySize ||
		!ed25519.Verify(pub, HeadMessage(arena, h.Seq, h.Hash, h.At), sig) {
		return fmt.Errorf("event log: the head's signature (seq %d) does not verify", h.Seq)
	}
	return nil
}

// EventLogStore keeps the log.
type EventLogStore interface {
	// ReadLog reads, as one (one round trip to a remote database), the
	// log as a reader starts from it: its end, its last sealed event, up
	// to unsealed of its unsealed events and up to limit sealed events
	// after seq (LogView).
	ReadLog(ctx context.Context, after int64, limit, unsealed int) (LogView, error)
	// SealEvents stores the events' prevHash and hash and the tree's
	// stored hashes they add, in one batch; an event or hash stored
	// meanwhile (by a concurrent sealer, with the same values) is left as
	// it is.
	SealEvents(ctx context.Context, events []LogEvent, tree []TreeHash) error
	// TreeHashes returns the tree's stored hashes of the indexes that
	// are stored (any order).
	TreeHashes(ctx context.Context, indexes []int64) ([]TreeHash, error)
	// Events returns up to limit sealed events after seq, in order.
	Events(ctx context.Context, after int64, limit int) ([]LogEvent, error)
	// LogSigningKey returns the arena's stored Ed25519 seed, storing
	// fresh first when it has none (the first writer's stands).
	LogSigningKey(ctx context.Context, fresh []byte) ([]byte, error)
}

// LogView is the log as one read saw it (EventLogStore.ReadLog).
type LogView struct {
	// End is the last event's seq, sealed or not (0: none).
	End int64
	// Head is the last sealed event, or nil while none is.
	Head *LogEvent
	// Unsealed are the first unsealed events, in order.
	Unsealed []LogEvent
	// Events are the sealed events after the seq asked for, in order.
	Events []LogEvent
}

// sealed is the last sealed event's seq and hash (0 and GenesisHash
// while none is).
func (v *LogView) sealed() (int64, string) {
	if v.Head == nil {
		return 0, GenesisHash
	}
	return v.Head.Seq, v.Head.Hash
}

// SealLog hashes every unsealed event, in seq order from the last sealed
// one. Sealers may run concurrently: each computes the same hashes, and
// one that finds the events it expected sealed by another starts again
// from the last sealed event.
//
// Many sealers racing over a long backlog restart often, each time from
// further on; only starts that find the log sealed no further than the
// one before are counted against the bound (a log that cannot be sealed
// past an event, never a busy one).
func SealLog(ctx context.Context, st EventLogStore) error {
	_, err := readSealed(ctx, st, 0, 0)
	return err
}

// sealLog is SealLog; it returns the seq it sealed the log to (the tree's
// size then: a concurrent sealer may have gone further since).
func sealLog(ctx context.Context, st EventLogStore) (int64, error) {
	v, err := readSealed(ctx, st, 0, 0)
	seq, _ := v.sealed()
	return seq, err
}

// readSealed reads the log's view with up to limit sealed events after
// seq, sealing what it finds unsealed first: each read sees the log and
// its next unsealed events at once, so a sealed log costs one read, and
// one with fewer than a batch unsealed costs that read, the tree's edge
// and the sealing batch (the view then answers with the events it
// sealed).
func readSealed(ctx context.Context, st EventLogStore, after int64, limit int) (LogView, error) {
	last := int64(-1)
	for stalls := 0; stalls < eventLogSealRestarts; {
		v, err := st.ReadLog(ctx, after, limit, eventLogSealBatch)
		if err != nil || len(v.Unsealed) == 0 {
			return v, err
		}
		seq, prev := v.sealed()
		if seq <= last {
			stalls++
		}
		last = seq
		sealed, err := sealNext(ctx, st, seq, prev, v.Unsealed)
		if err != nil {
			return LogView{}, err
		}
		if sealed && len(v.Unsealed) < eventLogSealBatch {
			return v.withSealed(after, limit), nil
		}
	}
	return LogView{}, fmt.Errorf("event log: sealing stalled %d times", eventLogSealRestarts)
}

// withSealed is the view once sealNext sealed all its unsealed events
// (the log's last ones when it was read): they are its head, and its
// page goes on with them up to limit.
func (v LogView) withSealed(after int64, limit int) LogView {
	from := after
	if n := len(v.Events); n > 0 {
		from = max(from, v.Events[n-1].Seq) // a sealer may have sealed some between the view's reads
	}
	for _, e := range v.Unsealed {
		if e.Seq > from && len(v.Events) < limit {
			v.Events = append(v.Events, e)
		}
	}
	head := v.Unsealed[len(v.Unsealed)-1]
	v.Head, v.Unsealed = &head, nil
	return v
}

// eventLogSealRestarts bounds SealLog's new starts that made no progress.
const eventLogSealRestarts = 20

// sealNext seals events, the unsealed events read after seq (whose hash
// is prev), and reports whether it did. When they are not the next ones
// (another sealer moved on between the reads) it stores nothing: the
// caller reads the log again.
func sealNext(ctx context.Context, st EventLogStore, seq int64, prev string, events []LogEvent) (bool, error) {
	size := seq
	for i := range events {
		e := &events[i]
		if e.Seq != seq+1 {
			return false, nil
		}
		var err error
		e.PrevHash = prev
		if e.Hash, err = EventHash(*e); err != nil {
			return false, err
		}
		seq, prev = e.Seq, e.Hash
	}
	tree, err := growTree(ctx, st, size, events)
	if err != nil {
		return false, err
	}
	return true, st.SealEvents(ctx, events, tree)
}

// EventLogPage is a page of the log: Next is the after of the following
// page, nil at the end.
type EventLogPage struct {
	Events []LogEvent `json:"events"`
	Next   *int64     `json:"next"`
}

// ReadEventLog seals the log, then returns up to limit events after seq.
func ReadEventLog(ctx context.Context, st EventLogStore, after int64, limit int) (EventLogPage, error) {
	v, err := readSealed(ctx, st, after, limit+1)
	if err != nil {
		return EventLogPage{}, err
	}
	return pageOf(v.Events, limit), nil
}

// pageOf is the page of up to limit events of events (read with one
// more, to know whether a next page follows).
func pageOf(events []LogEvent, limit int) EventLogPage {
	page := EventLogPage{Events: events}
	if len(events) > limit {
		page.Events = events[:limit]
		next := events[limit-1].Seq
		page.Next = &next
	}
	if page.Events == nil {
		page.Events = []LogEvent{}
	}
	return page
}

// EventLogKey returns the arena's log signing key, made (from random) and
// stored on first use.
func EventLogKey(ctx context.Context, st EventLogStore, random io.Reader) (ed25519.PrivateKey, error) {
	fresh := make([]byte, ed25519.SeedSize)
	if _, err := io.ReadFull(random, fresh); err != nil {
		return nil, err
	}
	seed, err := st.LogSigningKey(ctx, fresh)
	if err != nil {
		return nil, err
	}
	if len(seed) != ed25519.SeedSize {
		return nil, fmt.Errorf("event log: the stored signing key has %d bytes", len(seed))
	}
	return ed25519.NewKeyFromSeed(seed), nil
}

// EventLogPublicKey is the base64 public key of the arena's log.
func EventLogPublicKey(key ed25519.PrivateKey) string {
	return base64.StdEncoding.EncodeToString(key.Public().(ed25519.PublicKey))
}

// ReadEventLogHead seals the log and signs its last event for arena.
func ReadEventLogHead(ctx context.Context, st EventLogStore, arena string, key ed25519.PrivateKey) (LogHead, error) {
	v, err := readSealed(ctx, st, 0, 0)
	if err != nil {
		return LogHead{}, err
	}
	head := LogHead{Hash: GenesisHash}
	if last := v.Head; last != nil {
		head.Seq, head.Hash, head.At = last.Seq, last.Hash, last.At
	}
	head.Signature = base64.StdEncoding.EncodeToString(ed25519.Sign(key, HeadMessage(arena, head.Seq, head.Hash, head.At)))
	return head, nil
}
