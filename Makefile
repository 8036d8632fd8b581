# Arena: developer entry points. `make dev` runs it, `make test` tests it.
SHELL := /bin/bash
GO ?= go

.PHONY: dev dev-edge test test-go test-go-plain test-go-plain-split test-go-race test-go-race-half test-go-race-rest test-clients worker test-edge tools clients fmt-check vet wasm migrate bench bench-recordings bench-distance bench-edge generate generate-check

## dev: serve every arena on 127.0.0.1:8787 with a demo arena (data in ./data)
dev:
	$(GO) run ./worker --dev

## dev-edge: serve the same demo arena under wrangler dev --local (libSQL servers, simulated R2, cron); Ctrl-C stops it
dev-edge:
	scripts/dev-edge.sh

## test: gofmt, go vet (native and wasm), go test (libSQL suite and client interop included), wasm build
test: generate-check fmt-check vet tools clients test-clients test-go wasm

## test-clients: the C# and TypeScript game clients' own suites (every shared vector, the submit flow against fakes)
# node --test runs one file at a time on 2 cores; three at once take a
# third less time for the same CPU (the files wait on servers they start).
test-clients: clients
	client/csharp/test.sh
	cd client/typescript && npm ci --no-audit --no-fund --loglevel=error && node --test --test-concurrency=3

# Every test runs once. The race detector (four to five times the CPU)
# runs where concurrency is: the packages of RACE_PKGS in full, and in
# worker/server and worker/web (RACE_SPLIT) the tests RACE_TESTS names,
# those that run work at once (goroutines, held live streams, stalled
# databases, webhook sends and kicks, pools, background jobs); their other
# tests, one request after another through the same code, run without
# it. A new test that starts concurrent work takes a name RACE_TESTS
# matches. The plain and the raced tests run side by side (test-go-plain,
# test-go-race): the raced server tests run one after another, and the
# second core is otherwise idle for minutes. ARENA_REQUIRE_*: a test
# fails (not skips) without its tool (libSQL server, Chromium, the S3
# server, the C# and TypeScript clients for client/interop).
RACE_PKGS := ./core/ ./worker/edge/ ./worker/platform/ ./client/
RACE_SPLIT := ./worker/server/ ./worker/web/
RACE_TESTS := Concurrent|Race|Parallel|Live|Stall|Pool|Webhook|Kick|Hanging|Timers|Close|Crash|Cap|RateLimits|Health|Refresh|AdminTokens|BulkRegistrations|CheckInOpenAlert|OpenAPIConformance|SeedDemoPartWay|Subscriptions|EventLog|Push
# The raced tests run one after another in one process and wait on
# timers and streams much of the time: their test binaries are built once
# (into RACE_BIN, git-ignored) and RACE_HALF (words of RACE_TESTS, about
# half their time) runs in a process of its own beside the rest.
RACE_HALF := Live|Push|Webhook
RACE_BIN := tools/race-tests
REQUIRE := ARENA_REQUIRE_LIBSQL=1 ARENA_REQUIRE_BROWSER=1 ARENA_REQUIRE_S3=1 ARENA_REQUIRE_CLIENTS=1
test-go:
	@$(MAKE) --no-print-directory -j3 --output-sync=target test-go-plain test-go-plain-split test-go-race

test-go-plain:
	$(REQUIRE) $(GO) test -count=1 $$($(GO) list ./... | grep -vxF "$$($(GO) list $(RACE_PKGS) $(RACE_SPLIT))")

test-go-plain-split:
	$(REQUIRE) $(GO) test -count=1 -skip '$(RACE_TESTS)' $(RACE_SPLIT)

test-go-race:
	$(GO) test -c -race -o $(RACE_BIN)/ $(RACE_SPLIT)
	@$(MAKE) --no-print-directory -j2 --output-sync=target test-go-race-half test-go-race-rest

# race_run PKG,FLAGS: runs worker/PKG's raced test binary in its folder.
race_run = cd worker/$(1) && $(REQUIRE) $(CURDIR)/$(RACE_BIN)/$(1).test -test.count=1 $(2)

test-go-race-half:
	$(call race_run,server,-test.run '$(RACE_HALF)')
	$(call race_run,web,-test.run '$(RACE_HALF)')

test-go-race-rest:
	$(call race_run,server,-test.run '$(RACE_TESTS)' -test.skip '$(RACE_HALF)')
	$(call race_run,web,-test.run '$(RACE_TESTS)' -test.skip '$(RACE_HALF)')
	$(REQUIRE) $(GO) test -count=1 -race $(RACE_PKGS)

## generate: regenerate the templ components (views/*_templ.go, committed)
generate:
	$(GO) tool templ generate -path views

generate-check: generate
	@if [ -n "$$(git status --porcelain -- views)" ]; then echo "views: generated code is stale or untracked; commit the output of make generate:"; git status --porcelain -- views; exit 1; fi

fmt-check:
	@out=$$(gofmt -l $$(git ls-files --cached --others --exclude-standard '*.go' | grep -v '_templ.go$$')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet -tags edgefresh ./worker/

## wasm: compile the Workers builds, kept-instance and fresh-instance (no bundle)
wasm:
	GOOS=js GOARCH=wasm $(GO) build -o /dev/null ./worker
	GOOS=js GOARCH=wasm $(GO) build -tags edgefresh -o /dev/null ./worker

## tools: install tursodb, Node 22 and wrangler into tools/ (git-ignored), build the S3 test server (versitygw) there once, Debian's chromium and mono
tools:
	@scripts/tools.sh >/dev/null
	@scripts/s3server.sh >/dev/null
	@scripts/chromium.sh
	@scripts/mono.sh

## clients: build the C# game client (client/csharp/build.sh, with mono) for the interop tests; the TypeScript client needs no build
clients: tools
	@if [ -x client/csharp/build.sh ]; then client/csharp/build.sh; else echo "clients: no client/csharp/build.sh yet, C# client not built"; fi

## migrate: migrate the directory and every arena database in ./data
migrate:
	$(GO) run ./worker migrate

## worker: build the Workers bundle into build/ (scripts/build-worker.sh --fresh: the fresh-instance fallback)
worker:
	scripts/build-worker.sh

## test-edge: run the Workers build under wrangler dev against libSQL servers (with the end-to-end story)
test-edge:
	scripts/test-edge.sh

## bench: benchmarks (public read vs nginx with wrk, Go benchmarks); not part of make test
bench:
	scripts/bench.sh

## bench-recordings: finalize of 16 MB (throughput, peak heap) and upload-to-fetch latency, against references in the same run
bench-recordings:
	scripts/bench-recordings.sh

## bench-distance: each route's database round trips and latency, natively with the libSQL server 0 and 50 ms away (one way), then on the edge's two Workers under wrangler dev with the front 0 and 50 ms from Go
bench-distance: tools
	for d in 0s 50ms; do $(REQUIRE) ARENA_DISTANCE=$$d $(GO) test -count=1 -run '^TestRoundTrips$$' -v ./worker/arenatest/ | grep '|'; done
	scripts/bench-distance-edge.sh

## bench-edge: fresh-instance vs kept-instance build under wrangler dev (not part of make test)
bench-edge:
	scripts/bench-edge.sh
