package openapitest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// ErrUndocumented is wrapped by the errors of CheckResponse for a method
// and path that match no documented operation.
var ErrUndocumented = errors.New("no documented operation")

// ValidateResponse checks one response against the OpenAPI document and
// marks tb failed (Errorf, so it may be called from a server goroutine)
// with every mismatch: an undocumented method and path, an undocumented
// status, a missing or malformed documented header, a Content-Type other
// than application/json where a JSON body is documented, a body where
// none is documented, and each place where the body breaks its schema,
// named by its JSON pointer.
//
// path is the concrete request path (a query is ignored); it is matched
// against the document's templates, so /api/v1/tournaments/spring-cup
// finds /api/v1/tournaments/{slug}. A nil header is an empty one.
func ValidateResponse(tb testing.TB, method, path string, status int, header http.Header, body []byte) {
	tb.Helper()
	if _, err := CheckResponse(method, path, status, header, body); err != nil {
		tb.Errorf("%v", err)
	}
}

// CheckResponse is ValidateResponse returning the mismatches as an error
// instead, with the operationId of the operation it found ("" when none).
// The error wraps ErrUndocumented when no operation matches.
func CheckResponse(method, path string, status int, header http.Header, body []byte) (operationID string, err error) {
	s, err := load()
	if err != nil {
		return "", err
	}
	return s.check(method, path, status, header, body)
}

func (s *spec) check(method, path string, status int, header http.Header, body []byte) (string, error) {
	method = strings.ToUpper(method)
	path, _, _ = strings.Cut(path, "?")
	if header == nil {
		header = http.Header{}
	}
	op, allowed := s.find(method, path)
	head := false
	if op == nil && method == http.MethodHead {
		op, allowed = s.find(http.MethodGet, path)
		head = true
	}
	if op == nil {
		if len(allowed) > 0 {
			return "", fmt.Errorf("openapitest: %s %s answered %d: %w for %s on this path (documented: %s)",
				method, path, status, ErrUndocumented, method, strings.Join(allowed, ", "))
		}
		return "", fmt.Errorf("openapitest: %s %s answered %d: %w matches this path", method, path, status, ErrUndocumented)
	}
	where := fmt.Sprintf("openapitest: %s %s (%s, %s) answered %d", method, path, op.id, op.template, status)
	resp := op.responseFor(status)
	if resp == nil {
		return op.id, fmt.Errorf("%s: status %d is not documented (documented: %s)%s",
			where, status, strings.Join(op.documentedStatuses(), ", "), excerpt(body))
	}
	var problems []string
	problems = append(problems, checkHeaders(resp, header)...)
	if !head {
		problems = append(problems, checkBody(resp, header, body)...)
	}
	if len(problems) == 0 {
		return op.id, nil
	}
	return op.id, fmt.Errorf("%s, which does not match %s:\n  %s%s",
		where, "#"+resp.pointer, strings.Join(problems, "\n  "), excerpt(body))
}

// checkHeaders checks the documented headers: present when required, and
// valid against their schemas when present.
func checkHeaders(resp *response, header http.Header) []string {
	var problems []string
	for _, h := range resp.headers {
		values := header.Values(h.name)
		if len(values) == 0 {
			if h.required {
				problems = append(problems, fmt.Sprintf("header %s: missing (required)", h.name))
			}
			continue
		}
		if h.schema == nil {
			continue
		}
		if err := h.schema.Validate(headerValue(h.typ, values[0])); err != nil {
			for _, line := range schemaErrors(err, h.schemaPtr) {
				problems = append(problems, fmt.Sprintf("header %s %q: %s", h.name, values[0], line))
			}
		}
	}
	return problems
}

// headerValue converts a header's text to the JSON value its schema
// expects; text that does not convert stays a string and fails the
// schema's type.
func headerValue(typ, s string) any {
	s = strings.TrimSpace(s)
	switch typ {
	case "integer", "number":
		if _, err := strconv.ParseFloat(s, 64); err == nil {
			return json.Number(s)
		}
	case "boolean":
		if b, err := strconv.ParseBool(s); err == nil {
			return b
		}
	}
	return s
}

// checkBody checks the Content-Type and the body against the documented
// content.
func checkBody(resp *response, header http.Header, body []byte) []string {
	if len(resp.content) == 0 {
		if len(bytes.TrimSpace(body)) > 0 {
			return []string{fmt.Sprintf("body: none is documented, got %d bytes", len(body))}
		}
		return nil
	}
	ctype := header.Get("Content-Type")
	media, _, err := mime.ParseMediaType(ctype)
	if err != nil {
		media = ""
	}
	ct, ok := resp.content[strings.ToLower(media)]
	if !ok {
		return []string{fmt.Sprintf("Content-Type %q: want %s", ctype, strings.Join(sortedKeys(resp.content), " or "))}
	}
	if ct.schema == nil || !isJSON(ct.mediaType) {
		return nil
	}
	instance, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
	if err != nil {
		return []string{fmt.Sprintf("body: not JSON: %v", err)}
	}
	if err := ct.schema.Validate(instance); err != nil {
		lines := schemaErrors(err, ct.schemaPtr)
		for i, l := range lines {
			lines[i] = "body " + l
		}
		return lines
	}
	return nil
}

func isJSON(mediaType string) bool {
	return mediaType == "application/json" || strings.HasSuffix(mediaType, "+json")
}

// maxSchemaErrors bounds the lines one failed validation reports.
const maxSchemaErrors = 20

// schemaErrors renders a validation failure as one line per failed
// keyword: "at <instance JSON pointer>: <message> (schema <location>)".
// A value failing anyOf reports each alternative's failure.
func schemaErrors(err error, schemaPtr string) []string {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []string{err.Error()}
	}
	var lines []string
	seen := map[string]bool{}
	var walk func(u jsonschema.OutputUnit)
	walk = func(u jsonschema.OutputUnit) {
		if len(u.Errors) > 0 {
			for _, e := range u.Errors {
				walk(e)
			}
			return
		}
		loc := u.AbsoluteKeywordLocation
		if i := strings.IndexByte(loc, '#'); i >= 0 {
			loc = loc[i:]
		} else if schemaPtr != "" {
			loc = schemaPtr + u.KeywordLocation
		}
		ptr := u.InstanceLocation
		if ptr == "" {
			ptr = "/"
		}
		msg := ""
		if u.Error != nil {
			msg = u.Error.String()
		}
		line := fmt.Sprintf("at %s: %s", ptr, msg)
		if loc != "" {
			line += " (schema " + loc + ")"
		}
		if !seen[line] {
			seen[line] = true
			lines = append(lines, line)
		}
	}
	walk(*ve.DetailedOutput())
	if len(lines) > maxSchemaErrors {
		lines = append(lines[:maxSchemaErrors], fmt.Sprintf("... and %d more", len(lines)-maxSchemaErrors))
	}
	return lines
}

// maxExcerpt bounds the body shown in a failure message.
const maxExcerpt = 600

// excerpt shows the start of the body for a failure message.
func excerpt(body []byte) string {
	if len(body) == 0 {
		return "\n  (empty body)"
	}
	b := bytes.TrimSpace(body)
	if len(b) > maxExcerpt {
		return fmt.Sprintf("\n  body (first %d of %d bytes): %s", maxExcerpt, len(body), b[:maxExcerpt])
	}
	return "\n  body: " + string(b)
}
