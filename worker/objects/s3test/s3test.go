// Package s3test starts a real S3-compatible server for tests: versitygw,
// built from the Go module proxy into tools/ by scripts/s3server.sh
// (make tools).
package s3test

import (
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arena/worker/objects"
)

// binaryPath is where scripts/s3server.sh builds versitygw, from the repo
// root.
const binaryPath = "tools/versitygw-v1.8.0/versitygw"

// Credentials of the servers Start runs.
const (
	AccessKeyID     = "arenatestkey"
	SecretAccessKey = "arenatestsecret0123456789"
	Bucket          = "arena-recordings"
)

// Binary returns the versitygw binary: $ARENA_VERSITYGW, or the one in the
// repository's tools/ folder. When it is missing the test fails if
// ARENA_REQUIRE_S3 is set (make test sets it) and is skipped otherwise.
func Binary(tb testing.TB) string {
	tb.Helper()
	if p := os.Getenv("ARENA_VERSITYGW"); p != "" {
		return p
	}
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		if p := filepath.Join(dir, binaryPath); fileExists(p) {
			return p
		}
		if fileExists(filepath.Join(dir, "go.mod")) {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	msg := "versitygw not built: run `make tools` (or set ARENA_VERSITYGW)"
	if os.Getenv("ARENA_REQUIRE_S3") != "" {
		tb.Fatal(msg)
	}
	tb.Skip(msg)
	return ""
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// Start runs versitygw over a fresh directory with one bucket (Bucket)
// and returns an adapter for it (path-style, region us-east-1). The
// server stops when the test ends.
func Start(tb testing.TB) *objects.S3 {
	tb.Helper()
	bin := Binary(tb)
	root := tb.TempDir()
	if err := os.Mkdir(filepath.Join(root, Bucket), 0o755); err != nil {
		tb.Fatal(err)
	}
	for attempt := 0; ; attempt++ {
		addr := freeAddr(tb)
		cmd := exec.Command(bin, "-a", AccessKeyID, "-s", SecretAccessKey, "-p", addr, "-q", "posix", root)
		var out strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			tb.Fatalf("s3test: start versitygw: %v", err)
		}
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		endpoint := "http://" + addr
		if waitReady(endpoint, done) {
			tb.Cleanup(func() {
				_ = cmd.Process.Kill()
				<-done
			})
			return &objects.S3{Endpoint: endpoint, Bucket: Bucket, AccessKeyID: AccessKeyID, SecretAccessKey: SecretAccessKey}
		}
		_ = cmd.Process.Kill()
		<-done
		if attempt == 2 {
			tb.Fatalf("s3test: versitygw did not start:\n%s", out.String())
		}
	}
}

func freeAddr(tb testing.TB) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// waitReady polls until the server answers HTTP (any status) or exits.
func waitReady(endpoint string, done <-chan struct{}) bool {
	c := &http.Client{Timeout: time.Second}
	for range 100 {
		select {
		case <-done:
			return false
		default:
		}
		if resp, err := c.Get(endpoint + "/"); err == nil {
			resp.Body.Close()
			return true
		}
		time.Sleep(50 * time.Millisecond)
	}
	return false
}
