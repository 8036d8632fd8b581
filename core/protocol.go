package core

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"io"
	"maps"
	"slices"
	"time"
)

// MatchStateReader reads a match's state, as the protocol's rules and
// the match's readers check it.
type MatchStateReader interface {
	// MatchState returns the match with its tournament settings, rosters and
	// submissions, or CodeMatchNotFound.
	MatchState(ctx context.Context, id int64) (*MatchState, error)
}

// ProtocolStore is what a player's protocol steps read and write: the
// match, the side's ready, and the player's matches. Every state change
// is one conditional statement or one batch.
type ProtocolStore interface {
	MatchStateReader
	// MarkReady marks the side ready while the match is scheduled and its
	// window open; when both sides are ready the match goes live with the
	// nonce and seed. CodePastReadyPhase when the match left that state.
	MarkReady(ctx context.Context, matchID int64, side int, now time.Time, nonce string, seed int64) (ReadyOutcome, error)
	// PlayerMatches returns the decided matches (both sides known) in the
	// given statuses of every side the player is on, earliest window first.
	PlayerMatches(ctx context.Context, platformID string, statuses ...MatchStatus) ([]MatchState, error)
}

// ReadyOutcome is the answer to POST .../ready.
type ReadyOutcome struct {
	Status        MatchStatus `json:"status"`
	Live          bool        `json:"live"`
	OpponentReady bool        `json:"opponentReady"`
}

// Ready marks the caller's side ready (any roster member readies for the
// side). Checks, in order: the match exists and the environment gate shows
// it (else CodeMatchNotFound), the caller plays in it (CodeNotParticipant),
// both sides are decided (CodeOpponentUndecided), the match is scheduled
// (CodePastReadyPhase), its window is open (CodeWindowNotOpen,
// CodeWindowClosed). When both sides are ready the match goes live with a
// 128-bit URL-safe sessionNonce and a non-zero 32-bit gameSeed from deps.Random.
func Ready(ctx context.Context, ps ProtocolStore, a *Arena, caller Caller, matchID int64, deps Deps) (ReadyOutcome, error) {
	st, err := ps.MatchState(ctx, matchID)
	if err != nil {
		return ReadyOutcome{}, err
	}
	if !EnvironmentVisible(a, caller.AppID, st.Tournament.Environment) {
		return ReadyOutcome{}, Errorf(CodeMatchNotFound, "no match %d for this build", matchID)
	}
	side := st.SideOf(caller.PlatformID)
	switch {
	case side == 0:
		return ReadyOutcome{}, Errorf(CodeNotParticipant, "the caller plays on neither side")
	case st.P1 == "" || st.P2 == "":
		return ReadyOutcome{}, Errorf(CodeOpponentUndecided, "the opponent is not decided yet")
	case st.Status != MatchScheduled:
		return ReadyOutcome{}, Errorf(CodePastReadyPhase, "match %d is %s", matchID, st.Status)
	case st.Window(deps.Now) == WindowBefore:
		return ReadyOutcome{}, Errorf(CodeWindowNotOpen, "the window opens at %s", st.OpensAt.Format(time.RFC3339))
	case st.Window(deps.Now) == WindowClosed:
		return ReadyOutcome{}, Errorf(CodeWindowClosed, "the window closed at %s", st.ClosesAt.Format(time.RFC3339))
	}
	nonce, seed, err := liveSecrets(deps.Random)
	if err != nil {
		return ReadyOutcome{}, err
	}
	return ps.MarkReady(ctx, matchID, side, deps.Now, nonce, seed)
}

// liveSecrets draws a session nonce (128 random bits, base64url) and a
// non-zero 32-bit game seed (0 means a casual session to clients).
func liveSecrets(random io.Reader) (string, int64, error) {
	var b [20]byte
	if _, err := io.ReadFull(random, b[:]); err != nil {
		return "", 0, fmt.Errorf("core: unable to read randomness: %w", err)
	}
	seed := int64(binary.BigEndian.Uint32(b[16:]))
	if seed == 0 {
		seed = 1
	}
	return base64.RawURLEncoding.EncodeToString(b[:16]), seed, nil
}

// ResultStore is what deciding a match from the game clients' results
// reads and writes: a submission (with the tournament it may complete), a
// single submission's grace period, the ready side at a window's close
// and, for the consequences, the tournament (DecidedByIDStore). One
// value, the arena's store, serves it. Every state change is one
// conditional statement or one batch.
type ResultStore interface {
	DecidedByIDStore
	// SubmitResult stores the side's submission and reconciles the match
	// atomically (the storing half of rules 11 and 12: a side's first
	// submission is the one kept); a confirming submission's batch seats
	// the winner and loser as every decision does. It returns what the
	// batch left, for SubmitResult's answer. A completion worked out ahead
	// (CompletionAhead; nil: none) joins the batch on its condition, and
	// StoredSubmission.Settled says whether it held.
	SubmitResult(ctx context.Context, st *MatchState, rec SubmissionRecord, then *Completion) (StoredSubmission, error)
	// MatchPlay returns the tournament of an awaiting final or small
	// final with its sides and matches, read with the match when the
	// route planned it (what CompletionAhead works on); a nil tournament
	// for any other match.
	MatchPlay(ctx context.Context, matchID int64) (*Tournament, []Registration, []Match, error)
	// GraceExpired returns awaiting_result matches whose only submission
	// arrived at least their tournament's grace period before now (its
	// own, else arenaGrace: Tournament.GracePeriod).
	GraceExpired(ctx context.Context, now time.Time, arenaGrace time.Duration) ([]int64, error)
	// ConfirmSingleSubmission confirms an awaiting_result match for its
	// single submission's winner, seating winner and loser in the same
	// batch; false when it is no longer awaiting (token tells this call's
	// decision from a racing one's).
	ConfirmSingleSubmission(ctx context.Context, matchID int64, at time.Time, token string) (bool, error)
	// ReadySideAtClose returns the scheduled matches past their window with
	// exactly one side ready, mapped to that side's captain.
	ReadySideAtClose(ctx context.Context, now time.Time) (map[int64]string, error)
	// ForfeitUnready forfeits such a match in the ready side's favour,
	// seating winner and loser in the same batch; false when it changed
	// meanwhile (token tells this call's decision from a racing one's).
	ForfeitUnready(ctx context.Context, matchID int64, winner string, now time.Time, token string) (bool, error)
}

// SubmitResult runs rules 4 to 12 of a result submission whose body passed
// CheckBody, for the verified caller, on the match state read for rule 2.
// A submission that confirms the match moves the tournament on
// (MatchDecided), with the ladder points table deps.Points returns (read only
// when a final completes it).
func SubmitResult(ctx context.Context, ps ResultStore, st *MatchState, caller Caller, sub *ResultSubmission, deps Deps) (SubmitOutcome, error) {
	side, winner, winnerSide, err := CheckSubmission(st, caller.PlatformID, sub)
	if err != nil {
		return SubmitOutcome{}, err
	}
	if prev := st.SubmittedHash[side]; prev != "" { // rule 11, on the state read for rule 2
		return sideSubmittedBefore(side, prev, sub.ResultHash, st.Status)
	}
	token, err := RandomHex(deps.Random, 12)
	if err != nil {
		return SubmitOutcome{}, err
	}
	score := sub.Score
	if CheckReportedScore(st.P1, winnerSide, score) != nil {
		score = nil // metadata: an impossible score is dropped, not refused
	}
	rec := SubmissionRecord{
		MatchID: st.ID, Side: side, SubmitterID: caller.PlatformID, AppID: caller.AppID,
		Result: sub.Result, ResultHash: sub.ResultHash, WinnerID: winner, WinnerSideID: winnerSide,
		ClientRole: sub.ClientRole, StartedAt: sub.StartedAt, EndedAt: sub.EndedAt, Score: score, ReceivedAt: deps.Now, Token: token,
	}
	// A submission that confirms a final carries its tournament's
	// completion in its own batch (two round trips in all).
	var then *Completion
	if other := st.SubmittedHash[3-side]; other != "" && other == sub.ResultHash && st.SeriesLen() == 1 &&
		(st.Stage == StageFinal || st.Stage == StageSmallFinal) {
		t, regs, matches, err := ps.MatchPlay(ctx, st.ID)
		if err != nil {
			return SubmitOutcome{}, err
		}
		if then, err = CompletionAhead(t, regs, matches, &st.Match, winnerSide, score, deps.Now, deps.Points); err != nil {
			return SubmitOutcome{}, err
		}
	}
	stored, err := ps.SubmitResult(ctx, st, rec, then) // rule 12
	if err != nil {
		return SubmitOutcome{}, err
	}
	out, err := stored.answer(rec)
	if err != nil {
		return out, err
	}
	if out.MatchStatus.Resolved() && !stored.Settled {
		if err := MatchDecided(ctx, ps, &st.Match, deps.Now, deps.Points); err != nil {
			return out, err
		}
	}
	return out, nil
}

// StoredSubmission is what a submission's batch left: the match's status
// and the side's stored submission (none: Token and Hash empty), read in
// the batch's own transaction.
type StoredSubmission struct {
	MatchStatus MatchStatus
	Token       string // the stored submission's token: the batch's own when it stored it
	Hash        string // the stored submission's resultHash
	// Settled: the batch's Completion held (the tournament was as worked
	// out, and completed if Done): nothing is left for MatchDecided.
	Settled bool
}

// reconciled is rule 12's answer by the status a stored submission left.
var reconciled = map[MatchStatus]string{
	MatchAwaitingResult: SubmitPending,
	MatchConfirmed:      SubmitConfirmed,
	MatchDisputed:       SubmitDisputed,
	// A game of a series confirmed, and the series goes on.
	MatchScheduled: SubmitConfirmed,
}

// answer is the submission's answer from what its batch left: rule 12's
// verdict when the batch stored it; otherwise another submission of the
// side got there first (rule 11), or the match left the live states
// meanwhile (rules 5 and 6).
func (s StoredSubmission) answer(rec SubmissionRecord) (SubmitOutcome, error) {
	switch {
	case s.Token == rec.Token:
		status, ok := reconciled[s.MatchStatus]
		if !ok {
			return SubmitOutcome{}, fmt.Errorf("core: submission stored but match %d is %s", rec.MatchID, s.MatchStatus)
		}
		return SubmitOutcome{Status: status, MatchStatus: s.MatchStatus}, nil
	case s.Hash != "":
		return sideSubmittedBefore(rec.Side, s.Hash, rec.ResultHash, s.MatchStatus)
	case s.MatchStatus.Resolved():
		return SubmitOutcome{}, Errorf(CodeAlreadyResolved, "match %d was resolved meanwhile", rec.MatchID)
	default:
		return SubmitOutcome{}, Errorf(CodeNotLive, "match %d is %s", rec.MatchID, s.MatchStatus)
	}
}

// sideSubmittedBefore is rule 11: the side's earlier submission stands;
// the same hash again is a duplicate, another is refused.
func sideSubmittedBefore(side int, stored, sent string, status MatchStatus) (SubmitOutcome, error) {
	if stored == sent {
		return SubmitOutcome{Status: SubmitDuplicate, MatchStatus: status}, nil
	}
	return SubmitOutcome{}, Errorf(CodeAlreadySubmitted, "side %d already submitted another hash", side)
}

// RunGracePeriod confirms awaiting_result matches whose second submission
// did not come within their tournament's grace period, for the single submission's
// winner, with resultSource player_report: one side's attestation weighs
// what an uncontested player report does (spec 3), not what two agreeing
// clients do. It returns how many matches it confirmed; running it again
// changes nothing more.
func RunGracePeriod(ctx context.Context, ps ResultStore, a *Arena, deps Deps) (int, error) {
	ids, err := ps.GraceExpired(ctx, deps.Now, a.GracePeriod())
	if err != nil {
		return 0, err
	}
	done := 0
	for _, id := range ids {
		token, err := RandomHex(deps.Random, 12)
		if err != nil {
			return done, err
		}
		ok, err := ps.ConfirmSingleSubmission(ctx, id, deps.Now, token)
		if err != nil {
			return done, err
		}
		if ok {
			done++
			if err := decidedByID(ctx, ps, id, deps.Now, deps.Points); err != nil {
				return done, err
			}
		}
	}
	return done, nil
}

// RunWindowClose settles scheduled matches whose window closed with one
// side ready: forfeited in that side's favour (resultSource admin: the
// arena's rules decided, not a player). A scheduled match nobody readied,
// and a live match nobody reported, stay as they are for the admin's queue
// (AttentionMatches); awaiting_result matches are the grace period's.
func RunWindowClose(ctx context.Context, ps ResultStore, deps Deps) (int, error) {
	ready, err := ps.ReadySideAtClose(ctx, deps.Now)
	if err != nil {
		return 0, err
	}
	done := 0
	for _, id := range slices.Sorted(maps.Keys(ready)) {
		token, err := RandomHex(deps.Random, 12)
		if err != nil {
			return done, err
		}
		ok, err := ps.ForfeitUnready(ctx, id, ready[id], deps.Now, token)
		if err != nil {
			return done, err
		}
		if ok {
			done++
			if err := decidedByID(ctx, ps, id, deps.Now, deps.Points); err != nil {
				return done, err
			}
		}
	}
	return done, nil
}

// LiveMatchFor returns the caller's live (or awaiting_result) match that
// the environment gate shows to the caller's AppID, or nil.
func LiveMatchFor(ctx context.Context, ps ProtocolStore, a *Arena, caller Caller) (*MatchState, error) {
	matches, err := ps.PlayerMatches(ctx, caller.PlatformID, MatchLive, MatchAwaitingResult)
	if err != nil {
		return nil, err
	}
	for i := range matches {
		if EnvironmentVisible(a, caller.AppID, matches[i].Tournament.Environment) {
			return &matches[i], nil
		}
	}
	return nil, nil
}

// UpcomingMatchFor returns the caller's next scheduled match (both sides
// decided, window not closed) shown by the environment gate, or nil.
func UpcomingMatchFor(ctx context.Context, ps ProtocolStore, a *Arena, caller Caller, now time.Time) (*MatchState, error) {
	matches, err := ps.PlayerMatches(ctx, caller.PlatformID, MatchScheduled)
	if err != nil {
		return nil, err
	}
	for i := range matches {
		m := &matches[i]
		if now.Before(m.ClosesAt) && EnvironmentVisible(a, caller.AppID, m.Tournament.Environment) {
			return m, nil
		}
	}
	return nil, nil
}
