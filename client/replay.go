package client

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
)

// ReplayFormat is the format tag of recordings and segments.
const ReplayFormat = "game.replay.v1"

// Recording scopes: public holds the public-outcome events; full also
// the recorder's own delayed hand and pointer stream, released by the
// arena only under the tournament's cast policy.
const (
	ScopePublic = "public"
	ScopeFull   = "full"
)

// ReplayHeader is line 1 of a game.replay.v1 file. A casual recording has
// MatchID 0 and no SessionNonce; only a segment has SegmentSeq and BaseTMs.
type ReplayHeader struct {
	MatchID      int64
	SessionNonce string
	Scope        string
	GameBuild    string
	DurationMs   int64
	SegmentSeq   *int64
	BaseTMs      *int64
}

// MatchHeader is the header of a recording of the live match m.
func MatchHeader(m *LiveMatch, scope, gameBuild string, durationMs int64) ReplayHeader {
	return ReplayHeader{MatchID: m.MatchID, SessionNonce: m.SessionNonce, Scope: scope, GameBuild: gameBuild, DurationMs: durationMs}
}

// Segment returns h as the header of segment seq starting at baseTMs.
func (h ReplayHeader) Segment(seq, baseTMs int64) ReplayHeader {
	h.SegmentSeq, h.BaseTMs = &seq, &baseTMs
	return h
}

func (h ReplayHeader) object() map[string]any {
	o := map[string]any{"format": ReplayFormat, "scope": h.Scope, "gameBuild": h.GameBuild, "durationMs": h.DurationMs}
	if h.MatchID != 0 {
		o["matchId"], o["sessionNonce"] = h.MatchID, h.SessionNonce
	}
	if h.SegmentSeq != nil {
		o["segmentSeq"] = *h.SegmentSeq
	}
	if h.BaseTMs != nil {
		o["baseTMs"] = *h.BaseTMs
	}
	return o
}

// ReplayWriter builds a game.replay.v1 file: the game appends events as
// they happen, the writer compresses them at once (memory holds the
// compressed bytes, not the events), and Finish puts the header line in
// front once the duration is known. The file is two gzip members, header
// then events: one gzip stream to every reader (RFC 1952 concatenation).
type ReplayWriter struct {
	events bytes.Buffer
	zw     *gzip.Writer
	count  int
	err    error
}

// NewReplayWriter returns an empty writer.
func NewReplayWriter() *ReplayWriter {
	w := &ReplayWriter{}
	w.zw = gzip.NewWriter(&w.events)
	return w
}

// Append adds one event line: { "tMs": tMs, "type": typ, ...fields }.
// Fields must not set tMs or type; public events use the types of the
// trace vocabulary (match_started, round_started, ..., match_ended), the
// recorder's own hidden information other types (hand, pointer).
func (w *ReplayWriter) Append(tMs int64, typ string, fields map[string]any) error {
	if w.err != nil {
		return w.err
	}
	if w.zw == nil {
		return errors.New("client: replay: append after Finish")
	}
	if typ == "" || tMs < 0 {
		return errors.New("client: replay: an event needs a type and tMs >= 0")
	}
	ev := make(map[string]any, len(fields)+2)
	maps.Copy(ev, fields)
	ev["tMs"], ev["type"] = tMs, typ
	line, err := Canonicalize(ev)
	if err != nil {
		return err
	}
	if _, err := w.zw.Write(append(line, '\n')); err != nil {
		w.err = err
		return err
	}
	w.count++
	return nil
}

// Events returns how many events were appended.
func (w *ReplayWriter) Events() int { return w.count }

// Finish returns the whole file for header h. The writer takes no more
// events afterwards.
func (w *ReplayWriter) Finish(h ReplayHeader) ([]byte, error) {
	if w.err != nil {
		return nil, w.err
	}
	if w.zw != nil {
		if err := w.zw.Close(); err != nil {
			return nil, err
		}
		w.zw = nil
	}
	line, err := Canonicalize(h.object())
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	zh := gzip.NewWriter(&out)
	if _, err := zh.Write(append(line, '\n')); err != nil {
		return nil, err
	}
	if err := zh.Close(); err != nil {
		return nil, err
	}
	if w.count > 0 {
		out.Write(w.events.Bytes())
	}
	return out.Bytes(), nil
}

// maxHeaderLine bounds the header line ReadReplayHeader reads.
const maxHeaderLine = 64 << 10

// ReadReplayHeader reads the header line of a game.replay.v1 file (what
// SubmitRecording sends at init: scope, build, duration, and the match).
func ReadReplayHeader(file []byte) (ReplayHeader, error) {
	zr, err := gzip.NewReader(bytes.NewReader(file))
	if err != nil {
		return ReplayHeader{}, fmt.Errorf("client: replay: not gzip: %w", err)
	}
	line, err := bufio.NewReaderSize(io.LimitReader(zr, maxHeaderLine), maxHeaderLine).ReadSlice('\n')
	if err != nil && err != io.EOF {
		return ReplayHeader{}, fmt.Errorf("client: replay: no header line: %w", err)
	}
	var raw struct {
		Format       string `json:"format"`
		MatchID      int64  `json:"matchId"`
		SessionNonce string `json:"sessionNonce"`
		Scope        string `json:"scope"`
		GameBuild    string `json:"gameBuild"`
		DurationMs   int64  `json:"durationMs"`
		SegmentSeq   *int64 `json:"segmentSeq"`
		BaseTMs      *int64 `json:"baseTMs"`
	}
	if err := json.Unmarshal(line, &raw); err != nil || raw.Format != ReplayFormat {
		return ReplayHeader{}, fmt.Errorf("client: replay: the header is not a %s object", ReplayFormat)
	}
	return ReplayHeader{MatchID: raw.MatchID, SessionNonce: raw.SessionNonce, Scope: raw.Scope, GameBuild: raw.GameBuild,
		DurationMs: raw.DurationMs, SegmentSeq: raw.SegmentSeq, BaseTMs: raw.BaseTMs}, nil
}
