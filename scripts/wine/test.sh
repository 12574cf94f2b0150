#!/usr/bin/env bash
# Runs the Windows test binaries in DIR (`go test -c` output, NAME.test.exe
# for the package named NAME) under wine, each in its package's directory as
# go test would, then the command that follows. Use inside session.sh.
#   scripts/wine/test.sh bin/windows/tests go test ./e2e/
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
dir=$(cd "$1" && pwd); shift
for exe in "$dir"/*.test.exe; do
  pkg=$(basename "$exe" .test.exe)
  pkgdir=$(cd "$root" && go list -f "{{if eq .Name \"$pkg\"}}{{.Dir}}{{end}}" ./... | head -1)
  [ -n "$pkgdir" ] || { echo "wine test: no package named $pkg" >&2; exit 1; }
  echo "== wine $pkg.test.exe ($pkgdir)" >&2
  (cd "$pkgdir" && wine "$exe" -test.count=1 -test.timeout=5m -test.run "${WINE_TEST_RUN:-^TestWindows}")
done
"$@"
