package core

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/gowebpki/jcs"
	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

// The event log as a transparency log (docs/events.md, "The log as a
// transparency log"): an RFC 6962 Merkle tree whose leaf i is the RFC
// 8785 bytes of the event of seq i+1, served as C2SP tlog-tiles, with
// checkpoints signed as C2SP signed notes and receipts as C2SP
// tlog-proof. The store keeps the tree's stored hashes
// (tlog.StoredHashIndex numbering), written in the batch that seals the
// events: an event is sealed if and only if it is in the tree.

// TreeHash is one of the tree's stored hashes.
type TreeHash struct {
	Index int64
	Hash  tlog.Hash
}

// Transparency log constants.
const (
	// LogTileHeight is the tiles' height (C2SP tlog-tiles: 8, 256 hashes).
	LogTileHeight = 8
	// LogTileWidth is a full tile's width.
	LogTileWidth = 1 << LogTileHeight
	// ProofHeader is a receipt's first line (C2SP tlog-proof).
	ProofHeader = "c2sp.org/tlog-proof@v1"
)

// DecidingEventTypes are the types of the events that decide a match: a
// receipt proves the match's last one after its last match.reopened
// (sql/queries/eventlog.sql log_deciding takes them from here).
var DecidingEventTypes = []string{EventLogMatchConfirmed, EventLogMatchForfeited, EventLogMatchResolved}

// ErrNotInTree says a tile or proof asks for more than the tree holds.
var ErrNotInTree = errors.New("event log: not in the tree")

// EventEntry is the event's entry in the tree: the RFC 8785 bytes of the
// event object as the API serves it (hash included).
func EventEntry(e LogEvent) ([]byte, error) {
	raw, err := json.Marshal(e)
	if err != nil {
		return nil, fmt.Errorf("event %d: %w", e.Seq, err)
	}
	out, err := jcs.Transform(raw)
	if err != nil {
		return nil, fmt.Errorf("event %d: canonical form: %w", e.Seq, err)
	}
	return out, nil
}

// treeEdge lists the stored hashes a tree of size n is built on: the
// roots of its complete subtrees (what tlog.TreeHash reads, and all that
// appending the next record needs).
func treeEdge(n int64) []int64 {
	var out []int64
	for l := 63; l >= 0; l-- {
		if n&(1<<l) != 0 {
			out = append(out, tlog.StoredHashIndex(l, (n>>l)-1))
		}
	}
	return out
}

// hashMap is a tlog.HashReader over hashes in memory.
type hashMap map[int64]tlog.Hash

func (m hashMap) ReadHashes(indexes []int64) ([]tlog.Hash, error) {
	out := make([]tlog.Hash, len(indexes))
	for i, x := range indexes {
		h, ok := m[x]
		if !ok {
			return nil, fmt.Errorf("event log: the tree's stored hash %d is missing", x)
		}
		out[i] = h
	}
	return out, nil
}

// treeReader is a tlog.HashReader over the store: one read per call.
func treeReader(ctx context.Context, st EventLogStore) tlog.HashReader {
	return tlog.HashReaderFunc(func(indexes []int64) ([]tlog.Hash, error) {
		got, err := st.TreeHashes(ctx, indexes)
		if err != nil {
			return nil, err
		}
		m := hashMap{}
		for _, h := range got {
			m[h.Index] = h.Hash
		}
		return m.ReadHashes(indexes)
	})
}

// growTree computes the stored hashes the events (the tree's next
// records, from leaf size) add to a tree of size.
func growTree(ctx context.Context, st EventLogStore, size int64, events []LogEvent) ([]TreeHash, error) {
	known := hashMap{}
	if edge := treeEdge(size); len(edge) > 0 {
		got, err := st.TreeHashes(ctx, edge)
		if err != nil {
			return nil, err
		}
		for _, h := range got {
			known[h.Index] = h.Hash
		}
	}
	var out []TreeHash
	for i, e := range events {
		entry, err := EventEntry(e)
		if err != nil {
			return nil, err
		}
		n := size + int64(i)
		hashes, err := tlog.StoredHashes(n, entry, known)
		if err != nil {
			return nil, err
		}
		first := tlog.StoredHashCount(n)
		for j, h := range hashes {
			known[first+int64(j)] = h
			out = append(out, TreeHash{Index: first + int64(j), Hash: h})
		}
	}
	return out, nil
}

// LogOrigin is the arena's log origin: its first host + "/log".
func LogOrigin(firstHost string) string { return firstHost + "/log" }

// logSigner signs notes with the arena's log key under the origin.
type logSigner struct {
	name string
	hash uint32
	key  ed25519.PrivateKey
}

func (s logSigner) Name() string                    { return s.name }
func (s logSigner) KeyHash() uint32                 { return s.hash }
func (s logSigner) Sign(msg []byte) ([]byte, error) { return ed25519.Sign(s.key, msg), nil }

// LogVerifierKey is the note verifier key of the log: origin, key id and
// the Ed25519 public key (note.NewVerifier takes it).
func LogVerifierKey(origin string, pub ed25519.PublicKey) (string, error) {
	return note.NewEd25519VerifierKey(origin, pub)
}

func newLogSigner(origin string, key ed25519.PrivateKey) (note.Signer, error) {
	vkey, err := LogVerifierKey(origin, key.Public().(ed25519.PublicKey))
	if err != nil {
		return nil, err
	}
	v, err := note.NewVerifier(vkey)
	if err != nil {
		return nil, err
	}
	return logSigner{name: origin, hash: v.KeyHash(), key: key}, nil
}

// Checkpoint is a signed checkpoint of the tree.
type Checkpoint struct {
	Size int64
	Root tlog.Hash
	Note []byte // the signed note, as served
}

// SignCheckpoint signs the checkpoint of a tree (C2SP tlog-checkpoint).
func SignCheckpoint(origin string, key ed25519.PrivateKey, size int64, root tlog.Hash) ([]byte, error) {
	signer, err := newLogSigner(origin, key)
	if err != nil {
		return nil, err
	}
	text := origin + "\n" + strconv.FormatInt(size, 10) + "\n" + base64.StdEncoding.EncodeToString(root[:]) + "\n"
	return note.Sign(&note.Note{Text: text}, signer)
}

// ReadCheckpoint seals the log and signs the checkpoint of its tree.
func ReadCheckpoint(ctx context.Context, st EventLogStore, origin string, key ed25519.PrivateKey) (Checkpoint, error) {
	size, err := sealLog(ctx, st)
	if err != nil {
		return Checkpoint{}, err
	}
	return checkpointOf(ctx, st, origin, key, size)
}

func checkpointOf(ctx context.Context, st EventLogStore, origin string, key ed25519.PrivateKey, size int64) (Checkpoint, error) {
	root, err := tlog.TreeHash(size, treeReader(ctx, st))
	if err != nil {
		return Checkpoint{}, err
	}
	msg, err := SignCheckpoint(origin, key, size, root)
	if err != nil {
		return Checkpoint{}, err
	}
	return Checkpoint{Size: size, Root: root, Note: msg}, nil
}

// Tile paths (C2SP tlog-tiles).

// ParseTilePath parses a tile's path after "tile/": "<L>/<N>[.p/<W>]" or
// "entries/<N>[.p/<W>]" (level -1 for entries). ok is false for a path
// that is not one.
func ParseTilePath(path string) (level int, n int64, width int, ok bool) {
	parts := strings.Split(path, "/")
	if len(parts) < 2 {
		return 0, 0, 0, false
	}
	if parts[0] == "entries" {
		level = -1
	} else {
		l, err := strconv.Atoi(parts[0])
		if err != nil || l < 0 || l > 8 || parts[0] != strconv.Itoa(l) {
			return 0, 0, 0, false
		}
		level = l
	}
	rest := parts[1:]
	width = LogTileWidth
	if last := rest[len(rest)-1]; len(rest) >= 2 && strings.HasSuffix(rest[len(rest)-2], ".p") {
		w, err := strconv.Atoi(last)
		if err != nil || w < 1 || w >= LogTileWidth || last != strconv.Itoa(w) {
			return 0, 0, 0, false
		}
		width = w
		rest = rest[:len(rest)-1]
		rest[len(rest)-1] = strings.TrimSuffix(rest[len(rest)-1], ".p")
	}
	for i, g := range rest {
		if i < len(rest)-1 {
			if len(g) != 4 || g[0] != 'x' {
				return 0, 0, 0, false
			}
			g = g[1:]
		}
		if len(g) != 3 || strings.Trim(g, "0123456789") != "" {
			return 0, 0, 0, false
		}
		d, _ := strconv.Atoi(g)
		if n > (1<<62)/1000 {
			return 0, 0, 0, false
		}
		n = n*1000 + int64(d)
	}
	if len(rest) > 1 && strings.HasPrefix(rest[0], "x000") {
		return 0, 0, 0, false // not the canonical path of n
	}
	return level, n, width, true
}

// TilePath is the C2SP path of a tile after "tile/".
func TilePath(level int, n int64, width int) string {
	s := fmt.Sprintf("%03d", n%1000)
	for n /= 1000; n > 0; n /= 1000 {
		s = fmt.Sprintf("x%03d/", n%1000) + s
	}
	l := "entries"
	if level >= 0 {
		l = strconv.Itoa(level)
	}
	if width < LogTileWidth {
		s += ".p/" + strconv.Itoa(width)
	}
	return l + "/" + s
}

// ReadTile seals the log and answers a tile: a hash tile at level, or an
// entry bundle (level -1). ErrNotInTree when the tree does not hold it.
func ReadTile(ctx context.Context, st EventLogStore, level int, n int64, width int) ([]byte, error) {
	size, err := sealLog(ctx, st)
	if err != nil {
		return nil, err
	}
	// The records the tile needs: its last hash covers width*256^level
	// records after n*256^(level+1).
	span := int64(1)
	if level > 0 {
		span = int64(1) << (LogTileHeight * level)
	}
	if n > size || (n*LogTileWidth+int64(width))*span > size || n*LogTileWidth+int64(width) < 0 {
		return nil, ErrNotInTree
	}
	if level < 0 {
		events, err := st.Events(ctx, n*LogTileWidth, width)
		if err != nil {
			return nil, err
		}
		if len(events) != width {
			return nil, ErrNotInTree
		}
		var out []byte
		for _, e := range events {
			entry, err := EventEntry(e)
			if err != nil {
				return nil, err
			}
			if len(entry) > 0xffff {
				return nil, fmt.Errorf("event log: event %d's entry has %d bytes", e.Seq, len(entry))
			}
			out = binary.BigEndian.AppendUint16(out, uint16(len(entry)))
			out = append(out, entry...)
		}
		return out, nil
	}
	t := tlog.Tile{H: LogTileHeight, L: level, N: n, W: width}
	return tlog.ReadTileData(t, treeReader(ctx, st))
}

// Receipt is a match's receipt: a C2SP tlog-proof of its deciding event.
type Receipt struct {
	Event      LogEvent
	Entry      []byte
	Proof      tlog.RecordProof
	Checkpoint Checkpoint
}

// Format is the receipt's tlog-proof text.
func (r Receipt) Format() []byte {
	var b strings.Builder
	b.WriteString(ProofHeader + "\n")
	b.WriteString("extra " + base64.StdEncoding.EncodeToString(r.Entry) + "\n")
	b.WriteString("index " + strconv.FormatInt(r.Event.Seq-1, 10) + "\n")
	for _, h := range r.Proof {
		b.WriteString(base64.StdEncoding.EncodeToString(h[:]) + "\n")
	}
	b.WriteString("\n")
	b.Write(r.Checkpoint.Note)
	return []byte(b.String())
}

// ReadReceipt seals the log and proves the event of seq in the current
// checkpoint.
func ReadReceipt(ctx context.Context, st EventLogStore, origin string, key ed25519.PrivateKey, seq int64) (Receipt, error) {
	size, err := sealLog(ctx, st)
	if err != nil {
		return Receipt{}, err
	}
	if seq > size {
		return Receipt{}, ErrNotInTree
	}
	events, err := st.Events(ctx, seq-1, 1)
	if err != nil {
		return Receipt{}, err
	}
	if len(events) != 1 || events[0].Seq != seq {
		return Receipt{}, ErrNotInTree
	}
	cp, err := checkpointOf(ctx, st, origin, key, size)
	if err != nil {
		return Receipt{}, err
	}
	proof, err := tlog.ProveRecord(size, seq-1, treeReader(ctx, st))
	if err != nil {
		return Receipt{}, err
	}
	entry, err := EventEntry(events[0])
	if err != nil {
		return Receipt{}, err
	}
	return Receipt{Event: events[0], Entry: entry, Proof: proof, Checkpoint: cp}, nil
}

// ParsedReceipt is a tlog-proof file read back.
type ParsedReceipt struct {
	Extra      []byte
	Index      int64
	Proof      tlog.RecordProof
	Checkpoint []byte
}

// ParseReceipt reads a C2SP tlog-proof.
func ParseReceipt(b []byte) (ParsedReceipt, error) {
	var out ParsedReceipt
	head, cp, ok := strings.Cut(string(b), "\n\n")
	if !ok {
		return out, errors.New("receipt: no blank line before the checkpoint")
	}
	out.Checkpoint = []byte(cp)
	lines := strings.Split(head, "\n")
	if lines[0] != ProofHeader {
		return out, fmt.Errorf("receipt: the first line is not %q", ProofHeader)
	}
	lines = lines[1:]
	if len(lines) > 0 && strings.HasPrefix(lines[0], "extra ") {
		extra, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(lines[0], "extra "))
		if err != nil {
			return out, errors.New("receipt: the extra line is not base64")
		}
		out.Extra, lines = extra, lines[1:]
	}
	if len(lines) == 0 || !strings.HasPrefix(lines[0], "index ") {
		return out, errors.New("receipt: no index line")
	}
	idx := strings.TrimPrefix(lines[0], "index ")
	n, err := strconv.ParseInt(idx, 10, 64)
	if err != nil || n < 0 || idx != strconv.FormatInt(n, 10) {
		return out, errors.New("receipt: the index is not a number")
	}
	out.Index = n
	for _, l := range lines[1:] {
		raw, err := base64.StdEncoding.DecodeString(l)
		if err != nil || len(raw) != sha256.Size {
			return out, errors.New("receipt: a proof line is not a base64 hash")
		}
		out.Proof = append(out.Proof, tlog.Hash(raw))
	}
	return out, nil
}

// VerifyReceipt checks a receipt offline: the checkpoint's signature
// under origin with pub, its origin, and the entry (the extra line) at
// the index in its tree. It returns the event the receipt proves.
func VerifyReceipt(b []byte, origin string, pub ed25519.PublicKey) (LogEvent, error) {
	var e LogEvent
	r, err := ParseReceipt(b)
	if err != nil {
		return e, err
	}
	vkey, err := LogVerifierKey(origin, pub)
	if err != nil {
		return e, err
	}
	v, err := note.NewVerifier(vkey)
	if err != nil {
		return e, err
	}
	n, err := note.Open(r.Checkpoint, note.VerifierList(v))
	if err != nil {
		return e, fmt.Errorf("receipt: the checkpoint does not verify: %w", err)
	}
	first, rest, _ := strings.Cut(n.Text, "\n")
	if first != origin {
		return e, fmt.Errorf("receipt: the checkpoint's origin is %q, not %q", first, origin)
	}
	size, root, err := parseCheckpointBody(rest)
	if err != nil {
		return e, err
	}
	if r.Index >= size {
		return e, fmt.Errorf("receipt: index %d is beyond the tree's size %d", r.Index, size)
	}
	if err := tlog.CheckRecord(r.Proof, size, root, r.Index, tlog.RecordHash(r.Extra)); err != nil {
		return e, fmt.Errorf("receipt: the proof does not verify: %w", err)
	}
	if err := json.Unmarshal(r.Extra, &e); err != nil {
		return e, errors.New("receipt: the entry is not an event")
	}
	if e.Seq != r.Index+1 {
		return e, fmt.Errorf("receipt: the entry is event %d, not %d", e.Seq, r.Index+1)
	}
	if h, err := EventHash(e); err != nil || h != e.Hash {
		return e, fmt.Errorf("receipt: the event's hash does not verify")
	}
	return e, nil
}

// OpenCheckpoint verifies a signed checkpoint and returns its tree.
func OpenCheckpoint(msg []byte, origin string, pub ed25519.PublicKey) (tlog.Tree, error) {
	vkey, err := LogVerifierKey(origin, pub)
	if err != nil {
		return tlog.Tree{}, err
	}
	v, err := note.NewVerifier(vkey)
	if err != nil {
		return tlog.Tree{}, err
	}
	n, err := note.Open(msg, note.VerifierList(v))
	if err != nil {
		return tlog.Tree{}, fmt.Errorf("checkpoint: does not verify: %w", err)
	}
	first, rest, _ := strings.Cut(n.Text, "\n")
	if first != origin {
		return tlog.Tree{}, fmt.Errorf("checkpoint: origin %q, not %q", first, origin)
	}
	size, root, err := parseCheckpointBody(rest)
	return tlog.Tree{N: size, Hash: root}, err
}

// parseCheckpointBody reads "<size>\n<base64 root>\n[extension lines]".
func parseCheckpointBody(s string) (int64, tlog.Hash, error) {
	lines := strings.Split(s, "\n")
	if len(lines) < 3 || lines[len(lines)-1] != "" {
		return 0, tlog.Hash{}, errors.New("checkpoint: malformed")
	}
	size, err := strconv.ParseInt(lines[0], 10, 64)
	if err != nil || size < 0 || lines[0] != strconv.FormatInt(size, 10) {
		return 0, tlog.Hash{}, errors.New("checkpoint: malformed size")
	}
	root, err := base64.StdEncoding.DecodeString(lines[1])
	if err != nil || len(root) != sha256.Size {
		return 0, tlog.Hash{}, errors.New("checkpoint: malformed root")
	}
	return size, tlog.Hash(root), nil
}

// CodeMatchNotDecided: a receipt was asked of a match that no logged
// event decides (not decided, or decided before the log existed).
const CodeMatchNotDecided = "match_not_decided"

// LogTileCacheControl is a full tile's Cache-Control: it never changes.
const LogTileCacheControl = "public, max-age=31536000, immutable"
