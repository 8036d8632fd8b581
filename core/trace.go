package core

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"time"
)

// Gameplay traces (spec 1.6, 4.4): when an arena runs the AI referee and
// both players consented, each game client posts the match's public
// gameplay as an svc.gameplay.v1 envelope. The trace is hashed like a
// result: the client serializes the trace object canonically (sorted
// keys, compact), sends that exact string, and its SHA-256. Actors are
// slots, never me/opponent, so two honest clients of a deterministic game
// send byte-identical traces: agreement marks the match usable for
// training; disagreement or a missing side excludes it. The outcome of
// the match never depends on a trace.
//
// Envelope (the request body):
//
//	{ "protocol": "svc.gameplay.v1", "slot": 1|2, "trace": "<string>", "traceHash": "<64 hex>" }
//
// The trace string is a JSON object:
//
//	{ "matchId": n, "sessionNonce": s, "ruleset": s, "schema": s,
//	  "events": [ { "seq": 1, "tMs": 0, "type": "match_started" }, ... ] }
//
// events are numbered seq 1, 2, 3 ... with tMs (game time since
// match_started, never decreasing) and a type of the vocabulary below;
// the last event is match_ended.
const TraceProtocol = "svc.gameplay.v1"

// CaptureProtocol is the capture protocol announced with the referee.
const CaptureProtocol = "svc.capture.v1"

// Trace event types (spec 4.4) and their fields besides seq, tMs, type:
//
//	match_started                    -
//	round_started   round
//	round_ended     round, winnerSlot (0 none, 1, 2), p1Score, p2Score
//	turn_started    actor (1, 2)
//	public_action   actor (1, 2), action (string), target (p1, p2, board or "")
//	score_changed   actor (0 none, 1, 2), p1Score, p2Score
//	match_ended     winnerSlot (0, 1, 2), reason (normal, forfeit, disconnect, timeout)
const (
	TraceMatchStarted = "match_started"
	TraceRoundStarted = "round_started"
	TraceRoundEnded   = "round_ended"
	TraceTurnStarted  = "turn_started"
	TracePublicAction = "public_action"
	TraceScoreChanged = "score_changed"
	TraceMatchEnded   = "match_ended"
)

// Limits of a trace.
const (
	MaxTraceBytes  = 1 << 20
	MaxTraceEvents = 50000
	MaxRulesetLen  = 64
)

// Trace errors.
const (
	// CodeRefereeInactive: the arena does not run the referee, or the two
	// players have not both consented (409).
	CodeRefereeInactive  = "referee_inactive"
	CodeInvalidTrace     = "invalid_trace"       // 422: not a well-formed envelope or trace (field says which)
	CodeTraceNotForMatch = "trace_not_for_match" // 422: another match, nonce or slot
)

// Trace submission statuses, and what they mean for training data.
const (
	TracePending   = "pending"   // the other side has not sent its trace
	TraceAgreed    = "agreed"    // both sides sent the same trace: usable for training
	TraceDisagreed = "disagreed" // the sides' traces differ: excluded
	TraceDuplicate = "duplicate" // this side sent the same trace again
)

// Training data verdicts of a match.
const (
	TrainingPending  = "pending"
	TrainingUsable   = "usable"
	TrainingExcluded = "excluded"
)

// TrainingOf is the training verdict for a submission status.
func TrainingOf(status string) string {
	switch status {
	case TraceAgreed:
		return TrainingUsable
	case TraceDisagreed:
		return TrainingExcluded
	}
	return TrainingPending
}

var traceSchemaPattern = LazyRegexp(`^[a-z0-9][a-z0-9.-]{2,79}\.v[1-9][0-9]*$`)

// ValidTraceSchema reports whether id matches spec 4.4's schema pattern.
func ValidTraceSchema(id string) bool { return traceSchemaPattern().MatchString(id) }

// TraceEnvelope is the request body of POST .../gameplay-trace.
type TraceEnvelope struct {
	Protocol  string `json:"protocol"`
	Slot      int    `json:"slot"`
	Trace     string `json:"trace"`
	TraceHash string `json:"traceHash"`
}

// TraceRecord is one stored trace: a side's (slot 1 or 2) or the one the
// service derived from a recording (slot 0).
type TraceRecord struct {
	MatchID     int64
	Nonce       string // the game's live session
	Slot        int
	SubmitterID string // "" for the derived trace
	Trace       string
	TraceHash   string
	ReceivedAt  time.Time
}

// traceBody is the parsed trace string.
type traceBody struct {
	MatchID      *int64            `json:"matchId"`
	SessionNonce *string           `json:"sessionNonce"`
	Ruleset      *string           `json:"ruleset"`
	Schema       *string           `json:"schema"`
	Events       []json.RawMessage `json:"events"`
}

// traceEvent holds the fields the rules read; the rest are the game's.
type traceEvent struct {
	Seq        *int64  `json:"seq"`
	TMs        *int64  `json:"tMs"`
	Type       string  `json:"type"`
	Actor      *int    `json:"actor"`
	WinnerSlot *int    `json:"winnerSlot"`
	Target     *string `json:"target"`
	Reason     *string `json:"reason"`
}

// CheckTrace applies the envelope rules after the referee gate, in order:
// protocol (CodeUnsupportedProtocol); trace present, at most
// MaxTraceBytes (CodeInvalidTrace, field trace); traceHash 64 lowercase
// hex (field traceHash) and the SHA-256 of the trace's bytes
// (CodeHashMismatch); the trace a well-formed object (CodeInvalidTrace);
// its matchId and the envelope's slot those of the match and the
// caller's side, its sessionNonce a game of the match that went live
// (CodeTraceNotForMatch). It returns that game.
func CheckTrace(st *MatchState, side int, env *TraceEnvelope) (Game, error) {
	if env.Protocol != TraceProtocol {
		return Game{}, Errorf(CodeUnsupportedProtocol, "protocol %q is not %s", env.Protocol, TraceProtocol)
	}
	if env.Trace == "" || len(env.Trace) > MaxTraceBytes {
		return Game{}, FieldError(CodeInvalidTrace, "trace")
	}
	if !resultHashPattern().MatchString(env.TraceHash) {
		return Game{}, FieldError(CodeInvalidTrace, "traceHash")
	}
	if HashHex([]byte(env.Trace)) != env.TraceHash {
		return Game{}, Errorf(CodeHashMismatch, "traceHash is not the SHA-256 of the trace")
	}
	body, err := parseTrace(env.Trace)
	if err != nil {
		return Game{}, err
	}
	if *body.MatchID != st.ID || env.Slot != side {
		return Game{}, Errorf(CodeTraceNotForMatch, "the trace is not this match's or this side's")
	}
	game, err := RecordedGame(&st.Match, 0, *body.SessionNonce)
	if err != nil || *body.SessionNonce == "" {
		return Game{}, Errorf(CodeTraceNotForMatch, "the trace names no game of this match")
	}
	return game, nil
}

// HashHex is the lowercase hex SHA-256 of b (results and traces).
func HashHex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// parseTrace reads a trace string and checks its shape (CodeInvalidTrace
// naming the first broken part).
func parseTrace(s string) (*traceBody, error) {
	var b traceBody
	dec := json.NewDecoder(bytes.NewReader([]byte(s)))
	if err := dec.Decode(&b); err != nil || dec.More() {
		return nil, FieldError(CodeInvalidTrace, "trace")
	}
	switch {
	case b.MatchID == nil || b.SessionNonce == nil:
		return nil, FieldError(CodeInvalidTrace, "trace.matchId")
	case b.Ruleset == nil || *b.Ruleset == "" || len(*b.Ruleset) > MaxRulesetLen:
		return nil, FieldError(CodeInvalidTrace, "trace.ruleset")
	case b.Schema == nil || !ValidTraceSchema(*b.Schema):
		return nil, FieldError(CodeInvalidTrace, "trace.schema")
	case len(b.Events) == 0 || len(b.Events) > MaxTraceEvents:
		return nil, FieldError(CodeInvalidTrace, "trace.events")
	}
	var lastT int64
	for i, raw := range b.Events {
		var ev traceEvent
		if json.Unmarshal(raw, &ev) != nil || ev.Seq == nil || *ev.Seq != int64(i+1) ||
			ev.TMs == nil || *ev.TMs < lastT || !eventValid(&ev) ||
			(ev.Type == TraceMatchEnded) != (i == len(b.Events)-1) ||
			(i == 0) != (ev.Type == TraceMatchStarted) {
			return nil, FieldError(CodeInvalidTrace, "trace.events")
		}
		lastT = *ev.TMs
	}
	return &b, nil
}

// eventValid checks an event's type and the slots and labels it carries.
func eventValid(ev *traceEvent) bool {
	slot := func(p *int, min int) bool { return p == nil || (*p >= min && *p <= 2) }
	switch ev.Type {
	case TraceMatchStarted, TraceRoundStarted:
		return true
	case TraceRoundEnded:
		return slot(ev.WinnerSlot, 0)
	case TraceTurnStarted:
		return ev.Actor != nil && slot(ev.Actor, 1)
	case TracePublicAction:
		if ev.Target != nil {
			switch *ev.Target {
			case "p1", "p2", "board", "":
			default:
				return false
			}
		}
		return ev.Actor != nil && slot(ev.Actor, 1)
	case TraceScoreChanged:
		return slot(ev.Actor, 0)
	case TraceMatchEnded:
		if ev.Reason == nil {
			return false
		}
		switch *ev.Reason {
		case "normal", "forfeit", "disconnect", "timeout":
		default:
			return false
		}
		return ev.WinnerSlot != nil && slot(ev.WinnerSlot, 0)
	}
	return false
}

// RefereeActive reports whether trace and capture calls are accepted for
// the match: the arena runs the referee and both sides consented.
func RefereeActive(a *Arena, st *MatchState) bool {
	return a.RefereeEnabled && st.ConsentsGranted == 2
}

// TraceDeriver builds the public trace of a match from a recording's
// event lines (Finalize feeds it): the events of the trace vocabulary, in
// order, numbered again; private events (the recorder's hand and pointer
// stream, anything else) are left out. It keeps at most MaxTraceEvents
// events and MaxTraceBytes of them, so a hostile recording cannot make it
// hold more.
type TraceDeriver struct {
	events []map[string]any
	bytes  int
	full   bool
}

// Add takes one recording event line (not kept: it may be reused).
func (d *TraceDeriver) Add(line []byte) {
	if d.full {
		return
	}
	var head struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(line, &head) != nil {
		return
	}
	switch head.Type {
	case TraceMatchStarted, TraceRoundStarted, TraceRoundEnded, TraceTurnStarted,
		TracePublicAction, TraceScoreChanged, TraceMatchEnded:
	default:
		return
	}
	if len(d.events) >= MaxTraceEvents || d.bytes+len(line) > MaxTraceBytes {
		d.full = true
		return
	}
	var ev map[string]any
	if json.Unmarshal(line, &ev) != nil {
		return
	}
	ev["seq"] = len(d.events) + 1
	d.events = append(d.events, ev)
	d.bytes += len(line)
}

// Trace returns the derived trace for the match (compact JSON with sorted
// keys, as encoding/json writes maps), or ok false when the recording
// held no public event.
func (d *TraceDeriver) Trace(matchID int64, nonce, ruleset, schema string) (string, bool) {
	if len(d.events) == 0 {
		return "", false
	}
	b, err := json.Marshal(map[string]any{
		"matchId": matchID, "sessionNonce": nonce, "ruleset": ruleset, "schema": schema,
		"events": d.events, "derived": true,
	})
	if err != nil {
		return "", false
	}
	return string(b), true
}
