#!/usr/bin/env bash
# Packs binaries that are already built into dist/ (make package, make deb, make release).
#   scripts/package.sh tarxz BIN VERSION          dist/feedback_VERSION_linux_ARCH.tar.xz, through `fyne package`:
#                                                 the binary, the .desktop file from FyneApp.toml, the icon
#   scripts/package.sh deb BIN VERSION            dist/feedback_VERSION-1_ARCH.deb, through nfpm, from that tarball
#   scripts/package.sh deb-headless BIN VERSION   dist/feedback-headless_VERSION-1_ARCH.deb
#   scripts/package.sh app BIN VERSION            dist/feedback.app, through `fyne package -os darwin`: the macOS
#                                                 app of a binary built on a Mac (cgo), with its id, name and icon
# The tools come from tools/go.mod (pinned): bin/tools/fyne, bin/tools/nfpm (make tools).
# FyneApp.toml at the repository root is the one source of the app's metadata
# (name, id, version, icon): the names of the .desktop file and the icon in
# the .deb come from its ID.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
what=${1:?usage: $0 tarxz|deb|deb-headless|app BIN VERSION}
bin=$(realpath "${2:?binary}")
version=${3:?version}
arch=${ARCH:-$(go env GOARCH)}
fyne=${FYNE:-$root/bin/tools/fyne}
nfpm=${NFPM:-$root/bin/tools/nfpm}
dist=$root/dist
mkdir -p "$dist"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

tarball=$dist/feedback_${version}_linux_${arch}.tar.xz
# metadata KEY: the value of KEY = "…" in FyneApp.toml (the first one).
metadata() { sed -n 's/^[[:space:]]*'"$1"'[[:space:]]*=[[:space:]]*"\([^"]*\)".*/\1/p' FyneApp.toml | head -1; }
appid=$(metadata ID)
[ -n "$appid" ] || { echo "package.sh: FyneApp.toml has no ID" >&2; exit 1; }

# fynepackage OS: `fyne package` of $bin for OS into $stage/out. fyne names
# the program after the executable and writes its package into the current
# directory. It reads FyneApp.toml in its --src directory, and afterwards
# writes it back with Build+1: give it a copy, with the icon beside it.
fynepackage() {
  cp "$bin" "$stage/feedback"
  mkdir "$stage/out" "$stage/src"
  cp "$(metadata Icon)" "$stage/src/Icon.png"
  sed 's#^\([[:space:]]*Icon[[:space:]]*=\).*#\1 "Icon.png"#' FyneApp.toml >"$stage/src/FyneApp.toml"
  echo 'package main' >"$stage/src/main.go" # fyne wants Go code there; --executable is what it packs
  (cd "$stage/out" && "$fyne" package --os "$1" --release --src "$stage/src" --executable "$stage/feedback")
}

# The shim that feedback setup writes in MCP clients' configs: the headless
# build (no window toolkit: it answers initialize in half the time), which
# the tarball and the .deb install beside the app (launch.ShimName).
shimname=feedback-headless
shim=$(dirname "$bin")/$shimname

case $what in
tarxz)
  [ -f "$shim" ] || { echo "package.sh: no $shim beside $bin (make build-headless)" >&2; exit 1; }
  fynepackage linux
  # add the shim beside the binary, and to every install/uninstall rule of
  # fyne's Makefile that handles the binary
  mkdir "$stage/tar"
  tar -xJf "$stage/out/feedback.tar.xz" -C "$stage/tar"
  appbin=$(find "$stage/tar" -path '*/usr/*bin/feedback' -print -quit)
  [ -n "$appbin" ] || { echo "package.sh: fyne's tarball has no bin/feedback" >&2; exit 1; }
  install -m 0755 "$shim" "$(dirname "$appbin")/$shimname"
  mk=$(find "$stage/tar" -name Makefile -print -quit)
  [ -n "$mk" ] && sed -i '/\/bin\/$(Exec)$/{p;s/\$(Exec)/'"$shimname"'/g}' "$mk" && grep -q "bin/$shimname" "$mk" || { echo "package.sh: fyne's Makefile: no install rule for the binary to extend" >&2; exit 1; }
  (cd "$stage/tar" && tar -cJf "$tarball" --owner=0 --group=0 -- *)
  echo "$tarball"
  ;;
app)
  fynepackage darwin
  rm -rf "$dist/feedback.app"
  mv "$stage/out/feedback.app" "$dist/"
  echo "$dist/feedback.app"
  ;;
deb)
  [ -f "$tarball" ] || "$0" tarxz "$bin" "$version" >/dev/null
  mkdir "$stage/tree"
  tar -xJf "$tarball" -C "$stage/tree"
  # the tarball's tree is usr/local/… or usr/…, whichever the build machine has
  for f in bin/feedback bin/$shimname share/applications/"$appid".desktop share/pixmaps/"$appid".png; do
    src=$(find "$stage/tree" -path "*/usr/*$f" -print -quit)
    [ -n "$src" ] || { echo "package.sh: $f is missing from $tarball" >&2; exit 1; }
    mv "$src" "$stage/"
  done
  STAGE=$stage VERSION=$version ARCH=$arch APPID=$appid "$nfpm" package --config scripts/packaging/nfpm.yaml --packager deb --target "$dist/" >&2
  ls "$dist"/feedback_"${version}"-1_"${arch}".deb
  ;;
deb-headless)
  cp "$bin" "$stage/feedback-headless"
  STAGE=$stage VERSION=$version ARCH=$arch "$nfpm" package --config scripts/packaging/nfpm-headless.yaml --packager deb --target "$dist/" >&2
  ls "$dist"/feedback-headless_"${version}"-1_"${arch}".deb
  ;;
*)
  echo "usage: $0 tarxz|deb|deb-headless|app BIN VERSION" >&2
  exit 2
  ;;
esac
