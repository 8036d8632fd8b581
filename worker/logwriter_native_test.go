//go:build !(js && wasm)

package main

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestLogWriter: lines reach the output whole and in order, within the
// flush interval, and all of them by Close.
func TestLogWriter(t *testing.T) {
	out := &lockedBuffer{}
	w := newLogWriter(out)
	_, _ = w.Write([]byte("first line\n"))
	assert.Eventually(t, func() bool { return out.String() == "first line\n" }, 2*time.Second, 10*time.Millisecond)

	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 1000 {
				_, _ = w.Write([]byte(strings.Repeat(string(rune('a'+i)), 99) + "\n"))
			}
		}()
	}
	wg.Wait()
	assert.NoError(t, w.Close())
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	assert.Len(t, lines, 8001)
	for _, l := range lines[1:] {
		assert.Len(t, l, 99)
		assert.Equal(t, strings.Repeat(l[:1], 99), l, "no line is torn")
	}
}
