#!/usr/bin/env bash
# Runs the Windows test binaries in DIR (`go test -c` output, NAME.test.exe
# for the package ./NAME) under wine, each in its package's directory as
# go test would, then the command that follows. Use inside session.sh.
#   scripts/wine/test.sh bin/windows/tests go test ./e2e/
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
dir=$(cd "$1" && pwd); shift
for exe in "$dir"/*.test.exe; do
  pkg=$(basename "$exe" .test.exe)
  echo "== wine $pkg.test.exe" >&2
  (cd "$root/$pkg" && wine "$exe" -test.count=1 -test.timeout=5m -test.run "${WINE_TEST_RUN:-^TestWindows}")
done
"$@"
