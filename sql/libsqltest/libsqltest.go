// Package libsqltest starts real libSQL servers for tests: tursodb from
// the npm package turso, installed by `make tools` into tools/.
package libsqltest

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// binaryPath is where scripts/tools.sh installs tursodb, from the repo root.
const binaryPath = "tools/node_modules/@tursodatabase/cli-linux-x64-gnu/tursodb"

// Binary returns the tursodb binary: $ARENA_TURSODB, or the one in the
// repository's tools/ folder. When it is missing the test fails if
// ARENA_REQUIRE_LIBSQL is set (make test sets it) and is skipped otherwise.
func Binary(tb testing.TB) string {
	tb.Helper()
	if p := os.Getenv("ARENA_TURSODB"); p != "" {
		return p
	}
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		p := filepath.Join(dir, binaryPath)
		if _, err := os.Stat(p); err == nil {
			return p
		}
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	msg := "tursodb not installed: run `make tools` (or set ARENA_TURSODB)"
	if os.Getenv("ARENA_REQUIRE_LIBSQL") != "" {
		tb.Fatal(msg)
	}
	tb.Skip(msg)
	return ""
}

// Start runs a libSQL server over a fresh database file and returns its
// http:// URL. The server stops when the test ends.
func Start(tb testing.TB) string {
	tb.Helper()
	bin := Binary(tb)
	dir := tb.TempDir()
	for attempt := 0; ; attempt++ {
		addr := freeAddr(tb)
		cmd := exec.Command(bin, "--sync-server", addr, filepath.Join(dir, fmt.Sprintf("db%d.db", attempt)))
		var out strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			tb.Fatalf("libsqltest: start tursodb: %v", err)
		}
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		url := "http://" + addr
		if waitReady(url, done) {
			tb.Cleanup(func() {
				_ = cmd.Process.Kill()
				<-done
			})
			return url
		}
		_ = cmd.Process.Kill()
		<-done
		if attempt == 2 {
			tb.Fatalf("libsqltest: tursodb did not start: %s", out.String())
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

func waitReady(url string, exited <-chan struct{}) bool {
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-exited:
			return false
		default:
		}
		resp, err := http.Get(url + "/v2")
		if err == nil {
			resp.Body.Close()
			return true
		}
		time.Sleep(20 * time.Millisecond)
	}
	return false
}
