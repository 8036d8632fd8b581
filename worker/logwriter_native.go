//go:build !(js && wasm)

package main

import (
	"bufio"
	"io"
	"sync"
	"time"
)

// logWriter batches log lines: one write to the log's file per flush
// instead of one per request line. Lines are written out every
// logFlushEvery, when the buffer fills, and by Close; a process killed
// outright loses at most the last logFlushEvery of lines (never data: a
// log line is not an acknowledged write).
type logWriter struct {
	mu   sync.Mutex
	buf  *bufio.Writer
	stop chan struct{}
	done chan struct{}
}

const (
	logFlushEvery = 100 * time.Millisecond
	logBufferSize = 64 << 10
)

func newLogWriter(out io.Writer) *logWriter {
	w := &logWriter{buf: bufio.NewWriterSize(out, logBufferSize), stop: make(chan struct{}), done: make(chan struct{})}
	go w.flushEvery(logFlushEvery)
	return w
}

// Write implements io.Writer; slog writes one whole line per call.
func (w *logWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.Write(p)
}

func (w *logWriter) flushEvery(d time.Duration) {
	defer close(w.done)
	t := time.NewTicker(d)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			w.flush()
		case <-w.stop:
			w.flush()
			return
		}
	}
}

func (w *logWriter) flush() {
	w.mu.Lock()
	defer w.mu.Unlock()
	_ = w.buf.Flush()
}

// Close writes out what is buffered and stops the flushing.
func (w *logWriter) Close() error {
	close(w.stop)
	<-w.done
	return nil
}
