#!/usr/bin/env bash
# Makes sure Debian's mono (mcs, mono) is installed for the C# game client
# (make tools runs this; make clients builds the client with it). Installs
# mono-devel with apt-get when mcs is missing; needs root, as on the
# project's machines and CI.
set -euo pipefail
if command -v mcs >/dev/null 2>&1 && command -v mono >/dev/null 2>&1; then
  exit 0
fi
echo "mono.sh: installing mono-devel from Debian's packages ..." >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
apt-get install -y -qq mono-devel >/dev/null
echo "mono.sh: installed $(mono --version 2>/dev/null | head -n 1 || echo mono)" >&2
