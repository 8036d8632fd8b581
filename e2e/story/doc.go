// Package story is the end-to-end story of the service, told only through
// its HTTP interfaces: reference game clients (package client) and an
// arena admin play a whole tournament, while public reads and website
// pages are checked after every step. `go test ./e2e/story` runs it against
// an in-process native server; with ARENA_STORY_BASE set it runs the same
// steps and assertions against a running deployment (make test-edge points
// it at the Workers build under wrangler dev).
//
// A feature adds its steps in a file of its own and one line to steps()
// in story_test.go.
package story
