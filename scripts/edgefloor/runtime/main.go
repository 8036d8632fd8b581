//go:build js

// Command runtime is the floor of a Go cold start on Workers: the Go
// runtime and syscall/js, answering every request "ok" (bench-edge's cold
// line; docs/edge.md "Cold start").
package main

import "syscall/js"

func main() {
	js.Global().Set("arenaFloor", js.FuncOf(func(js.Value, []js.Value) any { return "ok" }))
	select {}
}
