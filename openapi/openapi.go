// Package openapi holds the service's OpenAPI 3.1 document: every public,
// game-client, operator, admin and dev-mode endpoint with its request and
// response schemas and error codes. The server serves it at
// GET /api/v1/openapi.json; package openapitest checks real responses
// against it in tests.
package openapi

import _ "embed"

//go:embed openapi.json
var document []byte

// Document returns the OpenAPI document as JSON. The bytes are shared:
// callers must not modify them.
func Document() []byte { return document }
