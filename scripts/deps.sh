#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages feedback needs, only those missing:
# `make deps` (and `make run`, `make test`, which call it) is the one place
# that installs. Every other target checks, with --check, and says to run
# `make deps` when something is missing.
#   scripts/deps.sh build   the C toolchain and headers Fyne's cgo build needs
#   scripts/deps.sh run     build + what a desktop session needs (CJK font)
#   scripts/deps.sh test    build + everything make test runs: a virtual X display, window manager,
#                           tray host, xdotool, wine, weston, the Wayland headers, npm…
#   scripts/deps.sh bench   test + zenity (make bench times it beside the app's popup)
#   scripts/deps.sh package what make package needs besides build (xz for the tarball)
#   scripts/deps.sh wayland build + the headers of the native Wayland build (make build-wayland)
#   scripts/deps.sh weston  wayland + test + the weston compositor (make smoke-wayland)
#   scripts/deps.sh --check SET   install nothing: exit 1 naming what is missing
# The tests start their own sshd and mosquitto: the services those packages
# bring are not started by the install (policy-rc.d), nor left enabled.
set -euo pipefail
check=
if [ "${1:-}" = --check ]; then check=1; shift; fi

build=(gcc pkg-config libgl1-mesa-dev libx11-dev libxcursor-dev libxrandr-dev
       libxinerama-dev libxi-dev libxxf86vm-dev)
run=(fonts-wqy-microhei)
test=(xvfb xauth xdotool dbus dbus-x11 openbox imagemagick xclip fonts-wqy-microhei
      x11-utils haskell-status-notifier-item-utils dunst openssh-server openssh-client
      mosquitto mosquitto-clients xterm tmux
      gcc-mingw-w64-x86-64 wine wine64)
package=(xz-utils)
wayland=(libwayland-dev libxkbcommon-dev libegl-dev)

want=("${build[@]}")
case "${1:-build}" in
  build) ;;
  run) want+=("${run[@]}") ;;
  test) want+=("${test[@]}" "${wayland[@]}" "${package[@]}" weston)
        # npm: the e2e tests install the real agent CLIs (Claude Code,
        # Gemini CLI, Codex) from the npm registry. A Node.js from
        # elsewhere (nodesource, nvm) brings its own npm: keep it.
        command -v npm >/dev/null || want+=(nodejs npm) ;;
  bench) want+=("${test[@]}" zenity) ;;
  package) want+=("${package[@]}") ;;
  wayland) want+=("${wayland[@]}") ;;
  weston) want+=("${wayland[@]}" "${test[@]}" weston) ;;
  *) echo "usage: $0 build|run|test|bench|package|wayland|weston" >&2; exit 2 ;;
esac

missing=()
for p in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
  exit 0
fi
if [ -n "$check" ]; then
  echo "missing system packages: ${missing[*]}" >&2
  case "${1:-build}" in
    build | run | test) echo "run: make deps   (it installs, with apt-get, what make run and make test need)" >&2 ;;
    *) echo "run: make deps DEPS=${1}   (it installs them with apt-get)" >&2 ;;
  esac
  exit 1
fi
if ! command -v apt-get >/dev/null; then
  echo "feedback needs these packages (Debian names): ${missing[*]}" >&2
  echo "install them with your system's package manager, then run make again" >&2
  exit 1
fi
sudo=()
if [ "$(id -u)" != 0 ]; then sudo=(sudo); fi
echo "installing: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
# No service of a package starts at install (the tests run their own sshd
# and mosquitto): invoke-rc.d asks policy-rc.d, and 101 is "not allowed".
# A policy-rc.d already there is the machine's: it stays as it is.
policy=/usr/sbin/policy-rc.d
ours=
if [ ! -e "$policy" ]; then
  ours=1
  printf '#!/bin/sh\nexit 101\n' | "${sudo[@]}" tee "$policy" >/dev/null
  "${sudo[@]}" chmod 755 "$policy"
  trap '"${sudo[@]}" rm -f "$policy"' EXIT
fi
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
# Nor do they start at the next boot.
if [ -n "$ours" ] && command -v systemctl >/dev/null; then
  for unit in ssh mosquitto; do
    for p in "${missing[@]}"; do
      case "$unit:$p" in ssh:openssh-server | mosquitto:mosquitto)
        "${sudo[@]}" systemctl disable "$unit" >/dev/null 2>&1 || true ;;
      esac
    done
  done
fi
