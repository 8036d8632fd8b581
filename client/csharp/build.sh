#!/usr/bin/env bash
# Builds the Arena C# client with Mono's mcs (C# 7.2, base class library only) into build/:
#   Arena.Client.dll (+ .xml docs)  the library, Runtime/
#   arena-client.exe                the command line, Cli/
#   Arena.Client.Tests.exe          the test runner, Tests/ (test.sh runs it)
# Needs mcs and mono (Debian: apt-get install mono-devel).
set -euo pipefail
cd "$(dirname "$0")"
if ! command -v mcs >/dev/null 2>&1; then
  echo "build.sh: mcs not found (install mono-devel)" >&2
  exit 1
fi
mkdir -p build
MCS=(mcs -langversion:7.2 -nologo -warnaserror+ -nowarn:1591 -optimize+)
REFS=(-r:System.dll -r:System.Core.dll -r:System.Numerics.dll -r:System.Net.Http.dll)
sources() { find "$1" -name '*.cs' | LC_ALL=C sort; }
"${MCS[@]}" -target:library -out:build/Arena.Client.dll -doc:build/Arena.Client.xml "${REFS[@]}" $(sources Runtime)
"${MCS[@]}" -target:exe -out:build/arena-client.exe "${REFS[@]}" -r:build/Arena.Client.dll $(sources Cli)
"${MCS[@]}" -target:exe -out:build/Arena.Client.Tests.exe "${REFS[@]}" -r:build/Arena.Client.dll $(sources Tests)
