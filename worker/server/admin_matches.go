package server

import (
	"net/http"

	"arena/core"
)

// matchDetail is one match for the admin: the match, both sides' stored
// submissions verbatim, for forensics.
type matchDetail struct {
	adminMatch
	Submissions []core.SubmissionRecord `json:"submissions"`
}

// handleAdminMatch shows a match with its submissions.
func (s *Server) handleAdminMatch(w http.ResponseWriter, r *http.Request, t *Tenant) {
	id, err := core.ParseMatchID(r.PathValue("id"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	m, subs, err := t.MatchWithSubmissions(r.Context(), id)
	if err != nil {
		writeError(w, r, err)
		return
	}
	if subs == nil {
		subs = []core.SubmissionRecord{}
	}
	writeJSON(w, http.StatusOK, matchDetail{adminMatch: adminMatchOf(m), Submissions: subs})
}

// queuedMatch is a match in the admin queue, with why it is there
// (core.AttentionReason: disputed, overdue, stale, window_closing).
type queuedMatch struct {
	adminMatch
	Attention string `json:"attention"`
}

// handleAdminQueue lists the matches waiting for the admin
// (core.OrganizerQueue): disputed, past their window without a result,
// live with nothing reported for the arena's stale-match delay, or
// closing within 10 minutes with nothing reported.
func (s *Server) handleAdminQueue(w http.ResponseWriter, r *http.Request, t *Tenant) {
	list, err := t.OrganizerQueue(r.Context())
	if err != nil {
		writeError(w, r, err)
		return
	}
	out := make([]queuedMatch, 0, len(list))
	for i := range list {
		out = append(out, queuedMatch{adminMatch: adminMatchOf(&list[i].Match), Attention: list[i].Reason})
	}
	writeJSON(w, http.StatusOK, map[string]any{"matches": out})
}

// adminMatch is a match as the admin API lists it.
type adminMatch struct {
	ID           int64              `json:"id"`
	Stage        string             `json:"stage"`
	Round        string             `json:"round"`
	GroupName    *string            `json:"group"`
	BracketSlot  *string            `json:"bracketSlot"`
	Status       string             `json:"status"`
	P1PlatformID *string            `json:"p1PlatformId"`
	P2PlatformID *string            `json:"p2PlatformId"`
	OpensAt      string             `json:"opensAt"`
	ClosesAt     string             `json:"closesAt"`
	SessionNonce string             `json:"sessionNonce,omitempty"`
	Winner       *string            `json:"winner"`
	Score        *core.OutcomeScore `json:"score"`
	ResultSource *string            `json:"resultSource"`
	BestOf       int                `json:"bestOf"`
	SeriesScore  core.SeriesScore   `json:"seriesScore"`
	Games        []gameView         `json:"games"`
}

func adminMatchOf(m *core.Match) adminMatch {
	v := adminMatch{
		ID: m.ID, Stage: string(m.Stage), Round: m.Round, GroupName: optional(m.GroupName), BracketSlot: optional(m.BracketSlot),
		Status: string(m.Status), P1PlatformID: optional(m.P1), P2PlatformID: optional(m.P2),
		OpensAt: isoTime(m.OpensAt), ClosesAt: isoTime(m.ClosesAt), SessionNonce: m.SessionNonce,
		Score: m.Score, ResultSource: optional(m.ResultSource),
		BestOf: m.SeriesLen(), SeriesScore: m.Series(), Games: []gameView{},
	}
	if m.Status.Resolved() {
		v.Winner = optional(m.Winner)
	}
	for _, g := range m.GamesShown() {
		v.Games = append(v.Games, gameViewOf(g))
	}
	return v
}

// handleAdminMatches lists a tournament's matches with their nonces.
func (s *Server) handleAdminMatches(w http.ResponseWriter, r *http.Request, t *Tenant) {
	matches, err := t.TournamentMatches(r.Context(), r.PathValue("slug"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	out := make([]adminMatch, 0, len(matches))
	for i := range matches {
		out = append(out, adminMatchOf(&matches[i]))
	}
	writeJSON(w, http.StatusOK, map[string]any{"matches": out})
}

// handlePatchMatch moves a match's window (core.Reschedule's rules).
func (s *Server) handlePatchMatch(w http.ResponseWriter, r *http.Request, t *Tenant) {
	var draft core.WindowDraft
	if err := decodeJSON(w, r, &draft); err != nil {
		writeError(w, r, err)
		return
	}
	id, err := core.ParseMatchID(r.PathValue("id"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	m, err := t.RescheduleMatch(r.Context(), id, draft)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, adminMatchOf(m))
}

// handleResolveMatch records the admin's decision, final and with
// resultSource admin (status forfeited when forfeit is set).
func (s *Server) handleResolveMatch(w http.ResponseWriter, r *http.Request, t *Tenant) {
	var draft core.ResolutionDraft
	if err := decodeJSON(w, r, &draft); err != nil {
		writeError(w, r, err)
		return
	}
	res, problems := draft.Check(s.now())
	if err := problems.Err(); err != nil {
		writeError(w, r, err)
		return
	}
	res.By = adminTokenID(r)
	id, err := core.ParseMatchID(r.PathValue("id"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	resolved, _, err := t.ResolveMatch(r.Context(), id, res)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, adminMatchOf(resolved))
}

// handleAcceptReport resolves a match with the result a player reported
// (core.AcceptReport: the admin's answer to a disputed report).
func (s *Server) handleAcceptReport(w http.ResponseWriter, r *http.Request, t *Tenant) {
	id, err := core.ParseMatchID(r.PathValue("id"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	resolved, err := t.AcceptReport(r.Context(), id)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, adminMatchOf(resolved))
}
