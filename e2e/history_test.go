package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	fbhistory "feedback/internal/history"
)

// What the running app keeps is read back: `feedback history --json` beside
// it lists the question asked through a real shim, grouped by its loop,
// client and project, with its outcome and the reply; the History window
// opened from the tray shows it (screenshot history-window).
func TestHistoryReadsBack(t *testing.T) {
	requireSession(t)
	openScreen(t).waitForWindowManager(t)
	db := filepath.Join(t.TempDir(), "feedback.db")
	startApp(t, "FEEDBACK_DB="+db)
	shim := newMCP(t, "claude-code", "FEEDBACK_DB="+db)
	res := call(shim, "interactive_feedback", map[string]any{
		"message": "Rebase or merge?", "header_label": "HistoryBack", "project_directory": "/home/u/shop",
		"predefined_options": []any{"Rebase", "Merge"}, "loop_id": "L7", "loop_phase": "review", "loop_objective": "Ship v2"})
	activate(t, findWindow(t, "HistoryBack — feedback"))
	typeText(t, "rebase, keep it linear")
	key(t, "ctrl+Return")
	await(t, res)

	doc, out := readHistory(t, db)
	var found *fbhistory.Question
	var group fbhistory.Group
	var loop fbhistory.Loop
	for _, l := range doc.Loops {
		for _, g := range l.Groups {
			for i, q := range g.Questions {
				if q.Title == "HistoryBack" {
					found, group, loop = &g.Questions[i], g, l
				}
			}
		}
	}
	if found == nil {
		t.Fatalf("the question is not in feedback history:\n%s", out)
	}
	if found.Outcome != "answered" || len(found.Replies) != 1 || found.Replies[0].Text != "rebase, keep it linear" {
		t.Errorf("question = %+v, want answered with the reply", *found)
	}
	if group.Client != "claude-code" || group.Project != "shop" {
		t.Errorf("group = %s / %s, want claude-code / shop", group.Client, group.Project)
	}
	if loop.ID != "L7" || loop.Objective != "Ship v2" || found.Phase != "review" {
		t.Errorf("loop %q (%q), phase %q; want L7 (Ship v2), review", loop.ID, loop.Objective, found.Phase)
	}

	tray := openTray(t)
	tray.click(t, tray.labels(t)["History…"])
	hw := findWindow(t, "feedback history")
	activate(t, hw)
	waitListed(t, hw)
	screenshot(t, "history-window")
	key(t, "alt+F4")
	windowGone(t, "feedback history", 5*time.Second)
}

// readHistory runs `feedback history --json` on the database db and
// returns what it printed, decoded and as it came.
func readHistory(t *testing.T, db string) (doc struct {
	Loops []fbhistory.Loop `json:"loops"`
}, out []byte) {
	t.Helper()
	cmd := exec.Command(bin, "history", "--json")
	cmd.Env = append(cmd.Environ(), "FEEDBACK_DB="+db)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("feedback history: %v", err)
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return doc, out
}

// historyOf lists the asks titled title in doc, oldest first.
func historyOf(doc []fbhistory.Loop, title string) []fbhistory.Question {
	var qs []fbhistory.Question
	for _, l := range doc {
		for _, g := range l.Groups {
			for _, q := range g.Questions {
				if q.Title == title {
					qs = append(qs, q)
				}
			}
		}
	}
	return qs
}

// The same question asked twice through a real shim (the same question_id)
// and answered differently is listed twice by `feedback history --json`,
// each ask with its full answer: the first (two options and a reply) is
// not overwritten by the second. An ask_confirm whose recommended No was
// taken with Enter is recorded as no, as the agent received it.
func TestHistoryKeepsEveryAsk(t *testing.T) {
	requireSession(t)
	openScreen(t).waitForWindowManager(t)
	db := filepath.Join(t.TempDir(), "feedback.db")
	startApp(t, "FEEDBACK_DB="+db)
	shim := newMCP(t, "claude-code", "FEEDBACK_DB="+db)
	args := map[string]any{"message": "Which steps?", "header_label": "EveryAsk", "predefined_options": []any{"Step one", "Step two", "Step three"}}
	ids := map[string]bool{}
	for _, answer := range []struct {
		keys []string
		text string
	}{{[]string{"alt+1", "alt+2"}, "the first answer"}, {[]string{"alt+3"}, "the second answer"}} {
		res := call(shim, "interactive_feedback", args)
		activate(t, findWindow(t, "EveryAsk — feedback"))
		for _, k := range answer.keys {
			key(t, k)
		}
		typeText(t, answer.text)
		key(t, "ctrl+Return")
		if m, ok := await(t, res).StructuredContent.(map[string]any); ok {
			ids[fmt.Sprint(m["question_id"])] = true
		}
		windowGone(t, "EveryAsk — feedback", 5*time.Second)
	}
	if len(ids) != 1 {
		t.Fatalf("question ids %v, want the same id both times (the case this test is about)", ids)
	}
	for _, k := range []string{"alt+y", "Return"} {
		res := call(shim, "ask_confirm", map[string]any{"question": "EveryConfirm?", "default": false})
		activate(t, findWindow(t, "EveryConfirm? — feedback"))
		key(t, k)
		await(t, res)
		windowGone(t, "EveryConfirm? — feedback", 5*time.Second)
	}

	doc, out := readHistory(t, db)
	asks := historyOf(doc.Loops, "EveryAsk")
	if len(asks) != 2 {
		t.Fatalf("%d asks of EveryAsk listed, want 2:\n%s", len(asks), out)
	}
	want := [][]string{{"Step one", "Step two"}, {"Step three"}}
	for i, text := range []string{"the first answer", "the second answer"} {
		q := asks[i]
		if q.Outcome != "answered" || len(q.Replies) != 1 || q.Replies[0].Text != text ||
			strings.Join(q.Replies[0].Selected, ",") != strings.Join(want[i], ",") {
			t.Errorf("ask %d = %+v, want answered %v and %q", i+1, q, want[i], text)
		}
	}
	if asks[0].Record == asks[1].Record {
		t.Errorf("both asks are record %q", asks[0].Record)
	}
	confirms := historyOf(doc.Loops, "EveryConfirm?")
	if len(confirms) != 2 || confirms[0].Replies[0].Text != "yes" || confirms[1].Replies[0].Text != "no" {
		t.Fatalf("ask_confirm asks = %+v, want yes then no:\n%s", confirms, out)
	}
}

// waitListed waits until the History window's list (its left third, below
// the search box) draws something: the rows read off the Fyne goroutine.
func waitListed(t *testing.T, win string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		out, err := exec.Command("import", "-window", win, "png:-").Output()
		if err == nil {
			if img, err := png.Decode(bytes.NewReader(out)); err == nil {
				b := img.Bounds()
				bg := img.At(b.Min.X+b.Dx()/6, b.Max.Y-b.Dy()/4) // the list's empty lower part
				for y := b.Min.Y + 60; y < b.Min.Y+160 && y < b.Max.Y; y++ {
					for x := b.Min.X + 10; x < b.Min.X+b.Dx()/3; x++ {
						if img.At(x, y) != bg {
							return
						}
					}
				}
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("the History window listed nothing within 10 s")
		}
	}
}

// windowShot saves window win alone as artifact name once it has been
// painted (a window captured before its first frame is black).
func windowShot(t *testing.T, win, name string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		out, err := exec.Command("import", "-window", win, "png:-").Output()
		if err == nil {
			if img, err := png.Decode(bytes.NewReader(out)); err == nil && painted(img) {
				path := filepath.Join(artifacts, name+".png")
				if err := os.WriteFile(path, out, 0o644); err != nil {
					t.Error(err)
				}
				t.Logf("screenshot: %s", path)
				return
			}
		}
		if time.Now().After(deadline) {
			t.Errorf("window %s was not painted within 10 s", win)
			return
		}
	}
}

// painted reports whether img has anything but black.
func painted(img image.Image) bool {
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 7 {
		for x := b.Min.X; x < b.Max.X; x += 7 {
			if r, g, bl, _ := img.At(x, y).RGBA(); r|g|bl > 0x0f00 {
				return true
			}
		}
	}
	return false
}
