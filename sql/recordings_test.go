package store_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/core"
	store "arena/sql"
)

// TestRecordingStore runs the recording, segment and trace statements on
// a local file and on a libSQL server: upserts with RETURNING, the
// conditional inserts, racing inits.
func TestRecordingStore(t *testing.T) {
	backends(t, func(t *testing.T, open func() *store.DB) {
		ctx := context.Background()
		s := openArenaStore(t, open)
		tour := seededBracket(t, s, "rec", 1, 2)
		st := goLive(t, s, tour, "FINAL")
		at := t0.Add(48 * time.Hour)
		rec := func(uploader, key string) *core.Recording {
			return &core.Recording{MatchID: st.ID, Game: 1, Nonce: "g1", UploaderID: uploader, Scope: core.ScopeFull, Visibility: core.VisibilityArena,
				GameBuild: "1", DurationMs: 5, ObjectKey: key, State: core.RecordingPending, MaxBytes: 2 * core.MB, CreatedAt: at}
		}

		first, err := s.InitMatchRecording(ctx, rec(pid(1), "rec/a.gz"))
		require.NoError(t, err)
		assert.Equal(t, "rec/a.gz", first.ObjectKey)
		assert.Equal(t, core.RecordingPending, first.State)
		again := rec(pid(1), "rec/b.gz")
		again.Scope, again.GameBuild = core.ScopePublic, "2"
		second, err := s.InitMatchRecording(ctx, again)
		require.NoError(t, err)
		assert.Equal(t, first.ID, second.ID, "one recording per match and uploader")
		assert.Equal(t, "rec/a.gz", second.ObjectKey, "its key kept")
		assert.Equal(t, core.ScopePublic, second.Scope, "a pending one takes the new init")

		// checked is a copy a finalize made and is about to claim.
		checked := func(key string, size int64) core.CheckedObject {
			require.NoError(t, s.ScheduleObjectRemoval(ctx, key, at.Add(core.CheckedCopyClaimWindow)))
			return core.CheckedObject{Key: key, Size: size, UploadRemovalDue: at.Add(core.UploadURLTTL)}
		}
		ok, err := s.MarkRecordingReady(ctx, first.ID, checked("checked/a-1.gz", 1234), "3", 99, at)
		require.NoError(t, err)
		assert.True(t, ok)
		ok, err = s.MarkRecordingReady(ctx, first.ID, checked("checked/a-2.gz", 1), "x", 1, at)
		require.NoError(t, err)
		assert.False(t, ok, "only a pending recording")
		done, err := s.InitMatchRecording(ctx, rec(pid(1), "rec/c.gz"))
		require.NoError(t, err)
		assert.Equal(t, core.RecordingReady, done.State, "a finalized one is returned unchanged")
		assert.Equal(t, int64(1234), done.ByteSize)
		assert.Equal(t, core.ScopePublic, done.Scope)
		next := rec(pid(1), "rec/g2.gz")
		next.Game, next.Nonce = 2, "g2"
		game2, err := s.InitMatchRecording(ctx, next)
		require.NoError(t, err)
		assert.NotEqual(t, first.ID, game2.ID, "the next game's recording is its own")
		assert.Equal(t, core.RecordingPending, game2.State)
		assert.Equal(t, 2, game2.Game)
		assert.Equal(t, "g2", game2.Nonce)
		assert.Equal(t, 1, done.Game)

		token, err := s.ShareRecording(ctx, first.ID, "tok-1")
		require.NoError(t, err)
		assert.Equal(t, "tok-1", token)
		token, err = s.ShareRecording(ctx, first.ID, "tok-2")
		require.NoError(t, err)
		assert.Equal(t, "tok-1", token, "the first token stays")
		_, err = s.ShareRecording(ctx, 999, "x")
		assert.Equal(t, core.CodeRecordingNotFound, core.ErrorCode(err))

		t.Run("RacingCasualInitsKeepTheAllowance", func(t *testing.T) {
			var wg sync.WaitGroup
			errs := make([]error, 6)
			for i := range errs {
				wg.Go(func() {
					errs[i] = s.CreateCasualRecording(ctx, &core.Recording{UploaderID: pid(3), Scope: core.ScopePublic,
						Visibility: core.VisibilityPrivate, ObjectKey: fmt.Sprintf("rec/casual-%d.gz", i), MaxBytes: 2 * core.MB, CreatedAt: at}, 3, at.Add(-24*time.Hour))
				})
			}
			wg.Wait()
			created := 0
			for _, err := range errs {
				if err == nil {
					created++
				} else {
					assert.Equal(t, core.CodeCasualQuotaExceeded, core.ErrorCode(err))
				}
			}
			assert.Equal(t, 3, created)
			err := s.CreateCasualRecording(ctx, &core.Recording{UploaderID: pid(3), Scope: core.ScopePublic, Visibility: core.VisibilityPrivate,
				ObjectKey: "rec/casual-late.gz", MaxBytes: 2 * core.MB, CreatedAt: at.Add(24 * time.Hour)}, 3, at)
			assert.NoError(t, err, "a day later")
		})

		t.Run("RecordingsOf", func(t *testing.T) {
			other, err := s.InitMatchRecording(ctx, rec(pid(2), "rec/p2.gz"))
			require.NoError(t, err)
			list, err := s.RecordingsOf(ctx, pid(2), 10)
			require.NoError(t, err)
			ids := []int64{}
			for _, r := range list {
				ids = append(ids, r.ID)
			}
			assert.ElementsMatch(t, []int64{first.ID, game2.ID, other.ID}, ids, "its own and its match's, each game")
			list, err = s.RecordingsOf(ctx, pid(3), 10)
			require.NoError(t, err)
			assert.Len(t, list, 4, "only its casual ones")
		})

		t.Run("Segments", func(t *testing.T) {
			pending, err := s.InitMatchRecording(ctx, rec(pid(2), "rec/p2.gz"))
			require.NoError(t, err)
			seg := &core.Segment{RecordingID: pending.ID, Seq: 0, ObjectKey: "rec/p2-seg-0.gz", State: core.RecordingPending, CreatedAt: at}
			got, err := s.InitSegment(ctx, seg)
			require.NoError(t, err)
			assert.Equal(t, "rec/p2-seg-0.gz", got.ObjectKey)
			seg.ObjectKey = "other"
			got, err = s.InitSegment(ctx, seg)
			require.NoError(t, err)
			assert.Equal(t, "rec/p2-seg-0.gz", got.ObjectKey, "idempotent per seq")
			for seq := int64(1); seq <= 3; seq++ {
				_, err := s.InitSegment(ctx, &core.Segment{RecordingID: pending.ID, Seq: seq, ObjectKey: fmt.Sprint(seq), CreatedAt: at})
				require.NoError(t, err)
			}
			for _, seq := range []int64{0, 2, 3} {
				ok, err := s.MarkSegmentReady(ctx, pending.ID, seq, checked(fmt.Sprintf("checked/p2-seg-%d.gz", seq), 100+seq), seq*1000, at.Add(time.Duration(seq)*time.Second))
				require.NoError(t, err)
				assert.True(t, ok)
			}
			ok, err := s.MarkSegmentReady(ctx, pending.ID, 0, checked("checked/p2-seg-0-again.gz", 1), 1, at)
			require.NoError(t, err)
			assert.False(t, ok)
			list, err := s.Segments(ctx, pending.ID, 0, 10)
			require.NoError(t, err)
			require.Len(t, list, 2, "ready ones after seq 0")
			assert.Equal(t, int64(2), list[0].Seq)
			assert.Equal(t, int64(3000), list[1].BaseTMs)
			_, err = s.Segment(ctx, pending.ID, 9)
			assert.Equal(t, core.CodeSegmentNotFound, core.ErrorCode(err))

			_, err = s.MarkRecordingReady(ctx, pending.ID, checked("checked/p2.gz", 10), "", 0, at)
			require.NoError(t, err)
			_, err = s.InitSegment(ctx, &core.Segment{RecordingID: pending.ID, Seq: 7, ObjectKey: "7", CreatedAt: at})
			assert.Equal(t, core.CodeRecordingEnded, core.ErrorCode(err), "the feed ended with the recording's finalize")
		})

		t.Run("CheckedCopies", func(t *testing.T) {
			r, err := s.InitMatchRecording(ctx, rec(pid(3), "rec/p3.gz"))
			require.NoError(t, err)
			seg, err := s.InitSegment(ctx, &core.Segment{RecordingID: r.ID, Seq: 0, ObjectKey: "rec/p3-seg-0.gz", CreatedAt: at})
			require.NoError(t, err)
			for _, key := range []string{"rec/p3.gz", "rec/p3-seg-0.gz"} {
				done, err := s.UploadFinalized(ctx, key)
				require.NoError(t, err)
				assert.False(t, done, key)
			}

			ok, err := s.MarkRecordingReady(ctx, r.ID, core.CheckedObject{Key: "checked/p3-x.gz", Size: 5}, "", 0, at)
			require.NoError(t, err)
			assert.False(t, ok, "a copy whose removal was never scheduled is never claimed")
			require.NoError(t, s.ScheduleObjectRemoval(ctx, "checked/p3-late.gz", at))
			ok, err = s.MarkRecordingReady(ctx, r.ID, core.CheckedObject{Key: "checked/p3-late.gz", Size: 5}, "", 0, at)
			require.NoError(t, err)
			assert.False(t, ok, "nor one whose removal is due: the scheduled job may be removing it")
			got, err := s.Recording(ctx, r.ID)
			require.NoError(t, err)
			assert.Equal(t, core.RecordingPending, got.State, "a refused claim changes nothing")

			ok, err = s.MarkSegmentReady(ctx, r.ID, seg.Seq, checked("checked/p3-seg-0-a.gz", 7), 0, at)
			require.NoError(t, err)
			require.True(t, ok)
			ok, err = s.MarkRecordingReady(ctx, r.ID, checked("checked/p3-a.gz", 9), "", 0, at)
			require.NoError(t, err)
			require.True(t, ok)
			got, err = s.Recording(ctx, r.ID)
			require.NoError(t, err)
			assert.Equal(t, "checked/p3-a.gz", got.ServedKey)
			assert.Equal(t, "rec/p3.gz", got.ObjectKey, "the upload key kept")
			gotSeg, err := s.Segment(ctx, r.ID, 0)
			require.NoError(t, err)
			assert.Equal(t, "checked/p3-seg-0-a.gz", gotSeg.ServedKey)
			for _, key := range []string{"rec/p3.gz", "rec/p3-seg-0.gz"} {
				done, err := s.UploadFinalized(ctx, key)
				require.NoError(t, err)
				assert.True(t, done, key)
			}

			due, err := s.DueObjectRemovals(ctx, at.Add(core.UploadURLTTL-time.Second), 100)
			require.NoError(t, err)
			assert.NotContains(t, due, "rec/p3.gz", "the upload stays while its URLs may be valid")
			due, err = s.DueObjectRemovals(ctx, at.Add(core.CheckedCopyClaimWindow), 100)
			require.NoError(t, err)
			assert.Contains(t, due, "rec/p3.gz", "then it goes")
			assert.Contains(t, due, "rec/p3-seg-0.gz")
			assert.Contains(t, due, "checked/p3-late.gz", "an unclaimed copy goes")
			assert.NotContains(t, due, "checked/p3-a.gz", "the claimed copy is served for good")
			assert.NotContains(t, due, "checked/p3-seg-0-a.gz")
			require.NoError(t, s.ForgetObjectRemovals(ctx, due, at.Add(core.CheckedCopyClaimWindow)))
			due, err = s.DueObjectRemovals(ctx, at.Add(1000*time.Hour), 100)
			require.NoError(t, err)
			assert.Empty(t, due, "removed once")
		})

		t.Run("Traces", func(t *testing.T) {
			stored, err := s.AddTrace(ctx, core.TraceRecord{MatchID: st.ID, Nonce: "g1", Slot: 1, SubmitterID: pid(1), Trace: "{}", TraceHash: "h1", ReceivedAt: at})
			require.NoError(t, err)
			assert.True(t, stored)
			stored, err = s.AddTrace(ctx, core.TraceRecord{MatchID: st.ID, Nonce: "g1", Slot: 1, SubmitterID: pid(1), Trace: "{ }", TraceHash: "h2", ReceivedAt: at})
			require.NoError(t, err)
			assert.False(t, stored, "one per game and slot")
			_, err = s.AddTrace(ctx, core.TraceRecord{MatchID: st.ID, Nonce: "g1", Slot: 0, Trace: "{}", TraceHash: "d", ReceivedAt: at})
			require.NoError(t, err)
			stored, err = s.AddTrace(ctx, core.TraceRecord{MatchID: st.ID, Nonce: "g2", Slot: 1, SubmitterID: pid(1), Trace: "{ }", TraceHash: "h3", ReceivedAt: at})
			require.NoError(t, err)
			assert.True(t, stored, "the next game's trace is its own")
			traces, err := s.Traces(ctx, st.ID, "g1")
			require.NoError(t, err)
			require.Len(t, traces, 2)
			assert.Equal(t, 0, traces[0].Slot)
			assert.Equal(t, "h1", traces[1].TraceHash)
			traces, err = s.Traces(ctx, st.ID, "g2")
			require.NoError(t, err)
			require.Len(t, traces, 1)
			assert.Equal(t, "h3", traces[0].TraceHash)
		})
	})
}
