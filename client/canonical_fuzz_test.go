package client_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"testing"

	"arena/client"
)

// FuzzCanonicalize checks, for any JSON object, that the canonical form
// is JSON that parses back to an equal value (numbers compared as
// float64), that canonicalizing it again yields identical bytes, and that
// Canonicalize fails exactly when a number is beyond float64 range.
func FuzzCanonicalize(f *testing.F) {
	f.Add(`{}`)
	f.Add(`{"b":1,"a":[{"d":2.50,"c":-0}]}`)
	f.Add(`{"s":"<&> \u2028\u2029 \"\\\n\t\u0001 ` + "\x7f" + `"}`)
	f.Add(`{"n":1e21,"m":9007199254740993,"o":1.0E-7,"p":123456789012345678901.5}`)
	f.Add(`{"日本":"😀","é":null,"z":true,"Z":false}`)
	f.Add(`{"matchId":12,"sessionNonce":"n","winner":"76561198000000001","score":[3,1]}`)
	f.Add(`{"big":1e400,"big":1}`)
	f.Fuzz(func(t *testing.T, in string) {
		obj, ok := decodeObject([]byte(in))
		if !ok {
			return
		}
		want, inRange := asFloats(obj)

		out, err := client.Canonicalize(obj)
		if (err == nil) != inRange {
			t.Fatalf("Canonicalize error %v, numbers in float64 range %v, for %q", err, inRange, in)
		}
		if err != nil {
			return
		}
		if !json.Valid(out) {
			t.Fatalf("canonical form is not JSON: %q", out)
		}
		var back any
		if err := json.Unmarshal(out, &back); err != nil {
			t.Fatalf("canonical form does not parse: %v: %q", err, out)
		}
		if !reflect.DeepEqual(want, back) {
			t.Fatalf("round trip changed the value:\nin:  %q\nout: %q", in, out)
		}

		again, ok := decodeObject(out)
		if !ok {
			t.Fatalf("canonical form does not decode: %q", out)
		}
		out2, err := client.Canonicalize(again)
		if err != nil {
			t.Fatalf("canonicalizing the canonical form: %v", err)
		}
		if !bytes.Equal(out, out2) {
			t.Fatalf("not idempotent:\nfirst:  %q\nsecond: %q", out, out2)
		}
	})
}

// decodeObject decodes a whole JSON text that is an object, keeping
// numbers as json.Number.
func decodeObject(data []byte) (map[string]any, bool) {
	if !json.Valid(data) {
		return nil, false
	}
	var obj map[string]any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&obj); err != nil || obj == nil {
		return nil, false
	}
	return obj, true
}

// asFloats returns v with every json.Number converted to float64, as
// json.Unmarshal into any would give, and false when a number overflows.
func asFloats(v any) (any, bool) {
	switch v := v.(type) {
	case json.Number:
		f, err := strconv.ParseFloat(string(v), 64)
		return f, err == nil
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			f, ok := asFloats(e)
			if !ok {
				return nil, false
			}
			out[k] = f
		}
		return out, true
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			f, ok := asFloats(e)
			if !ok {
				return nil, false
			}
			out[i] = f
		}
		return out, true
	}
	return v, true
}
