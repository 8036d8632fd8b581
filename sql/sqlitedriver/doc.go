// Package sqlitedriver registers modernc.org/sqlite as the "sqlite"
// driver the store opens file: URLs with. Import it for its
// side effect in native builds; in the Workers build (js/wasm) it is
// empty, because the edge never opens files.
package sqlitedriver
