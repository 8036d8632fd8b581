package client_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// Platform account ids used across the tests.
const (
	alice = "76561198000000001" // slot 1 / side 1 captain
	bob   = "76561198000000002" // slot 2 / side 2 captain
	carol = "76561198000000003" // side 1 team member
	dave  = "76561198000000004" // side 2 team member
	eve   = "76561198000000009" // plays in no match
)

// fakeMatch is the server-side state of one match.
type fakeMatch struct {
	ID      int64
	Nonce   string
	Seed    int64       // 0: casual, gameSeed omitted
	Sides   [2][]string // rosters; element 0 is the captain
	TeamMax int         // teamMaxPlayers; > 1 is team mode
	Status  string      // scheduled, live, awaiting_result, confirmed, disputed, forfeited
	ready   [2]bool
	hashes  [2]string // submitted resultHash per side
	winner  string    // the confirmed result's winner
	scores  []string  // the score metadata of each accepted submission, as sent ("" when absent)
	BestOf  int       // > 1: a series; discovery and the public match carry its fields
	games   []string  // the decided games' winners, in order
}

// seriesScore counts the games each side won.
func (m *fakeMatch) seriesScore() map[string]int {
	s := map[string]int{"p1": 0, "p2": 0}
	for _, w := range m.games {
		s["p"+strconv.Itoa(m.side(w))]++
	}
	return s
}

// decideGame records a game won by winner: the series is decided once a
// side won ceil(BestOf/2) games, else the match goes back to scheduled
// for the next game with a fresh nonce.
func (m *fakeMatch) decideGame(winner string) {
	m.games = append(m.games, winner)
	if m.seriesScore()["p"+strconv.Itoa(m.side(winner))] >= (m.BestOf+1)/2 {
		m.Status, m.winner = "confirmed", winner
		return
	}
	m.Status, m.ready, m.hashes = "scheduled", [2]bool{}, [2]string{}
	m.Nonce = fmt.Sprintf("n-game-%d", len(m.games)+1)
}

// side returns 1 or 2 for a player on a roster, 0 otherwise.
func (m *fakeMatch) side(id string) int {
	for i, roster := range m.Sides {
		if slices.Contains(roster, id) {
			return i + 1
		}
	}
	return 0
}

// fault replaces one answer: status 0 drops the connection without an
// answer, any other status answers `{ "error": code }`.
// Status 0 with code "lost" handles the request first and then drops the
// connection: the answer is lost, the effect is not.
type fault struct {
	status int
	code   string
}

var lostAnswer = fault{status: 0, code: "lost"}

// recordedRequest is one request the fake arena received.
type recordedRequest struct {
	Method, Path, Auth, AppID, ContentType string
	Body                                   []byte
}

// fakeArena is a hand-written fake of the arena's ticket-authenticated
// game-client endpoints (spec 4.1), following the wire format and the
// rules for submit in their order. Tickets are MOCK:<id> or one of the
// single-use tickets registered in tickets.
type fakeArena struct {
	t   testing.TB
	srv *httptest.Server

	mu           sync.Mutex
	match        *fakeMatch        // the match live-match, ready and result act on; nil: none
	liveBodies   []string          // when set, live-match answers these in turn (the last repeats); "" is a 204
	upcomingBody string            // "" answers 204
	tickets      map[string]string // single-use ticket -> account id
	faults       map[string][]fault
	requests     []recordedRequest
}

func newFakeArena(t testing.TB) *fakeArena {
	a := &fakeArena{t: t, tickets: map[string]string{}, faults: map[string][]fault{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/v1/me/live-match", a.route("live", a.liveMatch))
	mux.HandleFunc("GET /api/v1/me/upcoming-match", a.route("upcoming", a.upcomingMatch))
	mux.HandleFunc("POST /api/v1/matches/{id}/ready", a.route("ready", a.ready))
	mux.HandleFunc("POST /api/v1/matches/{id}/result", a.route("result", a.result))
	mux.HandleFunc("GET /api/v1/matches/{id}", a.publicMatch)
	a.srv = httptest.NewServer(mux)
	t.Cleanup(a.srv.Close)
	return a
}

// failNext queues faults for the next requests to a route ("live",
// "upcoming", "ready", "result").
func (a *fakeArena) failNext(route string, fs ...fault) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.faults[route] = append(a.faults[route], fs...)
}

// setMatch installs m as the arena's match.
func (a *fakeArena) setMatch(m *fakeMatch) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.match = m
}

// reset forgets the requests received so far.
func (a *fakeArena) reset() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.requests = nil
}

// recorded returns the requests received so far, optionally only those
// whose path ends with suffix.
func (a *fakeArena) recorded(suffix string) []recordedRequest {
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []recordedRequest
	for _, r := range a.requests {
		if strings.HasSuffix(r.Path, suffix) {
			out = append(out, r)
		}
	}
	return out
}

type handler func(w http.ResponseWriter, r *http.Request, caller string)

// route records the request, applies a queued fault, verifies the ticket
// (401 missing_ticket) and calls h with the caller's account id.
func (a *fakeArena) route(name string, h handler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		a.mu.Lock()
		defer a.mu.Unlock()
		a.requests = append(a.requests, recordedRequest{
			Method: r.Method, Path: r.URL.Path, Auth: r.Header.Get("Authorization"),
			AppID: r.Header.Get("X-Platform-AppId"), ContentType: r.Header.Get("Content-Type"), Body: body,
		})
		if q := a.faults[name]; len(q) > 0 {
			f := q[0]
			a.faults[name] = q[1:]
			if f.status == 0 {
				if f.code == lostAnswer.code {
					if caller, ok := a.verifyTicket(r.Header.Get("Authorization")); ok {
						r.Body = io.NopCloser(bytes.NewReader(body))
						h(httptest.NewRecorder(), r, caller)
					}
				}
				conn, _, err := w.(http.Hijacker).Hijack()
				if err != nil {
					a.t.Errorf("fake arena: hijack: %v", err)
					return
				}
				conn.Close()
				return
			}
			writeError(w, f.status, f.code)
			return
		}
		caller, ok := a.verifyTicket(r.Header.Get("Authorization"))
		if !ok {
			writeError(w, http.StatusUnauthorized, "missing_ticket")
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		h(w, r, caller)
	}
}

var mockTicket = regexp.MustCompile(`^Platform MOCK:([0-9]{17})$`)

func (a *fakeArena) verifyTicket(header string) (string, bool) {
	if m := mockTicket.FindStringSubmatch(header); m != nil {
		return m[1], true
	}
	ticket, ok := strings.CutPrefix(header, "Platform ")
	if !ok {
		return "", false
	}
	id, ok := a.tickets[ticket]
	delete(a.tickets, ticket) // single use
	return id, ok
}

func (a *fakeArena) liveMatch(w http.ResponseWriter, _ *http.Request, caller string) {
	if len(a.liveBodies) > 0 {
		body := a.liveBodies[0]
		if len(a.liveBodies) > 1 {
			a.liveBodies = a.liveBodies[1:]
		}
		if body == "" {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		writeJSON(w, http.StatusOK, json.RawMessage(body))
		return
	}
	m := a.match
	if m == nil || (m.Status != "live" && m.Status != "awaiting_result") || m.side(caller) == 0 {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	slot := m.side(caller)
	live := map[string]any{
		"matchId":            m.ID,
		"slot":               slot,
		"sessionNonce":       m.Nonce,
		"p1PlatformId":       m.Sides[0][0],
		"p2PlatformId":       m.Sides[1][0],
		"opponentPlatformId": m.Sides[2-slot][0],
		"tournament":         map[string]any{"slug": "spring-cup", "name": "Spring Cup"},
		"windowClosesAt":     "2026-04-01T20:00:00Z",
		"allowSpectators":    true,
		"cast":               map[string]any{"handMode": "hidden", "delaySeconds": 0},
		"casters":            []any{},
		"casterPlatformId":   nil,
		"streamUrl":          nil,
		"p1Roster":           m.Sides[0],
		"p2Roster":           m.Sides[1],
		"teamMinPlayers":     max(1, m.TeamMax),
		"teamMaxPlayers":     max(1, m.TeamMax),
		"resultProtocol":     "svc.result.v3",
	}
	if m.Seed != 0 {
		live["gameSeed"] = m.Seed
	}
	if m.BestOf > 0 {
		live["game"], live["bestOf"], live["seriesScore"] = len(m.games)+1, m.BestOf, m.seriesScore()
	}
	writeJSON(w, http.StatusOK, live)
}

func (a *fakeArena) upcomingMatch(w http.ResponseWriter, _ *http.Request, _ string) {
	if a.upcomingBody == "" {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	writeJSON(w, http.StatusOK, json.RawMessage(a.upcomingBody))
}

// matchFor resolves the {id} path value to the arena's match (404
// match_not_found otherwise).
func (a *fakeArena) matchFor(w http.ResponseWriter, r *http.Request) *fakeMatch {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || a.match == nil || a.match.ID != id {
		writeError(w, http.StatusNotFound, "match_not_found")
		return nil
	}
	return a.match
}

func (a *fakeArena) ready(w http.ResponseWriter, r *http.Request, caller string) {
	m := a.matchFor(w, r)
	if m == nil {
		return
	}
	side := m.side(caller)
	if side == 0 {
		writeError(w, http.StatusForbidden, "not_participant")
		return
	}
	if m.Status != "scheduled" {
		writeError(w, http.StatusConflict, "past_ready_phase")
		return
	}
	m.ready[side-1] = true
	live := m.ready[0] && m.ready[1]
	if live {
		m.Status = "live"
	}
	writeJSON(w, http.StatusOK, map[string]any{"status": "ready", "live": live, "opponentReady": m.ready[2-side]})
}

var (
	hashPattern     = regexp.MustCompile(`^[0-9a-f]{64}$`)
	platformPattern = regexp.MustCompile(`^[0-9]{17}$`)
)

// result applies the spec's rules for submit in their order.
func (a *fakeArena) result(w http.ResponseWriter, r *http.Request, caller string) {
	m := a.matchFor(w, r)
	if m == nil {
		return
	}
	var sub struct {
		Protocol   string          `json:"protocol"`
		Result     string          `json:"result"`
		ResultHash string          `json:"resultHash"`
		ClientRole string          `json:"clientRole"`
		EndedAt    string          `json:"endedAt"`
		Score      json.RawMessage `json:"score"`
	}
	if err := json.NewDecoder(r.Body).Decode(&sub); err != nil {
		writeError(w, http.StatusUnprocessableEntity, "invalid_result")
		return
	}
	switch {
	case sub.Protocol != "svc.result.v3":
		writeError(w, http.StatusUnprocessableEntity, "unsupported_protocol")
		return
	case sub.Result == "" || len(sub.Result) > 65536:
		writeError(w, http.StatusUnprocessableEntity, "invalid_result")
		return
	case !hashPattern.MatchString(sub.ResultHash):
		writeError(w, http.StatusUnprocessableEntity, "invalid_resultHash")
		return
	}
	side := m.side(caller)
	if side == 0 {
		writeError(w, http.StatusForbidden, "not_participant")
		return
	}
	switch m.Status {
	case "confirmed", "forfeited":
		writeError(w, http.StatusConflict, "already_resolved")
		return
	case "live", "awaiting_result":
	default:
		writeError(w, http.StatusConflict, "not_live")
		return
	}
	sum := sha256.Sum256([]byte(sub.Result))
	if hex.EncodeToString(sum[:]) != sub.ResultHash {
		writeError(w, http.StatusUnprocessableEntity, "hash_mismatch")
		return
	}
	var reserved struct {
		MatchID      json.Number `json:"matchId"`
		SessionNonce string      `json:"sessionNonce"`
		Winner       string      `json:"winner"`
	}
	dec := json.NewDecoder(strings.NewReader(sub.Result))
	dec.UseNumber()
	if err := dec.Decode(&reserved); err != nil || reserved.SessionNonce == "" || !platformPattern.MatchString(reserved.Winner) {
		writeError(w, http.StatusUnprocessableEntity, "invalid_result")
		return
	}
	matchID, err := reserved.MatchID.Int64()
	if err != nil {
		writeError(w, http.StatusUnprocessableEntity, "invalid_result")
		return
	}
	if matchID != m.ID || reserved.SessionNonce != m.Nonce {
		writeError(w, http.StatusUnprocessableEntity, "result_not_for_match")
		return
	}
	if m.side(reserved.Winner) == 0 {
		writeError(w, http.StatusUnprocessableEntity, "invalid_winner")
		return
	}
	own, other := &m.hashes[side-1], m.hashes[2-side]
	switch {
	case *own == sub.ResultHash:
		writeJSON(w, http.StatusOK, map[string]any{"status": "duplicate", "matchStatus": m.Status})
		return
	case *own != "":
		writeError(w, http.StatusConflict, "already_submitted")
		return
	}
	*own = sub.ResultHash
	m.scores = append(m.scores, string(sub.Score))
	status := "pending"
	switch {
	case other == "":
		m.Status = "awaiting_result"
	case other == sub.ResultHash && m.BestOf > 1:
		status = "confirmed"
		m.decideGame(reserved.Winner)
	case other == sub.ResultHash:
		m.Status, status = "confirmed", "confirmed"
		m.winner = reserved.Winner
	default:
		m.Status, status = "disputed", "disputed"
	}
	writeJSON(w, http.StatusOK, map[string]any{"status": status, "matchStatus": m.Status})
}

// publicMatch answers GET /api/v1/matches/{id}, the public match object
// (no ticket), for the arena's match.
func (a *fakeArena) publicMatch(w http.ResponseWriter, r *http.Request) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.requests = append(a.requests, recordedRequest{Method: r.Method, Path: r.URL.Path, Auth: r.Header.Get("Authorization")})
	m := a.match
	if m == nil || r.PathValue("id") != strconv.FormatInt(m.ID, 10) {
		writeError(w, http.StatusNotFound, "match_not_found")
		return
	}
	player := func(id string) any {
		if id == "" {
			return nil
		}
		return map[string]any{"platformId": id, "personaName": "P" + id[len(id)-2:], "avatarUrl": ""}
	}
	pm := map[string]any{
		"id": m.ID, "stage": "group", "round": "Round 1", "bracketSlot": nil, "status": m.Status,
		"opensAt": "2026-03-14T14:00:00Z", "closesAt": "2026-03-14T16:00:00Z",
		"player1": player(m.Sides[0][0]), "player2": player(m.Sides[1][0]), "winner": player(m.winner),
		"score": nil, "resultSource": nil, "tournament": map[string]any{"slug": "spring-cup", "name": "Spring Cup"},
	}
	if m.BestOf > 0 {
		games := []any{}
		for i, w := range m.games {
			games = append(games, map[string]any{"game": i + 1, "status": "confirmed", "winner": player(m.Sides[m.side(w)-1][0]),
				"resultSource": "game_client", "score": nil, "decidedAt": "2026-03-14T14:30:00Z"})
		}
		if m.Status == "live" || m.Status == "awaiting_result" || m.Status == "disputed" {
			games = append(games, map[string]any{"game": len(m.games) + 1, "status": m.Status, "winner": nil,
				"resultSource": nil, "score": nil, "decidedAt": nil})
		}
		pm["bestOf"], pm["seriesScore"], pm["games"] = m.BestOf, m.seriesScore(), games
	}
	writeJSON(w, http.StatusOK, pm)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, status int, code string) {
	writeJSON(w, status, map[string]string{"error": code})
}
