package server

import (
	"compress/gzip"
	"io"
	"net/http"
	"strings"
	"sync"
)

// Compress wraps the native server's handler: a client that accepts gzip
// gets HTML, JSON, CSS, JavaScript, SVG and calendars of at least
// compressMin bytes gzip-compressed. A compressed answer is another
// representation with its own ETag (the plain one's with "-gzip" before
// the closing quote); If-None-Match with either tag still answers 304.
// A client that does not ask for gzip gets the very bytes and ETag it got
// before; only Vary: Accept-Encoding is added. Partial (Range) and HEAD
// requests pass through untouched. The edge compresses by itself.
func Compress(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodHead || r.Header.Get("Range") != "" {
			h.ServeHTTP(w, r)
			return
		}
		cw := &compressWriter{ResponseWriter: w, status: http.StatusOK}
		if acceptsGzip(r.Header.Get("Accept-Encoding")) {
			cw.gzipOK = true
			cw.clientTags = r.Header.Get("If-None-Match")
			if cw.clientTags != "" {
				r.Header.Set("If-None-Match", plainTags(cw.clientTags))
			}
		}
		defer cw.finish()
		h.ServeHTTP(cw, r)
	})
}

// compressMin is the smallest body worth compressing.
const compressMin = 512

// gzipSuffix marks the ETag of a gzip-compressed representation.
const gzipSuffix = "-gzip"

var gzipWriters = sync.Pool{New: func() any {
	gz, _ := gzip.NewWriterLevel(io.Discard, gzip.DefaultCompression)
	return gz
}}

// compressible reports whether a content type is worth compressing.
func compressible(contentType string) bool {
	mt, _, _ := strings.Cut(contentType, ";")
	switch strings.TrimSpace(strings.ToLower(mt)) {
	case "text/html", "application/json", "text/css", "text/javascript", "application/javascript",
		"image/svg+xml", "text/calendar", "application/problem+json":
		return true
	}
	return false
}

// acceptsGzip reads Accept-Encoding: gzip (or *) with a q above 0.
func acceptsGzip(header string) bool {
	star := false
	for _, part := range strings.Split(header, ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		if coding != "gzip" && coding != "*" {
			continue
		}
		q := strings.ReplaceAll(strings.ToLower(params), " ", "")
		refused := strings.HasPrefix(q, "q=0") && strings.Trim(strings.TrimPrefix(q, "q=0"), ".0") == ""
		if coding == "gzip" {
			return !refused
		}
		star = !refused
	}
	return star
}

// plainTags is an If-None-Match list with every compressed tag turned
// into its plain one (the handler knows only those); plain tags stay.
func plainTags(header string) string {
	tags := strings.Split(header, ",")
	for i, tag := range tags {
		tags[i] = strings.Replace(strings.TrimSpace(tag), gzipSuffix+`"`, `"`, 1)
	}
	return strings.Join(tags, ", ")
}

// gzipTag is the compressed representation's ETag of a plain one.
func gzipTag(etag string) string {
	if !strings.HasSuffix(etag, `"`) || strings.HasSuffix(etag, gzipSuffix+`"`) {
		return etag
	}
	return strings.TrimSuffix(etag, `"`) + gzipSuffix + `"`
}

// compressWriter decides once, at the body's first compressMin bytes (or
// its end), whether to compress.
type compressWriter struct {
	http.ResponseWriter
	gzipOK     bool   // the client accepts gzip
	clientTags string // the request's If-None-Match as sent
	status     int
	held       bool // WriteHeader was called but not passed on
	decided    bool
	buf        []byte
	gz         *gzip.Writer
}

func (c *compressWriter) Unwrap() http.ResponseWriter { return c.ResponseWriter }

func (c *compressWriter) WriteHeader(status int) {
	if c.decided || c.held {
		return
	}
	c.status = status
	h := c.Header()
	if compressible(h.Get("Content-Type")) {
		h.Add("Vary", "Accept-Encoding")
	}
	if status == http.StatusNotModified && c.gzipOK {
		// The client's tag that matched was the compressed one: confirm it.
		if etag := h.Get("ETag"); etag != "" && strings.Contains(c.clientTags, gzipTag(etag)) {
			h.Set("ETag", gzipTag(etag))
		}
	}
	if !c.gzipOK || status != http.StatusOK || h.Get("Content-Encoding") != "" || !compressible(h.Get("Content-Type")) {
		c.decided = true
		c.ResponseWriter.WriteHeader(status)
		return
	}
	c.held = true // decided by the body's size
}

func (c *compressWriter) Write(p []byte) (int, error) {
	if !c.decided && !c.held {
		c.WriteHeader(http.StatusOK)
	}
	if c.decided {
		if c.gz != nil {
			return c.gz.Write(p)
		}
		return c.ResponseWriter.Write(p)
	}
	c.buf = append(c.buf, p...)
	if len(c.buf) >= compressMin {
		if err := c.start(); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// start sends the headers of the compressed answer and what was held.
func (c *compressWriter) start() error {
	c.decided = true
	h := c.Header()
	h.Del("Content-Length")
	h.Set("Content-Encoding", "gzip")
	if etag := h.Get("ETag"); etag != "" {
		h.Set("ETag", gzipTag(etag))
	}
	c.ResponseWriter.WriteHeader(c.status)
	c.gz = gzipWriters.Get().(*gzip.Writer)
	c.gz.Reset(c.ResponseWriter)
	_, err := c.gz.Write(c.buf)
	c.buf = nil
	return err
}

// finish ends the answer: a body under compressMin goes out as it was.
func (c *compressWriter) finish() {
	if c.gz != nil {
		_ = c.gz.Close()
		c.gz.Reset(io.Discard)
		gzipWriters.Put(c.gz)
		c.gz = nil
		return
	}
	if c.held && !c.decided {
		c.decided = true
		c.ResponseWriter.WriteHeader(c.status)
		_, _ = c.ResponseWriter.Write(c.buf)
	}
}
