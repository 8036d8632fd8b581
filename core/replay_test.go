package core

import (
	"bytes"
	"compress/gzip"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gz compresses s.
func gz(t testing.TB, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	_, err := w.Write([]byte(s))
	require.NoError(t, err)
	require.NoError(t, w.Close())
	return b.Bytes()
}

const header = `{"format":"game.replay.v1","matchId":7,"sessionNonce":"n0","scope":"full","gameBuild":"1.0","durationMs":900}`

func TestParseReplayHeader(t *testing.T) {
	h, err := ParseReplayHeader([]byte(header))
	require.NoError(t, err)
	assert.Equal(t, ReplayHeader{Format: ReplayFormat, MatchID: 7, HasMatchID: true, SessionNonce: "n0", Scope: "full", GameBuild: "1.0", DurationMs: 900}, h)

	seg, err := ParseReplayHeader([]byte(`{"format":"game.replay.v1","scope":"public","segmentSeq":3,"baseTMs":1500,"extra":{"k":1}}`))
	require.NoError(t, err)
	require.NotNil(t, seg.SegmentSeq)
	assert.Equal(t, int64(3), *seg.SegmentSeq)
	assert.Equal(t, int64(1500), *seg.BaseTMs)
	assert.False(t, seg.HasMatchID, "a casual segment names no match")

	for name, tc := range map[string]struct{ line, reason string }{
		"NotJSON":          {`format=game.replay.v1`, ReasonBadHeader},
		"Array":            {`[1,2]`, ReasonBadHeader},
		"Null":             {`null`, ReasonBadHeader},
		"Trailing":         {`{"format":"game.replay.v1","scope":"full"} {}`, ReasonBadHeader},
		"OtherFormat":      {`{"format":"game.replay.v2","scope":"full"}`, ReasonFormat},
		"NoFormat":         {`{"scope":"full"}`, ReasonFormat},
		"NoScope":          {`{"format":"game.replay.v1"}`, ReasonBadHeader},
		"OtherScope":       {`{"format":"game.replay.v1","scope":"hands"}`, ReasonBadHeader},
		"MatchIDString":    {`{"format":"game.replay.v1","scope":"full","matchId":"7"}`, ReasonBadHeader},
		"MatchIDFraction":  {`{"format":"game.replay.v1","scope":"full","matchId":7.5}`, ReasonBadHeader},
		"MatchIDZero":      {`{"format":"game.replay.v1","scope":"full","matchId":0}`, ReasonBadHeader},
		"NonceNumber":      {`{"format":"game.replay.v1","scope":"full","sessionNonce":5}`, ReasonBadHeader},
		"LongBuild":        {`{"format":"game.replay.v1","scope":"full","gameBuild":"` + strings.Repeat("b", 65) + `"}`, ReasonBadHeader},
		"NegativeDuration": {`{"format":"game.replay.v1","scope":"full","durationMs":-1}`, ReasonBadHeader},
		"HugeSeq":          {`{"format":"game.replay.v1","scope":"full","segmentSeq":1e300}`, ReasonBadHeader},
		"NegativeBase":     {`{"format":"game.replay.v1","scope":"full","baseTMs":-5}`, ReasonBadHeader},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := ParseReplayHeader([]byte(tc.line))
			var e *Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, CodeInvalidRecording, e.Code)
			assert.Equal(t, tc.reason, e.Reason)
		})
	}
}

func TestInspectReplay(t *testing.T) {
	events := header + "\n" + `{"tMs":0,"type":"match_started"}` + "\n" + `{"tMs":5,"type":"hand","cards":["Ah"]}` + "\n" + "not json\n"
	t.Run("Whole", func(t *testing.T) {
		var seen []string
		h, err := InspectReplay(bytes.NewReader(gz(t, events)), 0, func(line []byte) { seen = append(seen, string(line)) })
		require.NoError(t, err)
		assert.Equal(t, "full", h.Scope)
		assert.Equal(t, []string{`{"tMs":0,"type":"match_started"}` + "\n", `{"tMs":5,"type":"hand","cards":["Ah"]}` + "\n", "not json\n"}, seen, "every event line; what they hold is the game's")
	})
	t.Run("HeaderOnlyWithoutNewline", func(t *testing.T) {
		_, err := InspectReplay(bytes.NewReader(gz(t, header)), 0, nil)
		require.NoError(t, err)
	})
	t.Run("TwoMembers", func(t *testing.T) {
		file := append(gz(t, header+"\n"), gz(t, `{"tMs":0,"type":"match_started"}`+"\n")...)
		n := 0
		_, err := InspectReplay(bytes.NewReader(file), int64(len(file)), func([]byte) { n++ })
		require.NoError(t, err)
		assert.Equal(t, 1, n, "concatenated gzip members are one stream")
	})
	whole := gz(t, events)
	for name, tc := range map[string]struct {
		file   []byte
		reason string
	}{
		"NotGzip":     {[]byte(header + "\n"), ReasonNotGzip},
		"Empty":       {nil, ReasonNotGzip},
		"EmptyStream": {gz(t, ""), ReasonEmpty},
		"BlankLine":   {gz(t, "\n"), ReasonBadHeader},
		"Truncated":   {whole[:len(whole)-6], ReasonTruncated},
		"BadChecksum": {append(append([]byte{}, whole[:len(whole)-8]...), 0, 0, 0, 0, 0, 0, 0, 0), ReasonTruncated},
		"NoHeader":    {gz(t, strings.Repeat("x", MaxReplayHeaderBytes+10)), ReasonNoHeader},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := InspectReplay(bytes.NewReader(tc.file), int64(len(tc.file)), nil)
			var e *Error
			require.ErrorAs(t, err, &e, "%v", err)
			assert.Equal(t, CodeInvalidRecording, e.Code)
			assert.Equal(t, tc.reason, e.Reason)
		})
	}
	t.Run("StoreFailureIsNoVerdict", func(t *testing.T) {
		broken := io.MultiReader(bytes.NewReader(whole[:20]), failing{})
		_, err := InspectReplay(storeReader{broken}, 100, nil)
		require.Error(t, err)
		assert.Equal(t, CodeInternal, ErrorCode(err), "a store that fails mid-read is not a malformed recording")
	})
}

type failing struct{}

func (failing) Read([]byte) (int, error) { return 0, io.ErrClosedPipe }

// bomb is a valid gzip stream of a header line followed by zeros that
// inflate to size bytes, built in a blink: one gzip member of 1 MiB of
// zeros (about a kilobyte) repeated; concatenated members are one stream.
func bomb(t testing.TB, size int64) []byte {
	t.Helper()
	var member bytes.Buffer
	w, err := gzip.NewWriterLevel(&member, gzip.BestCompression)
	require.NoError(t, err)
	_, err = w.Write(make([]byte, 1<<20))
	require.NoError(t, err)
	require.NoError(t, w.Close())
	file := gz(t, header+"\n")
	for n := int64(0); n < size; n += 1 << 20 {
		file = append(file, member.Bytes()...)
	}
	return file
}

func TestInflateLimit(t *testing.T) {
	assert.Equal(t, int64(MinInflatedBytes), InflateLimit(100), "small files may inflate to 16 MiB")
	assert.Equal(t, int64(32*MB), InflateLimit(MB), "32 times the file")
	assert.Equal(t, int64(MaxInflatedBytes), InflateLimit(MaxRecordingBytes), "never past 512 MiB")
}

// TestGzipBomb: a small file that inflates to 4 GiB is refused after
// InflateLimit of its size, in bounded memory and time.
func TestGzipBomb(t *testing.T) {
	file := bomb(t, 4<<30)
	require.Less(t, len(file), 5<<20, "the bomb is small on the wire (%d bytes)", len(file))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	_, err := InspectReplay(bytes.NewReader(file), int64(len(file)), func([]byte) {})
	elapsed := time.Since(start)
	runtime.ReadMemStats(&after)
	var e *Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, CodeInvalidRecording, e.Code)
	assert.Equal(t, ReasonInflatesPast, e.Reason)
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(8<<20), "memory: the reader's buffers, not the inflated bytes")
	assert.Less(t, elapsed, 20*time.Second, "CPU: inflating the limit once, not 4 GiB")
}

// FuzzParseReplayHeader: no header line makes the reader panic, and
// whatever it accepts is within the header's rules.
func FuzzParseReplayHeader(f *testing.F) {
	f.Add([]byte(header))
	f.Add([]byte(`{"format":"game.replay.v1","scope":"public","segmentSeq":0,"baseTMs":0}`))
	f.Add([]byte(`{"format":"game.replay.v1","scope":"full","matchId":9223372036854775807}`))
	f.Add([]byte(`{"format":"game.replay.v1","scope":"full","durationMs":1e3}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		h, err := ParseReplayHeader(line)
		if err != nil {
			if ErrorCode(err) != CodeInvalidRecording {
				t.Fatalf("error %v is not invalid_recording", err)
			}
			return
		}
		if h.Format != ReplayFormat || !ValidScope(h.Scope) || len(h.GameBuild) > MaxGameBuildBytes || h.DurationMs < 0 ||
			(h.HasMatchID && h.MatchID < 1) || (h.SegmentSeq != nil && *h.SegmentSeq < 0) || (h.BaseTMs != nil && *h.BaseTMs < 0) {
			t.Fatalf("accepted a header outside the rules: %+v", h)
		}
		// Inside a gzip stream the same line gets the same verdict.
		if _, err := InspectReplay(bytes.NewReader(gz(t, string(line))), 0, nil); err != nil && !bytes.ContainsAny(line, "\n") {
			t.Fatalf("the line alone parses but not as a file: %v", err)
		}
	})
}
