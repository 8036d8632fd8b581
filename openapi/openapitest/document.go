package openapitest

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// structureSchema is the shape of an OpenAPI 3.1 document as JSON Schema
// draft 2020-12, written for this package from the OpenAPI Specification
// 3.1 text. It leaves Schema Objects to CheckDocument's compilation.
//
//go:embed oas31.schema.json
var structureSchema []byte

const structureURL = "https://arena.invalid/openapitest/oas-3.1-structure.json"

// CheckDocument reports every way raw fails to be a self-contained
// OpenAPI 3.1 document:
//   - its structure (fields, types, required fields, response keys,
//     parameter and security scheme rules) against the OpenAPI 3.1
//     specification;
//   - every Schema Object compiles as JSON Schema draft 2020-12 (the
//     OpenAPI 3.1 dialect), which validates it against the draft's
//     meta-schema;
//   - every $ref is internal ("#/...") and resolves;
//   - operationIds are unique;
//   - each path template's {names} are exactly its path parameters, and
//     no two templates differ only in parameter names;
//   - security requirements name declared security schemes.
func CheckDocument(raw []byte) error {
	root, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	structure, err := compileStructure()
	if err != nil {
		return err
	}
	if err := structure.Validate(root); err != nil {
		return fmt.Errorf("not an OpenAPI 3.1 document:\n  %s", strings.Join(schemaErrors(err, ""), "\n  "))
	}
	doc := root.(map[string]any)
	var problems []string
	problems = append(problems, checkRefs(doc, doc, "")...)
	if len(problems) == 0 { // compiling with a dangling $ref only repeats it
		problems = append(problems, checkSchemas(root, doc)...)
	}
	problems = append(problems, checkOperations(doc)...)
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "\n"))
	}
	return nil
}

func compileStructure() (*jsonschema.Schema, error) {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(structureSchema))
	if err != nil {
		return nil, fmt.Errorf("openapitest: structure schema: %w", err)
	}
	c := newCompiler()
	if err := c.AddResource(structureURL, v); err != nil {
		return nil, err
	}
	return c.Compile(structureURL)
}

// checkRefs checks that every "$ref" string under v is internal and
// resolves in doc.
func checkRefs(doc map[string]any, v any, ptr string) []string {
	var problems []string
	switch cur := v.(type) {
	case map[string]any:
		for _, k := range sortedKeys(cur) {
			child := cur[k]
			if ref, ok := child.(string); ok && k == "$ref" {
				target, isInternal := strings.CutPrefix(ref, "#")
				if !isInternal {
					problems = append(problems, fmt.Sprintf("#%s/$ref: %q is not a reference inside the document", ptr, ref))
				} else if _, err := lookup(doc, target); err != nil {
					problems = append(problems, fmt.Sprintf("#%s/$ref: %q does not resolve", ptr, ref))
				}
				continue
			}
			problems = append(problems, checkRefs(doc, child, ptr+"/"+escapePointer(k))...)
		}
	case []any:
		for i, e := range cur {
			problems = append(problems, checkRefs(doc, e, fmt.Sprintf("%s/%d", ptr, i))...)
		}
	}
	return problems
}

// checkSchemas compiles every Schema Object of the document: the
// component schemas and the schemas of parameters, headers and media
// types wherever they are.
func checkSchemas(root any, doc map[string]any) []string {
	c := newCompiler()
	if err := c.AddResource(documentURL, root); err != nil {
		return []string{err.Error()}
	}
	var problems []string
	for _, ptr := range schemaPointers(doc, "", false) {
		if _, err := c.Compile(documentURL + "#" + ptr); err != nil {
			problems = append(problems, fmt.Sprintf("schema #%s: %v", ptr, err))
		}
	}
	return problems
}

// schemaPointers lists the JSON pointers of Schema Objects under v,
// without descending into schemas (compiling one compiles its parts).
func schemaPointers(v any, ptr string, inExample bool) []string {
	m, ok := v.(map[string]any)
	if !ok {
		if a, ok := v.([]any); ok {
			var out []string
			for i, e := range a {
				out = append(out, schemaPointers(e, fmt.Sprintf("%s/%d", ptr, i), inExample)...)
			}
			return out
		}
		return nil
	}
	var out []string
	for _, k := range sortedKeys(m) {
		child := ptr + "/" + escapePointer(k)
		switch {
		case inExample:
		case k == "example" || k == "examples" || k == "value":
			// literal values, not part of the document's structure
		case k == "schema":
			out = append(out, child)
		case k == "schemas" && ptr == "/components":
			for _, name := range sortedKeys(asMap(m[k])) {
				out = append(out, child+"/"+escapePointer(name))
			}
		default:
			out = append(out, schemaPointers(m[k], child, false)...)
		}
	}
	return out
}

func asMap(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

var templateParam = regexp.MustCompile(`\{([^{}/]+)\}`)

// checkOperations checks operationIds, path templates against path
// parameters, and security requirements.
func checkOperations(doc map[string]any) []string {
	var problems []string
	schemes := asMap(asMap(doc["components"])["securitySchemes"])
	checkSecurity := func(where string, v any) {
		reqs, _ := v.([]any)
		for _, r := range reqs {
			for _, name := range sortedKeys(asMap(r)) {
				if _, ok := schemes[name]; !ok {
					problems = append(problems, fmt.Sprintf("%s: security scheme %q is not declared", where, name))
				}
			}
		}
	}
	checkSecurity("security", doc["security"])

	ids := map[string]string{}
	shapes := map[string]string{}
	paths := asMap(doc["paths"])
	for _, template := range sortedKeys(paths) {
		if strings.HasPrefix(template, "x-") {
			continue
		}
		shape := templateParam.ReplaceAllString(template, "{}")
		if other, ok := shapes[shape]; ok {
			problems = append(problems, fmt.Sprintf("paths %q and %q differ only in parameter names", other, template))
		}
		shapes[shape] = template
		var names []string
		for _, m := range templateParam.FindAllStringSubmatch(template, -1) {
			names = append(names, m[1])
		}
		itemPtr := "/paths/" + escapePointer(template)
		item := asMap(paths[template])
		shared := pathParams(doc, itemPtr+"/parameters", item["parameters"])
		for _, method := range httpMethods {
			o, ok := item[method].(map[string]any)
			if !ok {
				continue
			}
			where := strings.ToUpper(method) + " " + template
			if id, _ := o["operationId"].(string); id != "" {
				if other, dup := ids[id]; dup {
					problems = append(problems, fmt.Sprintf("%s: operationId %q is also used by %s", where, id, other))
				}
				ids[id] = where
			}
			declared := map[string]bool{}
			for name := range shared {
				declared[name] = true
			}
			for name := range pathParams(doc, itemPtr+"/"+method+"/parameters", o["parameters"]) {
				declared[name] = true
			}
			for _, name := range names {
				if !declared[name] {
					problems = append(problems, fmt.Sprintf("%s: path parameter {%s} is not declared", where, name))
				}
			}
			for _, name := range sortedKeys(declared) {
				if !slices.Contains(names, name) {
					problems = append(problems, fmt.Sprintf("%s: path parameter %q is not in the path", where, name))
				}
			}
			checkSecurity(where, o["security"])
		}
	}
	return problems
}

// pathParams returns the names of the "in: path" parameters in a
// parameters list, references resolved.
func pathParams(doc map[string]any, ptr string, list any) map[string]bool {
	out := map[string]bool{}
	params, _ := list.([]any)
	for i := range params {
		_, p, err := resolve(doc, fmt.Sprintf("%s/%d", ptr, i))
		if err != nil {
			continue // reported by checkRefs
		}
		if in, _ := p["in"].(string); in == "path" {
			name, _ := p["name"].(string)
			out[name] = true
		}
	}
	return out
}
