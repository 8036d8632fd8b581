package client_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"github.com/gowebpki/jcs"

	"arena/client"
)

// FuzzCanonicalResultJSON checks, for any text, that CanonicalResultJSON
// either refuses with a *CanonicalError (invalid_json for anything that
// is not JSON, and for anything the RFC 8785 library refuses) or returns
// JSON that the library leaves unchanged and that canonicalizes to itself.
func FuzzCanonicalResultJSON(f *testing.F) {
	f.Add(`{}`)
	f.Add(`{"b":1,"a":[{"d":2.50,"c":-0}]}`)
	f.Add(`{"s":"<&> \u2028\u2029 \"\\\n\t\u0001 ` + "\x7f" + `"}`)
	f.Add(`{"n":1e21,"m":9007199254740993,"o":1.0E-7,"p":123456789012345678901.5}`)
	f.Add(`{"日本":"😀","é":null,"z":true,"Z":false,"` + "\ue000" + `":1}`)
	f.Add(`{"matchId":12,"sessionNonce":"n","winner":"76561198000000001","score":[3,1]}`)
	f.Add(`{"big":1e400,"big":1}`)
	f.Add(`{"s":"\ud800","t":"\ud83d\ude00"}`)
	f.Fuzz(func(t *testing.T, in string) {
		out, err := client.CanonicalResultJSON([]byte(in), 12, "n", "76561198000000001")
		if err != nil {
			var ce *client.CanonicalError
			if !errors.As(err, &ce) {
				t.Fatalf("refusal is not a *CanonicalError: %v", err)
			}
			return
		}
		if !json.Valid([]byte(in)) {
			t.Fatalf("accepted text that is not JSON: %q", in)
		}
		if _, err := jcs.Transform([]byte(in)); err != nil {
			t.Fatalf("accepted %q, which the RFC 8785 library refuses: %v", in, err)
		}
		again, err := jcs.Transform(out)
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("output is not in RFC 8785 form: %q -> %q (%v)", out, again, err)
		}
		twice, err := client.CanonicalResultJSON(out, 12, "n", "76561198000000001")
		if err != nil || !bytes.Equal(twice, out) {
			t.Fatalf("not idempotent:\nfirst:  %q\nsecond: %q (%v)", out, twice, err)
		}
	})
}
