package store

import (
	"context"
	"net"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/sql/hrana"
)

// TestFailFast: under one FailFast context, a remote database that did
// not answer a call (a server that never answers) fails the later calls
// at once, reads, writes and batches alike, while another database
// answers as usual; a context of its own waits out its deadline again.
func TestFailFast(t *testing.T) {
	const timeout = 300 * time.Millisecond
	silent, err := net.Listen("tcp", "127.0.0.1:0") // never accepts: a paused server
	require.NoError(t, err)
	defer silent.Close()
	open := Opener{Timeout: timeout}.Open
	stalled, err := open("http://"+silent.Addr().String(), "")
	require.NoError(t, err)
	defer stalled.Close()
	healthy, err := open("file:"+filepath.Join(t.TempDir(), "healthy.db"), "")
	require.NoError(t, err)
	defer healthy.Close()

	ctx := FailFast(context.Background())
	start := time.Now()
	var n int
	err = stalled.queryRow(ctx, "SELECT 1").Scan(&n)
	assert.True(t, Unavailable(err), "%v", err)
	assert.ErrorIs(t, err, hrana.ErrUnavailable)
	assert.GreaterOrEqual(t, time.Since(start), timeout, "the first call waits out its deadline")

	start = time.Now()
	_, werr := stalled.write(ctx, "CREATE TABLE t (a)")
	berr := stalled.Batch(ctx, Stmt{SQL: "INSERT INTO t VALUES (?)", Args: []any{1}})
	_, qerr := stalled.query(ctx, "SELECT 1")
	rerr := stalled.writeRow(ctx, "INSERT INTO t VALUES (1) RETURNING a").Scan(&n)
	for _, err := range []error{werr, berr, qerr, rerr} {
		assert.True(t, Unavailable(err), "%v", err)
	}
	assert.Less(t, time.Since(start), timeout/2, "the later calls fail at once")

	require.NoError(t, healthy.queryRow(ctx, "SELECT 1").Scan(&n), "another database answers under the same context")
	assert.Equal(t, 1, n)

	start = time.Now()
	err = stalled.queryRow(context.Background(), "SELECT 1").Scan(&n)
	assert.True(t, Unavailable(err), "%v", err)
	assert.GreaterOrEqual(t, time.Since(start), timeout, "outside that context the database is asked again")
}
