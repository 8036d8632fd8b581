package client_test

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/client"
)

func TestCanonicalize(t *testing.T) {
	type scoreLine struct {
		B int    `json:"b"`
		A string `json:"a"`
	}
	tests := []struct {
		name string
		in   map[string]any
		want string
	}{
		{"Empty", map[string]any{}, `{}`},
		{"Nil", nil, `{}`},
		{"KeysSorted", map[string]any{"b": 1, "a": 2, "c": 3}, `{"a":2,"b":1,"c":3}`},
		{"NestedObjectsSorted", map[string]any{"z": map[string]any{"y": 1, "x": map[string]any{"b": true, "a": nil}}, "a": []any{}},
			`{"a":[],"z":{"x":{"a":null,"b":true},"y":1}}`},
		{"ArrayOrderKeptObjectsInsideSorted", map[string]any{"rounds": []any{map[string]any{"w": 2, "r": 1}, map[string]any{"w": 1, "r": 2}}},
			`{"rounds":[{"r":1,"w":2},{"r":2,"w":1}]}`},
		{"KeysSortedByUTF16CodeUnits", map[string]any{"é": 1, "z": 2, "Z": 3, "a": 4, "日": 5, "😀": 6, "ｚ": 7, "\ue000": 8},
			"{\"Z\":3,\"a\":4,\"z\":2,\"é\":1,\"日\":5,\"😀\":6,\"\ue000\":8,\"ｚ\":7}"},
		{"UnicodeLiteral", map[string]any{"name": "Zoë 日本 😀"}, `{"name":"Zoë 日本 😀"}`},
		{"HTMLNotEscaped", map[string]any{"s": `<a href="x">&</a>`}, `{"s":"<a href=\"x\">&</a>"}`},
		{"QuoteAndBackslashEscaped", map[string]any{"s": `say "hi" \ bye`}, `{"s":"say \"hi\" \\ bye"}`},
		{"ControlCharsEscaped", map[string]any{"s": "\b\f\n\r\t\x00\x1f"}, `{"s":"\b\f\n\r\t\u0000\u001f"}`},
		{"DelAndLineSeparatorsLiteral", map[string]any{"s": "\x7f\u2028\u2029"}, "{\"s\":\"\x7f\u2028\u2029\"}"},
		{"EscapedKey", map[string]any{"a\"b\n": 1}, `{"a\"b\n":1}`},
		{"BoolsAndNull", map[string]any{"t": true, "f": false, "n": nil}, `{"f":false,"n":null,"t":true}`},
		{"TypedValuesThroughEncodingJSON", map[string]any{"s": scoreLine{B: 1, A: "x"}, "l": []int{3, 1}, "m": map[string]int{"y": 1, "x": 2}},
			`{"l":[3,1],"m":{"x":2,"y":1},"s":{"a":"x","b":1}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := client.Canonicalize(tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(got))
			assert.True(t, json.Valid(got), "canonical output must be JSON")
		})
	}
}

func TestCanonicalizeNumbers(t *testing.T) {
	tests := []struct {
		name string
		in   any
		want string
	}{
		{"Int", 1, "1"},
		{"FloatOne", 1.0, "1"},
		{"NumberOnePointZero", json.Number("1.0"), "1"},
		{"NumberTrailingZeros", json.Number("2.50"), "2.5"},
		{"NegativeFloatIntegral", -2.0, "-2"},
		{"NegativeZeroNumber", json.Number("-0"), "0"},
		{"NegativeZeroFloat", math.Copysign(0, -1), "0"},
		{"ZeroWithExponent", json.Number("0e5"), "0"},
		{"Half", 0.5, "0.5"},
		{"ShortestFloat", sum(0.1, 0.2), "0.30000000000000004"},
		{"Float32ShortestInOwnPrecision", float32(0.1), "0.1"},
		{"ExponentIntegral", json.Number("1.5e3"), "1500"},
		{"UpperExponent", json.Number("1E+2"), "100"},
		{"Float1e20Plain", 1e20, "100000000000000000000"},
		{"Float1e21Exponent", 1e21, "1e+21"},
		{"Number1e21Exponent", json.Number("1e21"), "1e+21"},
		{"SmallExponent", 1e-7, "1e-7"},
		{"MicroPlain", json.Number("1e-6"), "0.000001"},
		{"MaxSafeInteger", int64(1<<53 - 1), "9007199254740991"},
		{"BeyondFloatPrecisionWithFraction", json.Number("9007199254740993.0"), "9007199254740992"},
		{"Int8", int8(-7), "-7"},
		{"Uint16", uint16(65535), "65535"},
		{"UnderflowToZero", json.Number("1e-400"), "0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := client.Canonicalize(map[string]any{"n": tt.in})
			require.NoError(t, err)
			assert.Equal(t, `{"n":`+tt.want+`}`, string(got))
		})
	}
}

func TestCanonicalizeRefuses(t *testing.T) {
	selfRef := map[string]any{}
	selfRef["self"] = selfRef
	tests := []struct {
		name   string
		in     map[string]any
		reason string
	}{
		{"NaN", map[string]any{"n": math.NaN()}, client.ReasonNonFinite},
		{"Infinity", map[string]any{"n": math.Inf(1)}, client.ReasonNonFinite},
		{"NumberOutOfRange", map[string]any{"n": json.Number("1e400")}, client.ReasonNonFinite},
		{"MaxInt64", map[string]any{"n": int64(math.MaxInt64)}, client.ReasonUnsafeInteger},
		{"MaxUint64", map[string]any{"n": uint64(math.MaxUint64)}, client.ReasonUnsafeInteger},
		{"MinInt64Number", map[string]any{"n": json.Number("-9223372036854775808")}, client.ReasonUnsafeInteger},
		{"NumberNotJSON", map[string]any{"n": json.Number("01")}, client.ReasonInvalidJSON},
		{"InvalidUTF8Value", map[string]any{"s": "a\xffb"}, client.ReasonInvalidJSON},
		{"InvalidUTF8Key", map[string]any{"\xfe": 1}, client.ReasonInvalidJSON},
		{"InvalidUTF8Nested", map[string]any{"a": []any{map[string]any{"s": "\xff"}}}, client.ReasonInvalidJSON},
		{"Unencodable", map[string]any{"c": make(chan int)}, client.ReasonInvalidJSON},
		{"ContainsItself", selfRef, client.ReasonInvalidJSON},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := client.Canonicalize(tt.in)
			var ce *client.CanonicalError
			require.ErrorAs(t, err, &ce)
			assert.Equal(t, tt.reason, ce.Reason, "%v", err)
		})
	}
}

func TestCanonicalResult(t *testing.T) {
	t.Run("ReservedKeysSetByClient", func(t *testing.T) {
		game := map[string]any{"matchId": 99, "sessionNonce": "forged", "winner": bob, "score": []any{3, 1}}
		got, err := client.CanonicalResult(game, 12, "n-1", alice)
		require.NoError(t, err)
		assert.Equal(t, `{"matchId":12,"score":[3,1],"sessionNonce":"n-1","winner":"76561198000000001"}`, string(got))
		assert.Equal(t, map[string]any{"matchId": 99, "sessionNonce": "forged", "winner": bob, "score": []any{3, 1}}, game,
			"the game's object must not be modified")
	})
	t.Run("NilGameObject", func(t *testing.T) {
		got, err := client.CanonicalResult(nil, 7, "n", bob)
		require.NoError(t, err)
		assert.Equal(t, `{"matchId":7,"sessionNonce":"n","winner":"76561198000000002"}`, string(got))
	})
}

func TestResultHash(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"Empty", "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
		{"ABC", "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, client.ResultHash([]byte(tt.in)))
		})
	}
}

// sum adds at run time; constant expressions like 0.1 + 0.2 are exact in Go.
func sum(a, b float64) float64 { return a + b }
