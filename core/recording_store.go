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
	// MarkRecordingReady finalizes a pending recording with the true size
	// and the header's build and duration; false when it was not pending.
	MarkRecordingReady(ctx context.Context, id, size int64, gameBuild string, durationMs int64, at time.Time) (bool, error)
	// ShareRecording makes the recording visible by link with token,
	// unless it has a token already: it returns the token in force.
	ShareRecording(ctx context.Context, id int64, token string) (string, error)
	// RecordingsOf returns what the account uploaded plus the recordings
	// of matches it played (on either side's roster), newest first, at
	// most limit.
	RecordingsOf(ctx context.Context, platformID string, limit int) ([]Recording, error)

	// InitSegment stores s as a pending segment while its recording is
	// pending (else CodeRecordingEnded); a seq already stored is returned
	// as it is.
	InitSegment(ctx context.Context, s *Segment) (*Segment, error)
	// Segment returns one segment, or CodeSegmentNotFound.
	Segment(ctx context.Context, recordingID, seq int64) (*Segment, error)
	// MarkSegmentReady finalizes a pending segment; false when it was not
	// pending.
	MarkSegmentReady(ctx context.Context, recordingID, seq, size, baseTMs int64, at time.Time) (bool, error)
	// Segments returns the finalized segments with seq above after, in
	// order, at most limit.
	Segments(ctx context.Context, recordingID, after int64, limit int) ([]Segment, error)

	// AddTrace stores a trace unless its match already has one for the
	// slot; false then.
	AddTrace(ctx context.Context, t TraceRecord) (bool, error)
	// Traces returns a match's stored traces by slot.
	Traces(ctx context.Context, matchID int64) ([]TraceRecord, error)
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
