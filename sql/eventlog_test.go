package store

import (
	"io/fs"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/core"
)

// TestEventLogWordsAreCore: the statuses the event log's triggers compare
// are core's status words, and the event types they and the queries
// write are core's EventLog* types.
func TestEventLogWordsAreCore(t *testing.T) {
	raw, err := fs.ReadFile(migrationFiles, "migrations/arena/0020_event_log.sql")
	require.NoError(t, err)
	ready, err := fs.ReadFile(migrationFiles, "migrations/arena/0021_event_log_ready.sql")
	require.NoError(t, err)
	series, err := fs.ReadFile(migrationFiles, "migrations/arena/0023_series.sql")
	require.NoError(t, err)
	text := string(raw) + string(ready) + string(series) + loadQueries(queryFiles)["log_resolved"] +
		loadQueries(queryFiles)["reopen_log"]
	words := coreStatusWords(t)
	compared := regexp.MustCompile(`(?i)\bstatus\s*(?:=|<>|!=|\bIN\b|\bNOT IN\b)\s*\(?((?:\s*'[^']*'\s*,?)+)`)
	literal := regexp.MustCompile(`'([^']*)'`)
	seen := 0
	for _, m := range compared.FindAllStringSubmatch(text, -1) {
		for _, l := range literal.FindAllStringSubmatch(m[1], -1) {
			seen++
			assert.True(t, words[l[1]], "the event log compares a status with %q, which no core status constant holds", l[1])
		}
	}
	assert.Greater(t, seen, 5, "the test finds the triggers' status literals")
	types := map[string]bool{}
	for _, typ := range core.EventLogTypes {
		types[typ] = true
	}
	written := regexp.MustCompile(`'((?:match|registration|tournament|title|recording)\.[a-z_]+)'`).FindAllStringSubmatch(text, -1)
	require.NotEmpty(t, written)
	logged := map[string]bool{}
	for _, m := range written {
		assert.True(t, types[m[1]], "event type %q is not one of core's", m[1])
		logged[m[1]] = true
	}
	for typ := range types {
		assert.True(t, logged[typ], "core's event type %q is written", typ)
	}
}
