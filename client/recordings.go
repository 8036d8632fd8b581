package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// UploadContentType is the one content type of uploads.
const UploadContentType = "application/gzip"

// maxDownloadBytes bounds a download: the arena's 16 MB ceiling.
const maxDownloadBytes = 16 << 20

// ErrNotReplay is returned when a file to submit has no readable
// game.replay.v1 header; nothing was sent.
var ErrNotReplay = errors.New("client: not a game.replay.v1 file")

// UploadTarget is where an object goes: a presigned object-storage URL,
// or (Local) the arena's own signed route in dev mode.
type UploadTarget struct {
	URL   string `json:"url"`
	Local bool   `json:"local"`
}

// RecordingInit is the arena's answer to a recording init.
type RecordingInit struct {
	RecordingID int64        `json:"recordingId"`
	Upload      UploadTarget `json:"upload"`
	MaxBytes    int64        `json:"maxBytes"`
}

// Recording is a recording as the arena lists it.
type Recording struct {
	ID                 int64  `json:"id"`
	MatchID            *int64 `json:"matchId"` // nil for a casual recording
	Game               *int   `json:"game"`    // the game of the match's series; nil for a casual recording
	Scope              string `json:"scope"`
	Visibility         string `json:"visibility"`
	GameBuild          string `json:"gameBuild"`
	DurationMs         int64  `json:"durationMs"`
	ByteSize           int64  `json:"byteSize"`
	State              string `json:"state"` // pending or ready
	UploaderPlatformID string `json:"uploaderPlatformId"`
	CreatedAt          string `json:"createdAt"`
}

// Share is a recording's link: the token and the tokenized fetch path.
type Share struct {
	Token string `json:"token"`
	Path  string `json:"path"`
}

type recordingInitBody struct {
	Scope        string `json:"scope"`
	GameBuild    string `json:"gameBuild"`
	DurationMs   int64  `json:"durationMs"`
	SessionNonce string `json:"sessionNonce,omitempty"`
}

// post sends a JSON body (nil: none) and decodes a 200 answer.
func (c *Client) post(ctx context.Context, path string, body, out any) error {
	var raw []byte
	if body != nil {
		var err error
		if raw, err = json.Marshal(body); err != nil {
			return err
		}
	}
	found, err := c.call(ctx, http.MethodPost, path, raw, out)
	if err == nil && !found {
		return fmt.Errorf("%w: POST %s: no body", ErrBadResponse, path)
	}
	return err
}

// InitRecording announces a recording: of match matchID (0: a casual
// recording, POST /me/recordings/init, scope forced public). A match
// recording is of the game being played, else the last one decided;
// InitGameRecording names the game.
func (c *Client) InitRecording(ctx context.Context, matchID int64, scope, gameBuild string, durationMs int64) (*RecordingInit, error) {
	return c.InitGameRecording(ctx, matchID, "", scope, gameBuild, durationMs)
}

// InitGameRecording announces a recording of the game of match matchID
// whose live session is sessionNonce (a replay header's; "" as
// InitRecording). Each game of a series has its own recording.
func (c *Client) InitGameRecording(ctx context.Context, matchID int64, sessionNonce, scope, gameBuild string, durationMs int64) (*RecordingInit, error) {
	if !c.settings.Enabled {
		return nil, ErrDisabled
	}
	path := "/api/v1/me/recordings/init"
	body := recordingInitBody{Scope: scope, GameBuild: gameBuild, DurationMs: durationMs}
	if matchID != 0 {
		path = fmt.Sprintf("/api/v1/matches/%d/recording/init", matchID)
		body.SessionNonce = sessionNonce
	}
	var out RecordingInit
	if err := c.post(ctx, path, body, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Upload PUTs an object to an upload URL (no ticket: the URL is the
// authorization). Any answer but 2xx is an *APIError.
func (c *Client) Upload(ctx context.Context, target string, file []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, target, bytes.NewReader(file))
	if err != nil {
		return fmt.Errorf("client: upload: %w", err)
	}
	req.Header.Set("Content-Type", UploadContentType)
	req.ContentLength = int64(len(file))
	resp, err := c.http.Do(req)
	if err != nil {
		return &transportError{fmt.Errorf("client: upload: %w", err)}
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes))
	if resp.StatusCode/100 != 2 {
		return apiError(http.MethodPut, uploadPath(target), resp.StatusCode, body)
	}
	return nil
}

// uploadPath is a URL's path without its signature, for errors and logs.
func uploadPath(target string) string {
	if u, err := url.Parse(target); err == nil {
		return u.Path
	}
	return "upload"
}

// FinalizeRecording asks the arena to read the uploaded object and mark
// the recording ready.
func (c *Client) FinalizeRecording(ctx context.Context, recordingID int64) (*Recording, error) {
	var out Recording
	if err := c.post(ctx, fmt.Sprintf("/api/v1/recordings/%d/finalize", recordingID), nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// SubmitRecording submits a game.replay.v1 file: init (scope, build,
// duration, the match and its game's session read from the file's
// header), PUT, finalize.
// Each step is retried like a result on a network failure or a 5xx (init
// of a match recording is idempotent); a 4xx is final. A file over the
// maxBytes init answers is still sent: the arena decides (finalize
// refuses only above its ceiling).
func (c *Client) SubmitRecording(ctx context.Context, file []byte) (*Recording, error) {
	h, err := ReadReplayHeader(file)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotReplay, err)
	}
	var init *RecordingInit
	err = c.retry(ctx, "recording init", func() (err error) {
		init, err = c.InitGameRecording(ctx, h.MatchID, h.SessionNonce, h.Scope, h.GameBuild, h.DurationMs)
		return err
	})
	if err != nil {
		return nil, err
	}
	if err := c.retry(ctx, "recording upload", func() error { return c.Upload(ctx, init.Upload.URL, file) }); err != nil {
		return nil, err
	}
	var rec *Recording
	err = c.retry(ctx, "recording finalize", func() (err error) {
		rec, err = c.FinalizeRecording(ctx, init.RecordingID)
		return err
	})
	return rec, err
}

// retry runs step until it succeeds, fails for good (a 4xx, a ticket
// failure), or MaxSubmitAttempts are spent, waiting SubmitBackoff
// between attempts.
func (c *Client) retry(ctx context.Context, what string, step func() error) error {
	maxAttempts := c.settings.MaxSubmitAttempts
	for attempt := 1; ; attempt++ {
		err := step()
		switch {
		case err == nil:
			return nil
		case ctx.Err() != nil:
			return ctx.Err()
		case !retryable(err):
			return err
		case attempt >= maxAttempts:
			return fmt.Errorf("%w after %d attempts: %w", ErrRetriesExhausted, attempt, err)
		}
		wait := SubmitBackoff(maxAttempts, maxAttempts-attempt)
		c.logf("client: %s attempt %d failed, retrying in %s: %v", what, attempt, wait, err)
		if err := c.sleep(ctx, wait); err != nil {
			return err
		}
	}
}

// MyRecordings lists the caller's recordings (GET /me/recordings).
func (c *Client) MyRecordings(ctx context.Context) ([]Recording, error) {
	if !c.settings.Enabled {
		return nil, ErrDisabled
	}
	var out struct {
		Recordings []Recording `json:"recordings"`
	}
	found, err := c.call(ctx, http.MethodGet, "/api/v1/me/recordings", nil, &out)
	if err == nil && !found {
		err = fmt.Errorf("%w: GET /api/v1/me/recordings: no body", ErrBadResponse)
	}
	return out.Recordings, err
}

// FetchRecording returns a short-lived download URL of a recording; token
// is a share link's token ("" for none).
func (c *Client) FetchRecording(ctx context.Context, recordingID int64, token string) (string, error) {
	if !c.settings.Enabled {
		return "", ErrDisabled
	}
	path := fmt.Sprintf("/api/v1/recordings/%d", recordingID)
	if token != "" {
		path += "?token=" + url.QueryEscape(token)
	}
	var out struct {
		URL string `json:"url"`
	}
	found, err := c.call(ctx, http.MethodGet, path, nil, &out)
	if err == nil && (!found || out.URL == "") {
		err = fmt.Errorf("%w: GET %s: no url", ErrBadResponse, path)
	}
	return out.URL, err
}

// Download reads an object from a fetch URL (at most 16 MB).
func (c *Client) Download(ctx context.Context, target string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return nil, fmt.Errorf("client: download: %w", err)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, &transportError{fmt.Errorf("client: download: %w", err)}
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxDownloadBytes+1))
	if err != nil {
		return nil, &transportError{fmt.Errorf("client: download: %w", err)}
	}
	if resp.StatusCode != http.StatusOK {
		return nil, apiError(http.MethodGet, uploadPath(target), resp.StatusCode, body)
	}
	if len(body) > maxDownloadBytes {
		return nil, fmt.Errorf("client: download: over %d bytes", maxDownloadBytes)
	}
	return body, nil
}

// ShareRecording makes the caller's recording shareable by link.
func (c *Client) ShareRecording(ctx context.Context, recordingID int64) (*Share, error) {
	var out Share
	if err := c.post(ctx, fmt.Sprintf("/api/v1/recordings/%d/share", recordingID), nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// SpoolSuffix names the files of a spool directory.
const SpoolSuffix = ".replay.gz"

// SpoolResult is what resubmitting one spooled file gave.
type SpoolResult struct {
	File      string
	Recording *Recording // nil when it failed
	Err       error
}

// ResubmitSpool submits every *.replay.gz file in dir (a game keeps the
// recordings it could not submit there), oldest name first. A submitted
// file is removed; a file the arena refused for good (a 4xx, or not a
// replay) is renamed to <name>.refused so it is not tried forever; any
// other failure leaves it for the next run.
func (c *Client) ResubmitSpool(ctx context.Context, dir string) ([]SpoolResult, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("client: spool: %w", err)
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), SpoolSuffix) {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	var out []SpoolResult
	for _, name := range names {
		path := filepath.Join(dir, name)
		res := SpoolResult{File: path}
		file, err := os.ReadFile(path)
		if err == nil {
			res.Recording, err = c.SubmitRecording(ctx, file)
		}
		res.Err = err
		var apiErr *APIError
		switch {
		case err == nil:
			err = os.Remove(path)
		case errors.Is(err, ErrNotReplay) || (errors.As(err, &apiErr) && !apiErr.Retryable()):
			err = os.Rename(path, path+".refused")
		default:
			err = nil
		}
		if err != nil && res.Err == nil {
			res.Err = err
		}
		out = append(out, res)
		if ctx.Err() != nil {
			return out, ctx.Err()
		}
	}
	return out, nil
}

// SegmentFeed is the near-live segment list of a recording.
type SegmentFeed struct {
	State    string        `json:"state"` // live or ended
	Segments []SegmentLink `json:"segments"`
}

// Live reports whether the recording is still appended to.
func (f *SegmentFeed) Live() bool { return f.State == "live" }

// SegmentLink is one released segment and its download URL.
type SegmentLink struct {
	Seq int64  `json:"seq"`
	URL string `json:"url"`
}

// SegmentInit is the upload target of one segment.
type SegmentInit struct {
	RecordingID int64        `json:"recordingId"`
	Seq         int64        `json:"seq"`
	Upload      UploadTarget `json:"upload"`
	MaxBytes    int64        `json:"maxBytes"`
}

// SubmitSegment sends segment seq of the caller's pending recording: init
// (idempotent per seq), PUT, finalize; retried like SubmitRecording. The
// file's header must carry segmentSeq seq and baseTMs.
func (c *Client) SubmitSegment(ctx context.Context, recordingID, seq int64, file []byte) error {
	if !c.settings.Enabled {
		return ErrDisabled
	}
	var init SegmentInit
	err := c.retry(ctx, "segment init", func() error {
		return c.post(ctx, fmt.Sprintf("/api/v1/recordings/%d/segments/init", recordingID), map[string]int64{"seq": seq}, &init)
	})
	if err != nil {
		return err
	}
	if err := c.retry(ctx, "segment upload", func() error { return c.Upload(ctx, init.Upload.URL, file) }); err != nil {
		return err
	}
	return c.retry(ctx, "segment finalize", func() error {
		var out map[string]any
		return c.post(ctx, fmt.Sprintf("/api/v1/recordings/%d/segments/%d/finalize", recordingID, seq), nil, &out)
	})
}

// Segments lists the released segments after seq after (-1: all) of a
// recording; token is a share link's token ("" for none).
func (c *Client) Segments(ctx context.Context, recordingID, after int64, token string) (*SegmentFeed, error) {
	if !c.settings.Enabled {
		return nil, ErrDisabled
	}
	q := url.Values{"after": {fmt.Sprint(after)}}
	if token != "" {
		q.Set("token", token)
	}
	path := fmt.Sprintf("/api/v1/recordings/%d/segments?%s", recordingID, q.Encode())
	var out SegmentFeed
	found, err := c.call(ctx, http.MethodGet, path, nil, &out)
	if err == nil && !found {
		err = fmt.Errorf("%w: GET %s: no body", ErrBadResponse, path)
	}
	return &out, err
}
