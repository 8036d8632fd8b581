package core

import (
	"context"
	"time"
)

// RecordingStore keeps recordings, their segments and the gameplay
// traces. Every state change is one conditional statement.
type RecordingStore interface {
	// InitMatchRecording stores r as the uploader's pending recording of
	// its match, or, when the uploader has one already, gives a pending
	// one r's scope, build, duration and visibility and returns it (its id
	// and object key kept). A finalized one is returned unchanged.
	InitMatchRecording(ctx context.Context, r *Recording) (*Recording, error)
	// CreateCasualRecording stores r (a new casual recording) and sets its
	// ID, unless the uploader created perDay casual recordings after since:
	// CodeCasualQuotaExceeded.
	CreateCasualRecording(ctx context.Context, r *Recording, perDay int, since time.Time) error
	// Recording returns the recording, or CodeRecordingNotFound.
	Recording(ctx context.Context, id int64) (*Recording, error)
	// MarkRecordingReady finalizes a pending recording, in one batch: the
	// checked copy c (its key served from now on, its size the true size)
	// is claimed, its scheduled removal cancelled, and the removal of the
	// upload object scheduled for c.UploadRemovalDue (unless c is the
	// upload itself); the header's build and duration are kept. False,
	// changing nothing, when the recording was not pending or c's removal
	// was no longer scheduled after at.
	MarkRecordingReady(ctx context.Context, id int64, c CheckedObject, gameBuild string, durationMs int64, at time.Time) (bool, error)

	// InitSegment stores s as a pending segment while its recording is
	// pending (else CodeRecordingEnded); a seq already stored is returned
	// as it is.
	InitSegment(ctx context.Context, s *Segment) (*Segment, error)
	// Segment returns one segment, or CodeSegmentNotFound.
	Segment(ctx context.Context, recordingID, seq int64) (*Segment, error)
	// MarkSegmentReady finalizes a pending segment with its checked copy
	// c, as MarkRecordingReady does a recording.
	MarkSegmentReady(ctx context.Context, recordingID, seq int64, c CheckedObject, baseTMs int64, at time.Time) (bool, error)

	// UploadFinalized reports whether the recording or segment whose
	// upload object is key was finalized.
	UploadFinalized(ctx context.Context, key string) (bool, error)
	// ScheduleObjectRemoval records that the object at key is to be
	// removed once due (unless claimed first).
	ScheduleObjectRemoval(ctx context.Context, key string, due time.Time) error
	// DueObjectRemovals returns at most limit keys whose removal is due
	// at now.
	DueObjectRemovals(ctx context.Context, now time.Time, limit int) ([]string, error)
	// ForgetObjectRemovals drops the records of removals due at now of
	// keys (done).
	ForgetObjectRemovals(ctx context.Context, keys []string, now time.Time) error

	// AddTrace stores a trace unless its match already has one for the
	// game (its nonce) and slot; false then.
	AddTrace(ctx context.Context, t TraceRecord) (bool, error)
	// Traces returns a game's stored traces by slot.
	Traces(ctx context.Context, matchID int64, nonce string) ([]TraceRecord, error)
}

// CheckedObject is the copy a finalize checked: the key served once it
// is claimed, its size, and when the upload it was copied from may be
// removed (once every upload URL naming it expired).
type CheckedObject struct {
	Key              string
	Size             int64
	UploadRemovalDue time.Time
}

// SettingCasualRecordingsPerDay is the arena setting holding how many
// casual recordings one account may start in 24 hours.
const SettingCasualRecordingsPerDay = "casual_recordings_per_day"

// DefaultCasualRecordingsPerDay is that allowance when the arena sets
// none: enough for a keen player's evening, not a storage dump.
const DefaultCasualRecordingsPerDay = 20

// CasualRecordingsPerDayRange bounds the setting; 0 turns casual uploads
// off.
var CasualRecordingsPerDayRange = Range{Min: 0, Max: 10000}
