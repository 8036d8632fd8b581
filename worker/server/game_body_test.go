package server

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/core"
)

// TestScoreMetadata: a submission's score is { p1, p2 } of whole numbers
// or nothing; anything else is dropped, never refused.
func TestScoreMetadata(t *testing.T) {
	cases := []struct {
		name  string
		score any
		want  *core.OutcomeScore
	}{
		{"Valid", map[string]any{"p1": 3, "p2": 1}, &core.OutcomeScore{P1: 3, P2: 1}},
		{"Zero", map[string]any{"p1": 0, "p2": 2}, &core.OutcomeScore{P1: 0, P2: 2}},
		{"String", "3-1", nil},
		{"Array", []any{3, 1}, nil},
		{"Fraction", map[string]any{"p1": 1.5, "p2": 0}, nil},
		{"Strings", map[string]any{"p1": "3", "p2": "1"}, nil},
		{"OneSide", map[string]any{"p1": 3}, nil},
		{"ExtraKey", map[string]any{"p1": 3, "p2": 1, "p3": 0}, nil},
		{"Null", nil, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			raw, _ := json.Marshal(map[string]any{"protocol": core.ResultProtocol, "result": "{}", "resultHash": "x", "score": tc.score})
			sub, _, err := parseResultBody(raw)
			require.NoError(t, err)
			assert.Equal(t, tc.want, sub.Score)
		})
	}
}
