#!/usr/bin/env bash
# The repository holds sources, not build outputs: fails when a tracked file
# is an executable binary (ELF, PE, Mach-O) or larger than 2 MiB, and when
# the top level holds anything beyond the design card's names (cmd, app,
# dialogs, ipc, assets, FyneApp.toml, go.mod, go.sum, Makefile), the shared
# leaves (internal), the tests, docs, scripts and tools, and the usual files:
# a new package goes under the process it runs in (README, Development).
set -euo pipefail
cd "$(dirname "$0")/.."
max=$((2 << 20))
bad=0
while IFS= read -r -d '' f; do
  [ -f "$f" ] || continue
  size=$(stat -c %s "$f")
  if ((size > max)); then
    echo "hygiene: $f is $((size >> 10)) KiB, over $((max >> 20)) MiB: keep large files out of git" >&2
    bad=1
  fi
  magic=$(head -c 4 "$f" | od -An -tx1 | tr -d ' \n')
  case "$magic" in
    7f454c46 | cffaedfe | cefaedfe | feedface | feedfacf | cafebabe | 4d5a*)
      echo "hygiene: $f is an executable binary (magic $magic): build outputs are not committed" >&2
      bad=1 ;;
  esac
done < <(git ls-files -z)
allowed=" cmd app dialogs ipc assets FyneApp.toml go.mod go.sum Makefile internal e2e docs scripts tools README.md BENCHMARKS.md .ci .gitignore "
while IFS= read -r top; do
  if [[ $allowed != *" $top "* ]]; then
    echo "hygiene: $top at the top level: put it under the process it belongs to (app, dialogs, ipc, cmd/feedback) or internal/" >&2
    bad=1
  fi
done < <(git ls-files | cut -d/ -f1 | sort -u)
exit $bad
