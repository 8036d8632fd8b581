package core

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"io"
	"math"
)

// ReplayFormat is the format tag of recordings and segments (spec 9.4).
const ReplayFormat = "game.replay.v1"

// Limits of reading a replay. Finalize reads only what it must: the
// header line, then the rest of the stream decompressed into nothing (to
// prove it is whole), never more than InflateLimit of the file's size. A
// gzip bomb (a small file that inflates to gigabytes, about 1000:1) stops
// there: memory stays at the reader's buffers, CPU at inflating the limit
// once. Event logs compress about 5 to 15 times, well inside it.
const (
	MaxReplayHeaderBytes = 64 << 10
	// MaxInflationRatio bounds how many times its size a file may inflate
	// to (at least MinInflatedBytes, at most MaxInflatedBytes).
	MaxInflationRatio = 32
	MinInflatedBytes  = 16 << 20
	MaxInflatedBytes  = 512 << 20
	// maxEventLineBytes bounds one event line the trace derivation reads;
	// longer lines are skipped unread.
	maxEventLineBytes = 64 << 10
)

// Reasons refining CodeInvalidRecording (shown as the error's reason).
const (
	ReasonNotGzip      = "not_gzip"
	ReasonNoHeader     = "no_header"
	ReasonBadHeader    = "bad_header"
	ReasonFormat       = "format"
	ReasonTruncated    = "truncated"
	ReasonInflatesPast = "inflates_too_far"
	ReasonEmpty        = "empty"
)

// Recording finalize errors (spec 7).
const (
	CodeUploadMissing    = "upload_missing"    // 422: nothing was uploaded
	CodeInvalidRecording = "invalid_recording" // 422: not a game.replay.v1 gzip (reason says why)
	CodeHeaderMismatch   = "header_mismatch"   // 422: the header names another match, nonce, scope or segment
	// CodeRecordingTooLarge: over the global ceiling (413); the object is
	// deleted.
	CodeRecordingTooLarge = "recording_too_large"
)

// ReplayHeader is line 1 of a game.replay.v1 file (DESIGN.md). A casual
// recording has no MatchID (0) and no SessionNonce; only a segment has
// SegmentSeq and BaseTMs (nil otherwise).
type ReplayHeader struct {
	Format       string
	MatchID      int64
	HasMatchID   bool
	SessionNonce string
	Scope        string
	GameBuild    string
	DurationMs   int64
	SegmentSeq   *int64
	BaseTMs      *int64
}

func invalidRecording(reason, format string, args ...any) *Error {
	e := Errorf(CodeInvalidRecording, format, args...)
	e.Reason = reason
	return e
}

// ParseReplayHeader reads a header line: a JSON object with format
// game.replay.v1 and scope public or full; matchId, durationMs,
// segmentSeq and baseTMs whole numbers (durationMs, segmentSeq, baseTMs
// not negative); sessionNonce and gameBuild strings within bounds.
// Unknown keys are ignored. Anything else is CodeInvalidRecording.
func ParseReplayHeader(line []byte) (ReplayHeader, error) {
	var h ReplayHeader
	var raw map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	if err := dec.Decode(&raw); err != nil || raw == nil {
		return h, invalidRecording(ReasonBadHeader, "the header is not a JSON object")
	}
	if dec.More() {
		return h, invalidRecording(ReasonBadHeader, "trailing data after the header object")
	}
	if !stringField(raw, "format", &h.Format, 64) || h.Format != ReplayFormat {
		return h, invalidRecording(ReasonFormat, "format is not %s", ReplayFormat)
	}
	if !stringField(raw, "scope", &h.Scope, 16) || !ValidScope(h.Scope) {
		return h, invalidRecording(ReasonBadHeader, "scope is not public or full")
	}
	if _, ok := raw["matchId"]; ok {
		if !intField(raw, "matchId", &h.MatchID, 1) {
			return h, invalidRecording(ReasonBadHeader, "matchId is not a positive whole number")
		}
		h.HasMatchID = true
	}
	if _, ok := raw["sessionNonce"]; ok && !stringField(raw, "sessionNonce", &h.SessionNonce, MaxNonceLen) {
		return h, invalidRecording(ReasonBadHeader, "sessionNonce is not a string")
	}
	if _, ok := raw["gameBuild"]; ok && !stringField(raw, "gameBuild", &h.GameBuild, MaxGameBuildBytes) {
		return h, invalidRecording(ReasonBadHeader, "gameBuild is not a string of at most %d bytes", MaxGameBuildBytes)
	}
	if _, ok := raw["durationMs"]; ok && !intField(raw, "durationMs", &h.DurationMs, 0) {
		return h, invalidRecording(ReasonBadHeader, "durationMs is not a whole number")
	}
	for _, f := range []struct {
		name string
		dst  **int64
	}{{"segmentSeq", &h.SegmentSeq}, {"baseTMs", &h.BaseTMs}} {
		if _, ok := raw[f.name]; !ok {
			continue
		}
		var n int64
		if !intField(raw, f.name, &n, 0) {
			return h, invalidRecording(ReasonBadHeader, "%s is not a whole number", f.name)
		}
		*f.dst = &n
	}
	return h, nil
}

// stringField reads raw[name] as a JSON string of at most max bytes.
func stringField(raw map[string]json.RawMessage, name string, dst *string, max int) bool {
	v, ok := raw[name]
	if !ok || json.Unmarshal(v, dst) != nil {
		return false
	}
	return len(*dst) <= max
}

// intField reads raw[name] as a whole JSON number of at least min.
func intField(raw map[string]json.RawMessage, name string, dst *int64, min int64) bool {
	var n json.Number
	v, ok := raw[name]
	if !ok || len(v) == 0 || v[0] == '"' || json.Unmarshal(v, &n) != nil {
		return false // a JSON string holding a number is no number
	}
	i, err := n.Int64()
	if err != nil || i < min || i > math.MaxInt64/2 {
		return false
	}
	*dst = i
	return true
}

// InflateLimit is how many bytes a file of size bytes may inflate to.
func InflateLimit(size int64) int64 {
	return min(MaxInflatedBytes, max(MinInflatedBytes, MaxInflationRatio*size))
}

// InspectReplay reads a game.replay.v1 gzip stream of size bytes: the
// header line (parsed), then every later line to the end, so a stream
// that is cut short or fails its checksum is refused. onEvent, when not
// nil, sees each event line of at most 64 KiB (longer lines are passed
// over: events are the game's business), valid only during the call. At most InflateLimit(size) bytes are decompressed. Errors
// are CodeInvalidRecording with the reason, or the reader's own failure.
func InspectReplay(r io.Reader, size int64, onEvent func(line []byte)) (ReplayHeader, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		if isReadFailure(err) {
			return ReplayHeader{}, err
		}
		return ReplayHeader{}, invalidRecording(ReasonNotGzip, "not a gzip stream")
	}
	inflated := &inflateLimit{r: zr, left: InflateLimit(size)}
	br := bufio.NewReaderSize(inflated, MaxReplayHeaderBytes)
	line, err := br.ReadSlice('\n')
	switch {
	case errors.Is(err, bufio.ErrBufferFull):
		return ReplayHeader{}, invalidRecording(ReasonNoHeader, "no header line within %d bytes", MaxReplayHeaderBytes)
	case err == io.EOF && len(bytes.TrimSpace(line)) == 0:
		return ReplayHeader{}, invalidRecording(ReasonEmpty, "the stream holds no header line")
	case err != nil && err != io.EOF:
		return ReplayHeader{}, streamError(err, size)
	}
	h, perr := ParseReplayHeader(line)
	if perr != nil {
		return ReplayHeader{}, perr
	}
	if err == io.EOF {
		return h, nil
	}
	if onEvent == nil {
		_, err = io.Copy(io.Discard, br)
	} else {
		err = eachLine(br, onEvent)
	}
	if err != nil {
		return ReplayHeader{}, streamError(err, size)
	}
	return h, nil
}

// eachLine hands every event line of at most 64 KiB to onEvent until EOF.
func eachLine(br *bufio.Reader, onEvent func(line []byte)) error {
	skipping := false
	for {
		line, err := br.ReadSlice('\n')
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			skipping = true // the rest of an overlong line
			continue
		case err != nil && err != io.EOF:
			return err
		}
		if !skipping && len(line) > 0 && len(line) <= maxEventLineBytes {
			onEvent(line)
		}
		skipping = false
		if err == io.EOF {
			return nil
		}
	}
}

// errInflatesPast stops reading a stream that inflates past the limit.
var errInflatesPast = errors.New("core: replay inflates past the limit")

// inflateLimit fails once more than left bytes were read.
type inflateLimit struct {
	r    io.Reader
	left int64
}

func (l *inflateLimit) Read(p []byte) (int, error) {
	if l.left <= 0 {
		return 0, errInflatesPast
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	return n, err
}

// readFailure marks an error of the underlying object read (the store),
// as opposed to a malformed stream.
type readFailure struct{ err error }

func (e *readFailure) Error() string { return e.err.Error() }
func (e *readFailure) Unwrap() error { return e.err }

// storeReader marks the errors of an object store's reader, so that
// InspectReplay reports them as they are (a 500), not as a malformed
// recording.
type storeReader struct{ r io.Reader }

func (s storeReader) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if err != nil && err != io.EOF {
		err = &readFailure{err}
	}
	return n, err
}

func isReadFailure(err error) bool {
	var rf *readFailure
	return errors.As(err, &rf)
}

// streamError classifies a failure while inflating a file of size bytes.
func streamError(err error, size int64) error {
	switch {
	case isReadFailure(err):
		return err
	case errors.Is(err, errInflatesPast):
		return invalidRecording(ReasonInflatesPast, "inflates past %d bytes", InflateLimit(size))
	}
	return invalidRecording(ReasonTruncated, "the gzip stream is cut short or damaged: %v", err)
}
