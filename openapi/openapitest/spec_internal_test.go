package openapitest

import (
	"net/http"
	"testing"
)

// A document whose templates compete for the same concrete paths.
const competingPaths = `{
  "openapi": "3.1.0",
  "info": {"title": "t", "version": "1"},
  "paths": {
    "/items/{id}": {"get": {"operationId": "getItem", "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}], "responses": {"200": {"description": "ok"}}}},
    "/items/new": {"get": {"operationId": "newItemForm", "responses": {"200": {"description": "ok"}}}},
    "/items/{id}/parts/{part}": {"get": {"operationId": "getPart", "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}, {"name": "part", "in": "path", "required": true, "schema": {"type": "string"}}], "responses": {"4XX": {"description": "range"}, "default": {"description": "fallback"}}}},
    "/items/new/parts/{part}": {"get": {"operationId": "getNewPart", "parameters": [{"name": "part", "in": "path", "required": true, "schema": {"type": "string"}}], "responses": {"200": {"description": "ok"}}}}
  }
}`

func TestFindPrefersLiteralSegments(t *testing.T) {
	s, err := compile([]byte(competingPaths))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ path, want string }{
		{"/items/new", "newItemForm"},
		{"/items/42", "getItem"},
		{"/items/new/parts/7", "getNewPart"},
		{"/items/42/parts/7", "getPart"},
	}
	for _, tc := range cases {
		op, _ := s.find(http.MethodGet, tc.path)
		if op == nil || op.id != tc.want {
			t.Errorf("find(GET %s) = %v, want %s", tc.path, op, tc.want)
		}
	}
}

func TestResponseForFallsBackToRangeThenDefault(t *testing.T) {
	s, err := compile([]byte(competingPaths))
	if err != nil {
		t.Fatal(err)
	}
	op, _ := s.find(http.MethodGet, "/items/1/parts/2")
	for status, want := range map[int]string{404: "4XX", 422: "4XX", 500: "default", 200: "default"} {
		if r := op.responseFor(status); r == nil || r.key != want {
			t.Errorf("responseFor(%d) = %v, want %s", status, r, want)
		}
	}
	op, _ = s.find(http.MethodGet, "/items/new")
	if r := op.responseFor(404); r != nil {
		t.Errorf("responseFor(404) = %s on an operation documenting only 200", r.key)
	}
}
