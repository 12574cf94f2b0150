#!/usr/bin/env bash
# Runs a command with a throw-away wine prefix (scripts/wine/prefix.sh) in
# WINEPREFIX; when it ends, every Windows process of the prefix is killed
# (wineserver -k) and the prefix removed. Use inside scripts/xsession.sh:
#   scripts/xsession.sh scripts/wine/session.sh go test ./e2e/
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
WINEPREFIX=$(mktemp -d "${TMPDIR:-/tmp}/feedback-wine.XXXXXX")
export WINEPREFIX WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=" WINEARCH=win64
trap 'wineserver -k 2>/dev/null || true; rm -rf "$WINEPREFIX"' EXIT
start=$(date +%s)
"$here/prefix.sh"
echo "wine prefix ready in $(( $(date +%s) - start )) s: $WINEPREFIX ($(wine --version 2>/dev/null))" >&2
"$@"
