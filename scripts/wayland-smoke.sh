#!/usr/bin/env bash
# make smoke-wayland: a Wayland session without XWayland, for real. Inside a
# throw-away X display (scripts/xsession.sh) it runs weston with its X11
# backend — a Wayland compositor in an X window — and, with DISPLAY unset:
#   1. the X11 build (BIN_X11) exits at once, naming the Wayland build, and its
#      `ask` fails at once instead of waiting for an app that cannot start;
#   2. the Wayland build (BIN_WAYLAND) starts the app from `ask`, shows the
#      window, and gets the answer typed into it (the mouse clicks it into focus:
#      weston does not let a window take the focus by itself).
#   scripts/wayland-smoke.sh BIN_WAYLAND BIN_X11
set -euo pipefail
wl=$(realpath "${1:?usage: $0 BIN_WAYLAND BIN_X11}")
x11=$(realpath "${2:?usage: $0 BIN_WAYLAND BIN_X11}")
if [ -z "${FEEDBACK_IN_XSESSION:-}" ]; then
  exec "$(dirname "$0")/xsession.sh" "$0" "$@"
fi
tmp=$(mktemp -d /tmp/fbwl.XXXXXX)
pids=()
cleanup() {
  # the app the Wayland ask started, found by its socket
  app=$(ss -xlpH src "$tmp/fb.sock" 2>/dev/null | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2 || true)
  if [ -n "$app" ] && kill "$app" 2>/dev/null; then
    for _ in $(seq 50); do kill -0 "$app" 2>/dev/null || break; sleep 0.1; done
  fi
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "smoke-wayland: FAIL: $*" >&2; [ -f "$tmp/state/feedback/app.log" ] && sed 's/^/  app.log: /' "$tmp/state/feedback/app.log" >&2; exit 1; }

mkdir -m 700 "$tmp/run"
export XDG_RUNTIME_DIR=$tmp/run
weston --backend=x11-backend.so --socket=wayland-fb --width=1024 --height=768 --idle-time=0 \
  >"$tmp/weston.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do [ -S "$XDG_RUNTIME_DIR/wayland-fb" ] && break; sleep 0.1; done
[ -S "$XDG_RUNTIME_DIR/wayland-fb" ] || { cat "$tmp/weston.log" >&2; fail "weston did not start"; }

# The Wayland session: no DISPLAY, a socket, state and settings of its own.
wlenv=(env -u DISPLAY WAYLAND_DISPLAY=wayland-fb XDG_RUNTIME_DIR="$XDG_RUNTIME_DIR" FEEDBACK_SOCKET="$tmp/fb.sock"
  XDG_STATE_HOME="$tmp/state" XDG_CONFIG_HOME="$tmp/config" XDG_DATA_HOME="$tmp/data" FEEDBACK_INPUT_GUARD_MS=0)

# 1. The X11 build: a clear message at once, no crash, no 15 s wait.
start=$(date +%s%N)
if out=$("${wlenv[@]}" "$x11" 2>&1); then fail "the X11 build ran as the app on Wayland only: $out"; fi
grep -q "Wayland build" <<<"$out" || fail "the X11 build's message does not name the Wayland build: $out"
set +e
"${wlenv[@]}" "$x11" ask --timeout 5 "unreachable" >/dev/null 2>"$tmp/ask-x11.err"
code=$?
set -e
ms=$((($(date +%s%N) - start) / 1000000))
[ "$code" = 2 ] || fail "the X11 build's ask exited $code, want 2: $(cat "$tmp/ask-x11.err")"
((ms < 3000)) || fail "the X11 build took $ms ms to give up; want at once"
echo "ok: the X11 build exits at once ($ms ms for both): $out"

# 2. The Wayland build answers a question in a real Wayland window.
# weston's output is an X window of the Xvfb display; the app's window appears in it.
win=$(xdotool search --sync --class 'Weston Compositor' | head -1)
# weston places a window at random: find the app's dark area below weston's
# panel (the desktop is a lighter grey), waiting for it to appear.
dark() {
  import -window "$win" png:- 2>/dev/null | convert - -crop +0+40 +repage -colorspace gray \
    -threshold 15% -negate -trim -format '%w %h %X %Y\n' info: 2>/dev/null || echo 0 0 +0 +0
}
# first the desktop: until weston has drawn its background, all of it is dark
for _ in $(seq 300); do
  read -r w h x y < <(dark)
  ((w < 200 || h < 200)) && break
  sleep 0.1
done
"${wlenv[@]}" "$wl" ask --title "Wayland smoke" "Does this window run on Wayland?" >"$tmp/answer" 2>"$tmp/ask.err" &
ask=$!
pids+=($ask)
w=0 h=0
for _ in $(seq 300); do
  read -r w h x y < <(dark)
  ((w > 200 && h > 200)) && break
  sleep 0.1
done
((w > 200 && h > 200)) || fail "no window appeared on weston's output"
sleep 1 # let the window finish its first frames before clicking into it
# click into the reply box, 100 px above the window's bottom edge
eval "$(xdotool getwindowgeometry --shell "$win")" # X, Y: weston's output on the screen
# weston follows the pointer from when it enters its window: come in from
# outside, then click
xdotool mousemove 0 0 sleep 0.3 mousemove $((X + ${x#+} + w / 2)) $((Y + ${y#+} + 40 + h - 100)) sleep 0.3 \
  mousemove_relative 2 2 sleep 0.3 click 1
sleep 0.5
# a screenshot where FEEDBACK_ARTIFACTS says (no directory shared by every run)
if [ -n "${FEEDBACK_ARTIFACTS:-}" ]; then
  mkdir -p "$FEEDBACK_ARTIFACTS" && import -window "$win" "$FEEDBACK_ARTIFACTS/wayland-smoke.png" 2>/dev/null || true
fi
xdotool type --delay 40 "yes, on Wayland"
xdotool key ctrl+Return
for _ in $(seq 100); do kill -0 "$ask" 2>/dev/null || break; sleep 0.1; done
kill -0 "$ask" 2>/dev/null && fail "feedback ask (Wayland build) did not come back; stderr: $(cat "$tmp/ask.err")"
wait "$ask" || fail "feedback ask (Wayland build) failed: $(cat "$tmp/ask.err")"
grep -q "yes, on Wayland" "$tmp/answer" || fail "the answer was $(cat "$tmp/answer")"
echo "ok: the Wayland build answered: $(cat "$tmp/answer")"
