package core

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	uploader = "76561198000000001"
	opponent = "76561198000000002"
	stranger = "76561198000000003"
)

func TestPlanSizes(t *testing.T) {
	for plan, want := range map[Plan]int64{PlanFree: 2 * MB, PlanIndie: 4 * MB, PlanStudio: 8 * MB, "gold": 2 * MB} {
		assert.Equal(t, want, EffectiveMaxBytes(plan, false), plan)
		assert.Equal(t, int64(2*MB), EffectiveMaxBytes(plan, true), "casual recordings are always 2 MB")
		assert.LessOrEqual(t, want, int64(MaxRecordingBytes))
	}
}

func TestRecordingDraft(t *testing.T) {
	for name, tc := range map[string]struct {
		d     RecordingDraft
		field string
	}{
		"Valid":           {RecordingDraft{Scope: "full", GameBuild: "1.0", DurationMs: Int(5000)}, ""},
		"NoDuration":      {RecordingDraft{Scope: "public"}, ""},
		"Arena":           {RecordingDraft{Scope: "public", Visibility: "arena"}, ""},
		"NoScope":         {RecordingDraft{}, "scope"},
		"OtherScope":      {RecordingDraft{Scope: "hands"}, "scope"},
		"LongBuild":       {RecordingDraft{Scope: "full", GameBuild: strings.Repeat("b", 65)}, "gameBuild"},
		"NegativeLength":  {RecordingDraft{Scope: "full", DurationMs: Int(-1)}, "durationMs"},
		"OverADay":        {RecordingDraft{Scope: "full", DurationMs: Int(DurationMsRange.Max + 1)}, "durationMs"},
		"LinkIsByShare":   {RecordingDraft{Scope: "full", Visibility: "link"}, "visibility"},
		"OtherVisibility": {RecordingDraft{Scope: "full", Visibility: "public"}, "visibility"},
	} {
		t.Run(name, func(t *testing.T) {
			p := tc.d.Check()
			if tc.field == "" {
				assert.Empty(t, p)
				return
			}
			require.NotEmpty(t, p)
			assert.Equal(t, tc.field, p[0].Field)
		})
	}
}

// TestCheckFetch walks the fetch rules with the clock: visibility,
// finalized, the plan window, then the delay gate of each hand mode.
func TestCheckFetch(t *testing.T) {
	ended := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	ready := ended.Add(time.Minute)
	rec := func(mut func(*Recording)) *Recording {
		r := &Recording{ID: 1, MatchID: 9, UploaderID: uploader, Scope: ScopeFull, Visibility: VisibilityArena,
			State: RecordingReady, ByteSize: MB, ReadyAt: &ready, ShareToken: "tok-123"}
		if mut != nil {
			mut(r)
		}
		return r
	}
	delayed := &ReleasePolicy{Cast: CastPolicy{HandMode: HandModeDelayed, DelaySeconds: 120}, EndedAt: &ended}
	for name, tc := range map[string]struct {
		r      *Recording
		v      Viewer
		plan   Plan
		policy *ReleasePolicy
		at     time.Time
		code   string
	}{
		"UploaderBeforeTheDelay":     {rec(nil), Viewer{PlatformID: uploader}, PlanFree, delayed, ready, CodeNotReleased},
		"UploaderAtTheDelay":         {rec(nil), Viewer{PlatformID: uploader}, PlanFree, delayed, ended.Add(120 * time.Second), ""},
		"UploaderNeverEnded":         {rec(nil), Viewer{PlatformID: uploader}, PlanFree, &ReleasePolicy{Cast: CastPolicy{HandMode: HandModeShown}}, ended.Add(1000 * time.Hour), CodeNotReleased},
		"MemberBeforeTheDelay":       {rec(nil), Viewer{PlatformID: opponent}, PlanFree, delayed, ended.Add(119 * time.Second), CodeNotReleased},
		"MemberAtTheDelay":           {rec(nil), Viewer{PlatformID: opponent}, PlanFree, delayed, ended.Add(120 * time.Second), ""},
		"AnonymousOnArena":           {rec(nil), Viewer{}, PlanFree, delayed, ended.Add(time.Hour), CodeRecordingNotFound},
		"PrivateToOthers":            {rec(func(r *Recording) { r.Visibility = VisibilityPrivate }), Viewer{PlatformID: opponent}, PlanFree, delayed, ended.Add(time.Hour), CodeRecordingNotFound},
		"PrivateToUploader":          {rec(func(r *Recording) { r.Visibility = VisibilityPrivate }), Viewer{PlatformID: uploader}, PlanFree, delayed, ended.Add(time.Hour), ""},
		"LinkWithToken":              {rec(func(r *Recording) { r.Visibility = VisibilityLink }), Viewer{Token: "tok-123"}, PlanFree, delayed, ended.Add(time.Hour), ""},
		"LinkWithTokenBeforeDelay":   {rec(func(r *Recording) { r.Visibility = VisibilityLink }), Viewer{Token: "tok-123"}, PlanFree, delayed, ended.Add(time.Minute), CodeNotReleased},
		"LinkWithoutToken":           {rec(func(r *Recording) { r.Visibility = VisibilityLink }), Viewer{PlatformID: opponent}, PlanFree, delayed, ended.Add(time.Hour), CodeRecordingNotFound},
		"LinkWrongToken":             {rec(func(r *Recording) { r.Visibility = VisibilityLink }), Viewer{Token: "tok-124"}, PlanFree, delayed, ended.Add(time.Hour), CodeRecordingNotFound},
		"Pending":                    {rec(func(r *Recording) { r.State = RecordingPending }), Viewer{PlatformID: uploader}, PlanFree, delayed, ended, CodeRecordingPending},
		"HiddenNeverToOthers":        {rec(nil), Viewer{PlatformID: opponent}, PlanFree, &ReleasePolicy{Cast: CastPolicy{HandMode: HandModeHidden}, EndedAt: &ended}, ended.Add(1000 * time.Hour), CodeNotReleased},
		"HiddenToUploaderToo":        {rec(nil), Viewer{PlatformID: uploader}, PlanFree, &ReleasePolicy{Cast: CastPolicy{HandMode: HandModeHidden}, EndedAt: &ended}, ended.Add(1000 * time.Hour), CodeNotReleased},
		"ShownAtOnce":                {rec(nil), Viewer{PlatformID: opponent}, PlanFree, &ReleasePolicy{Cast: CastPolicy{HandMode: HandModeShown}, EndedAt: &ended}, ended, ""},
		"NeverEnded":                 {rec(nil), Viewer{PlatformID: opponent}, PlanFree, &ReleasePolicy{Cast: CastPolicy{HandMode: HandModeShown}}, ended.Add(1000 * time.Hour), CodeNotReleased},
		"PublicScopeNotGated":        {rec(func(r *Recording) { r.Scope = ScopePublic }), Viewer{PlatformID: opponent}, PlanFree, &ReleasePolicy{Cast: CastPolicy{HandMode: HandModeHidden}}, ended, ""},
		"CasualNotGated":             {rec(func(r *Recording) { r.MatchID, r.Scope = 0, ScopePublic }), Viewer{PlatformID: uploader}, PlanFree, nil, ended, ""},
		"OverPlanInTheWindow":        {rec(func(r *Recording) { r.ByteSize = 3 * MB }), Viewer{PlatformID: uploader}, PlanFree, delayed, ready.Add(OverPlanWindow - time.Second), ""},
		"OverPlanAfterTheWindow":     {rec(func(r *Recording) { r.ByteSize = 3 * MB }), Viewer{PlatformID: uploader}, PlanFree, delayed, ready.Add(OverPlanWindow), CodePlanSizeExceeded},
		"UpgradeCoversIt":            {rec(func(r *Recording) { r.ByteSize = 3 * MB }), Viewer{PlatformID: uploader}, PlanIndie, delayed, ready.Add(OverPlanWindow), ""},
		"AtThePlanSize":              {rec(func(r *Recording) { r.ByteSize = 2 * MB }), Viewer{PlatformID: uploader}, PlanFree, delayed, ready.Add(1000 * time.Hour), ""},
		"CasualOverTwoMBOnStudio":    {rec(func(r *Recording) { r.MatchID, r.ByteSize = 0, 3*MB }), Viewer{PlatformID: uploader}, PlanStudio, nil, ready.Add(OverPlanWindow), CodePlanSizeExceeded},
		"OverPlanBeforeTheDelayGate": {rec(func(r *Recording) { r.ByteSize = 3 * MB }), Viewer{PlatformID: opponent}, PlanFree, &ReleasePolicy{Cast: CastPolicy{HandMode: HandModeHidden}, EndedAt: &ended}, ready.Add(OverPlanWindow), CodePlanSizeExceeded},
	} {
		t.Run(name, func(t *testing.T) {
			err := CheckFetch(tc.r, tc.v, tc.plan, tc.policy, tc.at)
			if tc.code == "" {
				assert.NoError(t, err)
				return
			}
			assert.Equal(t, tc.code, ErrorCode(err))
		})
	}
}

func TestSegmentReleased(t *testing.T) {
	up := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	seg := &Segment{Seq: 1, State: RecordingReady, ByteSize: 1000, ReadyAt: &up}
	rec := &Recording{ID: 1, MatchID: 9, UploaderID: uploader, Scope: ScopeFull, Visibility: VisibilityArena}
	delayed := &CastPolicy{HandMode: HandModeDelayed, DelaySeconds: 60}
	assert.False(t, SegmentReleased(rec, seg, PlanFree, delayed, up.Add(59*time.Second)), "castDelaySeconds after its own upload, for everyone (no viewer: the uploader too)")
	assert.True(t, SegmentReleased(rec, seg, PlanFree, delayed, up.Add(60*time.Second)))
	assert.True(t, SegmentReleased(rec, seg, PlanFree, &CastPolicy{HandMode: HandModeShown}, up), "shown: at once")
	assert.False(t, SegmentReleased(rec, seg, PlanFree, &CastPolicy{HandMode: HandModeHidden}, up.Add(1000*time.Hour)), "hidden: never")
	public := *rec
	public.Scope = ScopePublic
	assert.True(t, SegmentReleased(&public, seg, PlanFree, &CastPolicy{HandMode: HandModeHidden}, up), "public scope is not gated")
	pending := *seg
	pending.State, pending.ReadyAt = RecordingPending, nil
	assert.False(t, SegmentReleased(&public, &pending, PlanFree, delayed, up.Add(time.Hour)), "not uploaded yet")
	big := *seg
	big.ByteSize = 3 * MB
	assert.True(t, SegmentReleased(&public, &big, PlanFree, delayed, up.Add(OverPlanWindow-time.Second)))
	assert.False(t, SegmentReleased(&public, &big, PlanFree, delayed, up.Add(OverPlanWindow)), "over the plan after the window")
}

func TestCheckHeader(t *testing.T) {
	match := &Recording{ID: 1, MatchID: 7, Scope: ScopeFull}
	casual := &Recording{ID: 2, Scope: ScopePublic}
	ok, err := ParseReplayHeader([]byte(header))
	require.NoError(t, err)
	assert.NoError(t, CheckHeader(match, "n0", ok))
	for name, tc := range map[string]struct {
		r     *Recording
		nonce string
		line  string
	}{
		"OtherMatch":      {match, "n0", `{"format":"game.replay.v1","matchId":8,"sessionNonce":"n0","scope":"full"}`},
		"NoMatch":         {match, "n0", `{"format":"game.replay.v1","sessionNonce":"n0","scope":"full"}`},
		"OtherNonce":      {match, "n1", header},
		"OtherScope":      {match, "n0", `{"format":"game.replay.v1","matchId":7,"sessionNonce":"n0","scope":"public"}`},
		"CasualNamesOne":  {casual, "", `{"format":"game.replay.v1","matchId":7,"scope":"public"}`},
		"CasualWithNonce": {casual, "", `{"format":"game.replay.v1","sessionNonce":"x","scope":"public"}`},
	} {
		t.Run(name, func(t *testing.T) {
			h, err := ParseReplayHeader([]byte(tc.line))
			require.NoError(t, err)
			assert.Equal(t, CodeHeaderMismatch, ErrorCode(CheckHeader(tc.r, tc.nonce, h)))
		})
	}
	seg := &Segment{Seq: 4}
	withSeq := func(line string) ReplayHeader {
		h, err := ParseReplayHeader([]byte(line))
		require.NoError(t, err)
		return h
	}
	assert.NoError(t, CheckSegmentHeader(match, seg, "n0", withSeq(`{"format":"game.replay.v1","matchId":7,"sessionNonce":"n0","scope":"full","segmentSeq":4,"baseTMs":0}`)))
	assert.Equal(t, CodeHeaderMismatch, ErrorCode(CheckSegmentHeader(match, seg, "n0", withSeq(`{"format":"game.replay.v1","matchId":7,"sessionNonce":"n0","scope":"full","segmentSeq":5,"baseTMs":0}`))))
	assert.Equal(t, CodeInvalidRecording, ErrorCode(CheckSegmentHeader(match, seg, "n0", withSeq(header))), "a segment carries segmentSeq and baseTMs")
}

func TestUploaderOnly(t *testing.T) {
	r := &Recording{ID: 1, UploaderID: uploader, Visibility: VisibilityArena, State: RecordingPending}
	assert.NoError(t, CheckUploader(r, uploader))
	assert.Equal(t, CodeNotUploader, ErrorCode(CheckUploader(r, opponent)))
	private := *r
	private.Visibility = VisibilityPrivate
	assert.Equal(t, CodeRecordingNotFound, ErrorCode(CheckUploader(&private, opponent)), "a private recording looks like none")
	assert.NoError(t, CheckSegmentInit(r, uploader))
	done := *r
	done.State = RecordingReady
	assert.Equal(t, CodeRecordingEnded, ErrorCode(CheckSegmentInit(&done, uploader)))
	assert.Equal(t, SegmentFeedLive, FeedState(r))
	assert.Equal(t, SegmentFeedEnded, FeedState(&done))
}

// trace builds a trace string for match 7, nonce n0 with the events.
func trace(events ...string) string {
	return `{"events":[` + strings.Join(events, ",") + `],"matchId":7,"ruleset":"standard","schema":"game.gameplay.v1","sessionNonce":"n0"}`
}

func TestCheckTrace(t *testing.T) {
	st := &MatchState{Match: Match{ID: 7, SessionNonce: "n0"}}
	start, end := `{"seq":1,"tMs":0,"type":"match_started"}`, `{"seq":2,"tMs":10,"type":"match_ended","winnerSlot":1,"reason":"normal"}`
	good := trace(start, `{"seq":2,"tMs":5,"type":"turn_started","actor":2}`,
		`{"seq":3,"tMs":6,"type":"public_action","actor":2,"action":"play","target":"board"}`,
		`{"seq":4,"tMs":7,"type":"score_changed","actor":0,"p1Score":1,"p2Score":0}`,
		`{"seq":5,"tMs":8,"type":"round_ended","round":1,"winnerSlot":0,"p1Score":1,"p2Score":0}`,
		`{"seq":6,"tMs":9,"type":"match_ended","winnerSlot":1,"reason":"forfeit"}`)
	env := func(tr string) *TraceEnvelope {
		return &TraceEnvelope{Protocol: TraceProtocol, Slot: 1, Trace: tr, TraceHash: HashHex([]byte(tr))}
	}
	game, err := CheckTrace(st, 1, env(good))
	require.NoError(t, err)
	assert.Equal(t, Game{Game: 1, SessionNonce: "n0"}, game)
	for name, tc := range map[string]struct {
		e     *TraceEnvelope
		code  string
		field string
	}{
		"Protocol":      {&TraceEnvelope{Protocol: "svc.gameplay.v0", Slot: 1, Trace: good, TraceHash: HashHex([]byte(good))}, CodeUnsupportedProtocol, ""},
		"Empty":         {&TraceEnvelope{Protocol: TraceProtocol, Slot: 1}, CodeInvalidTrace, "trace"},
		"TooLarge":      {&TraceEnvelope{Protocol: TraceProtocol, Slot: 1, Trace: strings.Repeat("x", MaxTraceBytes+1)}, CodeInvalidTrace, "trace"},
		"HashShape":     {&TraceEnvelope{Protocol: TraceProtocol, Slot: 1, Trace: good, TraceHash: "ABC"}, CodeInvalidTrace, "traceHash"},
		"HashMismatch":  {&TraceEnvelope{Protocol: TraceProtocol, Slot: 1, Trace: good, TraceHash: HashHex([]byte(good + " "))}, CodeHashMismatch, ""},
		"NotJSON":       {env("{"), CodeInvalidTrace, "trace"},
		"Schema":        {env(strings.Replace(good, "game.gameplay.v1", "Game", 1)), CodeInvalidTrace, "trace.schema"},
		"NoEvents":      {env(trace()), CodeInvalidTrace, "trace.events"},
		"NoStart":       {env(trace(`{"seq":1,"tMs":0,"type":"match_ended","winnerSlot":1,"reason":"normal"}`)), CodeInvalidTrace, "trace.events"},
		"NoEnd":         {env(trace(start)), CodeInvalidTrace, "trace.events"},
		"SeqGap":        {env(trace(start, `{"seq":3,"tMs":10,"type":"match_ended","winnerSlot":1,"reason":"normal"}`)), CodeInvalidTrace, "trace.events"},
		"TimeBack":      {env(trace(`{"seq":1,"tMs":5,"type":"match_started"}`, `{"seq":2,"tMs":4,"type":"match_ended","winnerSlot":1,"reason":"normal"}`)), CodeInvalidTrace, "trace.events"},
		"ActorMe":       {env(trace(start, `{"seq":2,"tMs":1,"type":"turn_started","actor":"me"}`, end)), CodeInvalidTrace, "trace.events"},
		"ActorThree":    {env(trace(start, `{"seq":2,"tMs":1,"type":"turn_started","actor":3}`, end)), CodeInvalidTrace, "trace.events"},
		"Target":        {env(trace(start, `{"seq":2,"tMs":1,"type":"public_action","actor":1,"target":"opponent"}`, end)), CodeInvalidTrace, "trace.events"},
		"Reason":        {env(trace(start, `{"seq":2,"tMs":10,"type":"match_ended","winnerSlot":1,"reason":"rage"}`)), CodeInvalidTrace, "trace.events"},
		"UnknownType":   {env(trace(start, `{"seq":2,"tMs":1,"type":"hand","cards":[]}`, end)), CodeInvalidTrace, "trace.events"},
		"OtherMatch":    {env(strings.Replace(good, `"matchId":7`, `"matchId":8`, 1)), CodeTraceNotForMatch, ""},
		"OtherNonce":    {env(strings.Replace(good, `"n0"`, `"n1"`, 1)), CodeTraceNotForMatch, ""},
		"OtherSideSlot": {&TraceEnvelope{Protocol: TraceProtocol, Slot: 2, Trace: good, TraceHash: HashHex([]byte(good))}, CodeTraceNotForMatch, ""},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := CheckTrace(st, 1, tc.e)
			var e *Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, tc.code, e.Code)
			assert.Equal(t, tc.field, e.Field)
		})
	}
}

func TestTraceVerdicts(t *testing.T) {
	assert.Equal(t, TracePending, compareTraces([3]string{"", "a", ""}))
	assert.Equal(t, TraceAgreed, compareTraces([3]string{"x", "a", "a"}), "the derived trace is no side")
	assert.Equal(t, TraceDisagreed, compareTraces([3]string{"", "a", "b"}))
	assert.Equal(t, TrainingUsable, TrainingOf(TraceAgreed))
	assert.Equal(t, TrainingExcluded, TrainingOf(TraceDisagreed))
	assert.Equal(t, TrainingPending, TrainingOf(TracePending))
}

func TestTraceDeriver(t *testing.T) {
	var d TraceDeriver
	_, ok := d.Trace(7, "n0", DerivedRuleset, ReplayFormat)
	assert.False(t, ok, "no public event, no trace")
	for _, line := range []string{`{"tMs":0,"type":"match_started"}`, `{"tMs":3,"type":"hand","cards":["Ah"]}`,
		`{"tMs":4,"type":"pointer","x":1}`, `not json`, `{"tMs":5,"type":"turn_started","actor":1}`} {
		d.Add([]byte(line))
	}
	tr, ok := d.Trace(7, "n0", DerivedRuleset, ReplayFormat)
	require.True(t, ok)
	var body struct {
		MatchID int64            `json:"matchId"`
		Events  []map[string]any `json:"events"`
	}
	require.NoError(t, json.Unmarshal([]byte(tr), &body))
	assert.Equal(t, int64(7), body.MatchID)
	require.Len(t, body.Events, 2, "the recorder's hand and pointer stream stays out")
	assert.Equal(t, "turn_started", body.Events[1]["type"])
	assert.Equal(t, float64(2), body.Events[1]["seq"], "numbered again")
	assert.NotContains(t, tr, "Ah")

	var big TraceDeriver
	line := []byte(`{"tMs":1,"type":"public_action","actor":1,"action":"` + strings.Repeat("x", 60000) + `"}`)
	for range 100 {
		big.Add(line)
	}
	assert.Len(t, big.events, MaxTraceBytes/len(line), "at most MaxTraceBytes are kept")
}
