package core

import (
	"regexp"
	"sync"
)

// LazyRegexp returns expr compiled on first use (once, safe for concurrent
// use). Package-level patterns use it so that package initialization
// compiles none: a new edge isolate runs every package's init before its
// first request, which needs few of them (docs/edge.md "Cold start").
// expr must compile; a bad one panics on first use.
func LazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
