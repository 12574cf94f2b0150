# feedback — see README.md. `make help` lists the targets.
SHELL := /bin/bash
GO ?= go
BIN := bin/feedback
# The version `feedback version` prints and the packages carry (scripts/version.sh:
# the tag vX.Y.Z, else FyneApp.toml's version + commits.hash); `make VERSION=… release` overrides it.
ifeq ($(origin VERSION),undefined)
VERSION := $(shell scripts/version.sh 2>/dev/null || echo 0.0.0+unknown)
endif
LDFLAGS := -s -w -X main.version=$(VERSION)
# The app is an X11 program (XWayland runs it on a Wayland session; make build-wayland builds
# the native Wayland one). Fyne 2.8's GLFW links X11 and Wayland both unless a tag names one,
# and picks Wayland at run time on a Wayland session, where dialogs/internal/native's X11
# touches do nothing: every go command here builds X11 alone. A -tags on a command line
# (wayland, headless, ci) replaces this one.
export GOFLAGS := -tags=x11 $(GOFLAGS)

.DEFAULT_GOAL := help

.PHONY: help
help: ## list the targets
	@awk 'BEGIN {FS = ":.*?## "} /^[a-zA-Z0-9_-]+:.*?## / {printf "  %-15s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

# What make deps installs: test (the default) is everything make run and
# make test need; DEPS=bench adds zenity.
DEPS ?= test

.PHONY: deps
deps: ## install the missing system packages (apt-get), the only target that does besides run and test, which call it; the others check and say to run it
	@scripts/deps.sh $(DEPS)

.PHONY: build
build: build-headless ## build bin/feedback, and beside it bin/feedback-headless: the shim feedback setup writes in MCP clients' configs
	@scripts/deps.sh --check build
	@$(GO) list -trimpath -f '{{if .Stale}}First build: compiling the C parts of Fyne (GLFW, OpenGL) takes a few minutes, up to 15 on a small busy machine, and prints nothing meanwhile; later builds take seconds.{{end}}' \
		fyne.io/fyne/v2/internal/driver/glfw 2>/dev/null | grep . >&2 || true
	$(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/feedback

.PHONY: build-headless
build-headless: ## build bin/feedback-headless: the MCP shim and feedback ask without the GUI (no cgo)
	CGO_ENABLED=0 $(GO) build -tags headless -trimpath -ldflags '$(LDFLAGS)' -o bin/feedback-headless ./cmd/feedback

.PHONY: cross
cross: ## go vet for GOOS=windows and darwin, and the headless Windows and macOS binaries in bin/cross/ (pure Go)
	GO=$(GO) LDFLAGS='$(LDFLAGS)' scripts/cross.sh

.PHONY: build-windows
build-windows: ## cross-build the Windows app bin/windows/feedback.exe (cgo, mingw-w64, -H windowsgui) and check it is a GUI program
	@scripts/deps.sh --check test
	time CGO_ENABLED=1 GOOS=windows GOARCH=amd64 CC=x86_64-w64-mingw32-gcc \
		$(GO) build -trimpath -ldflags '$(LDFLAGS) -H windowsgui' -o bin/windows/feedback.exe ./cmd/feedback
	FEEDBACK_WINDOWS_EXE=$(CURDIR)/bin/windows/feedback.exe $(GO) test -count=1 -run TestWindowsSubsystems ./cmd/feedback

.PHONY: test-windows
test-windows: build-windows ## the Windows app under wine + Xvfb: a throw-away prefix with the ProcessPrng stand-in (scripts/wine), its Windows-only unit tests, then the end-to-end tests (e2e/windows_test.go)
	@scripts/deps.sh --check test
	CGO_ENABLED=1 GOOS=windows GOARCH=amd64 CC=x86_64-w64-mingw32-gcc $(GO) build -trimpath -o bin/windows/winprobe.exe ./e2e/internal/winprobe
	CGO_ENABLED=0 GOOS=windows GOARCH=amd64 $(GO) test -c -o bin/windows/tests/ ./ipc ./ipc/launch ./dialogs/clipimage ./cmd/feedback/setup ./internal/userdirs
	time FEEDBACK_WINDOWS_EXE=$(CURDIR)/bin/windows/feedback.exe FEEDBACK_WINPROBE_EXE=$(CURDIR)/bin/windows/winprobe.exe \
		scripts/xsession.sh scripts/wine/session.sh scripts/wine/test.sh bin/windows/tests \
		$(GO) test -count=1 -v -timeout 10m -run 'TestWindows' ./e2e/

.PHONY: run
run: ## install what is missing (make deps DEPS=run), build, start the app and pop a demo question (returns once it is answered or closed)
	@scripts/deps.sh run
	@$(MAKE) --no-print-directory build
	@scripts/demo.sh $(BIN)

# staticcheck, pinned with the other tools in tools/go.mod.
STATICCHECK := bin/tools/staticcheck

$(STATICCHECK): tools/go.mod tools/go.sum
	CGO_ENABLED=0 $(GO) -C tools build -trimpath -o $(CURDIR)/$(STATICCHECK) honnef.co/go/tools/cmd/staticcheck

.PHONY: check
check: $(STATICCHECK) ## the fast tier (minutes): hygiene, gofmt, go mod tidy, vet, staticcheck, the unit tests with -short -race
	@scripts/deps.sh --check build
	scripts/hygiene.sh
	@test -z "$$(gofmt -l . | tee /dev/stderr)" || { echo "gofmt: the files above need formatting" >&2; exit 1; }
	$(GO) mod tidy -diff
	$(GO) vet ./...
	$(STATICCHECK) ./...
	$(GO) test -short -race -count=1 ./...

.PHONY: test
test: ## install what is missing (make deps), the fast tier (make check), then the long tier: the unit tests in full, cross builds, wine, Wayland, the end-to-end tests under Xvfb, the packages (what CI runs)
	@$(MAKE) --no-print-directory deps DEPS=test
	$(MAKE) --no-print-directory check
	$(GO) test -race -count=1 ./...
	$(MAKE) --no-print-directory cross test-windows smoke-wayland
	$(MAKE) --no-print-directory e2e
	$(MAKE) --no-print-directory test-package

.PHONY: e2e
e2e: build build-headless ## the end-to-end tests only: the built binary, a real MCP client, real windows under Xvfb (1280x1024; the fit test again on a 1024x768 screen, where a window meets the screen's limit at scale 1.5)
	@scripts/deps.sh --check test
	E2E_REQUIRE_CLIS=1 FEEDBACK_BIN=$(CURDIR)/$(BIN) FEEDBACK_HEADLESS_BIN=$(CURDIR)/bin/feedback-headless scripts/xsession.sh $(GO) test -count=1 -v -timeout 40m ./e2e/
	FEEDBACK_BIN=$(CURDIR)/$(BIN) XSESSION_SCREEN=1024x768 scripts/xsession.sh $(GO) test -count=1 -v -timeout 5m -run 'TestWindowFitsTheScreen' ./e2e/

.PHONY: bench
bench: build ## measure popups (warm, after idle, an agent's first question, zenity), shim start-up, Markdown, typing, idle cost vs a bare Fyne tray, under Xvfb (medians)
	@scripts/deps.sh --check bench
	$(GO) test -run '^$$' -bench . -benchtime 5x ./dialogs/ ./dialogs/markdown/
	FEEDBACK_BIN=$(CURDIR)/$(BIN) scripts/xsession.sh $(GO) run ./e2e/bench

.PHONY: screenshot
screenshot: build ## regenerate docs/screenshot.png under Xvfb
	@scripts/deps.sh --check test
	FEEDBACK_BIN=$(CURDIR)/$(BIN) FEEDBACK_SCREENSHOT=$(CURDIR)/docs/screenshot.png \
		scripts/xsession.sh $(GO) test -count=1 -run TestScreenshot -v ./e2e/

# ---- packages and releases (scripts/package.sh; the tools are pinned in tools/go.mod)
TOOLS := bin/tools/fyne bin/tools/nfpm
ARCH := $(shell $(GO) env GOARCH)
TARXZ := dist/feedback_$(VERSION)_linux_$(ARCH).tar.xz
DEB := dist/feedback_$(VERSION)-1_$(ARCH).deb
DEB_HEADLESS := dist/feedback-headless_$(VERSION)-1_$(ARCH).deb
# headless builds of the shim for every platform (pure Go: this machine builds them all)
HEADLESS_PLATFORMS := linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64
# more release artifacts: targets that leave their files in dist/
RELEASE_EXTRA ?= release-windows

$(TOOLS) &: tools/go.mod tools/go.sum
	CGO_ENABLED=0 $(GO) -C tools build -trimpath -o $(CURDIR)/bin/tools/ fyne.io/tools/cmd/fyne github.com/goreleaser/nfpm/v2/cmd/nfpm

.PHONY: tools
tools: $(TOOLS) ## build the pinned packaging tools (fyne, nfpm; tools/go.mod) into bin/tools/

.PHONY: package
package: build $(TOOLS) ## dist/feedback_VERSION_linux_ARCH.tar.xz through `fyne package`: the app, its .desktop file, the icon
	@scripts/deps.sh --check package
	scripts/package.sh tarxz $(BIN) $(VERSION)

.PHONY: deb
deb: package build-headless ## dist/*.deb through nfpm: feedback (the app, on PATH, with its menu entry) and feedback-headless
	scripts/package.sh deb $(BIN) $(VERSION)
	scripts/package.sh deb-headless bin/feedback-headless $(VERSION)

.PHONY: test-package
test-package: deb ## check the tarball and the .deb, install it, answer the installed `feedback ask` under Xvfb, remove it
	@scripts/deps.sh --check test
	FEEDBACK_BIN=$(abspath $(BIN)) FEEDBACK_VERSION=$(VERSION) FEEDBACK_TARXZ=$(CURDIR)/$(TARXZ) FEEDBACK_DEB=$(CURDIR)/$(DEB) FEEDBACK_DEB_HEADLESS=$(CURDIR)/$(DEB_HEADLESS) \
		scripts/xsession.sh $(GO) test -count=1 -v -run 'TestPackage' ./e2e/

.PHONY: release
release: ## every artifact this machine builds, into a fresh dist/ with SHA256SUMS: tarball, .debs, headless shims, Windows app
	rm -rf dist
	$(MAKE) --no-print-directory deb VERSION=$(VERSION)
	@set -e; for p in $(HEADLESS_PLATFORMS); do \
		os=$${p%/*}; arch=$${p#*/}; ext=; [ $$os = windows ] && ext=.exe; \
		echo "headless $$os/$$arch"; \
		CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch $(GO) build -tags headless -trimpath -ldflags '$(LDFLAGS)' \
			-o dist/feedback-headless_$(VERSION)_$${os}_$$arch$$ext ./cmd/feedback; \
	done
	@for t in $(RELEASE_EXTRA); do $(MAKE) --no-print-directory $$t VERSION=$(VERSION) || exit 1; done
	cd dist && sha256sum $$(ls | grep -v '^SHA256SUMS$$') > SHA256SUMS
	@echo "dist/:"; ls -l dist

.PHONY: release-windows
release-windows: build-windows ## the Windows app (make build-windows) as dist/feedback_VERSION_windows_amd64.exe, for make release
	mkdir -p dist && cp bin/windows/feedback.exe dist/feedback_$(VERSION)_windows_amd64.exe

.PHONY: build-wayland
build-wayland: ## build bin/feedback-wayland: the app for Wayland sessions without XWayland (-tags wayland)
	@scripts/deps.sh --check wayland
	$(GO) build -tags wayland -trimpath -ldflags '$(LDFLAGS)' -o bin/feedback-wayland ./cmd/feedback

.PHONY: smoke-wayland
smoke-wayland: build build-wayland ## under weston (nested in Xvfb): the Wayland build answers a question, the X11 build exits at once; the display rules' unit tests in the Wayland build
	@scripts/deps.sh --check weston
	$(GO) test -count=1 -tags wayland ./internal/display/ ./ipc/launch/ ./cmd/feedback/doctor/
	scripts/wayland-smoke.sh $(CURDIR)/bin/feedback-wayland $(CURDIR)/$(BIN)

# package:FuzzTarget; TestFuzzTargetsExist (cmd/feedback) checks each.
FUZZ_TARGETS := ipc:FuzzDecodeQuestion cmd/feedback/mcpshim:FuzzTools cmd/feedback/mcpshim:FuzzHTMLMarkdown \
	dialogs/imagepipe:FuzzProcess dialogs/clipimage:FuzzDecodeDIB \
	cmd/feedback/setup:FuzzMergeJSON cmd/feedback/setup:FuzzMergeTOML

.PHONY: fuzz
fuzz: ## run each fuzz target for 30 s
	@for t in $(FUZZ_TARGETS); do \
		echo "== $$t"; $(GO) test ./$${t%%:*} -run '^$$' -fuzz "^$${t##*:}$$" -fuzztime 30s || exit 1; \
	done

.PHONY: clean
clean: ## remove build outputs
	rm -rf bin dist
