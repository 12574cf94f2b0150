#!/usr/bin/env bash
# Test infrastructure: makes $WINEPREFIX a fresh 64-bit wine prefix in which
# Go programs run. Go >= 1.22 needs ProcessPrng from bcryptprimitives.dll,
# which wine 8.0 (Debian 12) lacks: the stand-in built here from
# bcryptprimitives.c (never shipped) goes into the prefix's system32.
#   WINEPREFIX=/tmp/some-empty-dir scripts/wine/prefix.sh
set -euo pipefail
: "${WINEPREFIX:?set WINEPREFIX to a throw-away directory}"
here=$(cd "$(dirname "$0")" && pwd)
export WINEDEBUG=${WINEDEBUG:--all}
# no Mono or Gecko download prompts: the app needs neither
export WINEDLLOVERRIDES=${WINEDLLOVERRIDES:-mscoree,mshtml=}
export WINEARCH=win64
wineboot -i >/dev/null 2>&1 || { echo "wineboot -i failed in $WINEPREFIX" >&2; exit 1; }
wineserver -w
sys32="$WINEPREFIX/drive_c/windows/system32"
[ -d "$sys32" ] || { echo "wineboot made no $sys32" >&2; exit 1; }
x86_64-w64-mingw32-gcc -O2 -shared -o "$sys32/bcryptprimitives.dll" \
  "$here/bcryptprimitives.c" "$here/bcryptprimitives.def" -ladvapi32
