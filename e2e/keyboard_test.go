package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A question gets the keyboard only when the user brings it: however long
// they paused, the keys they go on typing stay where they type; after an
// answer the keyboard goes back to where they came from, never on to the
// next question; a key already down never acts. The user is played as
// people type: a command, a pause to think, more keys, Return.

// terminal is an xterm running `cat > file`: what the user types in it
// lands in file, line by line.
type terminal struct {
	id   string
	file string
}

// openTerminal starts an xterm titled title; it goes with the test.
func openTerminal(t *testing.T, title string) *terminal {
	t.Helper()
	if _, err := exec.LookPath("xterm"); err != nil {
		t.Skip("no xterm (scripts/deps.sh test installs it)")
	}
	file := filepath.Join(t.TempDir(), "typed.txt")
	cmd := exec.Command("xterm", "-T", title, "-geometry", "90x20+10+10", "-e", "sh", "-c", `exec cat > "$0"`, file)
	cmd.Env = append(os.Environ(), "LC_ALL=C.UTF-8")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return &terminal{id: findWindow(t, title), file: file}
}

// typed is what the terminal received as whole lines.
func (term *terminal) typed() string {
	b, _ := os.ReadFile(term.file)
	return string(b)
}

// hasLine waits until the terminal received line.
func (term *terminal) hasLine(t *testing.T, line string) {
	t.Helper()
	waitFor(t, "the terminal to receive "+line, 10*time.Second, func() bool {
		return strings.Contains(term.typed(), line+"\n")
	})
}

// thinkingPause is how long the user stops to think: longer than the 3 s
// of idle time after which a question used to take the keyboard.
const thinkingPause = 3600 * time.Millisecond

// The runs: the user types a command in a terminal, pauses, an
// ask_confirm "Deploy to production now?" (yes recommended) or an ask_text
// arrives, and a second later the user goes on with " ls -la" and Return.
// The keys go to the terminal, the question waits, asking for attention;
// the user then clicks it and answers, and the keyboard goes back to the
// terminal.
func TestKeysTypedAfterAPauseStayInTheTerminal(t *testing.T) {
	requireSession(t)
	ensureApp(t)
	c := newMCP(t, "pause-then-type")
	term := openTerminal(t, "Terminal of the user")
	for i, tc := range []struct {
		tool, title string
		args        map[string]any
		answer      func()
		want        map[string]any
	}{
		{"ask_confirm", "Deploy to production now?", map[string]any{"default": true},
			func() { key(t, "alt+n") }, map[string]any{"status": "answered", "answer": "no", "confirmed": false}},
		{"ask_text", "What should the new branch be called?", nil,
			func() { typeText(t, "feature/x"); key(t, "ctrl+Return") }, map[string]any{"status": "answered", "answer": "feature/x"}},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			activate(t, term.id)
			cmd := []string{"git status", "make test"}[i]
			typeText(t, cmd)
			time.Sleep(thinkingPause) // the user thinks
			args := map[string]any{"question": tc.title}
			for k, v := range tc.args {
				args[k] = v
			}
			res := call(c, tc.tool, args)
			q := findWindow(t, tc.title+" — feedback")
			time.Sleep(time.Second) // the user goes on, a second after the window appeared
			typeText(t, " ls -la")
			key(t, "Return")
			term.hasLine(t, cmd+" ls -la")
			screenshot(t, shotName(t, "typed-on"))
			if got := strings.TrimSpace(xdotool(t, "getactivewindow")); got != term.id {
				t.Errorf("the active window is %s, want the terminal %s", got, term.id)
			}
			if !above(t, q, term.id) { // on top, without the keyboard
				t.Errorf("the question is not above the terminal: %v", stacking(t))
			}
			hints := wmHints(t, q)
			if !strings.Contains(hints, "urgency hint") && !strings.Contains(hints, "_NET_WM_STATE_DEMANDS_ATTENTION") {
				t.Errorf("the question asks for no attention:\n%s", hints)
			}
			stillWaiting(t, tc.title, res, 1500*time.Millisecond)

			activate(t, q) // the user clicks the question
			tc.answer()
			wantChoice(t, await(t, res), tc.want)
			activeIs(t, term.id) // and is back in the terminal
		})
	}
}

// The same while the user writes in a question window: a second question
// arriving after a pause leaves the keyboard in the first, whose reply
// gets every word; the second waits with an empty reply. Answered, the
// first gives the keyboard back to the terminal the user came from, not to
// the second; the global shortcut brings the second.
func TestQuestionArrivingWhileWritingInAnother(t *testing.T) {
	requireSession(t)
	ensureApp(t)
	c := newMCP(t, "writing")
	term := openTerminal(t, "Terminal of the writer")
	activate(t, term.id)
	first, second := "Describe the failing test", "Which port should the dev server use?"
	r1 := call(c, "ask_text", map[string]any{"question": first})
	w1 := findWindow(t, first+" — feedback")
	activate(t, w1)
	typeText(t, "it times out")
	time.Sleep(thinkingPause)
	r2 := call(c, "ask_text", map[string]any{"question": second})
	w2 := findWindow(t, second+" — feedback")
	time.Sleep(time.Second)
	typeText(t, " on CI")
	screenshot(t, "keyboard-writing-second-arrived")
	key(t, "ctrl+Return")
	wantChoice(t, await(t, r1), map[string]any{"status": "answered", "answer": "it times out on CI"})
	activeIs(t, term.id)
	stillWaiting(t, second, r2, time.Second)

	key(t, "ctrl+alt+f") // the global shortcut, from the terminal
	activeIs(t, w2)
	time.Sleep(guardSettles)
	typeText(t, "8080")
	key(t, "ctrl+Return")
	wantChoice(t, await(t, r2), map[string]any{"status": "answered", "answer": "8080"})
	activeIs(t, term.id)
}

// Two questions at once: Return answers the one the user came to; the
// keyboard goes back to the terminal, and a Return 1.4 s later lands
// there, not in the second question.
func TestTwoQuestionsAtOnceOneReturnEach(t *testing.T) {
	requireSession(t)
	ensureApp(t)
	c := newMCP(t, "two-at-once")
	term := openTerminal(t, "Terminal of the deployer")
	activate(t, term.id)
	a, b := "Deploy the web tier now?", "Deploy the database tier now?"
	ra := call(c, "ask_confirm", map[string]any{"question": a, "default": true})
	rb := call(c, "ask_confirm", map[string]any{"question": b, "default": true})
	wa := findWindow(t, a+" — feedback")
	findWindow(t, b+" — feedback")
	screenshot(t, "keyboard-two-at-once")
	if got := strings.TrimSpace(xdotool(t, "getactivewindow")); got != term.id {
		t.Fatalf("with two questions open the active window is %s, want the terminal", got)
	}
	activate(t, wa)
	time.Sleep(guardSettles)
	key(t, "Return")
	wantChoice(t, await(t, ra), map[string]any{"status": "answered", "answer": "yes", "confirmed": true})
	time.Sleep(1400 * time.Millisecond)
	typeText(t, "echo done")
	key(t, "Return")
	term.hasLine(t, "echo done")
	stillWaiting(t, b, rb, 1500*time.Millisecond)
}

// A key already down when a window gets the keyboard never acts on it:
// Return held in the terminal while the shortcut brings a yes/no question
// (the X server repeats it, and the window's first repeat reads as a press)
// answers nothing; released and pressed again, it answers.
func TestKeyHeldWhileTheQuestionComesNeverActs(t *testing.T) {
	requireSession(t)
	ensureApp(t)
	c := newMCP(t, "held")
	term := openTerminal(t, "Terminal with a held key")
	activate(t, term.id)
	title := "Drop the staging database?"
	res := call(c, "ask_confirm", map[string]any{"question": title, "default": true})
	w := findWindow(t, title+" — feedback")
	xdotool(t, "keydown", "Return")
	t.Cleanup(func() { xdo("keyup", "Return").Run() })
	key(t, "ctrl+alt+f")
	activeIs(t, w)
	time.Sleep(time.Second) // the server repeats the held Return into the window
	stillWaiting(t, title, res, 500*time.Millisecond)
	xdotool(t, "keyup", "Return")
	stillWaiting(t, title, res, 500*time.Millisecond)
	key(t, "Return")
	wantChoice(t, await(t, res), map[string]any{"status": "answered", "answer": "yes", "confirmed": true})
}

// The guard does not turn on the user: a 300-line question, brought with a
// click, typed into at once and sent with Ctrl+Enter right after the words
// (within the guard's 600 ms by the app's clock), is answered with every
// word, and no key is called ignored.
func TestTypingAtOnceIntoABroughtQuestionIsAnswered(t *testing.T) {
	requireSession(t)
	startApp(t, "FEEDBACK_INPUT_GUARD_MS="+guardMS)
	c := newMCP(t, "heavy")
	term := openTerminal(t, "Terminal of the reviewer")
	activate(t, term.id)
	var msg strings.Builder
	msg.WriteString("Review the plan below, then say what to change.\n\n")
	for i := range 300 {
		msg.WriteString("- step " + strings.Repeat("x", i%40) + " of the migration\n")
	}
	title := "Plan review"
	res := call(c, "interactive_feedback", map[string]any{"message": msg.String(), "header_label": title})
	w := findWindow(t, title+" — feedback")
	time.Sleep(500 * time.Millisecond)        // the user sees it and moves to it
	xdotool(t, "windowactivate", "--sync", w) // the click, and at once:
	activeIs(t, w)
	typeText(t, "ship it")
	key(t, "ctrl+Return")
	r := await(t, res)
	if got := text(r); !strings.Contains(got, "ship it") {
		t.Errorf("the answer %q lacks the words typed", got)
	}
}
