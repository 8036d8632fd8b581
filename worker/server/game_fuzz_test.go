package server

import (
	"regexp"
	"testing"

	"arena/core"
)

var hex64 = regexp.MustCompile(`^[0-9a-f]{64}$`)

// FuzzParseResultBody feeds arbitrary bodies to the submission parser and
// the body rules: they never panic, and whatever passes holds the rules'
// promises. `go test` runs the seed corpus; `-fuzz` explores.
func FuzzParseResultBody(f *testing.F) {
	for _, seed := range []string{
		`{"protocol":"svc.result.v3","result":"{\"matchId\":1,\"sessionNonce\":\"n\",\"winner\":\"76561198000000001\"}","resultHash":"` + core.ResultHash([]byte(`{"matchId":1,"sessionNonce":"n","winner":"76561198000000001"}`)) + `"}`,
		`{"protocol":"svc.result.v3","result":"","resultHash":""}`,
		`{"protocol":"svc.result.v3","result":{"matchId":1}}`,
		`{"protocol":1,"result":null,"clientRole":"host","startedAt":"2026-01-01T00:00:00Z","endedAt":5}`,
		`[]`, `null`, `"x"`, `{`, `{} {}`, `{"result":"\ud800"}`, "{\"result\":\"\xff\"}",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		sub, hasResult, err := parseResultBody(body)
		if err != nil {
			if core.ErrorCode(err) != core.CodeInvalidJSON {
				t.Fatalf("parse error %v has code %s", err, core.ErrorCode(err))
			}
			return
		}
		if sub.ClientRole != "" && sub.ClientRole != "host" && sub.ClientRole != "guest" {
			t.Fatalf("clientRole %q kept", sub.ClientRole)
		}
		if err := core.CheckBody(sub, hasResult); err != nil {
			return
		}
		if sub.Protocol != core.ResultProtocol || sub.Result == "" || len(sub.Result) > core.MaxResultBytes || !hex64.MatchString(sub.ResultHash) {
			t.Fatalf("CheckBody let through %+v", sub)
		}
	})
}
