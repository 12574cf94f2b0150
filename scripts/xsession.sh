#!/usr/bin/env bash
# Runs a command inside a throw-away graphical session: a private D-Bus, a
# virtual X display (Xvfb), the openbox window manager and a tray host
# (status-notifier-watcher). Nothing outlives the command.
#   scripts/xsession.sh go test ./e2e/
# XSESSION_SCREEN=1024x768 picks the screen size (default 1280x1024).
set -euo pipefail
if [ -z "${FEEDBACK_IN_XSESSION:-}" ]; then
  export FEEDBACK_IN_XSESSION=1
  # A display of its own: xvfb-run -a searches from -n, so runs started at
  # once on one machine start their search at different numbers.
  exec dbus-run-session -- xvfb-run -n "${XSESSION_DISPLAY_FROM:-$((100 + RANDOM % 800))}" -a -s "-screen 0 ${XSESSION_SCREEN:-1280x1024}x24 -nolisten tcp" "$0" "$@"
fi
# xdotool matches window titles through the locale: an unknown one (say
# en_US.UTF-8 where it was never generated) mangles every non-ASCII title.
if ! locale -a 2>/dev/null | grep -qix "$(echo "${LANG:-}" | sed 's/UTF-8/utf8/I')"; then
  export LANG=C.UTF-8
fi
dbus-update-activation-environment DISPLAY XAUTHORITY >/dev/null 2>&1 || true
openbox >/dev/null 2>&1 &
wm=$!
status-notifier-watcher >/dev/null 2>&1 &
tray=$!
trap 'kill $wm $tray 2>/dev/null || true' EXIT
# wait until the window manager owns the display
for _ in $(seq 50); do
  xprop -root _NET_SUPPORTING_WM_CHECK 2>/dev/null | grep -q 'window id' && break
  sleep 0.1
done
"$@"
