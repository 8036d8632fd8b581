#!/usr/bin/env bash
# Builds the Arena C# client with Mono's mcs (C# 7.2, base class library only):
#   build/Arena.Client.dll       the library (Runtime/)
#   build/arena-client.exe       the command line (Cli/)
#   build/Arena.Client.Tests.exe the test runner (Tests/)
# Run from anywhere; needs mcs (Debian: apt-get install mono-devel).
set -euo pipefail
cd "$(dirname "$0")"
if ! command -v mcs >/dev/null 2>&1; then
  echo "build.sh: mcs not found (install mono-devel)" >&2
  exit 1
fi
mkdir -p build
MCS=(mcs -langversion:7.2 -nologo -warnaserror+ -nowarn:1591 -debug- -optimize+)
REFS=(-r:System.dll -r:System.Core.dll -r:System.Numerics.dll -r:System.Net.Http.dll)
"${MCS[@]}" -target:library -out:build/Arena.Client.dll -doc:build/Arena.Client.xml "${REFS[@]}" \
  $(find Runtime -name '*.cs' | LC_ALL=C sort)
"${MCS[@]}" -target:exe -out:build/arena-client.exe "${REFS[@]}" -r:build/Arena.Client.dll \
  $(find Cli -name '*.cs' | LC_ALL=C sort)
cp build/Arena.Client.dll build/Arena.Client.xml build/ 2>/dev/null || true
