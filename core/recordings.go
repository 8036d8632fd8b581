package core

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
)

// MaxRecordingsListed bounds GET /me/recordings (newest first).
const MaxRecordingsListed = 500

// NewObjectKey returns a fresh object key for a recording of the arena:
// "<slug>/rec/<32 random hex>.gz". The random part makes keys
// unguessable and never reused, even across a reset arena database.
func NewObjectKey(slug string, random io.Reader) (string, error) {
	id, err := RandomHex(random, 16)
	if err != nil {
		return "", err
	}
	return slug + "/rec/" + id + ".gz", nil
}

// SegmentObjectKey is the key of a recording's segment seq, beside the
// recording's: "<slug>/rec/<random>-seg-<seq>.gz" (every key has the
// same three parts).
func SegmentObjectKey(recordingKey string, seq int64) string {
	return fmt.Sprintf("%s-seg-%d.gz", strings.TrimSuffix(recordingKey, ".gz"), seq)
}

// NewCheckedObjectKey returns a fresh key for the copy finalize checks of
// the upload at key: "<slug>/checked/<random>[-seg-<seq>]-<attempt>.gz".
// No upload URL names a key under checked/, and each finalize attempt
// copies to its own key, so a checked copy is written once, before it is
// checked, and never again.
func NewCheckedObjectKey(key string, random io.Reader) (string, error) {
	attempt, err := RandomHex(random, 8)
	if err != nil {
		return "", err
	}
	return strings.Replace(strings.TrimSuffix(key, ".gz"), "/rec/", "/checked/", 1) + "-" + attempt + ".gz", nil
}

// NewShareToken returns a link token: 128 random bits, base64url.
func NewShareToken(random io.Reader) (string, error) {
	return RandomToken(random, 16)
}

// InitMatchRecording announces the caller's recording of a game of a
// match, after the match was read (CodeMatchNotFound, also when the
// environment gate hides it): the draft's problems (CodeInvalidField),
// the caller plays in the match (CodeNotParticipant), the game went live
// (RecordedGame: the draft's game, else the last that went live; else
// CodeNotLive). Idempotent per match, uploader and game: the same
// recording (a pending one updated with the draft); a finalized one is
// CodeRecordingEnded. maxBytes is the arena's plan size.
func InitMatchRecording(ctx context.Context, rs RecordingStore, a *Arena, st *MatchState, caller Caller, d RecordingDraft, deps Deps) (*Recording, error) {
	if !EnvironmentVisible(a, caller.AppID, st.Tournament.Environment) {
		return nil, Errorf(CodeMatchNotFound, "no match %d for this build", st.ID)
	}
	if err := d.Check().Err(); err != nil {
		return nil, err
	}
	if st.SideOf(caller.PlatformID) == 0 {
		return nil, Errorf(CodeNotParticipant, "the caller plays on neither side")
	}
	game, err := RecordedGame(&st.Match, d.Game.N, d.SessionNonce)
	if err != nil {
		return nil, err
	}
	key, err := NewObjectKey(a.Slug, deps.Random)
	if err != nil {
		return nil, err
	}
	visibility := d.Visibility
	if visibility == "" {
		visibility = VisibilityArena
	}
	r, err := rs.InitMatchRecording(ctx, &Recording{
		MatchID: st.ID, Game: game.Game, Nonce: game.SessionNonce, UploaderID: caller.PlatformID,
		Scope: d.Scope, Visibility: visibility,
		GameBuild: d.GameBuild, DurationMs: int64(d.DurationMs.N), ObjectKey: key, State: RecordingPending,
		MaxBytes: EffectiveMaxBytes(a.Plan, false), CreatedAt: deps.Now,
	})
	if err != nil {
		return nil, err
	}
	if r.State == RecordingReady {
		return nil, Errorf(CodeRecordingEnded, "recording %d was finalized", r.ID)
	}
	r.MaxBytes = EffectiveMaxBytes(a.Plan, false)
	return r, nil
}

// InitCasualRecording announces a casual recording: scope forced public,
// visibility private, at most CasualRecordingBytes, and at most perDay of
// them per account in 24 hours (CodeCasualQuotaExceeded). The draft's
// scope and visibility are overridden, its other fields checked.
func InitCasualRecording(ctx context.Context, rs RecordingStore, a *Arena, caller Caller, d RecordingDraft, perDay int, deps Deps) (*Recording, error) {
	d.Scope, d.Visibility = ScopePublic, VisibilityPrivate
	switch {
	case d.Game.Set:
		return nil, FieldError(CodeInvalidField, "game")
	case d.SessionNonce != "":
		return nil, FieldError(CodeInvalidField, "sessionNonce")
	}
	if err := d.Check().Err(); err != nil {
		return nil, err
	}
	key, err := NewObjectKey(a.Slug, deps.Random)
	if err != nil {
		return nil, err
	}
	r := &Recording{
		UploaderID: caller.PlatformID, Scope: ScopePublic, Visibility: VisibilityPrivate,
		GameBuild: d.GameBuild, DurationMs: int64(d.DurationMs.N), ObjectKey: key, State: RecordingPending,
		MaxBytes: CasualRecordingBytes, CreatedAt: deps.Now,
	}
	if err := rs.CreateCasualRecording(ctx, r, perDay, deps.Now.Add(-24*time.Hour)); err != nil {
		return nil, err
	}
	return r, nil
}

// Finalize is what finalizing a recording or a segment needs: the stores
// and, for a match recording, its match (nil for a casual one).
type Finalize struct {
	Recordings RecordingStore
	Objects    ObjectStore
	Match      *MatchState
	// Derive, when set, receives the recording's events for the referee's
	// derived trace (match recordings only).
	Derive *TraceDeriver
	Random io.Reader // the checked copy's key
	Now    time.Time
}

// nonceOf is the session a file of r must name: r's game's; a row kept
// from before games names none and is read against the match's.
func (f *Finalize) nonceOf(r *Recording) string {
	switch {
	case f.Match == nil:
		return ""
	case r.Nonce != "":
		return r.Nonce
	}
	return f.Match.SessionNonce
}

// checkUpload checks the upload at key through a copy no upload URL
// names, so that what it checked can be served for good, whatever is
// PUT to the upload URL later (a presigned URL cannot be revoked). In
// order: the upload is missing (CodeUploadMissing) or over the ceiling
// (deleted, CodeRecordingTooLarge); the copy's removal is scheduled (a
// crash from here on leaves nothing the scheduled job does not remove);
// the copy is made and read through InspectReplay (the ceiling again,
// malformed: CodeInvalidRecording). It returns the copy, to be claimed
// by marking the recording or segment ready, and the header. On a
// failure the copy is removed at once.
func (f *Finalize) checkUpload(ctx context.Context, key string) (CheckedObject, ReplayHeader, error) {
	info, err := f.Objects.Stat(ctx, key)
	if err != nil {
		return CheckedObject{}, ReplayHeader{}, err
	}
	if err := f.refuseOversize(ctx, key, info); err != nil {
		return CheckedObject{}, ReplayHeader{}, err
	}
	checked, err := NewCheckedObjectKey(key, f.Random)
	if err != nil {
		return CheckedObject{}, ReplayHeader{}, err
	}
	if err := f.Recordings.ScheduleObjectRemoval(ctx, checked, f.Now.Add(CheckedCopyClaimWindow)); err != nil {
		return CheckedObject{}, ReplayHeader{}, err
	}
	c := CheckedObject{Key: checked, UploadRemovalDue: f.Now.Add(UploadURLTTL)}
	h, err := f.readCopy(ctx, key, &c)
	if err != nil {
		if derr := f.Objects.Delete(ctx, checked); derr != nil {
			return CheckedObject{}, ReplayHeader{}, errors.Join(err, derr)
		}
		return CheckedObject{}, ReplayHeader{}, err
	}
	return c, h, nil
}

// refuseOversize is CodeUploadMissing for no object and, over the
// ceiling, the upload deleted and CodeRecordingTooLarge.
func (f *Finalize) refuseOversize(ctx context.Context, key string, info ObjectInfo) error {
	if !info.Found {
		return Errorf(CodeUploadMissing, "nothing was uploaded")
	}
	if info.Size > MaxRecordingBytes {
		if err := f.Objects.Delete(ctx, key); err != nil {
			return err
		}
		return Errorf(CodeRecordingTooLarge, "%d bytes is over the %d byte ceiling", info.Size, MaxRecordingBytes)
	}
	return nil
}

// readCopy copies the upload at key to c.Key and inspects the copy,
// setting c.Size.
func (f *Finalize) readCopy(ctx context.Context, key string, c *CheckedObject) (ReplayHeader, error) {
	found, err := f.Objects.Copy(ctx, key, c.Key)
	if err != nil {
		return ReplayHeader{}, err
	}
	if !found {
		return ReplayHeader{}, Errorf(CodeUploadMissing, "nothing was uploaded")
	}
	info, err := f.Objects.Stat(ctx, c.Key)
	if err != nil {
		return ReplayHeader{}, err
	}
	if !info.Found { // a copy is only removed once its claim lapsed
		return ReplayHeader{}, fmt.Errorf("core: the checked copy %s is gone", c.Key)
	}
	if info.Size > MaxRecordingBytes { // the upload grew between the stat and the copy
		return ReplayHeader{}, f.refuseOversize(ctx, key, info)
	}
	body, err := f.Objects.Read(ctx, c.Key, 0, info.Size)
	if err != nil {
		return ReplayHeader{}, err
	}
	defer body.Close()
	var onEvent func([]byte)
	if f.Derive != nil {
		onEvent = f.Derive.Add
	}
	c.Size = info.Size
	return InspectReplay(storeReader{body}, info.Size, onEvent)
}

// FinalizeRecording reads the uploaded object of the caller's recording
// and marks it ready with its true size (spec 4.1): the uploader only
// (CheckUploader); an already finalized recording is returned as it is;
// then readObject's checks and the header's (CheckHeader). A derived
// trace is stored for the match when f.Derive is set and the recording
// held public events.
func FinalizeRecording(ctx context.Context, f *Finalize, r *Recording, caller string) (*Recording, error) {
	if err := CheckUploader(r, caller); err != nil {
		return nil, err
	}
	if r.State == RecordingReady {
		return r, nil
	}
	c, h, err := f.checkUpload(ctx, r.ObjectKey)
	if err != nil {
		return nil, err
	}
	if err := CheckHeader(r, f.nonceOf(r), h); err != nil {
		return nil, f.drop(ctx, c, err)
	}
	build, duration := r.GameBuild, r.DurationMs
	if h.GameBuild != "" {
		build = h.GameBuild
	}
	if h.DurationMs > 0 {
		duration = h.DurationMs
	}
	claimed, err := f.Recordings.MarkRecordingReady(ctx, r.ID, c, build, duration, f.Now)
	if err != nil {
		return nil, err
	}
	if !claimed { // a racing finalize won, or this one outlived its claim
		if err := f.drop(ctx, c, nil); err != nil {
			return nil, err
		}
		out, err := f.Recordings.Recording(ctx, r.ID)
		if err == nil && out.State != RecordingReady {
			err = fmt.Errorf("core: the finalize of recording %d outlived its claim", r.ID)
		}
		return out, err
	}
	if f.Derive != nil && f.Match != nil {
		nonce := f.nonceOf(r)
		if trace, ok := f.Derive.Trace(f.Match.ID, nonce, DerivedRuleset, ReplayFormat); ok {
			_, err := f.Recordings.AddTrace(ctx, TraceRecord{MatchID: f.Match.ID, Nonce: nonce, Slot: 0, Trace: trace, TraceHash: HashHex([]byte(trace)), ReceivedAt: f.Now})
			if err != nil {
				return nil, err
			}
		}
	}
	return f.Recordings.Recording(ctx, r.ID) // a racing finalize's result is as good
}

// DerivedRuleset labels the traces the service derives from recordings.
const DerivedRuleset = "derived-from-recording"

// InitSegment announces segment seq of the caller's recording
// (CheckSegmentInit, the draft's problems); idempotent per seq; a
// finalized segment is CodeRecordingEnded.
func InitSegment(ctx context.Context, rs RecordingStore, r *Recording, caller string, d SegmentDraft, now time.Time) (*Segment, error) {
	if err := CheckSegmentInit(r, caller); err != nil {
		return nil, err
	}
	if err := d.Check().Err(); err != nil {
		return nil, err
	}
	seq := int64(d.Seq.N)
	s, err := rs.InitSegment(ctx, &Segment{RecordingID: r.ID, Seq: seq, ObjectKey: SegmentObjectKey(r.ObjectKey, seq), State: RecordingPending, CreatedAt: now})
	if err != nil {
		return nil, err
	}
	if s.State == RecordingReady {
		return nil, &Error{Code: CodeRecordingEnded, Reason: "segment_finalized", Message: fmt.Sprintf("segment %d was finalized", seq)}
	}
	return s, nil
}

// FinalizeSegment validates a segment's object like a recording's plus
// its segmentSeq and baseTMs (CheckSegmentHeader), then marks it ready;
// the uploader only; a finalized segment is returned as it is.
func FinalizeSegment(ctx context.Context, f *Finalize, r *Recording, s *Segment, caller string) (*Segment, error) {
	if err := CheckUploader(r, caller); err != nil {
		return nil, err
	}
	if s.State == RecordingReady {
		return s, nil
	}
	c, h, err := f.checkUpload(ctx, s.ObjectKey)
	if err != nil {
		return nil, err
	}
	if err := CheckSegmentHeader(r, s, f.nonceOf(r), h); err != nil {
		return nil, f.drop(ctx, c, err)
	}
	claimed, err := f.Recordings.MarkSegmentReady(ctx, r.ID, s.Seq, c, *h.BaseTMs, f.Now)
	if err != nil {
		return nil, err
	}
	if !claimed {
		if err := f.drop(ctx, c, nil); err != nil {
			return nil, err
		}
	}
	return f.Recordings.Segment(ctx, r.ID, s.Seq)
}

// drop removes a checked copy that will not be served and returns why
// (cause, joined with a failed removal's error; its scheduled removal
// stays as the fallback).
func (f *Finalize) drop(ctx context.Context, c CheckedObject, cause error) error {
	if err := f.Objects.Delete(ctx, c.Key); err != nil {
		return errors.Join(cause, err)
	}
	return cause
}

// RemoveDueObjects removes the objects whose scheduled removal is due at
// now (copies no finalize claimed, uploads of finalized recordings and
// segments whose URLs expired), at most MaxObjectRemovalsPerRun, and
// returns how many. The scheduled job runs it for every arena; an object
// removed twice (a run cut off between the removal and its record) is
// no error.
func RemoveDueObjects(ctx context.Context, rs RecordingStore, objects ObjectStore, now time.Time) (int, error) {
	keys, err := rs.DueObjectRemovals(ctx, now, MaxObjectRemovalsPerRun)
	if err != nil || len(keys) == 0 {
		return 0, err
	}
	for _, key := range keys {
		if err := objects.Delete(ctx, key); err != nil {
			return 0, err
		}
	}
	if err := rs.ForgetObjectRemovals(ctx, keys, now); err != nil {
		return 0, err
	}
	return len(keys), nil
}

// CheckUpload refuses a PUT to the service's upload route once the
// recording or segment whose upload key it names was finalized
// (CodeRecordingFinalized).
func CheckUpload(ctx context.Context, rs RecordingStore, key string) error {
	done, err := rs.UploadFinalized(ctx, key)
	if err != nil {
		return err
	}
	if done {
		return Errorf(CodeRecordingFinalized, "what was uploaded here was finalized")
	}
	return nil
}

// TraceOutcome is the answer to a trace submission.
type TraceOutcome struct {
	Status   string `json:"status"`
	Training string `json:"training"`
}

// SubmitTrace takes a side's gameplay trace of a game, after the match
// was read (CodeMatchNotFound), in order: the caller plays in the match
// (CodeNotParticipant); the referee runs and both consented
// (CodeRefereeInactive); a game went live (CodeNotLive); CheckTrace
// (the trace names a game of the match that went live); the side
// already sent the same trace of the game (duplicate) or another one
// (CodeAlreadySubmitted). Then the two sides' traces of the game are
// compared.
func SubmitTrace(ctx context.Context, rs RecordingStore, a *Arena, st *MatchState, caller Caller, env *TraceEnvelope, now time.Time) (TraceOutcome, error) {
	side := st.SideOf(caller.PlatformID)
	switch {
	case side == 0:
		return TraceOutcome{}, Errorf(CodeNotParticipant, "the caller plays on neither side")
	case !RefereeActive(a, st):
		return TraceOutcome{}, Errorf(CodeRefereeInactive, "the referee is off or consent is incomplete")
	case len(st.PlayedGames()) == 0:
		return TraceOutcome{}, Errorf(CodeNotLive, "match %d never went live", st.ID)
	}
	game, err := CheckTrace(st, side, env)
	if err != nil {
		return TraceOutcome{}, err
	}
	stored, err := rs.AddTrace(ctx, TraceRecord{MatchID: st.ID, Nonce: game.SessionNonce, Slot: side, SubmitterID: caller.PlatformID, Trace: env.Trace, TraceHash: env.TraceHash, ReceivedAt: now})
	if err != nil {
		return TraceOutcome{}, err
	}
	traces, err := rs.Traces(ctx, st.ID, game.SessionNonce)
	if err != nil {
		return TraceOutcome{}, err
	}
	var hashes [3]string
	for _, t := range traces {
		hashes[t.Slot] = t.TraceHash
	}
	if !stored {
		if hashes[side] != env.TraceHash {
			return TraceOutcome{}, Errorf(CodeAlreadySubmitted, "side %d already sent another trace", side)
		}
		out := TraceOutcome{Status: TraceDuplicate, Training: TrainingOf(compareTraces(hashes))}
		return out, nil
	}
	status := compareTraces(hashes)
	return TraceOutcome{Status: status, Training: TrainingOf(status)}, nil
}

// compareTraces is the verdict on the two sides' traces: pending until
// both are in, then agreed or disagreed.
func compareTraces(hashes [3]string) string {
	switch {
	case hashes[1] == "" || hashes[2] == "":
		return TracePending
	case hashes[1] == hashes[2]:
		return TraceAgreed
	}
	return TraceDisagreed
}

// RandomToken returns n random bytes as unpadded base64url.
func RandomToken(random io.Reader, n int) (string, error) {
	b := make([]byte, n)
	if _, err := io.ReadFull(random, b); err != nil {
		return "", fmt.Errorf("core: unable to read randomness: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}
