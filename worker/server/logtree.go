package server

import (
	"errors"
	"net/http"
	"strings"

	"arena/core"
)

// The event log as a transparency log (docs/events.md, "The log as a
// transparency log"): its checkpoint, tiles and the receipts of decided
// matches. Database round trips (TestLogReceipts counts them): the
// checkpoint 4 (the log key's setting; seal: last sealed, unsealed; the
// tree's edge hashes); a tile 3 (seal; the tile's hashes or entries); a
// receipt 9 (the match, its tournament, its deciding event, the key,
// seal, the event, the edge, the proof's hashes). A seal that finds
// events to seal adds 2 (the tree's edge, the batch).

// logTextType is the checkpoint's and the receipt's content type.
const logTextType = "text/plain; charset=utf-8"

// logOrigin is the arena's log origin (core.LogOrigin).
func logOrigin(t *Tenant) string { return core.LogOrigin(t.Arena.Hosts[0]) }

// handleCheckpoint answers the log's signed checkpoint.
func (s *Server) handleCheckpoint(r *http.Request, t *Tenant, _ bool) (any, error) {
	cp, err := t.Checkpoint(r.Context())
	if err != nil {
		return nil, err
	}
	return rawBody(cp.Note), nil
}

// handleTile answers a hash tile or an entry bundle (C2SP tlog-tiles);
// a malformed path or a tile the tree does not hold is not_found.
func (s *Server) handleTile(r *http.Request, t *Tenant, _ bool) (any, error) {
	level, n, width, ok := core.ParseTilePath(r.PathValue("path"))
	if !ok {
		return nil, core.Errorf(core.CodeNotFound, "no such tile")
	}
	body, err := t.Tile(r.Context(), level, n, width)
	if errors.Is(err, core.ErrNotInTree) {
		return nil, core.Errorf(core.CodeNotFound, "the tree does not hold this tile yet")
	}
	if err != nil {
		return nil, err
	}
	return rawBody(body), nil
}

// tileCacheControl: a full tile never changes; a partial one is cached
// like the checkpoint.
func tileCacheControl(r *http.Request) string {
	if strings.Contains(r.PathValue("path"), ".p/") {
		return publicCacheControl
	}
	return core.LogTileCacheControl
}

// handleReceipt answers a decided match's receipt: a C2SP tlog-proof of
// its deciding event.
func (s *Server) handleReceipt(r *http.Request, t *Tenant, _ bool) (any, error) {
	id, err := core.ParseMatchID(r.PathValue("id"))
	if err != nil {
		return nil, err
	}
	rc, err := t.Receipt(r.Context(), id)
	if err != nil {
		return nil, err
	}
	return rawBody(rc.Format()), nil
}
