package server

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"time"

	"arena/core"
	store "arena/sql"
)

// seedDemoRecording gives the demo arena a recording to watch: a short,
// public-scope replay of the Autumn Open's final, finalized and visible to
// every signed-in member. Only when the object store takes the service's
// own writes (the local directory of a fresh native data dir); elsewhere
// it does nothing.
func (s *Server) seedDemoRecording(ctx context.Context, st *store.Arena, slug string) error {
	writer, ok := s.cfg.Objects.(core.ObjectWriter)
	if !ok {
		return nil
	}
	t, err := st.Tournament(ctx, "autumn-open")
	if err != nil {
		return err
	}
	matches, err := st.Matches(ctx, t.ID)
	if err != nil {
		return err
	}
	var final *core.Match
	for i := range matches {
		if matches[i].Stage == core.StageFinal {
			final = &matches[i]
		}
	}
	if final == nil || final.Winner == "" {
		return fmt.Errorf("demo recording: the Autumn Open has no decided final")
	}
	file, duration, err := demoReplay(final)
	if err != nil {
		return err
	}
	key, err := core.NewObjectKey(slug, s.rand)
	if err != nil {
		return err
	}
	at := final.OpensAt.Add(time.Hour)
	rec, err := st.InitMatchRecording(ctx, &core.Recording{
		MatchID: final.ID, Game: 1, Nonce: final.SessionNonce, UploaderID: final.Winner, Scope: core.ScopePublic,
		Visibility: core.VisibilityArena,
		GameBuild:  "demo-1.0", DurationMs: duration, ObjectKey: key, State: core.RecordingPending,
		MaxBytes: core.PlanStudio.RecordingBytes(), CreatedAt: at,
	})
	if err != nil {
		return err
	}
	// Stored as a finalize stores what it checked: under a checked key,
	// its removal scheduled until the claim.
	served, err := core.NewCheckedObjectKey(rec.ObjectKey, s.rand)
	if err != nil {
		return err
	}
	if err := st.ScheduleObjectRemoval(ctx, served, at.Add(core.CheckedCopyClaimWindow)); err != nil {
		return err
	}
	size, err := writer.Write(ctx, served, core.ReplayContentType, bytes.NewReader(file), core.MaxRecordingBytes)
	if err != nil {
		return err
	}
	c := core.CheckedObject{Key: served, Size: size, UploadRemovalDue: at}
	claimed, err := st.MarkRecordingReady(ctx, rec.ID, c, rec.GameBuild, duration, at)
	if err == nil && !claimed {
		err = fmt.Errorf("demo recording: the checked copy was not claimed")
	}
	return err
}

// demoReplay writes a few rounds of the final as a game.replay.v1 file
// (public events only) and returns it with its duration.
func demoReplay(m *core.Match) ([]byte, int64, error) {
	winnerSlot := 1
	if m.Winner == m.P2 {
		winnerSlot = 2
	}
	lines := []map[string]any{{"tMs": 0, "type": core.TraceMatchStarted}}
	t, scores := int64(0), [3]int{}
	for round := 1; round <= 3; round++ {
		lines = append(lines, map[string]any{"tMs": t, "type": core.TraceRoundStarted, "round": round})
		for turn := 0; turn < 4; turn++ {
			actor := (turn+round)%2 + 1
			t += 4000
			lines = append(lines,
				map[string]any{"tMs": t, "type": core.TraceTurnStarted, "actor": actor},
				map[string]any{"tMs": t + 1500, "type": core.TracePublicAction, "actor": actor, "action": "play", "target": "board"})
		}
		winner := winnerSlot
		if round == 2 {
			winner = 3 - winnerSlot
		}
		scores[winner]++
		t += 2000
		lines = append(lines, map[string]any{"tMs": t, "type": core.TraceRoundEnded, "round": round, "winnerSlot": winner, "p1Score": scores[1], "p2Score": scores[2]})
	}
	lines = append(lines, map[string]any{"tMs": t, "type": core.TraceMatchEnded, "winnerSlot": winnerSlot, "reason": "normal"})
	header := map[string]any{"format": core.ReplayFormat, "matchId": m.ID, "scope": core.ScopePublic, "gameBuild": "demo-1.0", "durationMs": t}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	enc := json.NewEncoder(zw)
	for _, l := range append([]map[string]any{header}, lines...) {
		if err := enc.Encode(l); err != nil {
			return nil, 0, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, 0, err
	}
	return buf.Bytes(), t, nil
}
