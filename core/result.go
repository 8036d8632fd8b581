package core

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"time"
)

// ResultProtocol is the game-client result protocol tag (spec 9.3).
const ResultProtocol = "svc.result.v3"

// MaxResultBytes caps the result string, in UTF-8 bytes (spec 8).
const MaxResultBytes = 65536

// Protocol errors (spec section 7).
const (
	CodeNotParticipant      = "not_participant"      // 403
	CodeNotLive             = "not_live"             // 409
	CodeAlreadySubmitted    = "already_submitted"    // 409
	CodeUnsupportedProtocol = "unsupported_protocol" // 422
	CodeInvalidResult       = "invalid_result"       // 422
	CodeInvalidResultHash   = "invalid_resultHash"   // 422
	CodeHashMismatch        = "hash_mismatch"        // 422
	CodeResultNotForMatch   = "result_not_for_match" // 422
	CodeOpponentUndecided   = "opponent_undecided"   // 409
	CodePastReadyPhase      = "past_ready_phase"     // 409
	CodeWindowNotOpen       = "window_not_open"      // 409
	CodeWindowClosed        = "window_closed"        // 409
)

// Submission statuses answered to the client (spec 2.3).
const (
	SubmitPending   = "pending"
	SubmitConfirmed = "confirmed"
	SubmitDisputed  = "disputed"
	SubmitDuplicate = "duplicate"
)

// ResultSubmission is a validated request body of POST .../result:
// Result is kept as the exact string received; metadata that failed
// validation has already been dropped.
type ResultSubmission struct {
	Protocol   string
	Result     string
	ResultHash string
	ClientRole string        // "host", "guest" or ""
	StartedAt  *time.Time    // never hashed
	EndedAt    *time.Time    // never hashed
	Score      *OutcomeScore // never hashed; slot order
}

// MatchState is a match as the protocol sees it: the match, its
// tournament's settings, the two sides' rosters and what each side
// submitted so far.
type MatchState struct {
	Match
	Tournament      Tournament
	P1Roster        []string
	P2Roster        []string
	SubmittedHash   [3]string // by side (index 1 and 2); "" when none
	ConsentsGranted int       // sides whose captains granted referee consent
	P1Name, P2Name  string
}

// SideOf returns the side (1 or 2) whose roster holds the account, or 0.
func (s *MatchState) SideOf(platformID string) int {
	if platformID == "" {
		return 0
	}
	for _, id := range s.P1Roster {
		if id == platformID {
			return 1
		}
	}
	for _, id := range s.P2Roster {
		if id == platformID {
			return 2
		}
	}
	return 0
}

// Captain returns the captain (the side's id) of side 1 or 2.
func (s *MatchState) Captain(side int) string {
	if side == 1 {
		return s.P1
	}
	return s.P2
}

var (
	resultHashPattern = LazyRegexp(`^[0-9a-f]{64}$`)
)

// CheckBody applies rule 3 of the submission rules and the resultHash
// format: protocol, then the result string, then the hash's shape.
func CheckBody(sub *ResultSubmission, hasResult bool) error {
	if sub.Protocol != ResultProtocol {
		return Errorf(CodeUnsupportedProtocol, "protocol must be %s", ResultProtocol)
	}
	if !hasResult || sub.Result == "" || len(sub.Result) > MaxResultBytes {
		return Errorf(CodeInvalidResult, "result missing, empty or over %d bytes", MaxResultBytes)
	}
	if !resultHashPattern().MatchString(sub.ResultHash) {
		return Errorf(CodeInvalidResultHash, "resultHash must be 64 lowercase hex characters")
	}
	return nil
}

// CheckSubmission applies rules 4 to 10 to a body that passed CheckBody,
// for the verified caller, in the spec's order. It returns the caller's
// side, result.winner and the captain of the side it names. Rule 11 (one
// hash per side) and 12 (reconciliation) belong to the store's atomic step.
func CheckSubmission(st *MatchState, caller string, sub *ResultSubmission) (side int, winner, winnerCaptain string, err error) {
	side = st.SideOf(caller)
	if side == 0 { // rule 4
		return 0, "", "", Errorf(CodeNotParticipant, "the caller plays on neither side")
	}
	if st.Status.Resolved() { // rule 5
		return 0, "", "", Errorf(CodeAlreadyResolved, "match %d is resolved", st.ID)
	}
	if (st.Status != MatchLive && st.Status != MatchAwaitingResult) || st.SessionNonce == "" { // rule 6
		return 0, "", "", Errorf(CodeNotLive, "match %d is %s", st.ID, st.Status)
	}
	if ResultHash([]byte(sub.Result)) != sub.ResultHash { // rule 7
		return 0, "", "", Errorf(CodeHashMismatch, "resultHash differs from the result's SHA-256")
	}
	reserved, err := parseReserved(sub.Result) // rule 8
	if err != nil {
		return 0, "", "", err
	}
	if reserved.matchID != st.ID || reserved.sessionNonce != st.SessionNonce { // rule 9
		return 0, "", "", Errorf(CodeResultNotForMatch, "matchId or sessionNonce is not this match's")
	}
	winnerSide := st.SideOf(reserved.winner) // rule 10
	if winnerSide == 0 {
		return 0, "", "", Errorf(CodeInvalidWinner, "result.winner plays on neither side")
	}
	return side, reserved.winner, st.Captain(winnerSide), nil
}

// ResultHash is the lowercase hex SHA-256 of the exact bytes.
func ResultHash(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

type reservedKeys struct {
	matchID      int64
	sessionNonce string
	winner       string
}

// parseReserved reads the three reserved keys of a result: an I-JSON
// object (no member name twice at any depth, no lone surrogate) with an
// integer matchId, a non-empty string sessionNonce and a 17-digit winner.
// The rest belongs to the game and is only walked, never interpreted.
func parseReserved(result string) (reservedKeys, error) {
	bad := func() (reservedKeys, error) {
		return reservedKeys{}, Errorf(CodeInvalidResult, "result is not an I-JSON object with matchId, sessionNonce and winner")
	}
	obj, err := readIJSONObject(result, "matchId", "sessionNonce", "winner")
	if err != nil {
		return bad()
	}
	var k reservedKeys
	num, ok := obj["matchId"].(json.Number)
	if !ok {
		return bad()
	}
	id, err := strconv.ParseInt(num.String(), 10, 64)
	if err != nil {
		return bad()
	}
	k.matchID = id
	if k.sessionNonce, ok = obj["sessionNonce"].(string); !ok || k.sessionNonce == "" {
		return bad()
	}
	if k.winner, ok = obj["winner"].(string); !ok || !ValidPlatformID(k.winner) {
		return bad()
	}
	return k, nil
}

// SubmissionRecord is one side's stored submission.
type SubmissionRecord struct {
	MatchID      int64         `json:"matchId"`
	Side         int           `json:"side"`
	SubmitterID  string        `json:"submitterId"`
	AppID        string        `json:"appId"`
	Result       string        `json:"result"`
	ResultHash   string        `json:"resultHash"`
	WinnerID     string        `json:"winner"`
	WinnerSideID string        `json:"winnerSide"`
	ClientRole   string        `json:"clientRole,omitempty"`
	StartedAt    *time.Time    `json:"startedAt,omitempty"`
	EndedAt      *time.Time    `json:"endedAt,omitempty"`
	Score        *OutcomeScore `json:"score,omitempty"`
	ReceivedAt   time.Time     `json:"receivedAt"`
	Token        string        `json:"-"`
}

// SubmitOutcome is what a submission did: the status answered to the
// client and the match's status afterwards.
type SubmitOutcome struct {
	Status      string
	MatchStatus MatchStatus
	Match       *Match // the match after the call
}
