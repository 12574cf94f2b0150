// Package dialogs is the question window: it takes a wire ipc.Question,
// shows it (Markdown rendered by our own goldmark → Fyne converter, options,
// a reply box and a countdown) and reports exactly one ipc.Answer through a
// callback. It does no I/O, so every behaviour can be driven by
// fyne.io/fyne/v2/test.
//
// Keyboard contract (the README documents it; tests rely on it):
//   - the reply box has focus when the window opens;
//   - Ctrl+Enter submits;
//   - Alt+1 … Alt+9 toggle options 1–9 (numbered through the window);
//   - Alt+Y / Alt+N answer a yes/no question;
//   - Escape or closing the window dismisses; with a draft typed it asks first;
//   - Ctrl+V pastes an image from the clipboard (text still pastes as text),
//     Ctrl+O opens the Attach… picker, and dropped image files are attached.
//
// Countdown: the window shows the seconds left; any edit (typing or changing
// an option) holds it for good, so a user who is answering is never cut off.
// At zero the Answer has ipc.StatusTimeout and no reply.
package dialogs
