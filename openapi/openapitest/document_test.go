package openapitest_test

import (
	"encoding/json"
	"strings"
	"testing"

	"arena/openapi"
	"arena/openapi/openapitest"
)

func TestCheckDocumentAcceptsTheProjectDocument(t *testing.T) {
	if err := openapitest.CheckDocument(openapi.Document()); err != nil {
		t.Fatalf("the project's OpenAPI document is invalid:\n%v", err)
	}
}

// mutated returns the project document changed by edit.
func mutated(t *testing.T, edit func(doc map[string]any)) []byte {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(openapi.Document(), &doc); err != nil {
		t.Fatal(err)
	}
	edit(doc)
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// at walks doc by keys to an object.
func at(doc map[string]any, keys ...string) map[string]any {
	cur := doc
	for _, k := range keys {
		cur = cur[k].(map[string]any)
	}
	return cur
}

func TestCheckDocumentRejects(t *testing.T) {
	cases := []struct {
		name string
		edit func(doc map[string]any)
		want string
	}{
		{"OpenAPI30", func(d map[string]any) { d["openapi"] = "3.0.3" }, "at /openapi"},
		{"NoInfoVersion", func(d map[string]any) { delete(at(d, "info"), "version") }, "missing property 'version'"},
		{"UnknownTopLevelField", func(d map[string]any) { d["definitions"] = map[string]any{} }, "definitions"},
		{"ExtensionsAllowed", nil, ""},
		{"PathWithoutSlash", func(d map[string]any) { at(d, "paths")["healthz"] = at(d, "paths", "/healthz") }, "at /paths"},
		{"ResponseWithoutDescription", func(d map[string]any) {
			delete(at(d, "paths", "/healthz", "get", "responses", "200"), "description")
		}, "missing property 'description'"},
		{"BadStatusKey", func(d map[string]any) {
			r := at(d, "paths", "/healthz", "get", "responses")
			r["2OO"] = r["200"]
		}, "at /paths/~1healthz/get/responses"},
		{"NoResponses", func(d map[string]any) {
			at(d, "paths", "/healthz", "get")["responses"] = map[string]any{}
		}, "at /paths/~1healthz/get/responses"},
		{"MisspelledOperationField", func(d map[string]any) {
			at(d, "paths", "/healthz", "get")["operationID"] = "x"
		}, "operationID"},
		{"PathParameterNotRequired", func(d map[string]any) {
			at(d, "components", "parameters", "TournamentSlug")["required"] = false
		}, "at /components/parameters/TournamentSlug/required"},
		{"ParameterWithoutSchema", func(d map[string]any) {
			delete(at(d, "components", "parameters", "Season"), "schema")
		}, "at /components/parameters/Season"},
		{"HTTPSchemeWithoutScheme", func(d map[string]any) {
			delete(at(d, "components", "securitySchemes", "adminToken"), "scheme")
		}, "missing property 'scheme'"},
		{"APIKeySchemeWithoutName", func(d map[string]any) {
			delete(at(d, "components", "securitySchemes", "platformTicket"), "name")
		}, "missing property 'name'"},
		{"DanglingRef", func(d map[string]any) {
			at(d, "components", "schemas", "Match", "properties", "player1")["$ref"] = "#/components/schemas/Nobody"
		}, `"#/components/schemas/Nobody" does not resolve`},
		{"ExternalRef", func(d map[string]any) {
			at(d, "components", "schemas", "Match", "properties", "player1")["$ref"] = "https://example.com/player.json"
		}, "is not a reference inside the document"},
		{"SchemaBreaksMetaSchema", func(d map[string]any) {
			at(d, "components", "schemas", "Score", "properties", "p1")["type"] = "int"
		}, "schema #/components/schemas/Score"},
		{"InlineSchemaBreaksMetaSchema", func(d map[string]any) {
			at(d, "components", "headers", "ETag", "schema")["pattern"] = 42
		}, "schema #/components/headers/ETag/schema"},
		{"DuplicateOperationID", func(d map[string]any) {
			at(d, "paths", "/api/v1/ladder", "get")["operationId"] = "getMeta"
		}, `operationId "getMeta" is also used by`},
		{"UndeclaredPathParameter", func(d map[string]any) {
			p := at(d, "paths")
			p["/api/v1/tournaments/{slug}/players/{platformId}"] = p["/api/v1/tournaments/{slug}"]
		}, "GET /api/v1/tournaments/{slug}/players/{platformId}: path parameter {platformId} is not declared"},
		{"PathParameterNotInPath", func(d map[string]any) {
			p := at(d, "paths")
			p["/api/v1/tournaments/{name}"] = p["/api/v1/tournaments/{slug}"]
			delete(p, "/api/v1/tournaments/{slug}")
		}, `path parameter "slug" is not in the path`},
		{"EquivalentTemplates", func(d map[string]any) {
			p := at(d, "paths")
			op := at(d, "paths", "/api/v1/players/{platformId}", "get")
			p["/api/v1/players/{id}"] = map[string]any{"parameters": []any{map[string]any{"name": "id", "in": "path", "required": true, "schema": map[string]any{"type": "string"}}},
				"delete": map[string]any{"operationId": "x", "responses": op["responses"]}}
		}, "differ only in parameter names"},
		{"UndeclaredSecurityScheme", func(d map[string]any) {
			at(d, "paths", "/healthz", "get")["security"] = []any{map[string]any{"cookie": []any{}}}
		}, `security scheme "cookie" is not declared`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.edit == nil { // a control: an x- extension is legal everywhere
				doc := mutated(t, func(d map[string]any) {
					d["x-owner"] = "arena"
					at(d, "paths", "/healthz", "get")["x-internal"] = true
					at(d, "paths", "/healthz", "get", "responses")["x-note"] = "n"
				})
				if err := openapitest.CheckDocument(doc); err != nil {
					t.Fatalf("extensions rejected: %v", err)
				}
				return
			}
			err := openapitest.CheckDocument(mutated(t, tc.edit))
			if err == nil {
				t.Fatal("CheckDocument accepted the broken document")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error does not mention %q:\n%v", tc.want, err)
			}
		})
	}
}

func TestCheckDocumentRejectsNonJSON(t *testing.T) {
	if err := openapitest.CheckDocument([]byte(`openapi: 3.1.0`)); err == nil || !strings.Contains(err.Error(), "not JSON") {
		t.Errorf("CheckDocument(YAML) = %v, want a not-JSON error", err)
	}
}
