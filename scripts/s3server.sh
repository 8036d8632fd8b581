#!/usr/bin/env bash
# Builds the S3-compatible server the object-storage tests run against
# (versitygw, pinned) from the Go module proxy into the git-ignored tools/
# folder, once, then prints where it is:
#
#   VERSITYGW=<path>   versitygw -a KEY -s SECRET -p 127.0.0.1:PORT posix DIR
#
# Idempotent: when the pinned version is built it does nothing. The first
# build takes minutes (about 7 on a cold module and build cache, 2 cores);
# CI keeps tools/ between runs like the npm tools.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
version=v1.8.0 # change it here only
dir="$root/tools/versitygw-$version"
bin="$dir/versitygw"

if [ ! -x "$bin" ]; then
  command -v go >/dev/null || { echo "s3server.sh: go is required" >&2; exit 1; }
  echo "s3server.sh: building versitygw $version into tools/ (first time only, takes minutes) ..." >&2
  start=$(date +%s)
  mkdir -p "$dir"
  # go install with a version ignores the project's go.mod; -trimpath and
  # -s -w keep the binary smaller.
  (cd "$dir" && GOBIN="$dir" GOFLAGS= go install -trimpath -ldflags='-s -w' \
    "github.com/versity/versitygw/cmd/versitygw@$version") >&2
  echo "s3server.sh: built in $(($(date +%s) - start)) s" >&2
fi
printf 'VERSITYGW=%q\n' "$bin"
