#!/usr/bin/env bash
# Builds the C# client and runs its tests; the last line says "N passed, N failed" and the
# exit status is non-zero when a test failed. An argument filters tests by name.
# The tests read client/testdata/vectors.json of this repository (ARENA_VECTORS_FILE overrides).
set -euo pipefail
cd "$(dirname "$0")"
./build.sh
exec mono --debug build/Arena.Client.Tests.exe "$@"
