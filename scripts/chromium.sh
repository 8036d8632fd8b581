#!/usr/bin/env bash
# Makes sure Debian's Chromium is installed for the browser tests (make test
# runs this). Installs it with apt-get when missing; needs root, as on the
# project's machines and CI.
set -euo pipefail
if command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ]; then
  exit 0
fi
echo "chromium.sh: installing chromium from Debian's packages ..." >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
apt-get install -y -qq chromium >/dev/null
echo "chromium.sh: installed $(chromium --version 2>/dev/null || echo chromium)" >&2
