#!/usr/bin/env bash
# Prints the version the build stamps into `feedback version` and the packages:
#   at a tag vX.Y.Z        X.Y.Z
#   N commits after it      X.Y.Z+N.gHASH
#   no tag yet              the Version in FyneApp.toml (the repository root's), +N.gHASH
# with ".dirty" appended when the working tree has changes. The result is a valid
# semantic version and a valid Debian version. Outside a git checkout it prints
# the FyneApp.toml version alone.
set -euo pipefail
cd "$(dirname "$0")/.."
base=$(sed -n 's/^[[:space:]]*Version[[:space:]]*=[[:space:]]*"\([^"]*\)".*/\1/p' FyneApp.toml | head -1)
if ! git rev-parse --git-dir >/dev/null 2>&1; then
  echo "${base:-0.0.0}"
  exit 0
fi
hash=$(git rev-parse --short=7 HEAD)
if tag=$(git describe --tags --abbrev=0 --match 'v[0-9]*' 2>/dev/null); then
  base=${tag#v}
  n=$(git rev-list --count "$tag..HEAD")
else
  n=$(git rev-list --count HEAD)
fi
v=$base
if [ "$n" != 0 ]; then v+="+$n.g$hash"; fi
if [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then
  if [[ $v == *+* ]]; then v+=".dirty"; else v+="+dirty"; fi
fi
echo "$v"
