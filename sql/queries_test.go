package store

import (
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestQueriesFoundOneAtATime: q finds every query, on first use, with the
// same text as parsing every file at once gives (which also refuses a
// name defined twice).
func TestQueriesFoundOneAtATime(t *testing.T) {
	all := loadQueries(queryFiles)
	require.Greater(t, len(all), 100)
	for name, text := range all {
		assert.Equal(t, text, q(name), name)
	}
	assert.Panics(t, func() { q("no_such_query") })
}

func TestFindQuery(t *testing.T) {
	fsys := fstest.MapFS{"queries/a.sql": {Data: []byte("-- header\n\n-- name: one\nSELECT 1\n-- a comment\nFROM t\n\n-- name: one_more\n  SELECT 2\n")}}
	for name, want := range map[string]string{"one": "SELECT 1\nFROM t", "one_more": "SELECT 2"} {
		got, ok := findQuery(fsys, name)
		assert.True(t, ok, name)
		assert.Equal(t, want, got, name)
	}
	_, ok := findQuery(fsys, "on")
	assert.False(t, ok, "a prefix of a name is no name")
	assert.Panics(t, func() {
		loadQueries(fstest.MapFS{"queries/a.sql": {Data: []byte("-- name: x\nSELECT 1\n-- name: x\nSELECT 2\n")}})
	})
}
