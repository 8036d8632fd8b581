package client_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/gowebpki/jcs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/client"
)

// vectorsFile is the language-neutral test vectors file every client
// (Go, C#, TypeScript) runs; it is generated from vectorSources by
//
//	go test ./client -run TestVectorsFile -update
//
// and TestVectorsFile fails when the file and the sources drift apart.
const vectorsFile = "testdata/vectors.json"

var update = flag.Bool("update", false, "rewrite "+vectorsFile+" from the vector sources")

type vectorsDoc struct {
	Description string   `json:"description"`
	Vectors     []vector `json:"vectors"`
}

type vector struct {
	Name         string `json:"name"`
	Note         string `json:"note,omitempty"`
	Input        string `json:"input"`
	MatchID      int64  `json:"matchId"`
	SessionNonce string `json:"sessionNonce"`
	Winner       string `json:"winner"`
	Canonical    string `json:"canonical,omitempty"`
	CanonicalHex string `json:"canonicalHex,omitempty"`
	SHA256       string `json:"sha256,omitempty"`
	Refuse       string `json:"refuse,omitempty"`
}

const vectorsDescription = "Arena result protocol svc.result.v3 test vectors (docs/protocol.md). " +
	"For each vector, canonicalize `input` (the game's result as JSON text) with the reserved keys " +
	"matchId, sessionNonce and winner merged in: the output must equal `canonical` byte for byte " +
	"(`canonicalHex` is its UTF-8 bytes, `sha256` their SHA-256, lowercase hex), or the client must " +
	"refuse with exactly the reason code in `refuse`. Each refusing vector has exactly one problem. " +
	"Expected outputs come from github.com/gowebpki/jcs (RFC 8785); regenerate with " +
	"`go test ./client -run TestVectorsFile -update`."

const (
	vMatch  = int64(42)
	vNonce  = "nonce-abc"
	vWinner = "76561198000000001"
)

func ok(name, note, input string) vector {
	return vector{Name: name, Note: note, Input: input, MatchID: vMatch, SessionNonce: vNonce, Winner: vWinner}
}

func bad(name, note, input, reason string) vector {
	v := ok(name, note, input)
	v.Refuse = reason
	return v
}

// num wraps a number literal in a result member.
func num(lit string) string { return `{"n":` + lit + `}` }

// rfc8785AppendixB is RFC 8785 Appendix B's table of IEEE-754 values and
// their expected serialization ("" for NaN and Infinity, which JSON
// cannot hold).
var rfc8785AppendixB = []struct{ hex, want string }{
	{"0000000000000000", "0"},
	{"8000000000000000", "0"},
	{"0000000000000001", "5e-324"},
	{"8000000000000001", "-5e-324"},
	{"7fefffffffffffff", "1.7976931348623157e+308"},
	{"ffefffffffffffff", "-1.7976931348623157e+308"},
	{"4340000000000000", "9007199254740992"},
	{"c340000000000000", "-9007199254740992"},
	{"4430000000000000", "295147905179352830000"},
	{"44b52d02c7e14af5", "9.999999999999997e+22"},
	{"44b52d02c7e14af6", "1e+23"},
	{"44b52d02c7e14af7", "1.0000000000000001e+23"},
	{"444b1ae4d6e2ef4e", "999999999999999700000"},
	{"444b1ae4d6e2ef4f", "999999999999999900000"},
	{"444b1ae4d6e2ef50", "1e+21"},
	{"3eb0c6f7a0b5ed8c", "9.999999999999997e-7"},
	{"3eb0c6f7a0b5ed8d", "0.000001"},
	{"41b3de4355555553", "333333333.3333332"},
	{"41b3de4355555554", "333333333.33333325"},
	{"41b3de4355555555", "333333333.3333333"},
	{"41b3de4355555556", "333333333.3333334"},
	{"41b3de4355555557", "333333333.33333343"},
	{"becbf647612f3696", "-0.0000033333333333333333"},
	{"43143ff3c1cb0959", "1424953923781206.2"},
}

// appendixBLiteral writes the double with hex bits as a JSON number
// literal that parses back to it; always with an exponent, so a value
// beyond 2^53 is not an (unsafe) integer token.
func appendixBLiteral(t testing.TB, bits string) (string, float64) {
	u, err := strconv.ParseUint(bits, 16, 64)
	require.NoError(t, err)
	f := math.Float64frombits(u)
	lit := strconv.FormatFloat(f, 'e', -1, 64)
	if f == 0 && math.Signbit(f) {
		lit = "-0.0"
	}
	return lit, f
}

func vectorSources(t testing.TB) []vector {
	vs := []vector{
		// Basics.
		ok("empty-object", "the game has nothing to add", `{}`),
		ok("whitespace-around", "insignificant whitespace everywhere is dropped", " \t\n{ \"a\" : [ 1 , 2 ] ,\r\n \"b\" : { } } \n"),
		ok("simple-score", "", `{"score":[3,1],"rounds":4}`),
		ok("reserved-keys-replaced", "reserved keys supplied by the game are ignored and replaced", `{"matchId":99,"sessionNonce":"forged","winner":"76561198000000002","score":[3,1]}`),
		ok("reserved-keys-wrong-types", "the game's reserved members may hold anything valid; they are dropped", `{"matchId":"x","sessionNonce":{"a":[1,2]},"winner":null}`),
		ok("reserved-key-escaped-name", "names are compared after unescaping: match\\u0049d is matchId and is replaced", `{"match\u0049d":7,"x":1}`),
		ok("reserved-key-nested-kept", "only top-level reserved keys are reserved; nested ones belong to the game", `{"inner":{"matchId":1,"winner":"me","sessionNonce":""}}`),
		ok("reserved-key-case", "MatchId is not matchId", `{"MatchId":1,"WINNER":2}`),
		ok("literals", "", `{"t":true,"f":false,"n":null}`),
		ok("empty-array", "", `{"a":[]}`),
		ok("empty-string-key", "the empty name sorts first", `{"":"empty","a":1}`),
		ok("empty-string-value", "", `{"s":""}`),
		ok("nested-empty", "", `{"a":[{},[],[[]],{"b":{}}]}`),
		ok("array-order-kept", "arrays keep their order, objects inside them are sorted", `{"rounds":[{"w":2,"r":1},{"w":1,"r":2}],"z":[3,2,1]}`),
		ok("mixed-array", "", `{"a":[1,"1",true,null,{"k":1},[1.50]]}`),
		ok("deep-nesting-objects", "64 nested objects", strings.Repeat(`{"a":`, 64)+`1`+strings.Repeat(`}`, 64)),
		ok("deep-nesting-arrays", "100 nested arrays", `{"a":`+strings.Repeat(`[`, 100)+`"x"`+strings.Repeat(`]`, 100)+`}`),
		ok("nested-sort", "sorting applies at every depth", `{"z":{"y":1,"x":{"b":true,"a":null}},"a":[]}`),
		ok("game-state-realistic", "a plausible card game result", `{"deck":"standard-52","rounds":[{"p1":12,"p2":9,"ko":false},{"p1":3,"p2":15,"ko":true}],"final":{"p1":15,"p2":24},"build":"1.4.2+g3f9c","durationTurns":41,"mode":"ranked"}`),

		// Key order traps.
		ok("key-order-ascii", "uppercase before lowercase, digits before letters", `{"b":1,"a":2,"B":3,"A":4,"1":5,"_":6,"~":7}`),
		ok("key-order-prefix", "a prefix sorts before its extensions", `{"ab":1,"a":2,"abc":3,"a ":4}`),
		ok("key-order-numeric-strings", "names are strings: \"10\" sorts before \"9\"", `{"9":1,"10":2,"100":3,"1":4}`),
		ok("key-order-latin1", "é (U+00E9) sorts after z", `{"é":1,"z":2,"e":3}`),
		ok("key-order-astral-vs-bmp-private", "UTF-16 code units: 😀 (D83D DE00) sorts before U+E000; code-point order would put it after", `{"`+"\ue000"+`":"private use","😀":"grinning"}`),
		ok("key-order-astral-vs-ffff", "U+FFFF sorts after any astral character in UTF-16 order", `{"`+"\uffff"+`":1,"𝄞":2,"`+"\uff5a"+`":3}`),
		ok("key-order-astral-vs-fb33", "RFC 8785 3.2.3 style: U+FB33 after the emoji", `{"`+"\ufb33"+`":"dalet","😂":"joy","€":"euro"}`),
		ok("key-order-cjk-vs-astral", "日 (U+65E5) sorts before an astral character, ｚ (U+FF5A) after it", `{"ｚ":7,"😀":6,"日":5}`),
		ok("key-order-surrogate-pairs", "two astral keys compared by their code units", `{"😀":1,"𝄞":2,"🀄":3}`),
		ok("key-order-escaped-names", "escaped and raw names sort by their unescaped value", `{"\u0062":1,"a":2,"\u00e9":3}`),
		ok("key-order-control-names", "control characters sort first", `{"a":1,"\n":2,"\r":3,"\u0000":4}`),
		ok("key-order-french", "RFC 8785's French example: no locale collation", `{"peach":"This sorting order","péché":"is wrong according to French","pêche":"but canonicalization MUST","sin":"ignore locale"}`),

		// Strings and escapes.
		ok("string-escapes-short", "\\b \\f \\n \\r \\t keep their short forms", `{"s":"\b\f\n\r\t"}`),
		ok("string-escapes-controls", "other controls as \\u00xx, lowercase hex", `{"s":"\u0000\u0001\u001f\u000B\u001A"}`),
		ok("string-quote-backslash", "", `{"s":"say \"hi\" \\ bye"}`),
		ok("string-solidus", "\\/ is unescaped to /", `{"s":"a\/b/c"}`),
		ok("string-del-not-escaped", "U+007F is written raw", `{"s":"`+"\x7f"+`"}`),
		ok("string-html-not-escaped", "<, > and & are written raw", `{"s":"<script>&amp;</script>"}`),
		ok("string-unicode-escapes-decoded", "\\u escapes of printable characters are written as raw UTF-8", `{"s":"\u0041\u00e9\u20ac\u65e5"}`),
		ok("string-surrogate-pair-escaped", "an escaped surrogate pair becomes raw UTF-8", `{"s":"\ud83d\ude00"}`),
		ok("string-u2028-u2029", "U+2028 and U+2029 are written raw", `{"s":"a`+"\u2028"+`b`+"\u2029"+`c"}`),
		ok("string-u2028-escaped-input", "escaped U+2028 in the input is written raw", `{"s":"\u2028\u2029"}`),
		ok("string-emoji", "", `{"s":"gg 😀🎉"}`),
		ok("string-zwj-family", "a ZWJ sequence is several code points, kept as is", `{"s":"👨‍👩‍👧‍👦"}`),
		ok("string-flag", "regional indicators", `{"s":"🇫🇮🇯🇵"}`),
		ok("string-skin-tone", "emoji modifier", `{"s":"👍🏽"}`),
		ok("string-combining-marks", "no Unicode normalization: A + U+030A stays two code points", `{"s":"A\u030a","t":"Å"}`),
		ok("string-combining-vs-precomposed-keys", "é precomposed and e + U+0301 are different names", `{"é":1,"e`+"\u0301"+`":2}`),
		ok("string-bom-inside", "U+FEFF inside a string is kept", `{"s":"\ufeffx"}`),
		ok("string-noncharacters", "U+FFFE and U+FFFF are valid scalar values", `{"s":"\ufffe\uffff"}`),
		ok("string-replacement-char", "an escaped U+FFFD is an ordinary character", `{"s":"\ufffd"}`),
		ok("string-max-code-point", "U+10FFFF", `{"s":"\udbff\udfff"}`),
		ok("string-rtl-and-cjk", "", `{"name":"Zoë 日本 مرحبا עברית"}`),
		ok("string-long", "", `{"s":"`+strings.Repeat("abcdefghij", 100)+`"}`),
		ok("string-escaped-key", "", `{"a\"b\n":1}`),
		ok("string-unicode-key-values", "", `{"名前":"プレイヤー","😀":"😀"}`),

		// RFC 8785's own examples.
		ok("rfc8785-values", "RFC 8785 3.2.2 example (values.json)", `{
  "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
  "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
  "literals": [null, true, false]
}`),
		ok("rfc8785-sorting", "RFC 8785 3.2.3 sorting example (weird.json)", `{
  "\u20ac": "Euro Sign",
  "\r": "Carriage Return",
  "\u000a": "Newline",
  "1": "One",
  "\u0080": "Control\u007f",
  "\ud83d\ude02": "Smiley",
  "\u00f6": "Latin Small Letter O With Diaeresis",
  "\ufb33": "Hebrew Letter Dalet With Dagesh",
  "</script>": "Browser Challenge"
}`),
		ok("rfc8785-structures", "RFC 8785 test data structures.json", `{
  "1": {"f": {"f": "hi","F": 5} ,"\n": 56.0},
  "10": { },
  "": "empty",
  "a": { },
  "111": [ {"e": "yes","E": "no" } ],
  "A": { }
}`),
		ok("rfc8785-arrays", "RFC 8785 test data arrays.json inside a member", `{"a":[
  56,
  {
    "d": true,
    "10": null,
    "1": [ ]
  }
]}`),
		ok("rfc8785-unicode", "RFC 8785 test data unicode.json: no normalization", `{
  "Unnormalized Unicode":"A\u030a"
}`),

		// Numbers.
		ok("number-one-point-zero", "1.0 -> 1", num(`1.0`)),
		ok("number-minus-zero", "-0 -> 0", num(`-0`)),
		ok("number-minus-zero-float", "-0.0 -> 0", num(`-0.0`)),
		ok("number-zero-exponent", "0e5 -> 0", num(`0e5`)),
		ok("number-trailing-zeros", "2.50 -> 2.5", num(`2.50`)),
		ok("number-exponent-integral", "1.5e3 -> 1500", num(`1.5e3`)),
		ok("number-upper-exponent", "1E+2 -> 100", num(`1E+2`)),
		ok("number-1e20", "1e20 is written in full", num(`1e20`)),
		ok("number-1e21", "1e21 -> 1e+21", num(`1e21`)),
		ok("number-1e21-fraction", "1000000000000000000000.0 -> 1e+21", num(`1000000000000000000000.0`)),
		ok("number-1e-6", "1e-6 -> 0.000001", num(`1e-6`)),
		ok("number-1e-7", "1e-7 -> 1e-7", num(`1e-7`)),
		ok("number-5e-324", "the smallest subnormal", num(`5e-324`)),
		ok("number-2-pow-896", "2^896: its shortest form has 16 digits, not 17", num(`5.282945311356653e+269`)),
		ok("number-underflow", "1e-400 is nearest to 0", num(`1e-400`)),
		ok("number-0.1-plus-0.2", "the shortest round-trip form", num(`0.30000000000000004`)),
		ok("number-0.3", "", num(`0.3`)),
		ok("number-many-digits", "rounded to the nearest double", num(`3.141592653589793238462643383279`)),
		ok("number-max-safe", "2^53-1 as an integer", num(`9007199254740991`)),
		ok("number-min-safe", "-(2^53-1) as an integer", num(`-9007199254740991`)),
		ok("number-2^53-with-fraction", "2^53 written with a fraction is a double, not an integer token", num(`9007199254740992.0`)),
		ok("number-beyond-2^53-with-exponent", "9007199254740993.0 is nearest to 9007199254740992", num(`9007199254740993.0`)),
		ok("number-large-with-fraction", "a 20-digit value with a fraction is rounded", num(`12345678901234567890.5`)),
		ok("number-negative", "", num(`-17.25`)),
		ok("number-array", "", `{"a":[0,-1,1.5,2e2,-3E-2,1e300]}`),
		ok("number-gameseed", "a gameSeed above 2^31 is an ordinary safe integer", `{"gameSeed":4218965659}`),
		ok("number-int64-as-string", "unsafe integers travel as strings", `{"replayId":"9007199254740993"}`),

		// Refusals: the text.
		bad("refuse-not-json", "", `{"a":`, client.ReasonInvalidJSON),
		bad("refuse-empty-text", "", ``, client.ReasonInvalidJSON),
		bad("refuse-trailing-data", "", `{"a":1} {"b":2}`, client.ReasonInvalidJSON),
		bad("refuse-trailing-comma", "", `{"a":1,}`, client.ReasonInvalidJSON),
		bad("refuse-single-quotes", "", `{'a':1}`, client.ReasonInvalidJSON),
		bad("refuse-leading-zero", "", num(`01`), client.ReasonInvalidJSON),
		bad("refuse-nan-literal", "", num(`NaN`), client.ReasonInvalidJSON),
		bad("refuse-infinity-literal", "", num(`Infinity`), client.ReasonInvalidJSON),
		bad("refuse-plus-sign", "", num(`+1`), client.ReasonInvalidJSON),
		bad("refuse-bare-fraction", "", num(`.5`), client.ReasonInvalidJSON),
		bad("refuse-raw-control-in-string", "a raw newline inside a string", "{\"s\":\"a\nb\"}", client.ReasonInvalidJSON),
		bad("refuse-bad-escape", "", `{"s":"\x41"}`, client.ReasonInvalidJSON),
		bad("refuse-bom", "a byte order mark is not JSON whitespace", "\ufeff{}", client.ReasonInvalidJSON),
		bad("refuse-comment", "", `{"a":1 /* c */}`, client.ReasonInvalidJSON),
		bad("refuse-array", "", `[1,2]`, client.ReasonNotObject),
		bad("refuse-string", "", `"result"`, client.ReasonNotObject),
		bad("refuse-number", "", `42`, client.ReasonNotObject),
		bad("refuse-null", "", `null`, client.ReasonNotObject),
		bad("refuse-duplicate-key", "", `{"a":1,"a":2}`, client.ReasonDuplicateKey),
		bad("refuse-duplicate-key-same-value", "", `{"a":1,"b":2,"a":1}`, client.ReasonDuplicateKey),
		bad("refuse-duplicate-key-nested", "", `{"x":{"y":[{"k":1,"k":1}]}}`, client.ReasonDuplicateKey),
		bad("refuse-duplicate-key-escaped", "names are compared after unescaping", `{"a":1,"\u0061":2}`, client.ReasonDuplicateKey),
		bad("refuse-duplicate-key-reserved", "a duplicate is refused even for a reserved name", `{"winner":"a","winner":"b"}`, client.ReasonDuplicateKey),
		bad("refuse-lone-high-surrogate", "", `{"s":"\ud800"}`, client.ReasonLoneSurrogate),
		bad("refuse-lone-low-surrogate", "", `{"s":"\udc00"}`, client.ReasonLoneSurrogate),
		bad("refuse-lone-surrogate-key", "", `{"\ud83d":1}`, client.ReasonLoneSurrogate),
		bad("refuse-reversed-surrogates", "low then high", `{"s":"\ude00\ud83d"}`, client.ReasonLoneSurrogate),
		bad("refuse-high-surrogate-then-char", "", `{"s":"\ud83dx"}`, client.ReasonLoneSurrogate),
		bad("refuse-high-surrogate-then-bmp-escape", "", `{"s":"\ud83d\u0041"}`, client.ReasonLoneSurrogate),
		bad("refuse-unsafe-integer-2^53+1", "", num(`9007199254740993`), client.ReasonUnsafeInteger),
		bad("refuse-unsafe-integer-2^53", "", num(`9007199254740992`), client.ReasonUnsafeInteger),
		bad("refuse-unsafe-integer-negative", "", num(`-9007199254740992`), client.ReasonUnsafeInteger),
		bad("refuse-unsafe-integer-int64-min", "", num(`-9223372036854775808`), client.ReasonUnsafeInteger),
		bad("refuse-unsafe-integer-20-digits", "", num(`12345678901234567890`), client.ReasonUnsafeInteger),
		bad("refuse-unsafe-integer-nested", "", `{"a":[{"replayId":9007199254740993}]}`, client.ReasonUnsafeInteger),
		bad("refuse-non-finite", "", num(`1e400`), client.ReasonNonFinite),
		bad("refuse-non-finite-negative", "", num(`-1e400`), client.ReasonNonFinite),
		bad("refuse-non-finite-fraction", "", num(`1.8e308`), client.ReasonNonFinite),

		// Refusals: the reserved values.
		func() vector {
			v := bad("refuse-winner-short", "", `{}`, client.ReasonInvalidWinner)
			v.Winner = "7656119800000000"
			return v
		}(),
		func() vector {
			v := bad("refuse-winner-letters", "", `{}`, client.ReasonInvalidWinner)
			v.Winner = "7656119800000000x"
			return v
		}(),
		func() vector {
			v := bad("refuse-winner-empty", "a draw submits nothing", `{}`, client.ReasonInvalidWinner)
			v.Winner = ""
			return v
		}(),
		func() vector {
			v := bad("refuse-nonce-empty", "", `{}`, client.ReasonInvalidNonce)
			v.SessionNonce = ""
			return v
		}(),
		func() vector {
			v := bad("refuse-match-zero", "", `{}`, client.ReasonInvalidMatch)
			v.MatchID = 0
			return v
		}(),
		func() vector {
			v := bad("refuse-match-negative", "", `{}`, client.ReasonInvalidMatch)
			v.MatchID = -3
			return v
		}(),
		func() vector {
			v := bad("refuse-match-unsafe", "", `{}`, client.ReasonInvalidMatch)
			v.MatchID = 9007199254740992
			return v
		}(),

		// Reserved values.
		func() vector {
			v := ok("nonce-with-escapes", "the nonce is written like any string", `{"a":1}`)
			v.SessionNonce = "n\"\\\u00e9😀"
			return v
		}(),
		func() vector { v := ok("match-max-safe", "", `{}`); v.MatchID = 9007199254740991; return v }(),
		func() vector {
			v := ok("match-and-winner-vary", "", `{"zzz":1,"aaa":2}`)
			v.MatchID, v.SessionNonce, v.Winner = 7, "3f9c2a61d0b84e17", "76561198000000002"
			return v
		}(),
	}
	for _, b := range rfc8785AppendixB {
		lit, _ := appendixBLiteral(t, b.hex)
		vs = append(vs, ok("rfc8785-ieee-"+b.hex, "RFC 8785 Appendix B: "+b.want, num(lit)))
	}
	vs = append(vs,
		bad("rfc8785-ieee-7ff0000000000000", "RFC 8785 Appendix B: Infinity has no JSON form; a literal beyond the double range", num(`1e309`), client.ReasonNonFinite),
	)
	return vs
}

// referenceCanonical is the expected canonical string, built without the
// client: the game's top-level members minus the reserved ones (as
// encoding/json reads them), the reserved members added, then RFC 8785 by
// github.com/gowebpki/jcs.
func referenceCanonical(v vector) ([]byte, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal([]byte(v.Input), &top); err != nil {
		return nil, err
	}
	if top == nil {
		return nil, errors.New("not an object")
	}
	delete(top, client.KeyMatchID)
	delete(top, client.KeySessionNonce)
	delete(top, client.KeyWinner)
	top[client.KeyMatchID] = json.RawMessage(strconv.FormatInt(v.MatchID, 10))
	nonce, _ := json.Marshal(v.SessionNonce)
	top[client.KeySessionNonce] = nonce
	winner, _ := json.Marshal(v.Winner)
	top[client.KeyWinner] = winner
	text, err := json.Marshal(top)
	if err != nil {
		return nil, err
	}
	return jcs.Transform(text)
}

func buildVectors(t testing.TB) []byte {
	sources := vectorSources(t)
	names := map[string]bool{}
	for i := range sources {
		v := &sources[i]
		require.False(t, names[v.Name], "duplicate vector name %s", v.Name)
		names[v.Name] = true
		if v.Refuse != "" {
			continue
		}
		want, err := referenceCanonical(*v)
		require.NoError(t, err, v.Name)
		v.Canonical = string(want)
		v.CanonicalHex = hex.EncodeToString(want)
		sum := sha256.Sum256(want)
		v.SHA256 = hex.EncodeToString(sum[:])
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	require.NoError(t, enc.Encode(vectorsDoc{Description: vectorsDescription, Vectors: sources}))
	return buf.Bytes()
}

// TestVectorsFile keeps the vectors file equal to what the sources and the
// RFC 8785 library give (-update rewrites it), and checks the RFC's
// Appendix B expectations against the library.
func TestVectorsFile(t *testing.T) {
	for _, b := range rfc8785AppendixB {
		_, f := appendixBLiteral(t, b.hex)
		got, err := jcs.NumberToJSON(f)
		require.NoError(t, err)
		require.Equal(t, b.want, got, "RFC 8785 Appendix B %s", b.hex)
	}
	want := buildVectors(t)
	if *update {
		require.NoError(t, os.WriteFile(vectorsFile, want, 0o644))
	}
	got, err := os.ReadFile(vectorsFile)
	require.NoError(t, err)
	require.Equal(t, string(want), string(got), "%s is stale: go test ./client -run TestVectorsFile -update", vectorsFile)
}

func readVectors(t *testing.T) []vector {
	data, err := os.ReadFile(vectorsFile)
	require.NoError(t, err)
	var doc vectorsDoc
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	require.NoError(t, dec.Decode(&doc))
	require.GreaterOrEqual(t, len(doc.Vectors), 80)
	return doc.Vectors
}

// TestVectors runs every vector through the client's canonical form.
func TestVectors(t *testing.T) {
	for _, v := range readVectors(t) {
		t.Run(v.Name, func(t *testing.T) {
			require.True(t, (v.Refuse == "") != (v.Canonical == ""), "exactly one of canonical and refuse")
			got, err := client.CanonicalResultJSON([]byte(v.Input), v.MatchID, v.SessionNonce, v.Winner)
			if v.Refuse != "" {
				var ce *client.CanonicalError
				require.ErrorAs(t, err, &ce)
				assert.Equal(t, v.Refuse, ce.Reason, "%v", err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, v.Canonical, string(got))
			assert.Equal(t, v.CanonicalHex, hex.EncodeToString(got))
			assert.Equal(t, v.SHA256, client.ResultHash(got))
		})
	}
}
