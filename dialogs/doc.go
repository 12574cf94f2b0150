// Package dialogs is the question window: it takes a wire.Question,
// shows it (Markdown rendered by package markdown, options,
// a reply box and a countdown) and reports exactly one wire.Answer through a
// callback. Its only I/O is reading the question's local images, off the
// Fyne goroutine, so every behaviour can be driven by fyne.io/fyne/v2/test.
//
// Keyboard contract (the README documents it; tests rely on it):
//   - the reply box has focus when the window opens; without one, the
//     first option (checkbox or radio button); the focused control has a
//     ring (focusring.go);
//   - Ctrl+Enter submits;
//   - Alt+1 … Alt+9 toggle options 1–9 (numbered through the window); in
//     a one-choice prompt (wire.Prompt.Single, radio.go) they choose, and
//     the choice replaces the prompt's other;
//   - Alt+Y / Alt+N answer a yes/no question;
//   - Escape or closing the window dismisses; with a draft typed it asks first;
//   - Space or Enter presses the focused button;
//   - Ctrl+V pastes an image from the clipboard (text still pastes as text),
//     Ctrl+O opens the Attach… picker, and dropped image files are attached;
//   - Alt+T is the "+ time" button, Alt+P the pin (see Countdown);
//   - the input guard (keyguard.go; its state and rules are a plain type,
//     guard.go): these keys act only if they went down in this window, and
//     not in the first Options.InputGuard (600 ms) after it took the focus;
//     typed text is never lost.
//
// On macOS Cmd takes Ctrl's place (Cmd+Enter, Cmd+V, Cmd+O) and the Option
// key is Alt; keys.go holds the choice and the names the hint line shows.
//
// Countdown (countdown.go, a plain type; view_countdown.go draws it): the
// window shows the time left; any edit (typing, changing an
// option, attaching) holds it for good, so a user who is answering is never
// cut off. Beside it, "+ time" adds Options.Extend (the extend_seconds
// setting, 5 minutes by default) and the pin removes the deadline for a
// decision that must not lapse ("Pinned · no time limit"; pressed again it
// resumes with the time that was left). Neither is an edit, and both are
// disabled once an edit holds the countdown. Hovering over either shows
// what it does, and its key, in the hint line. In the last minute it turns
// to the warning colour and says "closes soon". At zero the window does not
// vanish: for ClosingFor (1.5 s) it reads "Time is up — closing", its
// controls disabled and the hint line saying what the agent is told, and
// nothing pressed then is an answer. Then the Answer has
// wire.StatusTimeout and no reply; with Options.SubmitDraftOnTimeout a
// draft holding something of the user's (text, an image, options other than
// the recommended ones) is submitted instead, with wire.Answer.Auto set. An
// empty draft never is: the agent gets no fabricated answer. (As edits hold
// the countdown, that draft is one restored from before a restart, and only
// with the setting on does a restored draft let the countdown run.)
// Options.Countdown starts a window with the countdown another window of
// the question had (a restart of the UI process), and Options.OnCountdown
// hears each change of it (wire.Countdown).
//
// Question content is hostile, and nothing in it may stall the Fyne
// goroutine, which draws every window:
//   - Markdown images (package markdown): data: URIs and local files only,
//     never fetched from the network. A file is read only when, its links
//     resolved, it lies inside the user's home directory with no hidden
//     element (~/.ssh, ~/.config… are never read), is a regular file (no
//     FIFO, device or /proc entry) of at most 16 MiB, checked before and
//     after a non-blocking open. Reading and decoding run off the Fyne
//     goroutine (two workers app-wide, 10 s each); the window shows a
//     placeholder, then the image, scaled down to the width and aligned
//     with the text, or the alt text with the reason. 16 images per
//     question; the others show as their alt text.
//   - Text (package markdown): paragraphs and headings wrap in time linear
//     in their length (fyne's RichText wrapping is quadratic); a message
//     longer than 48 KiB shows its first part and a "Show all" button that
//     adds the rest a part per turn of the event loop. The reply box stops
//     wrapping while a line is longer than 1,000 characters (reply_wrap.go).
//
// Drafts: with Options.OnDraft the view reports the whole draft (replies
// and images) when the user pauses typing (Options.DraftDelay, 300 ms), at
// least once a second while they keep typing (when is decided by a plain
// type, debounce.go), and when it closes without an answer; RestoreDraft puts a stored draft back without counting as an
// edit, holding the countdown as the typing did.
//
// Layout (layout.go): the window opens as tall as its question needs,
// within the screen's work area. One prompt: its options sit in a pane
// under the message (splitLayout), so a long message never hides them.
// Several: each message is cut to what leaves its prompt's options in view
// with the prompt's header at the top of the page ("Show all" shows the
// rest); the wheel always scrolls the page. What the keyboard moves to, or
// types into, is scrolled into view; the focus given on opening is not.
//
// What is sent (sending.go, pager.go): a line by Submit says what it
// sends, and warns of a recommended option still ticked beside the user's
// pick; with several prompts a pager moves between them, and Submit goes
// to a prompt never seen and unanswered instead of declining it.
//
// State apart from the widgets: the countdown (countdown.go), the draft's
// debouncer (debounce.go) and the input guard (guard.go) are plain types
// that import no toolkit, read no clock and are tested on their own
// (TestStateIsToolkitFree); the View holds them, feeds them the user's
// edits and keys with the time, and draws what they say.
//
// Windows come from a Pool and go back to it: a closed question's window is
// hidden and reused; only one hidden for long is ever closed (see Pool).
package dialogs
