#!/usr/bin/env bash
# Starts the app (if it is not running yet) and asks a demo question.
set -euo pipefail
bin=${1:-bin/feedback}
if [ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  echo "make run needs a graphical session (DISPLAY or WAYLAND_DISPLAY is unset)." >&2
  echo "Over SSH, use 'ssh -X', or try it headless: scripts/xsession.sh $bin ask 'hello'" >&2
  exit 1
fi
"$bin" ask --title "Demo" --option "Ship it" --default "Ship it" --option "Add tests first" \
  --placeholder "Anything to add?" - <<'MD' || true
## feedback is running 🎉

It sits in your tray and pops a window like this one whenever an agent asks you something.

- **Ctrl+Enter** submits, **Esc** dismisses, **Alt+1…9** toggle the options.
- Add it to your MCP client: `{"command": "feedback", "args": ["mcp"]}`

| You can | How |
|---|---|
| choose | tick options |
| explain | type below |
MD
