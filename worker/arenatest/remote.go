package arenatest

import (
	"net/http/httputil"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Remote is an Arena served elsewhere (e.g. the edge's Workers under
// wrangler dev) at base, whose operator API takes operatorToken: Do, API,
// CreateArena and browsers send their requests to it over HTTP, keeping
// their host. It has no Server, Site or Directory, no demo arena and no
// dev routes, and its clock is the machine's: Now is when it was made.
func Remote(tb testing.TB, base, operatorToken string) *Arena {
	tb.Helper()
	u, err := url.Parse(strings.TrimSuffix(base, "/"))
	require.NoError(tb, err)
	require.NotEmpty(tb, u.Host, "arenatest: a remote arena's base is an origin, e.g. http://127.0.0.1:8787")
	// NewSingleHostReverseProxy keeps the request's Host header: the host
	// picks the arena there as here.
	return &Arena{URL: u.String(), OperatorToken: operatorToken, Now: time.Now().UTC().Truncate(time.Second),
		Handler: httputil.NewSingleHostReverseProxy(u), Logs: &SyncBuffer{}}
}
