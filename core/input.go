package core

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"reflect"
	"strconv"
	"strings"
	"time"
	"unicode"

	"arena/i18n"
)

// Problems are what is wrong with a person's input (an admin's JSON body
// or form), one per field at most, in the order the fields are checked.
// The JSON API answers the first (its code, usually invalid_field, and
// its field); the forms show each message next to its field. Both get
// them from the one Check of the input's type, so a rule is written once.
type Problems []*Error

// add records a problem for field unless the field already has one.
func (p *Problems) add(code, field, format string, args ...any) {
	if p.Has(field) {
		return
	}
	*p = append(*p, &Error{Code: code, Field: field, Message: fmt.Sprintf(format, args...), format: format, args: args})
}

// keep records e as field e.Field's problem unless the field has one.
func (p *Problems) keep(e *Error) {
	if !p.Has(e.Field) {
		*p = append(*p, e)
	}
}

// invalid records an invalid_field problem.
func (p *Problems) invalid(field, format string, args ...any) {
	p.add(CodeInvalidField, field, format, args...)
}

// Has reports whether field has a problem.
func (p Problems) Has(field string) bool {
	for _, e := range p {
		if e.Field == field {
			return true
		}
	}
	return false
}

// Err returns the first problem, or nil when there is none.
func (p Problems) Err() error {
	if len(p) == 0 {
		return nil
	}
	return p[0]
}

// ByField returns each problem's message by its field.
func (p Problems) ByField(tr *i18n.Tr) map[string]string {
	out := make(map[string]string, len(p))
	for _, e := range p {
		out[e.Field] = e.Text(tr)
	}
	return out
}

// ProblemID is the catalog id of a problem's English format: "problem."
// and the format's FNV-1a hash (i18n/catalog/problem.<locale>.json,
// where its %d and %s read {{.A0}}, {{.A1}}, ...).
func ProblemID(format string) string {
	h := fnv.New32a()
	h.Write([]byte(format))
	return fmt.Sprintf("problem.%08x", h.Sum32())
}

// Text is the error's message in tr's language: for a problem with a
// person's input, the catalog's text of the format core wrote it from,
// with its arguments; else (or when the catalog lacks it) Message. The
// JSON API answers Message, in English.
func (e *Error) Text(tr *i18n.Tr) string {
	if e.format == "" {
		return e.Message
	}
	id := ProblemID(e.format)
	args := make([]any, 0, 2*len(e.args))
	for i, a := range e.args {
		args = append(args, "A"+strconv.Itoa(i), fmt.Sprint(a))
	}
	if s := tr.T(id, args...); s != id {
		return s
	}
	return e.Message
}

// Range bounds a whole number a person types.
type Range struct{ Min, Max int }

// Problem returns what is wrong with n under r, or "" when n is within
// r, or absent and not required.
func (r Range) Problem(n Number, required bool) string {
	if (!n.Set && !n.bad && !required) || (n.Set && n.N >= r.Min && n.N <= r.Max) {
		return ""
	}
	return fmt.Sprintf(rangeProblem, r.Min, r.Max)
}

// rangeProblem is a Range's problem.
const rangeProblem = "Enter a whole number from %d to %d."

// check records Problem at field.
func (r Range) check(p *Problems, field string, n Number, required bool) {
	if r.Problem(n, required) != "" {
		p.invalid(field, rangeProblem, r.Min, r.Max)
	}
}

// Number is a whole number from a person: a JSON number, or the text of
// a form field. Absent (JSON null or missing, an empty form field) leaves
// Set false; a form's text that is not a whole number is kept as bad, so
// the input's Check reports it with the field's rule.
type Number struct {
	N   int
	Set bool
	bad bool
}

// Int returns a set Number.
func Int(n int) Number { return Number{N: n, Set: true} }

// NumberText reads a form field's text.
func NumberText(s string) Number {
	s = strings.TrimSpace(s)
	if s == "" {
		return Number{}
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return Number{bad: true}
	}
	return Number{N: n, Set: true}
}

// Or returns n's value, or fallback when it is not set.
func (n Number) Or(fallback int) int {
	if n.Set {
		return n.N
	}
	return fallback
}

// Text is the number as a form shows it ("" when unset).
func (n Number) Text() string {
	if !n.Set {
		return ""
	}
	return strconv.Itoa(n.N)
}

// UnmarshalJSON accepts a JSON integer or null; anything else is a type
// error naming the field.
func (n *Number) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*n = Number{}
		return nil
	}
	var v int
	if err := json.Unmarshal(b, &v); err != nil {
		return &json.UnmarshalTypeError{Value: "non-integer", Type: reflect.TypeOf(n)}
	}
	*n = Int(v)
	return nil
}

// MarshalJSON writes the number, or null when unset.
func (n Number) MarshalJSON() ([]byte, error) {
	if !n.Set {
		return []byte("null"), nil
	}
	return []byte(strconv.Itoa(n.N)), nil
}

// Instant is a date and time from a person: an ISO-8601 (RFC 3339) JSON
// string, or a form's text already turned into one by the form (which
// knows the viewer's time zone). Text that is no instant is kept as bad
// for the input's Check to report.
type Instant struct {
	T   time.Time
	Set bool
	bad bool
}

// At returns a set Instant.
func At(t time.Time) Instant { return Instant{T: t.UTC(), Set: true} }

// InstantText reads RFC 3339 text ("" is unset).
func InstantText(s string) Instant {
	s = strings.TrimSpace(s)
	if s == "" {
		return Instant{}
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return Instant{bad: true}
	}
	return At(t)
}

// BadInstant is text a form could not read as a date and time.
func BadInstant() Instant { return Instant{bad: true} }

// check records a problem unless the instant is set (required) or
// absent (optional).
func (i Instant) check(p *Problems, field string, required bool) {
	switch {
	case i.bad:
		p.invalid(field, "Enter a date and time.")
	case !i.Set && required:
		p.invalid(field, "Enter a date and time.")
	}
}

// UnmarshalJSON accepts an RFC 3339 string or null; a string that is no
// instant is kept as bad, anything else is a type error.
func (i *Instant) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*i = Instant{}
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return &json.UnmarshalTypeError{Value: "non-string", Type: reflect.TypeOf(i)}
	}
	*i = InstantText(s)
	if !i.Set {
		i.bad = true
	}
	return nil
}

// AppIDs are platform AppIDs as a person gives them: JSON numbers or
// decimal strings, or a form's text split on commas, spaces and lines
// (platform AppIDs are integers; [480] and ["480"] are the same list).
type AppIDs []string

// UnmarshalJSON accepts a JSON array of integers and strings (or null).
// An element of another type is a type error naming the field; the
// strings' shape is the input's Check's.
func (a *AppIDs) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*a = nil
		return nil
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return &json.UnmarshalTypeError{Value: "non-array", Type: reflect.TypeOf(a)}
	}
	out := make(AppIDs, 0, len(raw))
	for _, e := range raw {
		e = bytes.TrimSpace(e)
		var s string
		switch {
		case len(e) > 0 && e[0] == '"':
			if err := json.Unmarshal(e, &s); err != nil {
				return &json.UnmarshalTypeError{Value: "string", Type: reflect.TypeOf(a)}
			}
		case len(e) > 0 && (e[0] == '-' || (e[0] >= '0' && e[0] <= '9')):
			s = string(e) // checked as text: 480 passes, 4.8e2 and -1 do not
		default:
			return &json.UnmarshalTypeError{Value: "non-AppID", Type: reflect.TypeOf(a)}
		}
		out = append(out, s)
	}
	*a = out
	return nil
}

// ListText splits a list a person typed into a text box: one entry per
// line, or separated by commas, semicolons or spaces.
func ListText(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ';' || unicode.IsSpace(r) })
}

// AppIDsText reads AppIDs typed as a list (ListText).
func AppIDsText(s string) AppIDs { return AppIDs(ListText(s)) }

// MaxAppIDs bounds an arena's accepted AppIDs.
const MaxAppIDs = 10

// check records a problem unless the list holds 1 to MaxAppIDs distinct
// AppIDs.
func (a AppIDs) check(p *Problems, field string) {
	if len(a) == 0 || len(a) > MaxAppIDs {
		p.invalid(field, "Give 1 to %d AppIDs, the primary first.", MaxAppIDs)
		return
	}
	seen := map[string]bool{}
	for _, id := range a {
		if !ValidAppID(id) {
			p.invalid(field, "%s is not an AppID (a positive number of up to 10 digits).", id)
			return
		}
		if seen[id] {
			p.invalid(field, "AppID %s is listed twice.", id)
			return
		}
		seen[id] = true
	}
}
