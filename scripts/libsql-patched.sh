#!/usr/bin/env bash
# Prepares the Workers build's patched libsql-client-go: a copy of the
# module with scripts/libsql-overlay/statement.go.overlay (a per-process
# cache of each query text's split and parameters, sparing an ANTLR lexing
# per statement per execution) and its test, plus a go.mod beside it that
# replaces the module with the copy. Prints that go.mod's path, for
# `go build -modfile`. Fails when the module's file is not the one the patch
# was written against. Usage: scripts/libsql-patched.sh DIR
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
module=github.com/tursodatabase/libsql-client-go
src=$(go list -m -f '{{.Dir}}' "$module")
want=285ae121a70536632f6c6c51762d1d66cf998f206d0e25c3e816b914e5682224
got=$(sha256sum "$src/libsql/internal/http/shared/statement.go" | cut -d' ' -f1)
if [ "$got" != "$want" ]; then
  echo "libsql-patched: $src/libsql/internal/http/shared/statement.go is not the file scripts/libsql-overlay/statement.go.overlay patches (sha256 $got); port the patch" >&2
  exit 1
fi
mkdir -p "$1"
dir=$(cd "$1" && pwd)
rm -rf "$dir/libsql-client-go"
cp -r "$src" "$dir/libsql-client-go"
chmod -R u+w "$dir/libsql-client-go"
cp scripts/libsql-overlay/statement.go.overlay "$dir/libsql-client-go/libsql/internal/http/shared/statement.go"
cp scripts/libsql-overlay/statement_cache_test.go.overlay "$dir/libsql-client-go/libsql/internal/http/shared/statement_cache_test.go"
cp go.mod "$dir/edge.mod"
cp go.sum "$dir/edge.sum"
echo "replace $module => $dir/libsql-client-go" >>"$dir/edge.mod"
echo "$dir/edge.mod"
