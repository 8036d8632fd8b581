package server_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/core"
	"arena/worker/server"
)

// smallBuffers accepts connections whose kernel send buffer is small, so
// that a client that does not read makes the server's writes wait soon.
type smallBuffers struct{ net.Listener }

func (l smallBuffers) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetWriteBuffer(4096)
	}
	return c, err
}

// TestLiveStuckReaderDropped: a client that holds a stream but never
// reads does not keep it: once the socket is full, a write waits the
// write timeout, the stream ends and its slot is free again, while a
// reading watcher of the same feed goes on receiving every event.
func TestLiveStuckReaderDropped(t *testing.T) {
	p := logEnv(t, false, func(c *server.Config) { c.RateLimiter = nil })
	p.Server.SetLiveLimits(1, core.LiveMaxStreamsKey, 200*time.Millisecond)
	srv := httptest.NewUnstartedServer(server.Compress(p.Handler))
	srv.Listener = smallBuffers{srv.Listener}
	srv.Start()
	t.Cleanup(srv.Close)
	p.mustDo(t, "POST", "/api/v1/admin/tournaments", p.admin, p.tournamentBody("stuck", "groups_playoffs", 1024), 201)
	p.mustDo(t, "POST", "/api/v1/admin/tournaments/stuck/status", p.admin, map[string]any{"status": "registration_open"}, 200)

	// The stuck reader: a small receive buffer, a request, no reads.
	dialer := net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		return c.Control(func(fd uintptr) { _ = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096) })
	}}
	stuck, err := dialer.Dial("tcp", srv.Listener.Addr().String())
	require.NoError(t, err)
	t.Cleanup(func() { _ = stuck.Close() })
	_, err = fmt.Fprint(stuck, "GET /api/v1/live HTTP/1.1\r\nHost: alpha.test\r\n\r\n")
	require.NoError(t, err)
	// Its stream is open once its status line arrives (read before any
	// other stream is asked for, so that none takes the slot first);
	// then the IP's next stream is refused.
	require.NoError(t, stuck.SetReadDeadline(time.Now().Add(30*time.Second)))
	status, err := bufio.NewReaderSize(stuck, 16).ReadString('\n')
	require.NoError(t, err)
	require.Contains(t, status, " 200 ")
	require.NoError(t, stuck.SetReadDeadline(time.Time{}))
	refused(t, openLive(t, srv.URL, "/api/v1/live"), "the stuck reader holds the IP's one stream")

	auth := "Bearer " + p.mustDo(t, "POST", "/api/v1/admin/api-keys", p.admin, map[string]any{"label": "k"}, 201)["key"].(string)
	reader := openLive(t, srv.URL, "/api/v1/live", "Authorization", auth)
	require.Equal(t, 200, reader.resp.StatusCode)

	freed := false
	registered := 0
	for i := 1; i <= 1000 && !freed; i++ {
		p.mustDo(t, "POST", "/api/v1/admin/tournaments/stuck/registrations", p.admin, map[string]any{"platformId": playerID(i)}, 201)
		registered = i
		if i%20 == 0 {
			time.Sleep(300 * time.Millisecond) // past the write timeout
			s := openLive(t, srv.URL, "/api/v1/live")
			freed = s.resp.StatusCode == http.StatusOK
			s.close()
		}
	}
	require.True(t, freed, "the stuck reader still holds its slot after %d events", registered)
	t.Logf("the stuck reader was dropped after %d events", registered)
	for i := 1; i <= registered; i++ {
		e, _ := reader.next(t)
		assert.Equal(t, "registration.added", e.Type)
	}
}

// TestLiveStreamsKeepHealthzAnswering: a server whose file-handle limit
// is low, and one IP that opens streams as fast as it can: with the caps
// the IP holds its 8 and the server still answers /healthz; the control,
// the caps lifted, runs out of handles and stops answering. The server
// runs in a child process (this test binary again) because the limit is
// process-wide.
func TestLiveStreamsKeepHealthzAnswering(t *testing.T) {
	if mode := os.Getenv("ARENA_STREAM_FD_TEST"); mode != "" {
		serveStreamsLowHandles(t, mode == "uncapped")
		return
	}
	if testing.Short() {
		t.Skip("starts a child process serving streams")
	}
	run := func(mode string) (held, refused int, healthz error) {
		cmd := exec.Command(os.Args[0], "-test.run=^TestLiveStreamsKeepHealthzAnswering$", "-test.count=1")
		cmd.Env = append(os.Environ(), "ARENA_STREAM_FD_TEST="+mode)
		stdin, err := cmd.StdinPipe()
		require.NoError(t, err)
		stdout, err := cmd.StdoutPipe()
		require.NoError(t, err)
		cmd.Stderr = io.Discard
		require.NoError(t, cmd.Start())
		defer func() {
			_ = stdin.Close()
			done := make(chan struct{})
			go func() { _ = cmd.Wait(); close(done) }()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				_ = cmd.Process.Kill()
				<-done
			}
		}()
		lines := bufio.NewScanner(stdout)
		base := ""
		for lines.Scan() {
			if url, ok := strings.CutPrefix(lines.Text(), "serving "); ok {
				base = url
				break
			}
		}
		require.NotEmpty(t, base, "the child did not start serving")
		go func() { _, _ = io.Copy(io.Discard, stdout) }()
		return hammerStreams(t, base)
	}
	held, refused, healthz := run("capped")
	t.Logf("capped: held=%d refused=%d healthz=%v", held, refused, healthz)
	assert.Equal(t, core.LiveMaxStreamsAnonymous, held)
	assert.NoError(t, healthz, "/healthz answers while one IP hammers streams")

	held, refused, healthz = run("uncapped")
	t.Logf("uncapped: held=%d refused=%d healthz=%v", held, refused, healthz)
	assert.Error(t, healthz, "without the caps the handles must run out, else this test proves nothing")
}

// streamFDLimit is the child's RLIMIT_NOFILE; hammerAttempts the streams
// the one IP asks for (well above it).
const (
	streamFDLimit  = 128
	hammerAttempts = 200
)

// hammerStreams opens hammerAttempts streams on base from 16 goroutines,
// keeping every one the server lets it hold, then asks /healthz.
func hammerStreams(t *testing.T, base string) (held, refused int, healthz error) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	client := &http.Client{Transport: &http.Transport{ResponseHeaderTimeout: time.Second, MaxIdleConnsPerHost: 16}}
	defer client.CloseIdleConnections()
	var nHeld, nRefused, next atomic.Int64
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= hammerAttempts {
				req, _ := http.NewRequestWithContext(ctx, "GET", base+"/api/v1/live", nil)
				req.Host = "alpha.test"
				resp, err := client.Do(req)
				if err != nil {
					continue
				}
				if resp.StatusCode == http.StatusOK {
					nHeld.Add(1) // kept open until the run ends
					continue
				}
				if resp.StatusCode == http.StatusTooManyRequests {
					nRefused.Add(1)
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				_ = resp.Body.Close()
			}
		}()
	}
	wg.Wait()
	probe := &http.Client{Timeout: 3 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	resp, err := probe.Get(base + "/healthz")
	if err == nil {
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			err = fmt.Errorf("/healthz: %d", resp.StatusCode)
		}
	}
	return int(nHeld.Load()), int(nRefused.Load()), err
}

// serveStreamsLowHandles is the child: it lowers its file-handle limit,
// serves an arena on a local port (its URL on stdout) until stdin
// closes.
func serveStreamsLowHandles(t *testing.T, uncapped bool) {
	p := logEnv(t, false, func(c *server.Config) { c.RateLimiter = nil })
	if uncapped {
		p.Server.SetLiveLimits(1<<20, 1<<20, core.LiveWriteTimeout)
	}
	srv := httptest.NewServer(server.Compress(p.Handler))
	defer srv.Close()
	require.NoError(t, syscall.Setrlimit(syscall.RLIMIT_NOFILE, &syscall.Rlimit{Cur: streamFDLimit, Max: streamFDLimit}))
	fmt.Printf("serving %s\n", srv.URL)
	_, _ = io.Copy(io.Discard, os.Stdin)
}
