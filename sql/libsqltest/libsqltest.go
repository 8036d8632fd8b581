// Package libsqltest starts real libSQL servers for tests: tursodb from
// the npm package turso, installed by `make tools` into tools/. Its Tool
// and Serve run the project's other test servers from tools/ too.
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
	return Tool(tb, "ARENA_TURSODB", binaryPath, "ARENA_REQUIRE_LIBSQL", "tursodb not installed: run `make tools` (or set ARENA_TURSODB)")
}

// Tool returns a test tool's binary: $env when set, else rel (a path from
// the repository root) found from the working directory up. When it is
// missing the test fails with msg if $require is set, and is skipped
// otherwise.
func Tool(tb testing.TB, env, rel, require, msg string) string {
	tb.Helper()
	if p := os.Getenv(env); p != "" {
		return p
	}
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		p := filepath.Join(dir, rel)
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
	if os.Getenv(require) != "" {
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
	attempt := 0
	return Serve(tb, "tursodb", "/v2", func(addr string) *exec.Cmd {
		attempt++
		return exec.Command(bin, "--sync-server", addr, filepath.Join(dir, fmt.Sprintf("db%d.db", attempt)))
	})
}

// Server is a libSQL server that a test can pause, kill and bring back,
// on the same address and database file.
type Server struct {
	// URL is the server's http:// origin.
	URL  string
	addr string
	cmd  func(addr string) *exec.Cmd
	tb   testing.TB

	proc *os.Process
	done chan struct{} // closed when proc has exited
}

// StartServer runs a libSQL server over a fresh database file, as Start
// does, and returns it to control. It stops when the test ends.
func StartServer(tb testing.TB) *Server {
	tb.Helper()
	bin := Binary(tb)
	file := filepath.Join(tb.TempDir(), "db.db")
	s := &Server{tb: tb, cmd: func(addr string) *exec.Cmd { return exec.Command(bin, "--sync-server", addr, file) }}
	for attempt := 0; ; attempt++ {
		s.addr = freeAddr(tb)
		if out, ok := s.start(); ok {
			break
		} else if attempt == 2 {
			tb.Fatalf("libsqltest: tursodb did not start: %s", out)
		}
	}
	s.URL = "http://" + s.addr
	tb.Cleanup(func() {
		_ = s.proc.Kill()
		<-s.done
	})
	return s
}

// start runs the server on s.addr and waits until it answers.
func (s *Server) start() (string, bool) {
	cmd := s.cmd(s.addr)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		s.tb.Fatalf("libsqltest: start tursodb: %v", err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	s.proc, s.done = cmd.Process, done
	if waitReady("http://"+s.addr+"/v2", done) {
		return "", true
	}
	_ = cmd.Process.Kill()
	<-done
	return out.String(), false
}

// Kill kills the server's process (SIGKILL) and waits for it to exit:
// connections are refused until Restart.
func (s *Server) Kill() {
	_ = s.proc.Kill()
	<-s.done
}

// Restart starts the killed server again on its address and database
// file and waits until it answers.
func (s *Server) Restart() {
	s.tb.Helper()
	if out, ok := s.start(); !ok {
		s.tb.Fatalf("libsqltest: tursodb did not restart: %s", out)
	}
}

// Serve starts the server command(addr) makes on a free local address,
// waits until it answers HTTP on probe (any status), and returns its
// http:// origin; it tries three addresses before failing the test. The
// server is killed when the test ends.
func Serve(tb testing.TB, name, probe string, command func(addr string) *exec.Cmd) string {
	tb.Helper()
	for attempt := 0; ; attempt++ {
		addr := freeAddr(tb)
		cmd := command(addr)
		var out strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			tb.Fatalf("libsqltest: start %s: %v", name, err)
		}
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		url := "http://" + addr
		if waitReady(url+probe, done) {
			tb.Cleanup(func() {
				_ = cmd.Process.Kill()
				<-done
			})
			return url
		}
		_ = cmd.Process.Kill()
		<-done
		if attempt == 2 {
			tb.Fatalf("libsqltest: %s did not start: %s", name, out.String())
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
		resp, err := http.Get(url)
		if err == nil {
			resp.Body.Close()
			return true
		}
		time.Sleep(20 * time.Millisecond)
	}
	return false
}
