package server

import (
	"regexp"
	"testing"
)

// TestETagMatchesItsPattern: Go's etagMatches and the pattern the edge
// front runs (NotModifiedPattern) answer every If-None-Match alike.
func TestETagMatchesItsPattern(t *testing.T) {
	etag := ETag([]byte("a body"))
	other := ETag([]byte("another body"))
	headers := []string{
		"", etag, "W/" + etag, " \t" + etag + " ", "*", " * ", "W/*",
		other, other + ", " + etag, other + ",W/" + etag + " ,x", etag + "," + other,
		"W/ " + etag, "W/W/" + etag, etag[1:], etag + "x", "x" + etag, `"*"`, ",", other + ", *",
	}
	want := map[string]bool{
		etag: true, "W/" + etag: true, " \t" + etag + " ": true, "*": true, " * ": true, "W/*": true,
		other + ", " + etag: true, other + ",W/" + etag + " ,x": true, etag + "," + other: true, other + ", *": true,
	}
	pattern := regexp.MustCompile(NotModifiedPattern(etag))
	for _, h := range headers {
		if got := etagMatches(h, etag); got != want[h] {
			t.Errorf("etagMatches(%q) = %v, want %v", h, got, want[h])
		}
		if got := pattern.MatchString(h); got != want[h] {
			t.Errorf("NotModifiedPattern matches %q: %v, want %v", h, got, want[h])
		}
	}
}
