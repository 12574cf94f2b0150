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
- Add it to your agent: `feedback setup claude-code` (or `cursor`, `vscode`, `codex`, `gemini`, …)

| You can | How |
|---|---|
| choose | tick options |
| explain | type below |
MD
log=${XDG_STATE_HOME:-$HOME/.local/state}/feedback/app.log
cat <<EOF

feedback is running: its icon is in your tray (the menu lists open questions; Quit ends it).
Next steps:
  - add it to your agent:   $bin setup claude-code   (or claude-desktop, cursor, vscode, windsurf,
                            codex, gemini; \`$bin setup\` lists the clients it finds)
  - check this machine:     $bin doctor
  - install it on PATH:     make deb && sudo apt-get install ./dist/feedback_*.deb
                            (or: install -m 755 $bin ~/.local/bin/)
  - the app's log:          $log
  - quit:                   Quit in the tray menu; without a tray: pkill -fx '[^ ]*feedback'
EOF
