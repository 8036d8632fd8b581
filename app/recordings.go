package app

import (
	"context"

	"arena/core"
)

// The recordings (spec 4.1, DESIGN.md): announcing, finalizing, listing,
// sharing and fetching them, their live segments, the referee's traces,
// and the uploads to the service's own object route. The rules are
// core's (recording.go, recordings.go, segment.go, trace.go); the object
// store and the signed URLs are the service's.

// InitMatchRecording announces the caller's recording of the match st
// (core.InitMatchRecording): the match's participants only, idempotent
// per match and uploader.
func (s *Session) InitMatchRecording(ctx context.Context, st *core.MatchState, caller core.Caller, d core.RecordingDraft) (*core.Recording, error) {
	return core.InitMatchRecording(ctx, s.store, s.Arena, st, caller, d, s.Deps)
}

// InitCasualRecording announces a casual recording by the caller
// (core.InitCasualRecording), within the arena's casual allowance per
// account and day (its setting, else the default).
func (s *Session) InitCasualRecording(ctx context.Context, caller core.Caller, d core.RecordingDraft) (*core.Recording, error) {
	perDay := core.DefaultCasualRecordingsPerDay
	if _, err := s.store.Setting(ctx, core.SettingCasualRecordingsPerDay, &perDay); err != nil {
		return nil, err
	}
	return core.InitCasualRecording(ctx, s.store, s.Arena, caller, d, perDay, s.Deps)
}

// Recording is the recording with the id, or core.CodeRecordingNotFound.
func (s *Session) Recording(ctx context.Context, id int64) (*core.Recording, error) {
	return s.store.Recording(ctx, id)
}

// finalize is what finalizing rec needs, its objects in objects: for a
// match recording its match, and a trace deriver when the referee runs
// and both players consented.
func (s *Session) finalize(ctx context.Context, rec *core.Recording, objects core.ObjectStore) (*core.Finalize, error) {
	f := &core.Finalize{Recordings: s.store, Objects: objects, Random: s.Deps.Random, Now: s.Deps.Now}
	if rec.Casual() {
		return f, nil
	}
	var err error
	if f.Match, err = s.store.MatchState(ctx, rec.MatchID); err != nil {
		return nil, err
	}
	if core.RefereeActive(s.Arena, f.Match) {
		f.Derive = &core.TraceDeriver{}
	}
	return f, nil
}

// FinalizeRecording reads the caller's uploaded recording from objects
// and marks it ready with its true size (core.FinalizeRecording); for a
// match recording the referee derives its trace when it runs and both
// players consented.
func (s *Session) FinalizeRecording(ctx context.Context, rec *core.Recording, caller string, objects core.ObjectStore) (*core.Recording, error) {
	f, err := s.finalize(ctx, rec, objects)
	if err != nil {
		return nil, err
	}
	return core.FinalizeRecording(ctx, f, rec, caller)
}

// Segment is segment seq of the recording with the id, or
// core.CodeSegmentNotFound.
func (s *Session) Segment(ctx context.Context, recordingID, seq int64) (*core.Segment, error) {
	return s.store.Segment(ctx, recordingID, seq)
}

// InitSegment announces segment d of the caller's recording rec
// (core.InitSegment): the uploader only, idempotent per seq.
func (s *Session) InitSegment(ctx context.Context, rec *core.Recording, caller string, d core.SegmentDraft) (*core.Segment, error) {
	return core.InitSegment(ctx, s.store, rec, caller, d, s.Deps.Now)
}

// FinalizeSegment validates the caller's uploaded segment seg of rec
// from objects like a whole recording, plus its seq and base time
// (core.FinalizeSegment). The referee's trace comes from the whole
// recording, not from its segments.
func (s *Session) FinalizeSegment(ctx context.Context, rec *core.Recording, seg *core.Segment, caller string, objects core.ObjectStore) (*core.Segment, error) {
	f, err := s.finalize(ctx, rec, objects)
	if err != nil {
		return nil, err
	}
	f.Derive = nil
	return core.FinalizeSegment(ctx, f, rec, seg, caller)
}

// RecordingsListedTo are the player's recordings as GET /me/recordings
// lists them (core.ListedTo): what they uploaded, plus the recordings of
// matches they played that every arena member may see.
func (s *Session) RecordingsListedTo(ctx context.Context, platformID string) ([]core.Recording, error) {
	list, err := s.store.RecordingsOf(ctx, platformID, core.MaxRecordingsListed)
	if err != nil {
		return nil, err
	}
	out := make([]core.Recording, 0, len(list))
	for i := range list {
		if core.ListedTo(&list[i], platformID) {
			out = append(out, list[i])
		}
	}
	return out, nil
}

// releasePolicy reads what the delay gate needs for a match recording
// (nil for a casual one).
func (s *Session) releasePolicy(ctx context.Context, rec *core.Recording) (*core.ReleasePolicy, error) {
	if rec.Casual() {
		return nil, nil
	}
	st, err := s.store.MatchState(ctx, rec.MatchID)
	if err != nil {
		return nil, err
	}
	return &core.ReleasePolicy{Cast: st.Tournament.Cast, EndedAt: st.EndedAt}, nil
}

// RecordingToFetch is the recording with the id when the viewer may
// fetch it now: its visibility, the plan's size and the delay gate allow
// (core.CheckFetch).
func (s *Session) RecordingToFetch(ctx context.Context, id int64, v core.Viewer) (*core.Recording, error) {
	rec, err := s.store.Recording(ctx, id)
	if err != nil {
		return nil, err
	}
	policy, err := s.releasePolicy(ctx, rec)
	if err != nil {
		return nil, err
	}
	if err := core.CheckFetch(rec, v, s.Arena.Plan, policy, s.Deps.Now); err != nil {
		return nil, err
	}
	return rec, nil
}

// ReleasedSegments are the segments after seq after of the recording
// with the id that the viewer may see and that are released now
// (core.CheckSegmentList, core.SegmentReleased), with the recording.
func (s *Session) ReleasedSegments(ctx context.Context, id int64, v core.Viewer, after int64) (*core.Recording, []core.Segment, error) {
	rec, err := s.store.Recording(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	if err := core.CheckSegmentList(rec, v); err != nil {
		return nil, nil, err
	}
	policy, err := s.releasePolicy(ctx, rec)
	if err != nil {
		return nil, nil, err
	}
	var cast *core.CastPolicy
	if policy != nil {
		cast = &policy.Cast
	}
	segs, err := s.store.Segments(ctx, rec.ID, after, core.MaxSegmentsListed)
	if err != nil {
		return nil, nil, err
	}
	out := make([]core.Segment, 0, len(segs))
	for i := range segs {
		if core.SegmentReleased(rec, &segs[i], s.Arena.Plan, cast, s.Deps.Now) {
			out = append(out, segs[i])
		}
	}
	return rec, out, nil
}

// ShareRecording makes the caller's recording with the id shareable by
// link (the uploader only: core.CheckUploader) and answers its token: 128
// random bits, the same one on every later call.
func (s *Session) ShareRecording(ctx context.Context, id int64, caller string) (string, error) {
	rec, err := s.store.Recording(ctx, id)
	if err != nil {
		return "", err
	}
	if err := core.CheckUploader(rec, caller); err != nil {
		return "", err
	}
	token, err := core.NewShareToken(s.Deps.Random)
	if err != nil {
		return "", err
	}
	return s.store.ShareRecording(ctx, rec.ID, token)
}

// SubmitTrace takes the caller's side's svc.gameplay.v1 trace of the
// match st (core.SubmitTrace) and answers how it compares with the other
// side's; the match's outcome never depends on it.
func (s *Session) SubmitTrace(ctx context.Context, st *core.MatchState, caller core.Caller, env *core.TraceEnvelope) (core.TraceOutcome, error) {
	return core.SubmitTrace(ctx, s.store, s.Arena, st, caller, env, s.Deps.Now)
}

// CheckUpload refuses an upload to the object key once its recording or
// segment was finalized (core.CheckUpload).
func (s *Session) CheckUpload(ctx context.Context, key string) error {
	return core.CheckUpload(ctx, s.store, key)
}
