package client

import (
	"errors"
	"strings"
	"testing"

	"arena/core"
)

// TestResultDepthAgreesWithTheServer: the deepest result the client
// canonicalizes is one the server reads, and one level deeper both
// refuse (core.MaxResultDepth, the top-level object counting as one).
func TestResultDepthAgreesWithTheServer(t *testing.T) {
	const winner = "76561198000000001"
	st := &core.MatchState{Match: core.Match{ID: 7, Status: core.MatchLive, SessionNonce: "n1", P1: winner, P2: "76561198000000002"},
		P1Roster: []string{winner}, P2Roster: []string{"76561198000000002"}}
	for _, tc := range []struct {
		arrays int // arrays inside the top-level object
		ok     bool
	}{{core.MaxResultDepth - 1, true}, {core.MaxResultDepth, false}} {
		game := `{"deep":` + strings.Repeat("[", tc.arrays) + strings.Repeat("]", tc.arrays) + `}`
		canonical, err := CanonicalResultJSON([]byte(game), 7, "n1", winner)
		if (err == nil) != tc.ok {
			t.Fatalf("%d arrays: client error %v, want ok %v", tc.arrays, err, tc.ok)
		}
		if !tc.ok {
			canonical = []byte(`{"deep":` + strings.Repeat("[", tc.arrays) + strings.Repeat("]", tc.arrays) +
				`,"matchId":7,"sessionNonce":"n1","winner":"` + winner + `"}`)
		}
		sub := &core.ResultSubmission{Protocol: core.ResultProtocol, Result: string(canonical), ResultHash: core.ResultHash(canonical)}
		_, _, _, err = core.CheckSubmission(st, winner, sub)
		var ce *core.Error
		refused := errors.As(err, &ce) && ce.Code == core.CodeInvalidResult
		if err != nil && !refused {
			t.Fatalf("%d arrays: server error %v", tc.arrays, err)
		}
		if refused == tc.ok {
			t.Errorf("%d arrays: the server refused %v, want refused %v", tc.arrays, refused, !tc.ok)
		}
	}
}
