package core

import (
	"crypto/subtle"
	"time"
)

// Recording scopes (spec 2.5): public holds the public-outcome events,
// full also both players' delayed hands, released only under the
// tournament's cast policy.
const (
	ScopePublic = "public"
	ScopeFull   = "full"
)

// ValidScope reports whether s is public or full.
func ValidScope(s string) bool { return s == ScopePublic || s == ScopeFull }

// Recording visibilities (spec 2.5). The uploader always sees their own.
const (
	VisibilityPrivate = "private" // the uploader only
	VisibilityArena   = "arena"   // any signed-in arena member (a ticket or a web session)
	VisibilityLink    = "link"    // whoever holds the share token
)

// Recording states: pending until finalize reads the object, then ready.
const (
	RecordingPending = "pending"
	RecordingReady   = "ready"
)

// Sizes (spec 8). MB means 2^20 bytes.
const (
	MB = 1 << 20
	// MaxRecordingBytes is the global ceiling of every upload: finalize
	// answers 413 and deletes the object above it.
	MaxRecordingBytes = 16 * MB
	// CasualRecordingBytes caps casual recordings whatever the plan.
	CasualRecordingBytes = 2 * MB
	// OverPlanWindow is how long an object over its plan's size (but under
	// the ceiling) is served after its upload was finalized: the event
	// window. Afterwards fetch answers 402 until the plan covers it.
	OverPlanWindow = 24 * time.Hour
	// MaxGameBuildBytes bounds gameBuild.
	MaxGameBuildBytes = 64
)

// DurationMsRange bounds a recording's stated duration: up to a day.
var DurationMsRange = Range{Min: 0, Max: 24 * 60 * 60 * 1000}

// RecordingBytes is the plan's recording size (free 2 MB, indie 4 MB,
// studio 8 MB); an unknown plan gets the free size.
func (p Plan) RecordingBytes() int64 {
	switch p {
	case PlanIndie:
		return 4 * MB
	case PlanStudio:
		return 8 * MB
	}
	return 2 * MB
}

// Recording errors.
const (
	CodeRecordingNotFound = "recording_not_found"    // 404: no such recording, or not visible to the caller
	CodeNotUploader       = "not_uploader"           // 403: only the uploader may do this
	CodeRecordingPending  = "recording_pending"      // 409: not finalized yet
	CodeRecordingEnded    = "recording_ended"        // 409: finalized; no more segments (spec 7), no new upload
	CodeNotReleased       = "recording_not_released" // 409: full scope before its release, for everyone
	CodePlanSizeExceeded  = "plan_size_exceeded"     // 402: over the plan's size after the event window
	// CodeCasualQuotaExceeded: the account started its arena's allowance
	// of casual recordings in the last 24 hours (429).
	CodeCasualQuotaExceeded = "casual_quota_exceeded"
)

// Recording is one uploaded (or announced) game.replay.v1 file.
type Recording struct {
	ID         int64
	MatchID    int64  // 0: a casual recording
	Game       int    // the game of the match's series it records, from 1; 0 casual
	Nonce      string // that game's live session; "" casual (and rows kept from before games)
	UploaderID string
	Scope      string
	Visibility string
	GameBuild  string
	DurationMs int64
	ObjectKey  string // the upload's: what upload URLs name
	ServedKey  string // the copy finalize checked, served for good; "" while pending
	State      string
	ByteSize   int64 // the stored object's size, read by finalize; 0 while pending
	MaxBytes   int64 // the effective size limit told at init
	ShareToken string
	CreatedAt  time.Time
	ReadyAt    *time.Time
}

// Casual reports whether the recording belongs to no match.
func (r *Recording) Casual() bool { return r.MatchID == 0 }

// EffectiveMaxBytes is the size a recording may have: 2 MB for casual
// recordings, the plan's size for match recordings.
func EffectiveMaxBytes(p Plan, casual bool) int64 {
	if casual {
		return CasualRecordingBytes
	}
	return p.RecordingBytes()
}

// RecordingDraft is the body of a recording init: what the client says
// about the file it will upload (the header is the truth, read at
// finalize).
type RecordingDraft struct {
	Scope      string `json:"scope"`
	GameBuild  string `json:"gameBuild"`
	DurationMs Number `json:"durationMs"`
	// Visibility is optional for match recordings (private or arena,
	// default arena); a casual recording is always private.
	Visibility string `json:"visibility"`
	// Game and SessionNonce are optional for match recordings: the game
	// recorded, by its number or by its live session's nonce (the
	// replay header's); neither: the game being played, else the last
	// one decided (RecordedGame). A casual recording takes neither.
	Game         Number `json:"game"`
	SessionNonce string `json:"sessionNonce"`
}

// Check returns the draft's problems: scope public or full, gameBuild at
// most MaxGameBuildBytes, durationMs within DurationMsRange (absent: 0),
// visibility private, arena or absent.
func (d *RecordingDraft) Check() Problems {
	var p Problems
	if !ValidScope(d.Scope) {
		p.invalid("scope", "Choose public or full.")
	}
	if len(d.GameBuild) > MaxGameBuildBytes {
		p.invalid("gameBuild", "At most %d bytes.", MaxGameBuildBytes)
	}
	DurationMsRange.check(&p, "durationMs", d.DurationMs, false)
	GameRange.check(&p, "game", d.Game, false)
	if len(d.SessionNonce) > MaxNonceLen {
		p.invalid("sessionNonce", "At most %d bytes.", MaxNonceLen)
	}
	switch d.Visibility {
	case "", VisibilityPrivate, VisibilityArena:
	default:
		p.invalid("visibility", "Choose private or arena; share a recording to make it a link.")
	}
	return p
}

// Viewer is who asks for a recording: the verified account (a game
// client's ticket or a web session; "" for nobody) and the share token
// the request carries.
type Viewer struct {
	PlatformID string
	Token      string
}

// CheckViewer refuses a viewer with neither an account nor a share
// token: every recording and segment route answers it CodeMissingTicket
// (401, spec 5.1), before the recording is looked up.
func CheckViewer(v Viewer) error {
	if v.PlatformID == "" && v.Token == "" {
		return Errorf(CodeMissingTicket, "no ticket, no session and no link token")
	}
	return nil
}

// visibleTo reports whether the recording's visibility lets v see it.
func (r *Recording) visibleTo(v Viewer) bool {
	if v.PlatformID != "" && v.PlatformID == r.UploaderID {
		return true
	}
	switch r.Visibility {
	case VisibilityArena:
		return v.PlatformID != ""
	case VisibilityLink:
		return r.ShareToken != "" && subtle.ConstantTimeCompare([]byte(v.Token), []byte(r.ShareToken)) == 1
	}
	return false
}

// overPlanExpired reports whether an object of size bytes, finalized at
// readyAt, is over its plan's size and past the event window.
func overPlanExpired(size int64, limit int64, readyAt *time.Time, now time.Time) bool {
	return size > limit && readyAt != nil && !now.Before(readyAt.Add(OverPlanWindow))
}

// ReleasePolicy is what the delay gate needs to know about a match
// recording's match: the tournament's cast policy and when the match
// formally ended (nil: it never did).
type ReleasePolicy struct {
	Cast    CastPolicy
	EndedAt *time.Time
}

// releasedAfter returns when full-scope material captured (or, for a
// whole recording, ended) at t is released under cast: at t for shown,
// t plus the delay for delayed, never (ok false) for hidden.
func releasedAfter(cast CastPolicy, t time.Time) (time.Time, bool) {
	switch cast.HandMode {
	case HandModeShown:
		return t, true
	case HandModeDelayed:
		return t.Add(time.Duration(cast.DelaySeconds) * time.Second), true
	}
	return time.Time{}, false
}

// CheckFetch applies the rules of fetching a recording, in order:
// visibility (CodeRecordingNotFound, so a recording the caller may not see
// looks like none), finalized (CodeRecordingPending), the plan's size
// after the event window (CodePlanSizeExceeded, for everyone), then for
// full scope the delay gate, for everyone the uploader included (spec
// 4.1: full scope carries both players' hidden information)
// (CodeNotReleased): never under hand mode hidden, never for a match that
// never formally ended, else from its endedAt plus the cast delay (at
// once for shown). Public scope and casual recordings are not gated.
// policy is nil for a casual recording.
func CheckFetch(r *Recording, v Viewer, plan Plan, policy *ReleasePolicy, now time.Time) error {
	if !r.visibleTo(v) {
		return Errorf(CodeRecordingNotFound, "no recording %d", r.ID)
	}
	if r.State != RecordingReady {
		return Errorf(CodeRecordingPending, "recording %d is not finalized", r.ID)
	}
	if overPlanExpired(r.ByteSize, EffectiveMaxBytes(plan, r.Casual()), r.ReadyAt, now) {
		return Errorf(CodePlanSizeExceeded, "recording %d is over the %s plan's size", r.ID, plan)
	}
	if r.Scope != ScopeFull || policy == nil {
		return nil
	}
	if policy.EndedAt == nil {
		return Errorf(CodeNotReleased, "the match never formally ended")
	}
	at, ok := releasedAfter(policy.Cast, *policy.EndedAt)
	if !ok || now.Before(at) {
		return Errorf(CodeNotReleased, "full scope is not released yet")
	}
	return nil
}

// CheckUploader refuses anyone but the recording's uploader: CodeNotUploader
// when the caller may see it, CodeRecordingNotFound when not even that.
func CheckUploader(r *Recording, caller string) error {
	if caller == r.UploaderID {
		return nil
	}
	if r.visibleTo(Viewer{PlatformID: caller}) {
		return Errorf(CodeNotUploader, "only the uploader may change recording %d", r.ID)
	}
	return Errorf(CodeRecordingNotFound, "no recording %d", r.ID)
}

// CheckHeader compares a finalized file's header with its recording: a
// match recording's header names its match and its game's session nonce
// (matchNonce: the recording's own, see Finalize.nonceOf), a casual one
// names none, and the scope is the init's. Else CodeHeaderMismatch.
func CheckHeader(r *Recording, matchNonce string, h ReplayHeader) error {
	switch {
	case h.Scope != r.Scope:
		return Errorf(CodeHeaderMismatch, "scope %q is not the init's %q", h.Scope, r.Scope)
	case r.Casual() && (h.HasMatchID || h.SessionNonce != ""):
		return Errorf(CodeHeaderMismatch, "a casual recording names no match")
	case !r.Casual() && (!h.HasMatchID || h.MatchID != r.MatchID):
		return Errorf(CodeHeaderMismatch, "matchId is not %d", r.MatchID)
	case !r.Casual() && h.SessionNonce != matchNonce:
		return Errorf(CodeHeaderMismatch, "sessionNonce is not game %d's", r.Game)
	}
	return nil
}

// ListedTo reports whether GET /me/recordings shows r to the account
// (which uploaded it, or played its match): its own uploads, and the
// other players' recordings of its matches that every arena member may
// see (visibility arena); private and link-only ones stay their
// uploader's.
func ListedTo(r *Recording, platformID string) bool {
	return r.UploaderID == platformID || r.Visibility == VisibilityArena
}
