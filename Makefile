# feedback — see README.md. `make help` lists the targets.
SHELL := /bin/bash
GO ?= go
BIN := bin/feedback
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -s -w -X main.version=$(VERSION)

.DEFAULT_GOAL := help

.PHONY: help
help: ## list the targets
	@awk 'BEGIN {FS = ":.*?## "} /^[a-zA-Z_-]+:.*?## / {printf "  %-12s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

.PHONY: deps
deps: ## install the missing system packages for building
	@scripts/deps.sh build

.PHONY: build
build: deps ## build bin/feedback
	$(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/feedback

.PHONY: build-headless
build-headless: ## build bin/feedback-headless: the MCP shim and feedback ask without the GUI (no cgo)
	CGO_ENABLED=0 $(GO) build -tags headless -trimpath -ldflags '$(LDFLAGS)' -o bin/feedback-headless ./cmd/feedback

.PHONY: cross
cross: ## go vet for GOOS=windows and darwin, and the headless Windows and macOS binaries in bin/cross/ (pure Go)
	GO=$(GO) LDFLAGS='$(LDFLAGS)' scripts/cross.sh

.PHONY: build-windows
build-windows: ## cross-build the Windows app bin/windows/feedback.exe (cgo, mingw-w64, -H windowsgui) and check it is a GUI program
	@scripts/deps.sh test
	time CGO_ENABLED=1 GOOS=windows GOARCH=amd64 CC=x86_64-w64-mingw32-gcc \
		$(GO) build -trimpath -ldflags '$(LDFLAGS) -H windowsgui' -o bin/windows/feedback.exe ./cmd/feedback
	FEEDBACK_WINDOWS_EXE=$(CURDIR)/bin/windows/feedback.exe $(GO) test -count=1 -run TestWindowsSubsystems ./cmd/feedback

.PHONY: run
run: build ## build, install what is missing, start the app and pop a demo question
	@scripts/deps.sh run
	@scripts/demo.sh $(BIN)

.PHONY: test
test: ## install what is missing, run the unit tests, then the end-to-end tests under Xvfb (what CI runs)
	@scripts/deps.sh test
	$(GO) vet ./...
	@test -z "$$(gofmt -l . | tee /dev/stderr)" || { echo "gofmt: the files above need formatting" >&2; exit 1; }
	$(GO) test -race -count=1 ./...
	$(MAKE) --no-print-directory cross build-windows
	$(MAKE) --no-print-directory e2e

.PHONY: e2e
e2e: build build-headless ## the end-to-end tests only: the built binary, a real MCP client, real windows under Xvfb
	@scripts/deps.sh test
	FEEDBACK_BIN=$(CURDIR)/$(BIN) FEEDBACK_HEADLESS_BIN=$(CURDIR)/bin/feedback-headless scripts/xsession.sh $(GO) test -count=1 -v -timeout 15m ./e2e/

.PHONY: bench
bench: build ## measure latency, shim start-up and idle cost under Xvfb (medians)
	@scripts/deps.sh test
	FEEDBACK_BIN=$(CURDIR)/$(BIN) scripts/xsession.sh $(GO) run ./e2e/bench

.PHONY: screenshot
screenshot: build ## regenerate docs/screenshot.png under Xvfb
	@scripts/deps.sh test
	FEEDBACK_BIN=$(CURDIR)/$(BIN) FEEDBACK_SCREENSHOT=$(CURDIR)/docs/screenshot.png \
		scripts/xsession.sh $(GO) test -count=1 -run TestScreenshot -v ./e2e/

FUZZ_TARGETS := ipc:FuzzDecodeQuestion mcpshim:FuzzTools imagepipe:FuzzProcess clipimage:FuzzDecodeDIB

.PHONY: fuzz
fuzz: ## run each fuzz target for 30 s
	@for t in $(FUZZ_TARGETS); do \
		echo "== $$t"; $(GO) test ./$${t%%:*} -run '^$$' -fuzz "^$${t##*:}$$" -fuzztime 30s || exit 1; \
	done

.PHONY: clean
clean: ## remove build outputs
	rm -rf bin dist
