#!/usr/bin/env bash
# Checks the Windows and macOS code from Linux, in pure Go (CGO_ENABLED=0), so a
# platform file cannot rot unseen (make cross; make test runs it):
#   - go vet for GOOS=windows over every package but the Linux-only e2e suite,
#     the Fyne ones through Fyne's software driver (-tags ci), plus the headless
#     variant of cmd/feedback;
#   - go vet for GOOS=darwin over every package that does not import Fyne or
#     fyne.io/systray (both need cgo and the macOS SDK there), cmd/feedback as
#     -tags headless;
#   - the headless binaries for windows/amd64, darwin/amd64 and darwin/arm64 in
#     bin/cross/, and the PE subsystem of the Windows one (a console program).
# The Windows GUI build needs cgo and mingw-w64: make build-windows.
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
LDFLAGS=${LDFLAGS:--s -w}
out=bin/cross
mkdir -p "$out"

pkgs=$($GO list ./... | grep -v '/e2e')
echo "go vet, GOOS=windows" >&2
GOOS=windows GOARCH=amd64 CGO_ENABLED=0 $GO vet -tags ci $pkgs
GOOS=windows GOARCH=amd64 CGO_ENABLED=0 $GO vet -tags headless ./cmd/feedback

mac=$(GOOS=darwin CGO_ENABLED=0 $GO list -e -tags headless \
	-f '{{.ImportPath}}{{range .Deps}}{{if eq . "fyne.io/fyne/v2"}} fyne{{end}}{{if eq . "fyne.io/systray"}} fyne{{end}}{{end}}' ./... |
	grep -v ' fyne$' | grep -v '/e2e')
echo "go vet, GOOS=darwin (the packages without Fyne or its tray, which need cgo there)" >&2
GOOS=darwin GOARCH=arm64 CGO_ENABLED=0 $GO vet -tags headless $mac

for p in windows/amd64 darwin/amd64 darwin/arm64; do
	os=${p%/*} arch=${p#*/} ext=
	[ "$os" = windows ] && ext=.exe
	echo "headless build, $os/$arch" >&2
	CGO_ENABLED=0 GOOS=$os GOARCH=$arch $GO build -tags headless -trimpath -ldflags "$LDFLAGS" \
		-o "$out/feedback-headless_${os}_$arch$ext" ./cmd/feedback
done
FEEDBACK_WINDOWS_HEADLESS_EXE=$PWD/$out/feedback-headless_windows_amd64.exe \
	$GO test -count=1 -run TestWindowsSubsystems ./cmd/feedback
