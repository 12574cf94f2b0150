package e2e

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// The user's note for an agent: written in the note window that the tray's
// "Note for an agent…" opens, kept across a restart of the app, delivered
// once with the next interactive_feedback result of its client (after the
// answer, marked as not an answer, and in structuredContent), never with
// another client's result, and not again.
func TestNoteForAnAgent(t *testing.T) {
	requireSession(t)
	openScreen(t).waitForWindowManager(t)
	db := filepath.Join(t.TempDir(), "feedback.db")
	logPath := startApp(t, "FEEDBACK_DB="+db)
	agent, other := newMCP(t, "note-agent"), newMCP(t, "other-agent")

	// A first question makes the client known: the window preselects it.
	answerFeedback(t, agent, "NoteFirst", "first answer")

	tray := openTray(t)
	ids := tray.labels(t)
	id, ok := ids["Note for an agent…"]
	if !ok {
		t.Fatalf("tray menu %v lacks Note for an agent…", ids)
	}
	tray.click(t, id)
	win := findWindow(t, "Note for an agent")
	activate(t, win)
	note := "Use the staging database from now on."
	typeText(t, note)
	screenshot(t, "note-window")
	key(t, "ctrl+Return")
	windowGone(t, "Note for an agent", 5*time.Second)
	waitStore(t, db, "the note", noteKept(note))

	stopApp()
	launchApp(t, logPath, "FEEDBACK_DB="+db)

	r := answerFeedback(t, other, "NoteOther", "other answer")
	if strings.Contains(text(r), "Note from the user") {
		t.Errorf("another client's result carries the note:\n%s", text(r))
	}
	r = answerFeedback(t, agent, "NoteSecond", "second answer")
	last, _ := r.Content[len(r.Content)-1].(mcp.TextContent)
	if want := "Note from the user (sent on their own, not an answer to this question): " + note; last.Text != want {
		t.Errorf("the last block of the next result = %q, want %q", last.Text, want)
	}
	if first, _ := r.Content[0].(mcp.TextContent); first.Text != "User reply:\nsecond answer" {
		t.Errorf("the answer's block = %q", first.Text)
	}
	if sc := structured(t, r); !sameJSON(sc["user_notes"], []any{note}) {
		t.Errorf("structuredContent user_notes = %v", sc["user_notes"])
	}
	r = answerFeedback(t, agent, "NoteThird", "third answer")
	if strings.Contains(text(r), "Note from the user") || structured(t, r)["user_notes"] != nil {
		t.Errorf("the note came again:\n%s", text(r))
	}
}

// answerFeedback asks interactive_feedback titled title through c, answers
// it with reply in its window and returns the result.
func answerFeedback(t *testing.T, c *client.Client, title, reply string) *mcp.CallToolResult {
	t.Helper()
	res := call(c, "interactive_feedback", map[string]any{"message": "Question " + title, "header_label": title})
	win := findWindow(t, title+" — feedback")
	activate(t, win)
	typeText(t, reply)
	key(t, "ctrl+Return")
	r := await(t, res)
	if r.IsError {
		t.Fatalf("%s: isError: %s", title, text(r))
	}
	windowGone(t, title+" — feedback", 5*time.Second)
	return r
}

// The note window in Simplified Chinese (the language setting): the tray
// entry and the window's words are translated. A screenshot to look at.
func TestNoteWindowInChinese(t *testing.T) {
	requireSession(t)
	openScreen(t).waitForWindowManager(t)
	startApp(t, "FEEDBACK_DB="+filepath.Join(t.TempDir(), "feedback.db"), writeSettings(t, `{"language": "zh-Hans"}`))
	tray := openTray(t)
	ids := tray.labels(t)
	id, ok := ids["给智能体留言…"]
	if !ok {
		t.Fatalf("tray menu %v lacks 给智能体留言…", ids)
	}
	tray.click(t, id)
	win := findWindow(t, "给智能体留言")
	activate(t, win)
	typeText(t, "先跑测试")
	screenshot(t, "note-window-zh-Hans")
	// The window manager closes it, as its close button. xdotool types
	// Chinese by remapping a spare keycode for each character, and a key
	// pressed right after the last one was now and then lost on the way:
	// the user's Alt+F4 again, as a user would press it again.
	for try := 0; ; try++ {
		key(t, "alt+F4")
		gone := false
		for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			if visibleWindows("给智能体留言") == 0 {
				gone = true
				break
			}
		}
		if gone {
			return
		}
		if try == 2 {
			t.Fatal("Alt+F4, three times, did not close the note window")
		}
		activate(t, win)
	}
}

// A note for "feedback ask" (preselected: the shell asked last) comes on
// the next `feedback ask`'s stderr, apart from the answer on stdout.
func TestNoteForFeedbackAsk(t *testing.T) {
	requireSession(t)
	openScreen(t).waitForWindowManager(t)
	db := filepath.Join(t.TempDir(), "feedback.db")
	startApp(t, "FEEDBACK_DB="+db)
	askOnce := func(title, reply string) *askRun {
		t.Helper()
		r := startAsk(t, "--title", title, "Question "+title)
		activate(t, findWindow(t, title+" — feedback"))
		typeText(t, reply)
		key(t, "ctrl+Return")
		if code := r.wait(t); code != 0 || r.stdout.String() != reply+"\n" {
			t.Fatalf("%s: exit %d, stdout %q, stderr %q", title, code, r.stdout.String(), r.stderr.String())
		}
		return r
	}
	askOnce("AskNoteFirst", "one")

	tray := openTray(t)
	tray.click(t, tray.labels(t)["Note for an agent…"])
	activate(t, findWindow(t, "Note for an agent"))
	typeText(t, "The build is green now.")
	key(t, "ctrl+Return")
	windowGone(t, "Note for an agent", 5*time.Second)
	waitStore(t, db, "the note", noteKept("The build is green now."))

	r := askOnce("AskNoteSecond", "two")
	if want := "feedback ask: a note from the user, not an answer to this question: The build is green now.\n"; r.stderr.String() != want {
		t.Errorf("stderr %q, want %q", r.stderr.String(), want)
	}
	if r := askOnce("AskNoteThird", "three"); r.stderr.Len() != 0 {
		t.Errorf("the note came again: stderr %q", r.stderr.String())
	}
}
