#!/usr/bin/env bash
# Packs binaries that are already built into dist/ (make package, make deb, make release).
#   scripts/package.sh tarxz BIN VERSION          dist/feedback_VERSION_linux_ARCH.tar.xz, through `fyne package`:
#                                                 the binary, the .desktop file from cmd/feedback/FyneApp.toml, the icon
#   scripts/package.sh deb BIN VERSION            dist/feedback_VERSION-1_ARCH.deb, through nfpm, from that tarball
#   scripts/package.sh deb-headless BIN VERSION   dist/feedback-headless_VERSION-1_ARCH.deb
# The tools come from tools/go.mod (pinned): bin/tools/fyne, bin/tools/nfpm (make tools).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
what=${1:?usage: $0 tarxz|deb|deb-headless BIN VERSION}
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

case $what in
tarxz)
  # fyne names the program after the executable and writes <Name>.tar.xz
  # into the current directory. It reads FyneApp.toml next to the main
  # package, and afterwards writes it back with Build+1: give it a copy.
  cp "$bin" "$stage/feedback"
  mkdir "$stage/out" "$stage/src"
  cp assets/icon.png "$stage/src/Icon.png"
  sed 's#^\([[:space:]]*Icon[[:space:]]*=\).*#\1 "Icon.png"#' cmd/feedback/FyneApp.toml >"$stage/src/FyneApp.toml"
  echo 'package main' >"$stage/src/main.go" # fyne wants Go code there; --executable is what it packs
  (cd "$stage/out" && "$fyne" package --os linux --release --src "$stage/src" --executable "$stage/feedback")
  mv "$stage/out/feedback.tar.xz" "$tarball"
  echo "$tarball"
  ;;
deb)
  [ -f "$tarball" ] || "$0" tarxz "$bin" "$version" >/dev/null
  mkdir "$stage/tree"
  tar -xJf "$tarball" -C "$stage/tree"
  # the tarball's tree is usr/local/… or usr/…, whichever the build machine has
  for f in bin/feedback share/applications/io.feedback.app.desktop share/pixmaps/io.feedback.app.png; do
    src=$(find "$stage/tree" -path "*/usr/*$f" -print -quit)
    [ -n "$src" ] || { echo "package.sh: $f is missing from $tarball" >&2; exit 1; }
    mv "$src" "$stage/"
  done
  STAGE=$stage VERSION=$version ARCH=$arch "$nfpm" package --config packaging/nfpm.yaml --packager deb --target "$dist/" >&2
  ls "$dist"/feedback_"${version}"-1_"${arch}".deb
  ;;
deb-headless)
  cp "$bin" "$stage/feedback-headless"
  STAGE=$stage VERSION=$version ARCH=$arch "$nfpm" package --config packaging/nfpm-headless.yaml --packager deb --target "$dist/" >&2
  ls "$dist"/feedback-headless_"${version}"-1_"${arch}".deb
  ;;
*)
  echo "usage: $0 tarxz|deb|deb-headless BIN VERSION" >&2
  exit 2
  ;;
esac
