package client

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/gowebpki/jcs"

	"arena/core"
)

// Reserved keys of a result object: the only keys the service reads
// (spec 1 item 3). The client sets them; values the game supplies are
// ignored and replaced.
const (
	KeyMatchID      = "matchId"
	KeySessionNonce = "sessionNonce"
	KeyWinner       = "winner"
)

// Reasons a result is refused before anything is sent: the Reason of a
// *CanonicalError, the same strings in every client (docs/protocol.md).
const (
	ReasonInvalidJSON   = "invalid_json"   // not JSON, trailing data, or not UTF-8
	ReasonNotObject     = "not_object"     // the top-level value is not an object
	ReasonDuplicateKey  = "duplicate_key"  // a member name twice in one object, any depth
	ReasonLoneSurrogate = "lone_surrogate" // an unpaired \ud800-\udfff escape
	ReasonUnsafeInteger = "unsafe_integer" // an integer token beyond ±(2^53-1)
	ReasonNonFinite     = "non_finite"     // a number beyond the double range
	ReasonInvalidWinner = "invalid_winner" // winner is not a platform account id
	ReasonInvalidNonce  = "invalid_nonce"  // empty (or not UTF-8) session nonce
	ReasonInvalidMatch  = "invalid_match"  // match id not a positive safe integer
)

// MaxSafeInteger is 2^53-1, the largest integer every IEEE double reader
// (JavaScript, C#'s double, ...) holds exactly; I-JSON's limit.
const MaxSafeInteger = 1<<53 - 1

// maxDepth bounds object/array nesting; it equals encoding/json's and the
// RFC 8785 library's limit.
const maxDepth = 10000

// CanonicalError is a refusal to build a canonical result: Reason is one
// of the Reason* codes, Detail says where.
type CanonicalError struct {
	Reason string
	Detail string
}

func (e *CanonicalError) Error() string {
	if e.Detail == "" {
		return "client: canonical form: " + e.Reason
	}
	return "client: canonical form: " + e.Reason + ": " + e.Detail
}

func refuse(reason, format string, args ...any) *CanonicalError {
	return &CanonicalError{Reason: reason, Detail: fmt.Sprintf(format, args...)}
}

// CanonicalResultJSON builds the result string of svc.result.v3 from the
// game's result as JSON text: RFC 8785 (JCS) of the game's object with
// the reserved keys matchId, sessionNonce and winner merged in (reserved
// members the game supplied are ignored and replaced), restricted to
// I-JSON (RFC 7493). It refuses, with a *CanonicalError, anything two
// clients in different languages could read differently:
//
//   - invalid_match, invalid_nonce, invalid_winner: the arguments (checked
//     first, in this order);
//   - invalid_json: not JSON (RFC 8259), trailing data, not UTF-8, or
//     nested deeper than 10000;
//   - not_object: the top-level value is not an object;
//   - duplicate_key, lone_surrogate, unsafe_integer, non_finite: the
//     first such problem in document order.
//
// The form itself (docs/protocol.md): members sorted by the UTF-16 code
// units of their names at every depth; compact; strings as raw UTF-8
// with only `"`, `\` and controls below U+0020 escaped (\b \f \n \r \t,
// others \u00xx); numbers as ECMAScript's Number.prototype.toString of
// the nearest double (1.0 -> 1, -0 -> 0, 1e21 -> 1e+21); integer tokens
// within ±(2^53-1) therefore stay as written.
func CanonicalResultJSON(game []byte, matchID int64, sessionNonce, winner string) ([]byte, error) {
	if err := checkReserved(matchID, sessionNonce, winner); err != nil {
		return nil, err
	}
	p := parser{data: game}
	top, err := p.document()
	if err != nil {
		return nil, err
	}
	// The game's members minus reserved ones, as written (already valid
	// I-JSON), then the client's: the library does the sorting and the
	// number and string forms.
	var merged bytes.Buffer
	merged.WriteByte('{')
	for _, m := range top {
		if m.name == KeyMatchID || m.name == KeySessionNonce || m.name == KeyWinner {
			continue
		}
		merged.Write(game[m.start:m.end])
		merged.WriteByte(',')
	}
	nonce, _ := json.Marshal(sessionNonce) // valid UTF-8, checked above
	fmt.Fprintf(&merged, `%q:%d,%q:%s,%q:%q}`, KeyMatchID, matchID, KeySessionNonce, nonce, KeyWinner, winner)
	out, err := jcs.Transform(merged.Bytes())
	if err != nil { // unreachable: the parser accepted the text
		return nil, refuse(ReasonInvalidJSON, "%v", err)
	}
	return out, nil
}

// CanonicalResult is CanonicalResultJSON for a game that holds its result
// as a Go map: game (nil is an empty object) is first written as JSON by
// encoding/json (json.Number values stay as written), so the same rules
// apply; a NaN or infinite float is refused as non_finite and an int64
// beyond ±(2^53-1) as unsafe_integer (send such values as strings).
func CanonicalResult(game map[string]any, matchID int64, sessionNonce, winner string) ([]byte, error) {
	text, err := marshalGame(game)
	if err != nil {
		return nil, err
	}
	return CanonicalResultJSON(text, matchID, sessionNonce, winner)
}

// Canonicalize writes obj (nil is an empty object) in the canonical form
// of CanonicalResultJSON without reserved keys: the form of gameplay
// traces and replay lines, hashed the same way as results.
func Canonicalize(obj map[string]any) ([]byte, error) {
	text, err := marshalGame(obj)
	if err != nil {
		return nil, err
	}
	p := parser{data: text}
	if _, err := p.document(); err != nil {
		return nil, err
	}
	out, err := jcs.Transform(text)
	if err != nil {
		return nil, refuse(ReasonInvalidJSON, "%v", err)
	}
	return out, nil
}

// ResultHash returns the lowercase hex SHA-256 of the exact bytes, the
// resultHash of a submission.
func ResultHash(canonical []byte) string {
	sum := sha256.Sum256(canonical)
	return hex.EncodeToString(sum[:])
}

func checkReserved(matchID int64, sessionNonce, winner string) error {
	switch {
	case matchID <= 0 || matchID > MaxSafeInteger:
		return refuse(ReasonInvalidMatch, "%d", matchID)
	case sessionNonce == "" || !utf8.ValidString(sessionNonce):
		return refuse(ReasonInvalidNonce, "%q", sessionNonce)
	case !core.ValidPlatformID(winner):
		return refuse(ReasonInvalidWinner, "%q", winner)
	}
	return nil
}

func marshalGame(game map[string]any) ([]byte, error) {
	if game == nil {
		return []byte("{}"), nil
	}
	g, err := generic(game, 0)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(g); err != nil {
		var unsupported *json.UnsupportedValueError
		if errors.As(err, &unsupported) {
			return nil, refuse(ReasonNonFinite, "%v", err)
		}
		return nil, refuse(ReasonInvalidJSON, "%v", err)
	}
	return buf.Bytes(), nil
}

// generic copies generic values for encoding/json: a string or key that
// is not UTF-8 is refused (encoding/json would write U+FFFD), and a float
// is written with an exponent, so a double such as 1e20 is read as a
// double and not as an (unsafe) integer token.
func generic(v any, depth int) (any, error) {
	if depth > maxDepth {
		return nil, refuse(ReasonInvalidJSON, "nested deeper than %d", maxDepth)
	}
	switch v := v.(type) {
	case string:
		if !utf8.ValidString(v) {
			return nil, refuse(ReasonInvalidJSON, "string %q is not UTF-8", v)
		}
	case float64:
		return floatNumber(v, 64)
	case float32:
		return floatNumber(float64(v), 32)
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			if !utf8.ValidString(k) {
				return nil, refuse(ReasonInvalidJSON, "name %q is not UTF-8", k)
			}
			g, err := generic(e, depth+1)
			if err != nil {
				return nil, err
			}
			out[k] = g
		}
		return out, nil
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			g, err := generic(e, depth+1)
			if err != nil {
				return nil, err
			}
			out[i] = g
		}
		return out, nil
	}
	return v, nil
}

func floatNumber(f float64, bits int) (any, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, refuse(ReasonNonFinite, "%v", f)
	}
	// The shortest digits for the value's own precision, so float32(0.1)
	// is 0.1.
	return json.Number(strconv.FormatFloat(f, 'e', -1, bits)), nil
}

// member is one top-level member of the game's object: its unescaped
// name and the byte span of `"name": value` in the text.
type member struct {
	name       string
	start, end int
}

// parser is a strict RFC 8259 reader that sees what a generic decoder
// hides: member names as written (duplicates), number tokens as written
// (unsafe integers) and \u escapes (lone surrogates). It only checks; the
// canonical text is written by the RFC 8785 library.
type parser struct {
	data    []byte
	i       int
	depth   int
	problem *CanonicalError // the first I-JSON problem, reported after a clean parse
}

var errSyntax = errors.New("syntax")

// document reads the whole text and returns the top-level members.
func (p *parser) document() ([]member, error) {
	if !utf8.Valid(p.data) {
		return nil, refuse(ReasonInvalidJSON, "not UTF-8")
	}
	p.space()
	isObject := p.i < len(p.data) && p.data[p.i] == '{'
	var top []member
	var err error
	if isObject {
		top, err = p.object()
	} else {
		err = p.value()
	}
	if err == nil {
		p.space()
		if p.i != len(p.data) {
			err = errSyntax
		}
	}
	switch {
	case err != nil:
		return nil, refuse(ReasonInvalidJSON, "at byte %d", p.i)
	case !isObject:
		return nil, refuse(ReasonNotObject, "")
	case p.problem != nil:
		return nil, p.problem
	}
	return top, nil
}

func (p *parser) note(reason, format string, args ...any) {
	if p.problem == nil {
		p.problem = refuse(reason, format, args...)
	}
}

func (p *parser) space() {
	for p.i < len(p.data) {
		switch p.data[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *parser) value() error {
	if p.i >= len(p.data) {
		return errSyntax
	}
	switch c := p.data[p.i]; {
	case c == '{':
		_, err := p.object()
		return err
	case c == '[':
		return p.array()
	case c == '"':
		_, err := p.string()
		return err
	case c == '-' || ('0' <= c && c <= '9'):
		return p.number()
	}
	for _, lit := range []string{"true", "false", "null"} {
		if bytes.HasPrefix(p.data[p.i:], []byte(lit)) {
			p.i += len(lit)
			return nil
		}
	}
	return errSyntax
}

func (p *parser) nest() error {
	p.depth++
	if p.depth > maxDepth {
		return errSyntax
	}
	return nil
}

// object reads an object at p.i ('{') and returns its members.
func (p *parser) object() ([]member, error) {
	if err := p.nest(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	p.i++
	var members []member
	seen := map[string]bool{}
	p.space()
	if p.i < len(p.data) && p.data[p.i] == '}' {
		p.i++
		return members, nil
	}
	for {
		p.space()
		start := p.i
		if p.i >= len(p.data) || p.data[p.i] != '"' {
			return nil, errSyntax
		}
		name, err := p.string()
		if err != nil {
			return nil, err
		}
		if seen[name] {
			p.note(ReasonDuplicateKey, "%q", name)
		}
		seen[name] = true
		p.space()
		if p.i >= len(p.data) || p.data[p.i] != ':' {
			return nil, errSyntax
		}
		p.i++
		p.space()
		if err := p.value(); err != nil {
			return nil, err
		}
		members = append(members, member{name: name, start: start, end: p.i})
		p.space()
		if p.i >= len(p.data) {
			return nil, errSyntax
		}
		switch p.data[p.i] {
		case ',':
			p.i++
		case '}':
			p.i++
			return members, nil
		default:
			return nil, errSyntax
		}
	}
}

func (p *parser) array() error {
	if err := p.nest(); err != nil {
		return err
	}
	defer func() { p.depth-- }()
	p.i++
	p.space()
	if p.i < len(p.data) && p.data[p.i] == ']' {
		p.i++
		return nil
	}
	for {
		p.space()
		if err := p.value(); err != nil {
			return err
		}
		p.space()
		if p.i >= len(p.data) {
			return errSyntax
		}
		switch p.data[p.i] {
		case ',':
			p.i++
		case ']':
			p.i++
			return nil
		default:
			return errSyntax
		}
	}
}

// string reads a string at p.i ('"') and returns it unescaped; a lone
// surrogate escape is noted and decoded as U+FFFD.
func (p *parser) string() (string, error) {
	p.i++
	var b []byte
	for {
		if p.i >= len(p.data) {
			return "", errSyntax
		}
		c := p.data[p.i]
		switch {
		case c == '"':
			p.i++
			return string(b), nil
		case c < 0x20:
			return "", errSyntax
		case c != '\\':
			b = append(b, c)
			p.i++
			continue
		}
		if p.i+1 >= len(p.data) {
			return "", errSyntax
		}
		esc := p.data[p.i+1]
		p.i += 2
		switch esc {
		case '"', '\\', '/':
			b = append(b, esc)
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			r, ok := p.hex4(p.i)
			if !ok {
				return "", errSyntax
			}
			p.i += 4
			if utf16.IsSurrogate(r) {
				low, ok := rune(0), false
				if r < 0xdc00 && p.i+1 < len(p.data) && p.data[p.i] == '\\' && p.data[p.i+1] == 'u' {
					low, ok = p.hex4(p.i + 2)
					ok = ok && 0xdc00 <= low && low <= 0xdfff
				}
				if ok {
					r = utf16.DecodeRune(r, low)
					p.i += 6
				} else {
					p.note(ReasonLoneSurrogate, `\u%04x at byte %d`, r, p.i-6)
					r = utf8.RuneError
				}
			}
			b = utf8.AppendRune(b, r)
		default:
			return "", errSyntax
		}
	}
}

func (p *parser) hex4(at int) (rune, bool) {
	if at+4 > len(p.data) {
		return 0, false
	}
	n, err := strconv.ParseUint(string(p.data[at:at+4]), 16, 32)
	if err != nil || p.data[at] == '+' || p.data[at] == '-' {
		return 0, false
	}
	return rune(n), true
}

// number reads a number token: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (p *parser) number() error {
	start := p.i
	if p.data[p.i] == '-' {
		p.i++
	}
	digits := p.i
	switch {
	case p.i < len(p.data) && p.data[p.i] == '0':
		p.i++
	case p.i < len(p.data) && '1' <= p.data[p.i] && p.data[p.i] <= '9':
		p.skipDigits()
	default:
		return errSyntax
	}
	intDigits := p.data[digits:p.i]
	integer := true
	if p.i < len(p.data) && p.data[p.i] == '.' {
		p.i++
		if p.skipDigits() == 0 {
			return errSyntax
		}
		integer = false
	}
	if p.i < len(p.data) && (p.data[p.i] == 'e' || p.data[p.i] == 'E') {
		p.i++
		if p.i < len(p.data) && (p.data[p.i] == '+' || p.data[p.i] == '-') {
			p.i++
		}
		if p.skipDigits() == 0 {
			return errSyntax
		}
		integer = false
	}
	token := string(p.data[start:p.i])
	const maxSafe = "9007199254740991"
	if integer {
		if len(intDigits) > len(maxSafe) || (len(intDigits) == len(maxSafe) && string(intDigits) > maxSafe) {
			p.note(ReasonUnsafeInteger, "%s (send it as a string)", token)
		}
		return nil
	}
	if _, err := strconv.ParseFloat(token, 64); err != nil { // only overflow fails on a valid token
		p.note(ReasonNonFinite, "%s", token)
	}
	return nil
}

func (p *parser) skipDigits() int {
	n := 0
	for p.i < len(p.data) && '0' <= p.data[p.i] && p.data[p.i] <= '9' {
		p.i++
		n++
	}
	return n
}
