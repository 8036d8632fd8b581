package server

import (
	"math"
	"net/http"
	"strconv"

	"arena/core"
)

// segmentInitAnswer is the upload target of one segment.
type segmentInitAnswer struct {
	RecordingID int64        `json:"recordingId"`
	Seq         int64        `json:"seq"`
	Upload      uploadTarget `json:"upload"`
	MaxBytes    int64        `json:"maxBytes"`
}

// handleInitSegment announces segment {seq} of the caller's recording
// (spec 4.1): the uploader only, idempotent per seq, 409 recording_ended
// once the recording was finalized.
func (s *Server) handleInitSegment(w http.ResponseWriter, r *http.Request, t *Tenant, caller core.Caller) {
	rec, err := recordingFromPath(r, t)
	if err != nil {
		writeError(w, r, err)
		return
	}
	var d core.SegmentDraft
	if err := decodeJSON(w, r, &d); err != nil {
		writeError(w, r, err)
		return
	}
	seg, err := t.InitSegment(r.Context(), rec, caller.PlatformID, d)
	if err != nil {
		writeError(w, r, err)
		return
	}
	upload, err := s.uploadURL(r.Context(), r, seg.ObjectKey)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, segmentInitAnswer{RecordingID: rec.ID, Seq: seg.Seq, Upload: upload, MaxBytes: rec.MaxBytes})
}

// segmentView is a finalized segment as its uploader sees it.
type segmentView struct {
	Seq      int64  `json:"seq"`
	State    string `json:"state"`
	ByteSize int64  `json:"byteSize"`
	BaseTMs  int64  `json:"baseTMs"`
}

// handleFinalizeSegment validates the uploaded fragment like a whole
// recording, plus its segmentSeq and baseTMs.
func (s *Server) handleFinalizeSegment(w http.ResponseWriter, r *http.Request, t *Tenant, caller core.Caller) {
	rec, err := recordingFromPath(r, t)
	if err != nil {
		writeError(w, r, err)
		return
	}
	seq, err := strconv.ParseInt(r.PathValue("seq"), 10, 64)
	if err != nil || seq < 0 {
		writeError(w, r, core.Errorf(core.CodeSegmentNotFound, "segment %q", r.PathValue("seq")))
		return
	}
	if err := core.CheckUploader(rec, caller.PlatformID); err != nil {
		writeError(w, r, err)
		return
	}
	seg, err := t.Segment(r.Context(), rec.ID, seq)
	if err != nil {
		writeError(w, r, err)
		return
	}
	objects, err := s.objectStore()
	if err != nil {
		writeError(w, r, err)
		return
	}
	out, err := t.FinalizeSegment(r.Context(), rec, seg, caller.PlatformID, objects)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, segmentView{Seq: out.Seq, State: out.State, ByteSize: out.ByteSize, BaseTMs: out.BaseTMs})
}

// segmentLink is one released segment of the feed.
type segmentLink struct {
	Seq int64  `json:"seq"`
	URL string `json:"url"`
}

// handleSegments lists the released segments after ?after=k (default:
// all) with signed GET URLs, and whether the feed is still live. The
// recording's visibility applies as to a fetch; unreleased segments are
// left out.
func (s *Server) handleSegments(w http.ResponseWriter, r *http.Request, t *Tenant) {
	v, err := s.viewer(r, t)
	if err != nil {
		writeError(w, r, err)
		return
	}
	after, err := queryInt(r.URL.Query().Get("after"), -1, math.MinInt64, math.MaxInt64, "after")
	if err != nil {
		writeError(w, r, err)
		return
	}
	id, err := recordingID(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	rec, segs, err := t.ReleasedSegments(r.Context(), id, v, after)
	if err != nil {
		writeError(w, r, err)
		return
	}
	out := make([]segmentLink, 0, len(segs))
	for i := range segs {
		u, err := s.fetchURL(r.Context(), r, segs[i].ServedKey)
		if err != nil {
			writeError(w, r, err)
			return
		}
		out = append(out, segmentLink{Seq: segs[i].Seq, URL: u})
	}
	writeJSON(w, http.StatusOK, map[string]any{"state": core.FeedState(rec), "segments": out})
}
