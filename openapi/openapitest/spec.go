// Package openapitest checks real HTTP responses against the service's
// OpenAPI document (package openapi), for use in tests only.
//
// ValidateResponse checks one response. A Recorder wraps a server
// (Handler) or a client (RoundTripper) so that every response passing
// through is checked, and reports which documented operations the suite
// exercised (Covered, Uncovered). CheckDocument validates an OpenAPI 3.1
// document itself.
//
// Response bodies are validated as JSON Schema draft 2020-12 with format
// assertions on (a "date-time" must be RFC 3339), the dialect OpenAPI 3.1
// uses.
package openapitest

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"arena/openapi"
)

// documentURL is the base URL the document is registered under in the
// schema compiler; it only names locations in messages.
const documentURL = "https://arena.invalid/openapi.json"

// spec is a loaded document: its operations, with each response's
// compiled schemas.
type spec struct {
	doc        map[string]any
	operations []*operation
}

// operation is one documented method on one path template.
type operation struct {
	id       string
	method   string // upper case
	template string
	segments []string
	// responses by their key in the document: "200", "4XX", "default".
	responses map[string]*response
}

// response is one documented response, references resolved.
type response struct {
	key     string
	pointer string              // JSON pointer of the response object in the document
	content map[string]*content // by media type; empty when no body is documented
	headers []*header
}

type content struct {
	mediaType string
	schema    *jsonschema.Schema // nil when the media type has no schema
	schemaPtr string             // "#/..." location of the schema as compiled
}

type header struct {
	name      string
	required  bool
	schema    *jsonschema.Schema
	schemaPtr string // "#/..." location of the schema as compiled
	typ       string // the schema's "type" keyword, to convert the header text
}

var (
	loadOnce   sync.Once
	loaded     *spec
	loadFailed error
)

// load returns the project's document, loaded, checked and compiled once
// per process.
func load() (*spec, error) {
	loadOnce.Do(func() {
		loaded, loadFailed = compile(openapi.Document())
		if loadFailed != nil {
			loadFailed = fmt.Errorf("openapitest: the OpenAPI document is not usable: %w", loadFailed)
		}
	})
	return loaded, loadFailed
}

// compile checks raw with CheckDocument and builds the operation table
// with every response's schemas compiled.
func compile(raw []byte) (*spec, error) {
	if err := CheckDocument(raw); err != nil {
		return nil, err
	}
	root, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	doc := root.(map[string]any)
	c := newCompiler()
	if err := c.AddResource(documentURL, root); err != nil {
		return nil, err
	}
	s := &spec{doc: doc}
	paths, _ := doc["paths"].(map[string]any)
	for _, template := range sortedKeys(paths) {
		item, _ := paths[template].(map[string]any)
		for _, method := range httpMethods {
			raw, ok := item[method].(map[string]any)
			if !ok {
				continue
			}
			ptr := "/paths/" + escapePointer(template) + "/" + method
			op := &operation{
				method:    strings.ToUpper(method),
				template:  template,
				segments:  strings.Split(template, "/"),
				responses: map[string]*response{},
			}
			op.id, _ = raw["operationId"].(string)
			if op.id == "" {
				op.id = op.method + " " + template
			}
			responses, _ := raw["responses"].(map[string]any)
			for key := range responses {
				if strings.HasPrefix(key, "x-") {
					continue
				}
				resp, err := compileResponse(c, doc, ptr+"/responses/"+escapePointer(key))
				if err != nil {
					return nil, fmt.Errorf("%s %s response %s: %w", op.method, template, key, err)
				}
				resp.key = key
				op.responses[key] = resp
			}
			s.operations = append(s.operations, op)
		}
	}
	return s, nil
}

// httpMethods are the operation fields of a Path Item Object.
var httpMethods = []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}

func newCompiler() *jsonschema.Compiler {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	return c
}

// compileResponse resolves the response at ptr (following references) and
// compiles its body and header schemas.
func compileResponse(c *jsonschema.Compiler, doc map[string]any, ptr string) (*response, error) {
	ptr, obj, err := resolve(doc, ptr)
	if err != nil {
		return nil, err
	}
	resp := &response{pointer: ptr, content: map[string]*content{}}
	media, _ := obj["content"].(map[string]any)
	for mt, v := range media {
		ct := &content{mediaType: strings.ToLower(mt)}
		if m, _ := v.(map[string]any); m != nil {
			if _, ok := m["schema"]; ok {
				ct.schemaPtr = "#" + ptr + "/content/" + escapePointer(mt) + "/schema"
				if ct.schema, err = c.Compile(documentURL + ct.schemaPtr); err != nil {
					return nil, err
				}
			}
		}
		resp.content[ct.mediaType] = ct
	}
	hdrs, _ := obj["headers"].(map[string]any)
	for _, name := range sortedKeys(hdrs) {
		if strings.EqualFold(name, "Content-Type") { // ignored by OpenAPI
			continue
		}
		hptr, h, err := resolve(doc, ptr+"/headers/"+escapePointer(name))
		if err != nil {
			return nil, err
		}
		hd := &header{name: name}
		hd.required, _ = h["required"].(bool)
		if _, ok := h["schema"]; ok {
			hd.schemaPtr = "#" + hptr + "/schema"
			if hd.schema, err = c.Compile(documentURL + hd.schemaPtr); err != nil {
				return nil, err
			}
			_, sch, err := resolve(doc, hptr+"/schema")
			if err != nil {
				return nil, err
			}
			hd.typ, _ = sch["type"].(string)
		}
		resp.headers = append(resp.headers, hd)
	}
	return resp, nil
}

// find returns the operation for method on the concrete path: the
// documented template that matches segment by segment, literal segments
// preferred over {parameters} from the left (so /a/b beats /a/{x}).
// allowed lists the methods documented on the path when only the method
// is wrong.
func (s *spec) find(method, path string) (op *operation, allowed []string) {
	segs := strings.Split(path, "/")
	var best *operation
	var bestScore []bool
	for _, cand := range s.operations {
		score, ok := matchTemplate(cand.segments, segs)
		if !ok {
			continue
		}
		if cand.method != method {
			if !slices.Contains(allowed, cand.method) {
				allowed = append(allowed, cand.method)
			}
			continue
		}
		if best == nil || literalFirst(score, bestScore) {
			best, bestScore = cand, score
		}
	}
	return best, allowed
}

// matchTemplate reports whether segs fit the template's segments, and
// which of them matched literally.
func matchTemplate(template, segs []string) ([]bool, bool) {
	if len(template) != len(segs) {
		return nil, false
	}
	literal := make([]bool, len(segs))
	for i, t := range template {
		if len(t) > 2 && t[0] == '{' && t[len(t)-1] == '}' {
			if segs[i] == "" {
				return nil, false
			}
			continue
		}
		if t != segs[i] {
			return nil, false
		}
		literal[i] = true
	}
	return literal, true
}

// literalFirst reports whether a has a literal segment where b first has
// a parameter.
func literalFirst(a, b []bool) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i]
		}
	}
	return false
}

// responseFor picks the documented response for status: the exact code,
// then its range ("4XX"), then "default".
func (op *operation) responseFor(status int) *response {
	for _, key := range []string{fmt.Sprint(status), fmt.Sprintf("%dXX", status/100), "default"} {
		if r, ok := op.responses[key]; ok {
			return r
		}
	}
	return nil
}

// documentedStatuses lists the operation's response keys, sorted.
func (op *operation) documentedStatuses() []string {
	return sortedKeys(op.responses)
}

// resolve returns the object at the JSON pointer ptr, following $ref
// chains of internal references; it returns the pointer of the object
// finally reached.
func resolve(doc map[string]any, ptr string) (string, map[string]any, error) {
	for range 32 {
		v, err := lookup(doc, ptr)
		if err != nil {
			return "", nil, err
		}
		obj, ok := v.(map[string]any)
		if !ok {
			return "", nil, fmt.Errorf("%s is not an object", ptr)
		}
		ref, ok := obj["$ref"].(string)
		if !ok {
			return ptr, obj, nil
		}
		if !strings.HasPrefix(ref, "#") {
			return "", nil, fmt.Errorf("%s: only references inside the document are supported, got %q", ptr, ref)
		}
		ptr = strings.TrimPrefix(ref, "#")
	}
	return "", nil, fmt.Errorf("%s: reference chain too long", ptr)
}

// lookup returns the value at the JSON pointer ptr ("" is the root).
func lookup(doc any, ptr string) (any, error) {
	if ptr == "" {
		return doc, nil
	}
	if ptr[0] != '/' {
		return nil, fmt.Errorf("invalid JSON pointer %q", ptr)
	}
	v := doc
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch cur := v.(type) {
		case map[string]any:
			next, ok := cur[tok]
			if !ok {
				return nil, fmt.Errorf("#%s does not exist", ptr)
			}
			v = next
		case []any:
			var i int
			if _, err := fmt.Sscanf(tok, "%d", &i); err != nil || i < 0 || i >= len(cur) || fmt.Sprint(i) != tok {
				return nil, fmt.Errorf("#%s does not exist", ptr)
			}
			v = cur[i]
		default:
			return nil, fmt.Errorf("#%s does not exist", ptr)
		}
	}
	return v, nil
}

// escapePointer escapes one JSON pointer token.
func escapePointer(tok string) string {
	return strings.ReplaceAll(strings.ReplaceAll(tok, "~", "~0"), "/", "~1")
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
