# Arena: developer entry points. `make dev` runs it, `make test` tests it.
SHELL := /bin/bash
GO ?= go

.PHONY: dev test worker test-edge tools fmt-check vet wasm bench

dev:
	$(GO) run ./worker --dev

test: fmt-check vet tools
	$(GO) test ./...
	$(MAKE) wasm

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' | grep -v '_templ.go$$')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet ./...

wasm:
	GOOS=js GOARCH=wasm $(GO) build -o /dev/null ./worker

tools:
	scripts/tools.sh

worker:
	scripts/build-worker.sh

test-edge:
	scripts/test-edge.sh
