package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"arena/core"
)

// Submission is what Submit sent and what the arena answered.
type Submission struct {
	MatchID    int64
	Result     string // the canonical result string: exactly the bytes hashed and posted
	ResultHash string // lowercase hex SHA-256 of Result
	// Status is the arena's verdict on this submission: pending,
	// confirmed, disputed or duplicate. Empty when no 200 was received.
	Status      string
	MatchStatus string // the match's status after the call
	Attempts    int    // POSTs made, 1..MaxSubmitAttempts
	// Winner is set with Status StatusDecided: the platform id of the
	// decided match's winner, as the public match look-up answered.
	Winner string
	// Won is set with Status StatusDecided after a restart (see
	// StatusUndecided): whether the winner is the caller's side. Nil
	// when the look-up cannot tell: a team member who is not a
	// captain (the public match names the captains only), or no winner.
	Won *bool
	// Series: the game this submission is for and the series score after
	// it, as far as this client knows: discovery's score, plus the game
	// when the answer confirmed it, or the public match's score when a
	// look-up answered. BestOf 1 (or 0, from an arena without series) is a
	// single match.
	Series
}

// SeriesGoesOn reports whether the submission's game is decided and its
// series is not: the game client readies for the next game (Ready) and
// plays it. MatchStatus is then scheduled (or live, when both sides
// readied for the next game already).
func (s *Submission) SeriesGoesOn() bool {
	return (s.Status == core.SubmitConfirmed || s.Status == StatusDecided) &&
		!core.MatchStatus(s.MatchStatus).Resolved()
}

// StatusDecided is the Status of a submission whose answer was lost: a
// retry was answered 409 already_resolved (or 200 duplicate) and the
// public match look-up showed the match decided for the submitted
// winner's side. MatchStatus is then confirmed or forfeited.
const StatusDecided = "decided"

// StatusUndecided is the Status of a submission made after a restart
// (SubmitRequest.MatchID set, discovery answers no live match) for a
// match the public look-up shows not decided (e.g. disputed): nothing
// was sent; MatchStatus is the match's status.
const StatusUndecided = "undecided"

// SubmitRequest is what the game reports on the session it just played.
type SubmitRequest struct {
	// LocalAccountID is the account this client plays as.
	LocalAccountID string
	// ActualOpponentID is the opponent the game actually played (1v1
	// anti-mixup guard; ignored in team mode).
	ActualOpponentID string
	// MatchID, when positive, is the match the game played: the fresh
	// discovery must return this match, else ErrMatchMismatch.
	MatchID int64
	// Game, when positive (with MatchID), is the game of the series the
	// game played. When discovery shows the match at another game, or no
	// live match, that game is over: nothing is posted and the public
	// match says how it ended (a lost answer across a restart).
	Game int
	// Result is the game's own result as JSON text (an object); nil or
	// empty is {}. See CanonicalResultJSON.
	Result []byte
	// Winner is any member of the winning side; empty is a draw.
	Winner string
	// Score is optional metadata in slot order, sent as-is, never hashed.
	Score *Score
	// Held, when set, is the live match the game holds: the one discovery
	// gave it when the session began (LiveMatch, WaitForLiveMatch). Submit
	// then posts on it without a fresh discovery, one round trip to the
	// arena instead of two (docs/protocol.md "Submitting on the held
	// match"); every check of steps 3 to 5 runs on it, and the arena
	// refuses a match no longer live (409 not_live, already_resolved) as
	// it would after discovery. MatchID and Game, when set, must name it.
	Held *LiveMatch
}

// resultSubmission is the request body of POST /api/v1/matches/{id}/result
// (spec 2.3).
type resultSubmission struct {
	Protocol   string `json:"protocol"`
	Result     string `json:"result"`
	ResultHash string `json:"resultHash"`
	ClientRole string `json:"clientRole,omitempty"`
	EndedAt    string `json:"endedAt"`
	Score      *Score `json:"score,omitempty"`
}

// resultAnswer is the 200 body of a result submission.
type resultAnswer struct {
	Status      string `json:"status"`
	MatchStatus string `json:"matchStatus"`
}

// SubmitBackoff is the wait before the next result POST after a
// retryable failure: 2^(maxAttempts - attemptsLeft + 1) seconds (spec
// 4.4), where attemptsLeft is the number of attempts still allowed after
// the one that just failed, i.e. maxAttempts minus the attempts made. So
// after the k-th failed attempt the wait is 2^(k+1) seconds: 4s, 8s, 16s,
// 32s. Submit never waits after its last attempt (attemptsLeft 0).
func SubmitBackoff(maxAttempts, attemptsLeft int) time.Duration {
	return time.Second << max(maxAttempts-attemptsLeft+1, 0)
}

// Submit reports the outcome of the session the local player just played,
// following spec 4.4 step by step:
//
//  1. Disabled client: ErrDisabled. Empty winner (a draw): ErrDraw; no
//     request is made, the protocol has no draw.
//  2. Fresh discovery (none when SubmitRequest.Held is the match the
//     game holds: it is used as discovery's answer). No live match: ErrNoLiveMatch, unless
//     SubmitRequest.MatchID names the match played: it is then looked up
//     (a lost answer across a restart, see StatusUndecided); a match
//     that is not Valid: ErrInvalidLiveMatch; a discovery failure is
//     returned wrapped.
//  3. localAccountID must be on a side (p1/p2 in 1v1, a roster in team
//     mode), else ErrNotParticipant.
//  4. 1v1 only: actualOpponentID, the opponent the game actually played,
//     must equal opponentPlatformId, else ErrOpponentMismatch. Ignored in
//     team mode.
//  5. winner must be on a side (any roster member in team mode), else
//     ErrWinnerNotOnSide.
//  6. The result string is CanonicalResult(gameResult, matchId,
//     sessionNonce, winner), RFC 8785 over I-JSON; gameResult is the
//     game's own result object and is not modified; a refusal is a
//     *CanonicalError. resultHash is ResultHash of its bytes.
//  7. POST /api/v1/matches/{id}/result with protocol svc.result.v3,
//     clientRole from Settings (omitted when empty) and endedAt, the
//     injected clock's now in UTC, RFC 3339, read once so every attempt
//     posts identical bytes.
//
// Each attempt gets a fresh ticket. A network failure (no status) or a
// status >= 500 is retried after SubmitBackoff, up to MaxSubmitAttempts
// attempts; when all fail the error wraps ErrRetriesExhausted and the last
// failure. Any other answer is final: a 4xx is returned as *APIError with
// its status and code (e.g. 409 already_submitted), a ticket failure as
// is, a 200 that does not decode as ErrBadResponse. Cancelling ctx stops
// at once with ctx.Err().
//
// Lost answers: when a retry is answered 409 already_resolved or 200
// duplicate, an earlier attempt may have reached the arena with its
// answer lost. The match is then looked up (Match, no ticket): decided
// (confirmed or forfeited) for the submitted winner's side, the
// submission succeeded with Status StatusDecided and the match's Winner;
// otherwise the answer stands.
//
// Failures up to step 6 (refusals, discovery failures, a game result that
// cannot be canonicalized) post nothing and return a nil Submission. Once
// the result string exists the Submission is always returned, carrying
// the canonical string and hash (for logs or a later resubmission), the
// attempts made and, on success, the arena's status.
func (c *Client) Submit(ctx context.Context, localAccountID, actualOpponentID string, gameResult map[string]any, winner string) (*Submission, error) {
	return c.submit(ctx, SubmitRequest{LocalAccountID: localAccountID, ActualOpponentID: actualOpponentID, Winner: winner},
		func(m *LiveMatch) ([]byte, error) {
			return CanonicalResult(gameResult, m.MatchID, m.SessionNonce, winner)
		})
}

// SubmitJSON is Submit for a game whose result is JSON text (the form
// every client shares, see CanonicalResultJSON), with the optional match
// check and score metadata of req.
func (c *Client) SubmitJSON(ctx context.Context, req SubmitRequest) (*Submission, error) {
	result := req.Result
	if len(bytes.TrimSpace(result)) == 0 {
		result = []byte("{}")
	}
	return c.submit(ctx, req, func(m *LiveMatch) ([]byte, error) {
		return CanonicalResultJSON(result, m.MatchID, m.SessionNonce, req.Winner)
	})
}

func (c *Client) submit(ctx context.Context, req SubmitRequest, canonicalize func(*LiveMatch) ([]byte, error)) (*Submission, error) {
	if !c.settings.Enabled {
		return nil, ErrDisabled
	}
	winner := req.Winner
	if winner == "" {
		return nil, ErrDraw
	}
	m := req.Held
	if m == nil {
		var err error
		if m, err = c.LiveMatch(ctx); err != nil {
			return nil, fmt.Errorf("client: submit: discovery: %w", err)
		}
	} else if req.MatchID > 0 && req.Game > 0 && m.MatchID == req.MatchID && m.Game != req.Game {
		return nil, fmt.Errorf("%w: played game %d, the held match is at game %d", ErrMatchMismatch, req.Game, m.Game)
	}
	if m == nil {
		if req.MatchID > 0 {
			return c.noLiveMatch(ctx, req)
		}
		return nil, ErrNoLiveMatch
	}
	if req.MatchID > 0 && req.Game > 0 && m.MatchID == req.MatchID && m.Game != req.Game {
		return c.noLiveMatch(ctx, req) // the series moved on from the game played
	}
	if !m.Valid() {
		return nil, fmt.Errorf("%w: match %d, slot %d, protocol %q", ErrInvalidLiveMatch, m.MatchID, m.Slot, m.ResultProtocol)
	}
	if req.MatchID > 0 && m.MatchID != req.MatchID {
		return nil, fmt.Errorf("%w: played %d, live match is %d", ErrMatchMismatch, req.MatchID, m.MatchID)
	}
	if m.Side(req.LocalAccountID) == 0 {
		return nil, fmt.Errorf("%w: %q in match %d", ErrNotParticipant, req.LocalAccountID, m.MatchID)
	}
	if !m.IsTeam() && req.ActualOpponentID != m.OpponentPlatformID {
		return nil, fmt.Errorf("%w: played %q, match %d expects %q", ErrOpponentMismatch, req.ActualOpponentID, m.MatchID, m.OpponentPlatformID)
	}
	if m.Side(winner) == 0 {
		return nil, fmt.Errorf("%w: %q in match %d", ErrWinnerNotOnSide, winner, m.MatchID)
	}

	canonical, err := canonicalize(m)
	if err != nil {
		return nil, err
	}
	sub := &Submission{MatchID: m.MatchID, Result: string(canonical), ResultHash: ResultHash(canonical), Series: m.Series}
	body, err := encodeSubmission(resultSubmission{
		Protocol:   ResultProtocol,
		Result:     sub.Result,
		ResultHash: sub.ResultHash,
		ClientRole: c.settings.ClientRole,
		EndedAt:    c.now().UTC().Format(time.RFC3339),
		Score:      req.Score,
	})
	if err != nil {
		return sub, err
	}
	return sub, c.postResult(ctx, sub, body, m, winner)
}

// postResult runs the attempts of step 7 and fills sub from the answer.
// After a retryable failure, an answer of 409 already_resolved or 200
// duplicate may be the server's verdict on a previous attempt whose
// answer was lost: the match is then looked up (lostAnswer).
func (c *Client) postResult(ctx context.Context, sub *Submission, body []byte, m *LiveMatch, winner string) error {
	path := fmt.Sprintf("/api/v1/matches/%d/result", sub.MatchID)
	maxAttempts := c.settings.MaxSubmitAttempts
	attemptsLeft := maxAttempts
	for {
		sub.Attempts++
		attemptsLeft--
		var answer resultAnswer
		found, err := c.call(ctx, http.MethodPost, path, body, &answer)
		retried := sub.Attempts > 1
		switch {
		case err == nil && found:
			sub.Status, sub.MatchStatus = answer.Status, answer.MatchStatus
			if answer.Status == core.SubmitConfirmed {
				sub.SeriesScore.add(m.Side(winner))
			}
			if retried && answer.Status == core.SubmitDuplicate {
				c.lostAnswer(ctx, sub, m, winner)
			}
			return nil
		case retried && (isCode(err, http.StatusConflict, core.CodeAlreadyResolved) ||
			m.IsSeries() && isCode(err, http.StatusConflict, core.CodeNotLive)):
			if c.lostAnswer(ctx, sub, m, winner) {
				return nil
			}
			return err
		case err == nil:
			return fmt.Errorf("%w: POST %s: 204 without a status", ErrBadResponse, path)
		case ctx.Err() != nil:
			return ctx.Err()
		case !retryable(err):
			return err
		case attemptsLeft == 0:
			return fmt.Errorf("%w after %d attempts: %w", ErrRetriesExhausted, sub.Attempts, err)
		}
		wait := SubmitBackoff(maxAttempts, attemptsLeft)
		c.logf("client: submit match %d attempt %d failed, retrying in %s: %v", sub.MatchID, sub.Attempts, wait, err)
		if err := c.sleep(ctx, wait); err != nil {
			return err
		}
	}
}

// lostAnswer looks the match up after a retry was answered
// already_resolved or duplicate. When the match is decided (confirmed or
// forfeited) and its winner is on the side of the winner this client
// submitted, sub becomes StatusDecided and it returns true; otherwise
// (another winner, not decided, the look-up failed) sub is unchanged.
//
// In a series the game is what was submitted: a retry of a game decided
// since is answered 409 not_live (the match went back to scheduled) or
// already_resolved (the game decided the series). The game (m.Game) is
// then found among the public match's decided games; decided for the
// submitted winner's side, sub becomes StatusDecided with the series
// score and the match's status (scheduled or live: the series goes on;
// confirmed: it is decided).
func (c *Client) lostAnswer(ctx context.Context, sub *Submission, m *LiveMatch, winner string) bool {
	pm, err := c.Match(ctx, sub.MatchID)
	if err != nil {
		c.logf("client: submit match %d: looking the match up after a lost answer: %v", sub.MatchID, err)
		return false
	}
	var won *PublicPlayer
	if m.IsSeries() {
		if g := pm.DecidedGame(m.Game); g != nil {
			won = g.Winner
		}
	} else if pm.Decided() {
		won = pm.Winner
	}
	if won == nil || m.Side(won.PlatformID) != m.Side(winner) {
		return false
	}
	sub.Status, sub.MatchStatus, sub.Winner = StatusDecided, pm.Status, won.PlatformID
	if m.IsSeries() {
		sub.SeriesScore = pm.SeriesScore
	}
	return true
}

// noLiveMatch answers a submission for match req.MatchID when discovery
// says the caller has no live match (or, with req.Game, that the series
// is at another game): the game may have sent its result and crashed, or
// lost the connection, before reading the answer, and the match (or the
// game) was decided since. The public match (Match, no ticket) says how it
// ended: decided (Status StatusDecided, with the Winner and Won) or not
// (StatusUndecided); nothing is posted either way. With req.Game, in a
// series, the game is looked for among the decided games: decided, its
// winner is reported with the series score and the match's status
// (scheduled or live: the series goes on). A match the arena does not know
// stays ErrNoLiveMatch.
func (c *Client) noLiveMatch(ctx context.Context, req SubmitRequest) (*Submission, error) {
	pm, err := c.Match(ctx, req.MatchID)
	if isCode(err, http.StatusNotFound, core.CodeMatchNotFound) {
		return nil, fmt.Errorf("%w: match %d is not known either", ErrNoLiveMatch, req.MatchID)
	}
	if err != nil {
		return nil, fmt.Errorf("client: submit: no live match; looking match %d up: %w", req.MatchID, err)
	}
	sub := &Submission{MatchID: req.MatchID, Status: StatusUndecided, MatchStatus: pm.Status}
	var won *PublicPlayer
	if pm.BestOf > 1 {
		sub.Series = Series{Game: req.Game, BestOf: pm.BestOf, SeriesScore: pm.SeriesScore}
		if g := pm.DecidedGame(req.Game); g != nil {
			sub.Status, won = StatusDecided, g.Winner
		}
	}
	if sub.Status == StatusUndecided && pm.Decided() {
		sub.Status, won = StatusDecided, pm.Winner
	}
	if won != nil {
		sub.Winner = won.PlatformID
		if local, w := pm.side(req.LocalAccountID), pm.side(sub.Winner); local != 0 && w != 0 {
			b := local == w
			sub.Won = &b
		}
	}
	return sub, nil
}

// isCode reports whether err is an *APIError with this status and code.
func isCode(err error, status int, code string) bool {
	var apiErr *APIError
	return errors.As(err, &apiErr) && apiErr.Status == status && apiErr.Code == code
}

// retryable reports whether a failed attempt may be repeated: a network
// failure (status 0) or a status >= 500.
func retryable(err error) bool {
	if isTransport(err) {
		return true
	}
	var apiErr *APIError
	return errors.As(err, &apiErr) && apiErr.Retryable()
}

// encodeSubmission writes the request body without HTML escaping, so the
// result string travels as readable as it was hashed (the escaping would
// be undone by the server's JSON decoder either way).
func encodeSubmission(s resultSubmission) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return nil, fmt.Errorf("client: submit: encoding body: %w", err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
