#!/usr/bin/env bash
# Recording benchmarks (not tests), each against a reference measured in
# the same run:
#   finalize of a 16 MB recording on the local adapter (throughput, peak
#   heap above the idle server: must stay under 64 MB) against inflating
#   the same bytes into nothing;
#   upload-to-fetch of a 1 MB recording over loopback HTTP through the
#   local adapter (init, PUT, finalize, fetch, download) against the same
#   bytes PUT to and GET from a bare file handler.
# Usage: scripts/bench-recordings.sh  (make bench-recordings; part of make bench)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

out=$(go test ./worker/server -run '^$' -bench 'Finalize16MB|Inflate16MB|UploadToFetch' -benchmem -count 1)
echo "$out" | grep -E '^Benchmark'
echo "$out" | python3 -c '
import re, sys
ns, metric = {}, {}
for line in sys.stdin:
    if not line.startswith("Benchmark"):
        continue
    name = re.sub(r"-\d+$", "", line.split()[0])
    ns[name] = float(re.search(r"([\d.]+) ns/op", line).group(1))
    for value, unit in re.findall(r"([\d.]+) (\S+)", line):
        metric[(name, unit)] = float(value)
fin, ref = ns["BenchmarkFinalize16MB"], ns["BenchmarkInflate16MB"]
peak = metric[("BenchmarkFinalize16MB", "peak-heap-MB")]
print("finalize 16 MB: %.0f ms, %.1f MB/s; inflate alone %.0f ms: ratio %.2f (finalize costs %.0f%% over inflating)" % (
    fin / 1e6, metric[("BenchmarkFinalize16MB", "MB/s")], ref / 1e6, ref / fin, (fin / ref - 1) * 100))
print("finalize 16 MB peak heap above the idle server: %.1f MB (limit 64 MB): %s" % (peak, "ok" if peak < 64 else "OVER"))
up, bare = ns["BenchmarkUploadToFetch"], ns["BenchmarkUploadToFetchBare"]
print("upload-to-fetch of %.1f MB through the local adapter: %.1f ms; bare PUT+GET %.1f ms: ratio %.2f" % (
    metric[("BenchmarkUploadToFetch", "file-MB")], up / 1e6, bare / 1e6, bare / up))
sys.exit(0 if peak < 64 else 1)
'
