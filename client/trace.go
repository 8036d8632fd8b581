package client

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"sync"
	"time"
)

// TraceProtocol is the gameplay-trace protocol (spec 9.4).
const TraceProtocol = "svc.gameplay.v1"

// End reasons of a traced match (spec 4.4).
const (
	EndNormal     = "normal"
	EndForfeit    = "forfeit"
	EndDisconnect = "disconnect"
	EndTimeout    = "timeout"
)

// Targets of a public action.
const (
	TargetP1    = "p1"
	TargetP2    = "p2"
	TargetBoard = "board"
	TargetNone  = ""
)

// ErrTraceInactive is returned by EndAndSubmit of a recorder that traced
// nothing: the client's referee setting is off, or the match does not
// accept traces (no refereeM0, or consent incomplete). Nothing was sent.
var ErrTraceInactive = errors.New("client: trace: the referee is not active for this match")

// TraceOutcome is the arena's verdict on a trace: status pending, agreed,
// disagreed or duplicate, and training pending, usable or excluded. It
// never changes the match's result.
type TraceOutcome struct {
	Status   string `json:"status"`
	Training string `json:"training"`
}

// TraceRecorder records a match's public gameplay for the AI referee
// (spec 4.4) and posts it when the match ends. Actors are slots (1, 2; 0
// for none), never me/opponent, so both clients of a match record the
// same trace. The recorder stamps seq and tMs; tMs comes from GameClock,
// which must be the game's own simulation clock (time since the match
// started, the same on both machines) for the two traces to agree.
// A recorder for an inactive match records nothing. Safe for concurrent
// use.
type TraceRecorder struct {
	c      *Client
	match  *LiveMatch
	clock  func() time.Duration
	active bool

	mu     sync.Mutex
	events []map[string]any
	ended  bool
}

// NewTraceRecorder returns the recorder of match m. gameClock is the
// game's time since the match started; nil measures wall time from Begin
// (fine for one client, but two traces then rarely agree).
func (c *Client) NewTraceRecorder(m *LiveMatch, gameClock func() time.Duration) *TraceRecorder {
	return &TraceRecorder{c: c, match: m, clock: gameClock, active: c.RefereeActive(m)}
}

// Active reports whether the recorder records.
func (r *TraceRecorder) Active() bool { return r.active }

func (r *TraceRecorder) add(typ string, fields map[string]any) {
	if !r.active {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ended || (len(r.events) == 0) != (typ == "match_started") {
		return // before Begin, or after the end
	}
	if r.clock == nil {
		start := r.c.now()
		r.clock = func() time.Duration { return r.c.now().Sub(start) }
	}
	ev := make(map[string]any, len(fields)+3)
	maps.Copy(ev, fields)
	t := r.clock().Milliseconds()
	if n := len(r.events); n > 0 {
		t = max(t, r.events[n-1]["tMs"].(int64)) // tMs never goes back
	}
	ev["seq"], ev["tMs"], ev["type"] = len(r.events)+1, t, typ
	r.events = append(r.events, ev)
}

// Begin records match_started at t=0.
func (r *TraceRecorder) Begin() { r.add("match_started", nil) }

// RoundStarted records the start of round n.
func (r *TraceRecorder) RoundStarted(n int) { r.add("round_started", map[string]any{"round": n}) }

// RoundEnded records the end of round n: its winner's slot (0: none) and
// both scores.
func (r *TraceRecorder) RoundEnded(n, winnerSlot, p1Score, p2Score int) {
	r.add("round_ended", map[string]any{"round": n, "winnerSlot": winnerSlot, "p1Score": p1Score, "p2Score": p2Score})
}

// TurnStarted records that slot actor (1 or 2) is to move.
func (r *TraceRecorder) TurnStarted(actor int) { r.add("turn_started", map[string]any{"actor": actor}) }

// PublicAction records a public action of slot actor on target (p1, p2,
// board or none).
func (r *TraceRecorder) PublicAction(actor int, action, target string) {
	r.add("public_action", map[string]any{"actor": actor, "action": action, "target": target})
}

// ScoreChanged records a public score change caused by slot actor (0:
// none) and both scores after it.
func (r *TraceRecorder) ScoreChanged(actor, p1Score, p2Score int) {
	r.add("score_changed", map[string]any{"actor": actor, "p1Score": p1Score, "p2Score": p2Score})
}

// Trace returns the canonical trace and its hash as they would be sent
// now (after EndAndSubmit, as they were sent).
func (r *TraceRecorder) Trace() (trace, hash string, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.canonical()
}

func (r *TraceRecorder) canonical() (string, string, error) {
	events := make([]any, len(r.events))
	for i, ev := range r.events {
		events[i] = ev
	}
	b, err := Canonicalize(map[string]any{
		"matchId": r.match.MatchID, "sessionNonce": r.match.SessionNonce, "ruleset": r.c.settings.RefereeRuleset,
		"schema": r.c.settings.RefereeTraceSchema, "events": events,
	})
	if err != nil {
		return "", "", err
	}
	return string(b), ResultHash(b), nil
}

type traceEnvelope struct {
	Protocol  string `json:"protocol"`
	Slot      int    `json:"slot"`
	Trace     string `json:"trace"`
	TraceHash string `json:"traceHash"`
}

// End records match_ended with the winner's slot (0: none) and reason
// (normal, forfeit, disconnect, timeout) and returns the trace and its
// hash; the recorder takes no more events. EndAndSubmit also posts them.
func (r *TraceRecorder) End(winnerSlot int, reason string) (trace, hash string, err error) {
	if !r.active {
		return "", "", ErrTraceInactive
	}
	switch reason {
	case EndNormal, EndForfeit, EndDisconnect, EndTimeout:
	default:
		return "", "", fmt.Errorf("client: trace: reason %q is not normal, forfeit, disconnect or timeout", reason)
	}
	r.add("match_ended", map[string]any{"winnerSlot": winnerSlot, "reason": reason})
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.events) == 0 {
		return "", "", errors.New("client: trace: Begin was never called")
	}
	r.ended = true
	return r.canonical()
}

// EndAndSubmit ends the trace (End) and posts it to the gameplay-trace
// endpoint, retried like a result. A refused or disagreeing trace only
// keeps the match out of training data; the match's result never depends
// on it.
func (r *TraceRecorder) EndAndSubmit(ctx context.Context, winnerSlot int, reason string) (*TraceOutcome, error) {
	trace, hash, err := r.End(winnerSlot, reason)
	if err != nil {
		return nil, err
	}
	env := traceEnvelope{Protocol: TraceProtocol, Slot: r.match.Slot, Trace: trace, TraceHash: hash}
	var out TraceOutcome
	path := fmt.Sprintf("/api/v1/matches/%d/gameplay-trace", r.match.MatchID)
	if err := r.c.retry(ctx, "gameplay trace", func() error { return r.c.post(ctx, path, env, &out) }); err != nil {
		return nil, err
	}
	return &out, nil
}

// SetRefereeConsent records the local player's AI-referee training
// consent (POST /api/v1/me/referee-consent): traces are accepted only
// for matches whose two players both granted it.
func (c *Client) SetRefereeConsent(ctx context.Context, granted bool) error {
	if !c.settings.Enabled {
		return ErrDisabled
	}
	var out map[string]any
	return c.post(ctx, "/api/v1/me/referee-consent", map[string]bool{"granted": granted}, &out)
}
