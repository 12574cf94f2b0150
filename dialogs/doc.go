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
//     Ctrl+O opens the Attach… picker, and dropped image files are attached;
//   - Alt+T is the "+ time" button, Alt+P the pin (see Countdown);
//   - the input guard (keyguard.go): these keys act only if they went down
//     in this window, and not in the first Options.InputGuard (600 ms)
//     after it took the focus; typed text is never lost.
//
// Countdown: the window shows the time left; any edit (typing, changing an
// option, attaching) holds it for good, so a user who is answering is never
// cut off. Beside it, "+ time" adds Options.Extend (the extend_seconds
// setting, 5 minutes by default) and the pin removes the deadline for a
// decision that must not lapse ("Pinned · no time limit"; pressed again it
// resumes with the time that was left). Neither is an edit, and both are
// disabled once an edit holds the countdown. Hovering over either shows
// what it does, and its key, in the hint line. At zero the Answer has
// ipc.StatusTimeout and no reply; with Options.SubmitDraftOnTimeout a
// draft holding something of the user's (text, an image, options other than
// the recommended ones) is submitted instead, with ipc.Answer.Auto set. An
// empty draft never is: the agent gets no fabricated answer. (As edits hold
// the countdown, that draft is one restored from before a restart, and only
// with the setting on does a restored draft let the countdown run.)
//
// Drafts: with Options.OnDraft the view reports the whole draft (replies
// and images) when the user pauses typing (Options.DraftDelay, 300 ms), at
// least once a second while they keep typing, and when it closes without
// an answer; RestoreDraft puts a stored draft back without counting as an
// edit, holding the countdown as the typing did.
//
// Windows come from a Pool and go back to it: a closed question's window is
// hidden and reused, never destroyed while the app runs (see Pool).
package dialogs
