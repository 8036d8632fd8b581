package server

import (
	"fmt"
	"net/http"

	"arena/core"
)

// recordingView is a recording as the API shows it (DESIGN.md, the list
// items of GET /me/recordings), plus when it was finalized.
type recordingView struct {
	ID                 int64   `json:"id"`
	MatchID            *int64  `json:"matchId"`
	Game               *int    `json:"game"` // the game of the match's series, from 1; null for a casual one
	Scope              string  `json:"scope"`
	Visibility         string  `json:"visibility"`
	GameBuild          string  `json:"gameBuild"`
	DurationMs         int64   `json:"durationMs"`
	ByteSize           int64   `json:"byteSize"`
	State              string  `json:"state"`
	UploaderPlatformID string  `json:"uploaderPlatformId"`
	CreatedAt          string  `json:"createdAt"`
	ReadyAt            *string `json:"readyAt"`
}

func recordingViewOf(r *core.Recording) recordingView {
	v := recordingView{
		ID: r.ID, Scope: r.Scope, Visibility: r.Visibility, GameBuild: r.GameBuild, DurationMs: r.DurationMs,
		ByteSize: r.ByteSize, State: r.State, UploaderPlatformID: r.UploaderID, CreatedAt: isoTime(r.CreatedAt),
	}
	if !r.Casual() {
		id, game := r.MatchID, r.Game
		v.MatchID, v.Game = &id, &game
	}
	if r.ReadyAt != nil {
		at := isoTime(*r.ReadyAt)
		v.ReadyAt = &at
	}
	return v
}

// initAnswer is the answer to a recording init (spec 2.5).
type initAnswer struct {
	RecordingID int64        `json:"recordingId"`
	Upload      uploadTarget `json:"upload"`
	MaxBytes    int64        `json:"maxBytes"`
}

// handleInitMatchRecording announces the caller's recording of a match
// (spec 4.1): the match's participants only, idempotent per match and
// uploader with a fresh upload URL each time.
func (s *Server) handleInitMatchRecording(w http.ResponseWriter, r *http.Request, t *Tenant, caller core.Caller) {
	ctx := r.Context()
	st, err := matchStateFromPath(r, t)
	if err != nil {
		writeError(w, r, err)
		return
	}
	var d core.RecordingDraft
	if err := decodeJSON(w, r, &d); err != nil {
		writeError(w, r, err)
		return
	}
	rec, err := t.InitMatchRecording(ctx, st, caller, d)
	if err != nil {
		writeError(w, r, err)
		return
	}
	s.answerInit(w, r, rec)
}

// handleInitCasualRecording announces a casual recording (scope public,
// visibility private, 2 MB), within the arena's casual allowance per
// account and day.
func (s *Server) handleInitCasualRecording(w http.ResponseWriter, r *http.Request, t *Tenant, caller core.Caller) {
	ctx := r.Context()
	var d core.RecordingDraft
	if err := decodeJSON(w, r, &d); err != nil {
		writeError(w, r, err)
		return
	}
	rec, err := t.InitCasualRecording(ctx, caller, d)
	if err != nil {
		writeError(w, r, err)
		return
	}
	s.answerInit(w, r, rec)
}

func (s *Server) answerInit(w http.ResponseWriter, r *http.Request, rec *core.Recording) {
	upload, err := s.uploadURL(r.Context(), r, rec.ObjectKey)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, initAnswer{RecordingID: rec.ID, Upload: upload, MaxBytes: rec.MaxBytes})
}

// matchStateFromPath reads the match of the path's id.
func matchStateFromPath(r *http.Request, t *Tenant) (*core.MatchState, error) {
	id, err := core.ParseMatchID(r.PathValue("id"))
	if err != nil {
		return nil, err
	}
	return t.MatchState(r.Context(), id)
}

// recordingID is the recording id of the path; an id that is no
// positive integer is no recording.
func recordingID(r *http.Request) (int64, error) {
	id, err := core.ParseMatchID(r.PathValue("id"))
	if err != nil {
		return 0, core.Errorf(core.CodeRecordingNotFound, "recording id %q", r.PathValue("id"))
	}
	return id, nil
}

// recordingFromPath reads the recording of the path's id.
func recordingFromPath(r *http.Request, t *Tenant) (*core.Recording, error) {
	id, err := recordingID(r)
	if err != nil {
		return nil, err
	}
	return t.Recording(r.Context(), id)
}

// handleFinalizeRecording reads the uploaded object and marks the
// recording ready with its true size (spec 4.1); it answers the recording.
func (s *Server) handleFinalizeRecording(w http.ResponseWriter, r *http.Request, t *Tenant, caller core.Caller) {
	rec, err := recordingFromPath(r, t)
	if err != nil {
		writeError(w, r, err)
		return
	}
	objects, err := s.objectStore()
	if err != nil {
		writeError(w, r, err)
		return
	}
	out, err := t.FinalizeRecording(r.Context(), rec, caller.PlatformID, objects)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, recordingViewOf(out))
}

// handleMyRecordings lists what the caller uploaded plus the recordings
// of matches the caller played that the caller may see.
func (s *Server) handleMyRecordings(w http.ResponseWriter, r *http.Request, t *Tenant, caller core.Caller) {
	list, err := t.RecordingsListedTo(r.Context(), caller.PlatformID)
	if err != nil {
		writeError(w, r, err)
		return
	}
	out := make([]recordingView, 0, len(list))
	for i := range list {
		out = append(out, recordingViewOf(&list[i]))
	}
	writeJSON(w, http.StatusOK, map[string]any{"recordings": out})
}

// viewer is who asks for a recording outside the ticket-only routes: a
// game client (its ticket, verified; a bad one is 401), else a signed-in
// web session, else nobody; plus the share token of the query. Nobody
// without a token is 401 (core.CheckViewer).
func (s *Server) viewer(r *http.Request, t *Tenant) (core.Viewer, error) {
	v := core.Viewer{Token: r.URL.Query().Get("token")}
	if r.Header.Get("Authorization") != "" {
		caller, err := s.verifyTicket(r, t)
		if err != nil {
			return v, err
		}
		v.PlatformID = caller.PlatformID
		return v, nil
	}
	if s.sessionPlayer != nil {
		v.PlatformID = s.sessionPlayer(r, t)
	}
	return v, core.CheckViewer(v)
}

// handleFetchRecording answers a short-lived signed GET of the recording
// when visibility, the plan's size and the delay gate allow (core.CheckFetch).
func (s *Server) handleFetchRecording(w http.ResponseWriter, r *http.Request, t *Tenant) {
	v, err := s.viewer(r, t)
	if err != nil {
		writeError(w, r, err)
		return
	}
	id, err := recordingID(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	rec, err := t.RecordingToFetch(r.Context(), id, v)
	if err != nil {
		writeError(w, r, err)
		return
	}
	u, err := s.fetchURL(r.Context(), r, rec.ServedKey)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"url": u})
}

// handleShareRecording makes the caller's recording shareable by link:
// a token of 128 random bits (the same one on every later call) and the
// tokenized fetch path. The delay gate still applies to the link.
func (s *Server) handleShareRecording(w http.ResponseWriter, r *http.Request, t *Tenant, caller core.Caller) {
	id, err := recordingID(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	token, err := t.ShareRecording(r.Context(), id, caller.PlatformID)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"token": token, "path": fmt.Sprintf("/api/v1/recordings/%d?token=%s", id, token)})
}

// maxTraceBodyBytes caps a trace envelope's body: the trace string may
// grow sixfold with JSON escaping, plus the other fields.
const maxTraceBodyBytes = 6*core.MaxTraceBytes + 4096

// handleGameplayTrace takes a side's svc.gameplay.v1 trace (core.SubmitTrace)
// and answers how it compares with the other side's: agreement makes the
// match usable for training; the match's outcome never depends on it.
func (s *Server) handleGameplayTrace(w http.ResponseWriter, r *http.Request, t *Tenant, caller core.Caller) {
	st, err := matchStateFromPath(r, t)
	if err != nil {
		writeError(w, r, err)
		return
	}
	var env core.TraceEnvelope
	if err := decodeJSONLimit(w, r, &env, maxTraceBodyBytes); err != nil {
		writeError(w, r, err)
		return
	}
	out, err := t.SubmitTrace(r.Context(), st, caller, &env)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}
