// Package s3test starts a real S3-compatible server for tests: versitygw,
// built from the Go module proxy into tools/ by scripts/s3server.sh
// (make tools).
package s3test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"arena/sql/libsqltest"
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
	return libsqltest.Tool(tb, "ARENA_VERSITYGW", binaryPath, "ARENA_REQUIRE_S3", "versitygw not built: run `make tools` (or set ARENA_VERSITYGW)")
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
	endpoint := libsqltest.Serve(tb, "versitygw", "/", func(addr string) *exec.Cmd {
		return exec.Command(bin, "-a", AccessKeyID, "-s", SecretAccessKey, "-p", addr, "-q", "posix", root)
	})
	return &objects.S3{Endpoint: endpoint, Bucket: Bucket, AccessKeyID: AccessKeyID, SecretAccessKey: SecretAccessKey}
}
