package core

import (
	"strings"
	"testing"
)

func TestParseReserved(t *testing.T) {
	cases := []struct {
		name, result string
		ok           bool
	}{
		{"Valid", `{"matchId":12,"sessionNonce":"abc","winner":"76561198000000001","score":[3,1]}`, true},
		{"KeysInAnyOrder", `{"winner":"76561198000000001","sessionNonce":"abc","matchId":12}`, true},
		{"MatchIDString", `{"matchId":"12","sessionNonce":"abc","winner":"76561198000000001"}`, false},
		{"MatchIDFloat", `{"matchId":12.5,"sessionNonce":"abc","winner":"76561198000000001"}`, false},
		{"MatchIDExponent", `{"matchId":1e1,"sessionNonce":"abc","winner":"76561198000000001"}`, false},
		{"EmptyNonce", `{"matchId":12,"sessionNonce":"","winner":"76561198000000001"}`, false},
		{"NonceNotString", `{"matchId":12,"sessionNonce":5,"winner":"76561198000000001"}`, false},
		{"ShortWinner", `{"matchId":12,"sessionNonce":"abc","winner":"7656"}`, false},
		{"NotAnObject", `[1,2,3]`, false},
		{"Null", `null`, false},
		{"TrailingData", `{"matchId":12,"sessionNonce":"abc","winner":"76561198000000001"} {}`, false},
		{"DuplicateWinner", `{"matchId":43,"sessionNonce":"abc","winner":"76561198000000002","winner":"76561198000000003"}`, false},
		{"DuplicateGameKey", `{"matchId":12,"sessionNonce":"abc","winner":"76561198000000001","a":1,"a":2}`, false},
		{"DuplicateKeyDeep", `{"matchId":12,"sessionNonce":"abc","winner":"76561198000000001","x":[{"y":{"k":1,"k":1}}]}`, false},
		{"DuplicateKeyByEscape", `{"matchId":12,"sessionNonce":"abc","winner":"76561198000000001","\u0061":1,"a":2}`, false},
		{"SameKeyInSiblings", `{"matchId":12,"sessionNonce":"abc","winner":"76561198000000001","x":[{"k":1},{"k":2}],"y":{"k":3}}`, true},
		{"LoneHighSurrogate", `{"matchId":12,"sessionNonce":"abc","winner":"76561198000000001","s":"\ud800"}`, false},
		{"LoneLowSurrogate", `{"matchId":12,"sessionNonce":"abc","winner":"76561198000000001","s":"x\udc00"}`, false},
		{"LoneSurrogateInKey", `{"matchId":12,"sessionNonce":"abc","winner":"76561198000000001","\ud83d":1}`, false},
		{"HighThenNotLow", `{"matchId":12,"sessionNonce":"abc","winner":"76561198000000001","s":"\ud83d\u0041"}`, false},
		{"SurrogatePair", `{"matchId":12,"sessionNonce":"abc","winner":"76561198000000001","s":"\ud83d\ude00"}`, true},
		{"EscapedBackslashBeforeU", `{"matchId":12,"sessionNonce":"abc","winner":"76561198000000001","s":"\\ud800"}`, true},
		{"InvalidUTF8", "{\"matchId\":12,\"sessionNonce\":\"abc\",\"winner\":\"76561198000000001\",\"s\":\"\xff\"}", false},
		{"Deepest", `{"matchId":12,"sessionNonce":"abc","winner":"76561198000000001","d":` + strings.Repeat("[", MaxResultDepth-1) + strings.Repeat("]", MaxResultDepth-1) + `}`, true},
		{"TooDeep", `{"matchId":12,"sessionNonce":"abc","winner":"76561198000000001","d":` + strings.Repeat("[", MaxResultDepth) + strings.Repeat("]", MaxResultDepth) + `}`, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseReserved(tc.result)
			if (err == nil) != tc.ok {
				t.Fatalf("parseReserved(%s) error %v, want ok=%v", tc.result, err, tc.ok)
			}
			if err != nil && ErrorCode(err) != CodeInvalidResult {
				t.Fatalf("code %s, want invalid_result", ErrorCode(err))
			}
		})
	}
}

// FuzzParseReserved: never panics; accepted results name a 17-digit winner
// and a non-empty nonce.
func FuzzParseReserved(f *testing.F) {
	f.Add(`{"matchId":12,"sessionNonce":"abc","winner":"76561198000000001"}`)
	f.Add(`{"matchId":-1,"sessionNonce":"\u0000","winner":"00000000000000000"}`)
	f.Add(`{"matchId":99999999999999999999,"sessionNonce":"a","winner":"76561198000000001"}`)
	f.Add(`{}`)
	f.Fuzz(func(t *testing.T, result string) {
		k, err := parseReserved(result)
		if err != nil {
			return
		}
		if k.sessionNonce == "" || !ValidPlatformID(k.winner) {
			t.Fatalf("accepted %q as %+v", result, k)
		}
	})
}
