#!/usr/bin/env bash
# Runs a command inside a throw-away graphical session: a private D-Bus, a
# virtual X display (Xvfb), the openbox window manager and a tray host
# (status-notifier-watcher). Nothing outlives the command, even when this
# script is killed (SIGTERM, SIGINT, SIGHUP): the session runs in a process
# group of its own, which ends as a whole, and the display's lock file and
# socket go with it.
#   scripts/xsession.sh go test ./e2e/
# XSESSION_SCREEN=1024x768 picks the screen size (default 1280x1024).
set -euo pipefail
if [ -z "${FEEDBACK_IN_XSESSION:-}" ]; then
  export FEEDBACK_IN_XSESSION=1
  # What the session keeps in /tmp (the X authority file, the display's
  # number) is in a directory of its own, removed at the end.
  XSESSION_TMP=$(mktemp -d -t xsession.XXXXXX)
  export XSESSION_TMP
  # A display of its own: xvfb-run -a searches from -n, so runs started at
  # once on one machine start their search at different numbers. -f: the
  # authority file in our directory (xvfb-run killed leaves its own behind).
  set -m # the session's own process group
  dbus-run-session -- xvfb-run -n "${XSESSION_DISPLAY_FROM:-$((100 + RANDOM % 800))}" -a -f "$XSESSION_TMP/Xauthority" \
    -s "-screen 0 ${XSESSION_SCREEN:-1280x1024}x24 -nolisten tcp" "$0" "$@" &
  session=$!
  set +m
  # end stops whatever of the session still runs (SIGTERM: Xvfb removes its
  # lock and socket), then removes what a server killed outright left.
  end() {
    kill -TERM -- "-$session" 2>/dev/null || true
    wait "$session" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 -- "-$session" 2>/dev/null || break; sleep 0.1; done
    kill -KILL -- "-$session" 2>/dev/null || true
    if [ -s "$XSESSION_TMP/display" ]; then
      n=$(cat "$XSESSION_TMP/display")
      owner=$(tr -d ' \n' 2>/dev/null <"/tmp/.X$n-lock" || true)
      if [ -n "$owner" ] && ! kill -0 "$owner" 2>/dev/null; then
        rm -f "/tmp/.X$n-lock" "/tmp/.X11-unix/X$n"
      fi
    fi
    rm -rf "$XSESSION_TMP"
  }
  trap 'end; exit 143' TERM
  trap 'end; exit 130' INT
  trap 'end; exit 129' HUP
  rc=0
  wait "$session" || rc=$?
  end
  exit "$rc"
fi
# The display's number, for the cleanup above.
echo "${DISPLAY#:}" >"$XSESSION_TMP/display"
# xdotool matches window titles through the locale: an unknown one (say
# en_US.UTF-8 where it was never generated) mangles every non-ASCII title.
if ! locale -a 2>/dev/null | grep -qix "$(echo "${LANG:-}" | sed 's/UTF-8/utf8/I')"; then
  export LANG=C.UTF-8
fi
dbus-update-activation-environment DISPLAY XAUTHORITY >/dev/null 2>&1 || true
# XSESSION_WM_LOG names a file for the window manager's messages (and a
# line when it ends), to tell why a session lost it.
if [ -n "${XSESSION_WM_LOG:-}" ]; then
  (openbox >>"$XSESSION_WM_LOG" 2>&1; echo "openbox ended: status $? at $(date +%T.%N)" >>"$XSESSION_WM_LOG") &
else
  openbox >/dev/null 2>&1 &
fi
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
