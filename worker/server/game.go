package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"time"

	"arena/core"
)

// gameHandler is a ticket-authenticated game-client endpoint.
type gameHandler func(w http.ResponseWriter, r *http.Request, t *Tenant, caller core.Caller)

// gameRoute registers a game-client endpoint: every call carries a fresh
// platform ticket (spec 5.1), verified before the handler runs. Missing
// or malformed: 401 missing_ticket; refused: 401 invalid_ticket; the
// platform unreachable: 503 platform_unavailable.
func (s *Server) gameRoute(pattern string, h gameHandler) {
	s.mux.HandleFunc(pattern, s.tenant(func(w http.ResponseWriter, r *http.Request, t *Tenant) {
		caller, err := s.verifyTicket(r, t)
		if err != nil {
			writeError(w, r, err)
			return
		}
		h(w, r, t, caller)
	}))
}

// verifyTicket verifies the request's platform ticket (spec 5.1).
func (s *Server) verifyTicket(r *http.Request, t *Tenant) (core.Caller, error) {
	ticket, err := core.ParsePlatformAuthorization(r.Header.Get("Authorization"))
	if err != nil {
		return core.Caller{}, err
	}
	if s.cfg.Tickets == nil {
		return core.Caller{}, errors.New("no ticket verifier configured")
	}
	return s.cfg.Tickets.Verify(r.Context(), t.Arena, ticket, r.Header.Get("X-Platform-AppId"))
}

// casterView is a caster in the live match (spec 2.1); the arena's
// official caster has no player.
type casterView struct {
	PlatformID *string `json:"platformId"`
	StreamURL  string  `json:"streamUrl"`
	Source     string  `json:"source"`
}

type refereeView struct {
	Enabled         bool   `json:"enabled"`
	ConsentComplete bool   `json:"consentComplete"`
	TraceProtocol   string `json:"traceProtocol"`
	CaptureProtocol string `json:"captureProtocol"`
}

// liveMatchView is the live-match object of spec 2.1.
type liveMatchView struct {
	MatchID            int64           `json:"matchId"`
	GameSeed           int64           `json:"gameSeed,omitempty"`
	Slot               int             `json:"slot"`
	SessionNonce       string          `json:"sessionNonce"`
	P1PlatformID       string          `json:"p1PlatformId"`
	P2PlatformID       string          `json:"p2PlatformId"`
	OpponentPlatformID string          `json:"opponentPlatformId"`
	Tournament         tournamentRef   `json:"tournament"`
	WindowClosesAt     string          `json:"windowClosesAt"`
	AllowSpectators    bool            `json:"allowSpectators"`
	Cast               core.CastPolicy `json:"cast"`
	Casters            []casterView    `json:"casters"`
	CasterPlatformID   *string         `json:"casterPlatformId"`
	StreamURL          *string         `json:"streamUrl"`
	P1Roster           []string        `json:"p1Roster"`
	P2Roster           []string        `json:"p2Roster"`
	TeamMinPlayers     int             `json:"teamMinPlayers"`
	TeamMaxPlayers     int             `json:"teamMaxPlayers"`
	ResultProtocol     string          `json:"resultProtocol"`
	RefereeM0          *refereeView    `json:"refereeM0,omitempty"`
	seriesAt
}

// seriesAt is where a match's series stands, as discovery shows it: the
// game being (or next to be) played, from 1, the series' length and the
// games each side won so far.
type seriesAt struct {
	Game        int              `json:"game"`
	BestOf      int              `json:"bestOf"`
	SeriesScore core.SeriesScore `json:"seriesScore"`
}

func seriesOf(m *core.Match) seriesAt {
	return seriesAt{Game: m.CurrentGame(), BestOf: m.SeriesLen(), SeriesScore: m.Series()}
}

// handleLiveMatch answers the caller's live match, or 204.
func (s *Server) handleLiveMatch(w http.ResponseWriter, r *http.Request, t *Tenant, caller core.Caller) {
	// The casters of the caller's live matches go with the read of them.
	st, casters, err := t.LiveMatch(r.Context(), caller)
	if err != nil {
		writeError(w, r, err)
		return
	}
	if st == nil {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	slot := st.SideOf(caller.PlatformID)
	v := liveMatchView{
		MatchID: st.ID, GameSeed: st.GameSeed, Slot: slot, SessionNonce: st.SessionNonce,
		P1PlatformID: st.P1, P2PlatformID: st.P2, OpponentPlatformID: st.Captain(3 - slot),
		Tournament:     tournamentRef{Slug: st.Tournament.Slug, Name: st.Tournament.Name},
		WindowClosesAt: isoTime(st.ClosesAt), AllowSpectators: st.Tournament.AllowSpectators,
		Cast: st.Tournament.Cast, Casters: []casterView{}, P1Roster: st.P1Roster, P2Roster: st.P2Roster,
		TeamMinPlayers: st.Tournament.TeamMinPlayers, TeamMaxPlayers: st.Tournament.TeamMaxPlayers,
		ResultProtocol: core.ResultProtocol, seriesAt: seriesOf(&st.Match),
	}
	if err := liveCasters(r.Context(), casters, st, &v); err != nil {
		writeError(w, r, err)
		return
	}
	if t.Arena.RefereeEnabled {
		v.RefereeM0 = &refereeView{Enabled: true, ConsentComplete: st.ConsentsGranted == 2,
			TraceProtocol: "svc.gameplay.v1", CaptureProtocol: "svc.capture.v1"}
	}
	writeJSON(w, http.StatusOK, v)
}

// upcomingMatchView is the upcoming-match object of spec 2.2.
type upcomingMatchView struct {
	MatchID            int64         `json:"matchId"`
	Slot               int           `json:"slot"`
	OpponentPlatformID string        `json:"opponentPlatformId"`
	OpponentName       string        `json:"opponentName"`
	Tournament         tournamentRef `json:"tournament"`
	WindowOpensAt      string        `json:"windowOpensAt"`
	WindowClosesAt     string        `json:"windowClosesAt"`
	WindowOpen         bool          `json:"windowOpen"`
	SelfReady          bool          `json:"selfReady"`
	OpponentReady      bool          `json:"opponentReady"`
	seriesAt
}

// handleUpcomingMatch answers the caller's next scheduled match, or 204.
func (s *Server) handleUpcomingMatch(w http.ResponseWriter, r *http.Request, t *Tenant, caller core.Caller) {
	now := s.now()
	st, err := t.UpcomingMatch(r.Context(), caller, now)
	if err != nil {
		writeError(w, r, err)
		return
	}
	if st == nil {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	slot := st.SideOf(caller.PlatformID)
	self, other := st.P1ReadyAt != nil, st.P2ReadyAt != nil
	name := st.P2Name
	if slot == 2 {
		self, other, name = other, self, st.P1Name
	}
	opponent := st.Captain(3 - slot)
	if name == "" {
		name = core.PlaceholderName(opponent)
	}
	writeJSON(w, http.StatusOK, upcomingMatchView{
		MatchID: st.ID, Slot: slot, OpponentPlatformID: opponent, OpponentName: name,
		Tournament:    tournamentRef{Slug: st.Tournament.Slug, Name: st.Tournament.Name},
		WindowOpensAt: isoTime(st.OpensAt), WindowClosesAt: isoTime(st.ClosesAt),
		WindowOpen: st.Window(now) == core.WindowOpen, SelfReady: self, OpponentReady: other,
		seriesAt: seriesOf(&st.Match),
	})
}

// handleReady marks the caller's side ready.
func (s *Server) handleReady(w http.ResponseWriter, r *http.Request, t *Tenant, caller core.Caller) {
	id, err := core.ParseMatchID(r.PathValue("id"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	out, err := t.Ready(r.Context(), caller, id)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// maxResultBodyBytes caps a result submission's body: the 64 KiB result
// may grow sixfold with JSON escaping, plus the other fields.
const maxResultBodyBytes = 512 << 10

// resultBody is the wire shape of POST .../result; fields are decoded
// loosely so that each rule can answer with its own code.
type resultBody struct {
	Protocol   json.RawMessage `json:"protocol"`
	Result     json.RawMessage `json:"result"`
	ResultHash json.RawMessage `json:"resultHash"`
	ClientRole json.RawMessage `json:"clientRole"`
	StartedAt  json.RawMessage `json:"startedAt"`
	EndedAt    json.RawMessage `json:"endedAt"`
	Score      json.RawMessage `json:"score"`
}

// parseResultBody reads a submission. Bodies that are not a JSON object
// answer 400 invalid_json, oversized ones 413 body_too_large; everything
// else is left to the rules, so their order holds. clientRole other than
// host or guest, startedAt/endedAt that are not ISO-8601, and a score that
// is not { p1, p2 } of non-negative integers are dropped.
func parseResultBody(raw []byte) (*core.ResultSubmission, bool, error) {
	if err := requireObject(raw); err != nil {
		return nil, false, err
	}
	var b resultBody
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&b); err != nil {
		return nil, false, core.Errorf(core.CodeInvalidJSON, "the body is not a JSON object")
	}
	if dec.More() {
		return nil, false, core.Errorf(core.CodeInvalidJSON, "trailing data after the JSON body")
	}
	sub := &core.ResultSubmission{}
	_ = json.Unmarshal(b.Protocol, &sub.Protocol)
	hasResult := json.Unmarshal(b.Result, &sub.Result) == nil && len(b.Result) > 0 && b.Result[0] == '"'
	_ = json.Unmarshal(b.ResultHash, &sub.ResultHash)
	var role string
	if json.Unmarshal(b.ClientRole, &role) == nil && (role == "host" || role == "guest") {
		sub.ClientRole = role
	}
	sub.StartedAt, sub.EndedAt = optionalTime(b.StartedAt), optionalTime(b.EndedAt)
	sub.Score = optionalScore(b.Score)
	return sub, hasResult, nil
}

// optionalScore reads a submission's score metadata: exactly { p1, p2 },
// both whole numbers (core's rule for scores decides the rest).
func optionalScore(raw json.RawMessage) *core.OutcomeScore {
	var s struct {
		P1 *int `json:"p1"`
		P2 *int `json:"p2"`
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if len(raw) == 0 || raw[0] != '{' || dec.Decode(&s) != nil || s.P1 == nil || s.P2 == nil {
		return nil
	}
	return &core.OutcomeScore{P1: *s.P1, P2: *s.P2}
}

func optionalTime(raw json.RawMessage) *time.Time {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return nil
	}
	t = t.UTC()
	return &t
}

// handleResult is a result submission, rules 1 to 12 of spec 4.1 in order
// (rule 1, the ticket, ran in gameRoute).
func (s *Server) handleResult(w http.ResponseWriter, r *http.Request, t *Tenant, caller core.Caller) {
	ctx := r.Context()
	raw, readErr := io.ReadAll(http.MaxBytesReader(w, r.Body, maxResultBodyBytes))
	id, err := core.ParseMatchID(r.PathValue("id")) // rule 2
	if err != nil {
		writeError(w, r, err)
		return
	}
	// What a confirming final completes its tournament with goes with the
	// match's read (nothing for other matches): two round trips in all.
	st, err := t.ResultMatch(ctx, id)
	if err != nil {
		writeError(w, r, err)
		return
	}
	if readErr != nil {
		writeError(w, r, jsonError(readErr))
		return
	}
	sub, hasResult, err := parseResultBody(raw)
	if err != nil {
		writeError(w, r, err)
		return
	}
	if err := core.CheckBody(sub, hasResult); err != nil { // rule 3
		writeError(w, r, err)
		return
	}
	out, err := t.SubmitResult(ctx, st, caller, sub)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"status": out.Status, "matchStatus": out.MatchStatus})
}

type consentRequest struct {
	Granted *bool `json:"granted" validate:"required"`
}

// handleRefereeConsent records the caller's AI-referee training consent.
func (s *Server) handleRefereeConsent(w http.ResponseWriter, r *http.Request, t *Tenant, caller core.Caller) {
	var req consentRequest
	if err := decodeJSON(w, r, &req); err != nil {
		writeError(w, r, err)
		return
	}
	if err := t.SetRefereeConsent(r.Context(), caller.PlatformID, *req.Granted); err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"granted": *req.Granted})
}
