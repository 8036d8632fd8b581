package core

import "time"

// Segment feed states (spec 3): live until the parent recording is
// finalized, then ended.
const (
	SegmentFeedLive  = "live"
	SegmentFeedEnded = "ended"
)

// Segment errors.
const (
	CodeSegmentNotFound = "segment_not_found" // 404
)

// SegmentSeqRange bounds a segment's number.
var SegmentSeqRange = Range{Min: 0, Max: 100000}

// MaxSegmentsListed bounds one page of the segment list: a client reads
// on with after set to the last seq it got.
const MaxSegmentsListed = 200

// Segment is one near-live fragment of a recording.
type Segment struct {
	RecordingID int64
	Seq         int64
	ObjectKey   string // the upload's, as a recording's
	ServedKey   string // the copy finalize checked; "" while pending
	State       string // pending or ready, like a recording
	ByteSize    int64
	BaseTMs     int64
	CreatedAt   time.Time
	ReadyAt     *time.Time // its upload, as finalize saw it
}

// SegmentDraft is the body of a segment init.
type SegmentDraft struct {
	Seq Number `json:"seq"`
}

// Check requires seq within SegmentSeqRange.
func (d *SegmentDraft) Check() Problems {
	var p Problems
	SegmentSeqRange.check(&p, "seq", d.Seq, true)
	return p
}

// FeedState is the segment feed's state for its recording.
func FeedState(r *Recording) string {
	if r.State == RecordingReady {
		return SegmentFeedEnded
	}
	return SegmentFeedLive
}

// CheckSegmentInit refuses a segment init by anyone but the uploader and
// after the recording was finalized (CodeRecordingEnded, spec 3).
func CheckSegmentInit(r *Recording, caller string) error {
	if err := CheckUploader(r, caller); err != nil {
		return err
	}
	if r.State == RecordingReady {
		return Errorf(CodeRecordingEnded, "recording %d was finalized", r.ID)
	}
	return nil
}

// CheckSegmentList applies the recording's visibility to its segment
// feed (CodeRecordingNotFound when the caller may not see it).
func CheckSegmentList(r *Recording, v Viewer) error {
	if !r.visibleTo(v) {
		return Errorf(CodeRecordingNotFound, "no recording %d", r.ID)
	}
	return nil
}

// SegmentReleased reports whether a segment is listed now: it is
// finalized; not over the plan's size past the event window; and, for a
// full-scope recording, released under the cast policy castDelaySeconds
// after its own upload (at once for shown, never for hidden), for
// everyone the uploader included, as CheckFetch gates a whole recording.
// cast is nil for a casual recording.
func SegmentReleased(r *Recording, s *Segment, plan Plan, cast *CastPolicy, now time.Time) bool {
	if s.State != RecordingReady || s.ReadyAt == nil {
		return false
	}
	if overPlanExpired(s.ByteSize, EffectiveMaxBytes(plan, r.Casual()), s.ReadyAt, now) {
		return false
	}
	if r.Scope != ScopeFull || cast == nil {
		return true
	}
	at, ok := releasedAfter(*cast, *s.ReadyAt)
	return ok && !now.Before(at)
}

// CheckSegmentHeader compares a segment's header with its recording (as
// CheckHeader does) and its number: segmentSeq is the segment's seq
// (CodeHeaderMismatch) and baseTMs is present (CodeInvalidRecording).
func CheckSegmentHeader(r *Recording, s *Segment, matchNonce string, h ReplayHeader) error {
	if h.SegmentSeq == nil || h.BaseTMs == nil {
		return invalidRecording(ReasonBadHeader, "a segment's header carries segmentSeq and baseTMs")
	}
	if err := CheckHeader(r, matchNonce, h); err != nil {
		return err
	}
	if *h.SegmentSeq != s.Seq {
		return Errorf(CodeHeaderMismatch, "segmentSeq %d is not %d", *h.SegmentSeq, s.Seq)
	}
	return nil
}
