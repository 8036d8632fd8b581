package client

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Reserved keys of a result object: the only keys the service reads
// (spec 1 item 3). The client sets them; values the game supplies are
// overwritten.
const (
	KeyMatchID      = "matchId"
	KeySessionNonce = "sessionNonce"
	KeyWinner       = "winner"
)

// maxDepth bounds object/array nesting; it equals encoding/json's decoding
// limit, so anything decoded from JSON canonicalizes, and it stops a Go
// value that contains itself.
const maxDepth = 10000

// CanonicalResult builds the result string of svc.result.v3: a copy of the
// game's own result object with the reserved keys matchId (a number),
// sessionNonce and winner set by the client, serialized by Canonicalize.
// game may be nil (an empty object) and is not modified.
func CanonicalResult(game map[string]any, matchID int64, sessionNonce, winner string) ([]byte, error) {
	obj := make(map[string]any, len(game)+3)
	maps.Copy(obj, game)
	obj[KeyMatchID] = matchID
	obj[KeySessionNonce] = sessionNonce
	obj[KeyWinner] = winner
	return Canonicalize(obj)
}

// ResultHash returns the lowercase hex SHA-256 of the exact bytes, the
// resultHash of a submission.
func ResultHash(canonical []byte) string {
	sum := sha256.Sum256(canonical)
	return hex.EncodeToString(sum[:])
}

// Canonicalize serializes obj as canonical JSON, the byte-exact form both
// clients of a match must produce:
//
//   - Object keys sorted at every depth by their UTF-8 bytes (that is, by
//     Unicode code point); array order is kept.
//   - Compact: no whitespace between tokens.
//   - Strings are UTF-8, written literally except `"` and `\` (escaped as
//     \" and \\), the controls \b \f \n \r \t, and the other code points
//     below U+0020 (\u00XX, lowercase hex). `<`, `>`, `&`, U+2028 and
//     U+2029 are not escaped. A string or key that is not valid UTF-8 is
//     an error.
//   - A number whose value is an integer of magnitude below 1e21 is
//     written as plain digits with no fraction or exponent: 2, 2.0, 2e0
//     and json.Number("2.00") all give 2; -0 gives 0; integer types and
//     json.Number keep every digit (9007199254740993 stays exact).
//   - Any other number is rounded to float64 and written in the shortest
//     form that round-trips, as JavaScript's JSON.stringify does: 0.5,
//     1e-7, 1e+21. NaN, infinities and json.Number values beyond float64
//     range are errors.
//   - null, true, false as themselves.
//
// Values may be nil, bool, string, json.Number, any integer or float type,
// map[string]any and []any; any other value (structs, typed maps and
// slices) is first converted through encoding/json.
func Canonicalize(obj map[string]any) ([]byte, error) {
	var w canonicalWriter
	if obj == nil {
		obj = map[string]any{}
	}
	if err := w.value(obj, 0); err != nil {
		return nil, fmt.Errorf("client: canonicalize: %w", err)
	}
	return w.buf, nil
}

type canonicalWriter struct{ buf []byte }

func (w *canonicalWriter) value(v any, depth int) error {
	if depth > maxDepth {
		return errors.New("nesting too deep")
	}
	var err error
	switch v := v.(type) {
	case nil:
		w.buf = append(w.buf, "null"...)
	case bool:
		w.buf = strconv.AppendBool(w.buf, v)
	case string:
		return w.string(v)
	case json.Number:
		return w.number(string(v))
	case float64:
		return w.float(v, 64)
	case float32:
		return w.float(float64(v), 32)
	case int:
		w.buf = strconv.AppendInt(w.buf, int64(v), 10)
	case int8:
		w.buf = strconv.AppendInt(w.buf, int64(v), 10)
	case int16:
		w.buf = strconv.AppendInt(w.buf, int64(v), 10)
	case int32:
		w.buf = strconv.AppendInt(w.buf, int64(v), 10)
	case int64:
		w.buf = strconv.AppendInt(w.buf, v, 10)
	case uint:
		w.buf = strconv.AppendUint(w.buf, uint64(v), 10)
	case uint8:
		w.buf = strconv.AppendUint(w.buf, uint64(v), 10)
	case uint16:
		w.buf = strconv.AppendUint(w.buf, uint64(v), 10)
	case uint32:
		w.buf = strconv.AppendUint(w.buf, uint64(v), 10)
	case uint64:
		w.buf = strconv.AppendUint(w.buf, v, 10)
	case map[string]any:
		err = w.object(v, depth)
	case []any:
		err = w.array(v, depth)
	default:
		err = w.other(v, depth)
	}
	return err
}

func (w *canonicalWriter) object(m map[string]any, depth int) error {
	w.buf = append(w.buf, '{')
	for i, k := range slices.Sorted(maps.Keys(m)) {
		if i > 0 {
			w.buf = append(w.buf, ',')
		}
		if err := w.string(k); err != nil {
			return err
		}
		w.buf = append(w.buf, ':')
		if err := w.value(m[k], depth+1); err != nil {
			return err
		}
	}
	w.buf = append(w.buf, '}')
	return nil
}

func (w *canonicalWriter) array(a []any, depth int) error {
	w.buf = append(w.buf, '[')
	for i, e := range a {
		if i > 0 {
			w.buf = append(w.buf, ',')
		}
		if err := w.value(e, depth+1); err != nil {
			return err
		}
	}
	w.buf = append(w.buf, ']')
	return nil
}

// other converts a value of any other Go type to generic JSON values
// through encoding/json (numbers kept as json.Number) and writes those.
func (w *canonicalWriter) other(v any, depth int) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var generic any
	if err := dec.Decode(&generic); err != nil {
		return err
	}
	return w.value(generic, depth)
}

const hexDigits = "0123456789abcdef"

func (w *canonicalWriter) string(s string) error {
	w.buf = append(w.buf, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				return fmt.Errorf("string %q is not valid UTF-8", s)
			}
			w.buf = append(w.buf, s[i:i+size]...)
			i += size
			continue
		}
		switch c {
		case '"', '\\':
			w.buf = append(w.buf, '\\', c)
		case '\b':
			w.buf = append(w.buf, `\b`...)
		case '\f':
			w.buf = append(w.buf, `\f`...)
		case '\n':
			w.buf = append(w.buf, `\n`...)
		case '\r':
			w.buf = append(w.buf, `\r`...)
		case '\t':
			w.buf = append(w.buf, `\t`...)
		default:
			if c < 0x20 {
				w.buf = append(w.buf, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			} else {
				w.buf = append(w.buf, c)
			}
		}
		i++
	}
	w.buf = append(w.buf, '"')
	return nil
}

func (w *canonicalWriter) number(lit string) error {
	s, err := canonicalNumber(lit)
	if err != nil {
		return err
	}
	w.buf = append(w.buf, s...)
	return nil
}

func (w *canonicalWriter) float(f float64, bits int) error {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return fmt.Errorf("number %v is not representable in JSON", f)
	}
	// The shortest decimal for the value's own precision, so float32(0.1)
	// is 0.1, then the same rules as a JSON literal.
	return w.number(strconv.FormatFloat(f, 'g', -1, bits))
}

// canonicalNumber returns the canonical form of a JSON number literal (see
// Canonicalize). Integers are decided on the decimal digits, without
// rounding; everything else goes through float64.
func canonicalNumber(lit string) (string, error) {
	neg, intPart, frac, expPart, ok := splitNumber(lit)
	if !ok {
		return "", fmt.Errorf("invalid number literal %q", lit)
	}
	exp := 0
	if expPart != "" {
		e, err := strconv.Atoi(expPart)
		if err != nil || e > 1_000_000 || e < -1_000_000 {
			return floatNumber(lit)
		}
		exp = e
	}
	digits := strings.TrimLeft(intPart+frac, "0")
	if digits == "" {
		return "0", nil // every zero, including -0 and 0e5
	}
	mantissa := strings.TrimRight(digits, "0")
	// value = mantissa * 10^e
	e := exp - len(frac) + len(digits) - len(mantissa)
	if e < 0 || len(mantissa)+e > 21 {
		return floatNumber(lit)
	}
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	b.WriteString(mantissa)
	b.WriteString(strings.Repeat("0", e))
	return b.String(), nil
}

// floatNumber rounds a valid literal to float64 and formats it like
// JavaScript: plain decimal for magnitudes in [1e-6, 1e21), otherwise
// exponent form with no leading zero in the exponent.
func floatNumber(lit string) (string, error) {
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil { // the literal is valid, so only overflow fails
		return "", fmt.Errorf("number %s is out of float64 range", lit)
	}
	if f == 0 {
		return "0", nil
	}
	format := byte('f')
	if abs := math.Abs(f); abs < 1e-6 || abs >= 1e21 {
		format = 'e'
	}
	b := strconv.AppendFloat(nil, f, format, -1, 64)
	if format == 'e' {
		// 1e-07 -> 1e-7, as encoding/json and JavaScript write it.
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return string(b), nil
}

// splitNumber splits a literal of the JSON number grammar
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? into its parts; ok is
// false for anything else.
func splitNumber(s string) (neg bool, intPart, frac, exp string, ok bool) {
	i := 0
	if i < len(s) && s[i] == '-' {
		neg = true
		i++
	}
	start := i
	if i < len(s) && s[i] == '0' {
		i++
	} else {
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	}
	if i == start {
		return false, "", "", "", false
	}
	intPart = s[start:i]
	if i < len(s) && s[i] == '.' {
		i++
		fs := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		if i == fs {
			return false, "", "", "", false
		}
		frac = s[fs:i]
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		es := i
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		ds := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		if i == ds {
			return false, "", "", "", false
		}
		exp = s[es:i]
	}
	return neg, intPart, frac, exp, i == len(s)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
