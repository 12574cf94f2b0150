#!/usr/bin/env bash
# Starts the app (if it is not running yet) and asks a demo question; it
# returns once the question is answered or closed.
set -euo pipefail
bin=${1:-bin/feedback}
if [ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  echo "make run needs a graphical session (DISPLAY or WAYLAND_DISPLAY is unset)." >&2
  echo "Over SSH, use 'ssh -X', or try it headless: scripts/xsession.sh $bin ask 'hello'" >&2
  exit 1
fi
echo "A demo question is open: answer it or close it (Esc) to go on." >&2
"$bin" ask --title "Demo" --option "Ship it" --default "Ship it" --option "Add tests first" \
  --placeholder "Anything to add?" - <<'MD' || true
## feedback is running 🎉

It pops a window like this one whenever an agent asks you something.
**Ctrl+Enter** submits, **Esc** dismisses, **Alt+1…9** toggle the options.
MD
log=${XDG_STATE_HOME:-$HOME/.local/state}/feedback/app.log
# The tray: only where doctor finds a tray host is there an icon to point at.
if "$bin" doctor 2>/dev/null | grep -q '^OK  *tray '; then
  where="its icon is in your tray (the menu lists open questions; Quit ends it)"
  quit="Quit in the tray menu"
else
  where="without a tray icon: this desktop has no tray host ($bin doctor says more)"
  quit="$bin quit"
fi
cat <<EOF

feedback is running: $where.
Next steps:
  - install it on PATH:     make deb && sudo apt-get install ./dist/feedback_*.deb
                            (or: install -m 755 $bin "$(dirname "$bin")"/feedback-headless ~/.local/bin/)
  - then add it to your agent, from PATH (setup writes the path of the feedback it runs):
                            feedback setup claude-code   (or claude-desktop, cursor, vscode, windsurf,
                            codex, gemini; \`feedback setup\` lists the clients it finds)
  - check this machine:     feedback doctor
  - the app's log:          $log
  - quit:                   $quit
EOF
