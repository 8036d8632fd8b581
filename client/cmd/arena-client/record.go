package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"arena/client"
)

// recordFlags are the record and segments commands' flags.
type recordFlags struct {
	file, scope, build, spool, token, out, resubmit string
	casual, list                                    bool
	fetch, share, recording, after, seq             int64
}

// sampleReplay records a few seconds of a sample game: a recording of
// the live match m (nil: a casual game), or its segment seq when seq >= 0.
func sampleReplay(m *client.LiveMatch, scope, build string, seq int64) ([]byte, error) {
	w := client.NewReplayWriter()
	base := max(seq, 0) * 3000
	if seq <= 0 {
		if err := w.Append(0, "match_started", nil); err != nil {
			return nil, err
		}
	}
	for i := int64(1); i <= 3; i++ {
		t := base + i*1000
		actor := int(i%2) + 1
		if err := w.Append(t, "turn_started", map[string]any{"actor": actor}); err != nil {
			return nil, err
		}
		if err := w.Append(t+100, "public_action", map[string]any{"actor": actor, "action": "play", "target": "board"}); err != nil {
			return nil, err
		}
		if scope == client.ScopeFull {
			if err := w.Append(t+200, "hand", map[string]any{"cards": []any{"Ah", "Kd"}}); err != nil {
				return nil, err
			}
		}
	}
	h := client.ReplayHeader{Scope: scope, GameBuild: build, DurationMs: base + 3300}
	if m != nil {
		h = client.MatchHeader(m, scope, build, base+3300)
	}
	if seq >= 0 {
		h = h.Segment(seq, base)
	}
	return w.Finish(h)
}

// liveOrCasual returns the live match, or nil with casual.
func liveOrCasual(ctx context.Context, c *client.Client, casual bool) (*client.LiveMatch, error) {
	if casual {
		return nil, nil
	}
	m, err := c.LiveMatch(ctx)
	if err == nil && m == nil {
		err = fmt.Errorf("no live match (use -casual for a casual recording)")
	}
	return m, err
}

// record runs the record command; see usage.
func record(ctx context.Context, c *client.Client, f recordFlags, stdout, stderr io.Writer) int {
	switch {
	case f.list:
		list, err := c.MyRecordings(ctx)
		return answer(stdout, stderr, list, false, "", err)
	case f.fetch > 0:
		url, err := c.FetchRecording(ctx, f.fetch, f.token)
		if err != nil || f.out == "" {
			return answer(stdout, stderr, map[string]string{"url": url}, false, "", err)
		}
		body, err := c.Download(ctx, url)
		if err == nil {
			err = os.WriteFile(f.out, body, 0o644)
		}
		return answer(stdout, stderr, map[string]any{"file": f.out, "bytes": len(body)}, false, "", err)
	case f.share > 0:
		share, err := c.ShareRecording(ctx, f.share)
		return answer(stdout, stderr, share, false, "", err)
	case f.resubmit != "":
		results, err := c.ResubmitSpool(ctx, f.resubmit)
		for _, r := range results {
			status := "submitted"
			if r.Err != nil {
				status = r.Err.Error()
			}
			fmt.Fprintf(stdout, "%s: %s\n", filepath.Base(r.File), status)
		}
		return answer(stdout, stderr, nil, true, fmt.Sprintf("%d spooled file(s)", len(results)), err)
	}
	file, err := f.replay(ctx, c)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	rec, err := c.SubmitRecording(ctx, file)
	if err != nil && f.spool != "" {
		path := filepath.Join(f.spool, fmt.Sprintf("%d%s", time.Now().UnixNano(), client.SpoolSuffix))
		if werr := os.MkdirAll(f.spool, 0o755); werr == nil {
			if werr = os.WriteFile(path, file, 0o644); werr == nil {
				fmt.Fprintf(stderr, "kept in %s for `record -resubmit %s`\n", path, f.spool)
			}
		}
	}
	return answer(stdout, stderr, rec, false, "", err)
}

// replay is the file to submit: -file, or a sample game.
func (f recordFlags) replay(ctx context.Context, c *client.Client) ([]byte, error) {
	if f.file != "" {
		return os.ReadFile(f.file)
	}
	m, err := liveOrCasual(ctx, c, f.casual)
	if err != nil {
		return nil, err
	}
	return sampleReplay(m, f.scope, f.build, -1)
}

// segments runs the segments command: list a recording's released
// segments, or with -seq send one (a sample of the live match without
// -file).
func segments(ctx context.Context, c *client.Client, f recordFlags, stdout, stderr io.Writer) int {
	if f.recording <= 0 {
		fmt.Fprintln(stderr, "segments: -recording is required")
		return 2
	}
	if f.seq < 0 {
		feed, err := c.Segments(ctx, f.recording, f.after, f.token)
		return answer(stdout, stderr, feed, false, "", err)
	}
	file, err := func() ([]byte, error) {
		if f.file != "" {
			return os.ReadFile(f.file)
		}
		m, err := liveOrCasual(ctx, c, f.casual)
		if err != nil {
			return nil, err
		}
		return sampleReplay(m, f.scope, f.build, f.seq)
	}()
	if err == nil {
		err = c.SubmitSegment(ctx, f.recording, f.seq, file)
	}
	out, _ := json.Marshal(map[string]any{"recordingId": f.recording, "seq": f.seq, "bytes": len(file)})
	return answer(stdout, stderr, json.RawMessage(out), false, "", err)
}
