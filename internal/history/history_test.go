package history

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode"

	"feedback/ipc/wire"
)

// The project a question is grouped under is its Project (the shim fills it
// from project_directory or the client's roots), else a "Project" context
// line.
func TestGroupsByProject(t *testing.T) {
	loop := wire.Field{Label: "Loop", Value: "L"}
	fromShim := wire.Question{ID: "a", Client: "cursor", Project: "shop", Context: []wire.Field{loop}}
	fromLine := wire.Question{ID: "b", Client: "cursor", Context: []wire.Field{loop, {Label: "Project", Value: "site"}}}
	t0 := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	loops := ByLoop([]Entry{{Question: fromShim, AskedAt: t0}, {Question: fromLine, AskedAt: t0.Add(time.Minute)}})
	if len(loops) != 1 || len(loops[0].Groups) != 2 {
		t.Fatalf("loops = %+v, want one loop with two groups", loops)
	}
	if g := loops[0].Groups; g[0].Project != "shop" || g[1].Project != "site" {
		t.Errorf("groups = %+v, want projects shop (Question.Project) and site (the context line)", g)
	}
}

// Agent-controlled text cannot reach the terminal (or the exported file) as
// an escape: OSC 0, CSI 2J, OSC 52, OSC 8, BEL and C1 controls in the loop
// id, objective, client, project, title, phase, prompt and reply are
// printed as visible text.
func TestMarkdownIsInert(t *testing.T) {
	escapes := []string{
		"\x1b]0;owned\x07",                   // OSC 0: the window title
		"\x1b[2J",                            // CSI 2J: clear the screen
		"\x1b]52;c;cm0gLXJmIH4=\x07",         // OSC 52: write the clipboard
		"\x1b]8;;https://evil.example\x1b\\", // OSC 8: a disguised link
		"\u009b2J\u009d0;t\u009c",            // the same in C1 controls
		"\r\b",
	}
	all := strings.Join(escapes, "")
	at := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	loops := []Loop{{ID: "L" + all, Objective: "O" + all, Groups: []Group{{
		Client: "c" + all, Project: "p" + all,
		Questions: []Question{{ID: "q" + all, Title: "T" + all, Phase: "ph" + all, Iteration: "i" + all, AskedAt: at, Outcome: "answered",
			Prompts: []string{"prompt " + all + "\nline 2"},
			Replies: []wire.Reply{{Selected: []string{"s" + all}, Text: "reply " + all}}}},
	}}}}
	out := Markdown(loops)
	for _, c := range []string{"\x1b", "\x07", "\r", "\b", "\u009b", "\u009d", "\u009c"} {
		if strings.Contains(out, c) {
			t.Errorf("the output holds %q:\n%s", c, out)
		}
	}
	for _, want := range []string{"␛]0;owned␇", "␛[2J", "␛]52;c;cm0gLXJmIH4=␇", "␛]8;;https://evil.example␛\\", `\u009b2J`, "> line 2\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("no visible %q in:\n%s", want, out)
		}
	}
}

// The model is not a command: neither it nor the History window that shows
// it links flag or the command's package (history/historycmd).
func TestModelIsNotACommand(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go tool")
	}
	out, err := exec.Command("go", "list", "-deps", "feedback/internal/history", "feedback/dialogs/historywin").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		if dep == "flag" || dep == "feedback/cmd/feedback/historycmd" {
			t.Errorf("the history model or the History window links %s", dep)
		}
	}
}

// `feedback history --json` is inert too: every control (C0, DEL, C1) and
// every invisible format character (bidi overrides and isolates, zero-width
// characters, the BOM, tag characters) in agent-controlled text is written
// as a \uXXXX escape, so no raw byte of it reaches a terminal or an editor,
// and the JSON decodes to the very same strings.
func TestJSONIsInert(t *testing.T) {
	hostile := "\x1b[2J\x07\x7f\u009b2J\u009d0;t\u009c\u202eevil\u202c\u2066x\u2069\u200b\u200d\ufeff\u00ad\U000E0041"
	at := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	loops := []Loop{{ID: "L" + hostile, Objective: "O" + hostile, Groups: []Group{{
		Client: "c" + hostile, Project: "p" + hostile,
		Questions: []Question{{ID: "q" + hostile, Title: "T" + hostile, AskedAt: at, Outcome: "answered",
			Prompts: []string{"prompt " + hostile + "\nline 2"},
			Replies: []wire.Reply{{Selected: []string{"s" + hostile}, Text: "reply " + hostile}}}},
	}}}}
	var b bytes.Buffer
	if err := WriteJSON(&b, loops); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, r := range out {
		if r != '\n' && (unicode.Is(unicode.Cc, r) || unicode.Is(unicode.Cf, r)) {
			t.Errorf("the JSON holds a raw %U:\n%s", r, out)
		}
	}
	for _, want := range []string{`\u001b[2J\u0007\u007f\u009b2J`, `\u202eevil\u202c\u2066x\u2069\u200b\u200d\ufeff\u00ad\udb40\udc41`} {
		if !strings.Contains(out, want) {
			t.Errorf("no escaped %s in:\n%s", want, out)
		}
	}
	var back struct {
		Loops []Loop `json:"loops"`
	}
	if err := json.Unmarshal(b.Bytes(), &back); err != nil {
		t.Fatalf("the output is not JSON: %v\n%s", err, out)
	}
	if !reflect.DeepEqual(back.Loops, loops) {
		t.Errorf("decoded = %+v\nwant      %+v", back.Loops, loops)
	}
}
