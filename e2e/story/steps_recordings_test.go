package story

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/client"
)

// recordingNoise is how many bytes of random noise the cast match's
// recording carries: incompressible, so the file is over 1 MiB and the
// service reads it back in more than one ranged call on the edge.
const recordingNoise = 1400 << 10

func recordingSteps() []step {
	return []step{
		{"APlayerRecordsTheCastMatch", func(t *testing.T, w *world) {
			ctx := context.Background()
			c := w.client(t, castPlayers[0])
			live, err := c.LiveMatch(ctx)
			require.NoError(t, err)
			require.NotNil(t, live)
			require.Equal(t, w.matches[castCup], live.MatchID)
			header := client.MatchHeader(live, client.ScopeFull, "1.0.0", 0)

			// A near-live segment while the match is played.
			init, err := c.InitRecording(ctx, live.MatchID, client.ScopeFull, "1.0.0", 0)
			require.NoError(t, err)
			seg := client.NewReplayWriter()
			require.NoError(t, seg.Append(0, "match_started", nil))
			segment, err := seg.Finish(header.Segment(0, 0))
			require.NoError(t, err)
			require.NoError(t, c.SubmitSegment(ctx, init.RecordingID, 0, segment))
			feed, err := c.Segments(ctx, init.RecordingID, -1, "")
			require.NoError(t, err)
			assert.True(t, feed.Live())
			require.Len(t, feed.Segments, 1, "the uploader sees their own segment at once")
			got, err := c.Download(ctx, feed.Segments[0].URL)
			require.NoError(t, err)
			assert.True(t, bytes.Equal(segment, got), "the segment comes back byte for byte")

			// The whole recording at the end: over 1 MiB.
			rec := client.NewReplayWriter()
			require.NoError(t, rec.Append(0, "match_started", nil))
			noise := make([]byte, 48<<10)
			for i := 0; i < recordingNoise/len(noise); i++ {
				_, _ = rand.Read(noise)
				require.NoError(t, rec.Append(int64(i*100), "noise", map[string]any{"data": base64.StdEncoding.EncodeToString(noise)}))
			}
			file, err := rec.Finish(client.MatchHeader(live, client.ScopeFull, "1.0.0", 60000))
			require.NoError(t, err)
			require.Greater(t, len(file), 1<<20)
			done, err := c.SubmitRecording(ctx, file)
			require.NoError(t, err)
			assert.Equal(t, init.RecordingID, done.ID, "init is idempotent: the segment's recording")
			assert.Equal(t, "ready", done.State)
			assert.Equal(t, int64(len(file)), done.ByteSize)
			_, err = c.FetchRecording(ctx, done.ID, "")
			var apiErr *client.APIError
			require.ErrorAs(t, err, &apiErr, "full scope of a live match")
			assert.Equal(t, "recording_not_released", apiErr.Code, "the delay gate holds for the uploader too")
			w.castRecording = castRecording{id: done.ID, file: file}

			// The first upload URL is still valid: a second PUT to it after
			// finalize (forged bytes) changes nothing that is served. The
			// service's route refuses it; a presigned URL's store takes it
			// onto a key nothing reads.
			forged := bytes.Repeat([]byte("forged "), 1<<16)
			err = c.Upload(ctx, init.Upload.URL, forged)
			if init.Upload.Local {
				require.ErrorAs(t, err, &apiErr, "a PUT to the service's route after finalize")
				assert.Equal(t, 409, apiErr.Status)
				assert.Equal(t, "recording_finalized", apiErr.Code)
			}
		}},
		{"TheCastMatchIsPlayedOut", func(t *testing.T, w *world) {
			ctx := context.Background()
			a, b := castPlayers[0], castPlayers[1]
			_, err := w.client(t, a).Submit(ctx, a, b, game, a)
			require.NoError(t, err)
			done, err := w.client(t, b).Submit(ctx, b, a, game, a)
			require.NoError(t, err)
			assert.Equal(t, "confirmed", done.Status)
			assert.Equal(t, "completed", w.read(t, "/api/v1/tournaments/"+castCup)["status"])
		}},
		{"TheCastRecordingIsReleased", func(t *testing.T, w *world) {
			ctx := context.Background()
			rec := w.castRecording
			require.NotZero(t, rec.id, "the recording step ran")
			c := w.client(t, castPlayers[0])
			url, err := c.FetchRecording(ctx, rec.id, "")
			require.NoError(t, err, "ended, and the cast shows hands at once")
			got, err := c.Download(ctx, url)
			require.NoError(t, err)
			assert.True(t, bytes.Equal(rec.file, got), "the recording comes back byte for byte, not the bytes PUT after finalize (%d bytes, got %d)", len(rec.file), len(got))
			// make test-edge finds these bytes in the bucket wrangler dev keeps.
			t.Logf("recording %d: %d bytes, sha256 %x", rec.id, len(rec.file), sha256.Sum256(rec.file))
		}},
	}
}
