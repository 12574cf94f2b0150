package settingswin

import (
	"os"
	"slices"
	"strings"
	"testing"

	"feedback/dialogs/internal/modal"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// A Save writes what the user changed, never the built-in English
// resubmit_prompt the field showed as "Empty: the built-in text".
func TestSaveLeavesTheBuiltInResubmitPromptOut(t *testing.T) {
	for _, file := range []string{"", `{"timeout_seconds": 5}`} {
		w, path, done, _ := open(t, file, nil)
		if e := entry(t, w, "resubmit_prompt"); e.Text != "" {
			t.Fatalf("the field shows %q, want it empty (the built-in text)", e.Text)
		}
		entry(t, w, "extend_seconds").SetText("120")
		test.Tap(w.save)
		if err := waitSaved(t, done); err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(path)
		if strings.Contains(string(data), "The feedback window could not collect") || !strings.Contains(string(data), `"extend_seconds": 120`) {
			t.Errorf("file %q: saved\n%s", file, data)
		}
	}
}

// With the setting listing no tools (all of them) every box is ticked, so
// an unticked box always means off and ticking one never turns the others
// off; some is a choice made by unticking, and none is refused.
func TestToolsShowTheTruth(t *testing.T) {
	w, _, _, _ := open(t, "", nil)
	g := w.byKey["tools"].input.(*widget.CheckGroup)
	if !slices.Equal(g.Selected, tools) {
		t.Fatalf("ticked %q with every tool offered, want all of %q", g.Selected, tools)
	}
	if s, ok := w.Check(); !ok || s.Tools != nil {
		t.Fatalf("all ticked: Check = %q, %v; want none listed (all tools)", s.Tools, ok)
	}
	g.SetSelected([]string{"interactive_feedback", "ask_user_question"}) // ask_human unticked
	if s, ok := w.Check(); !ok || strings.Join(s.Tools, ",") != "interactive_feedback,ask_user_question" {
		t.Fatalf("one unticked: Check = %q, %v", s.Tools, ok)
	}
	g.SetSelected(nil)
	if _, ok := w.Check(); ok || w.Problem("tools") != "Tick at least one tool." || !w.save.Disabled() {
		t.Fatalf("none ticked: ok %v, beside it %q", ok, w.Problem("tools"))
	}
}

// "Discard your changes?" keeps the edits by default, as the question
// window's dialog does: Keep editing is the primary button and has the
// keyboard; Enter and Escape keep editing; only Discard discards.
func TestDiscardDialogKeepsByDefault(t *testing.T) {
	w, _, _, _ := open(t, `{"timeout_seconds": 5}`, nil)
	c := w.Fyne().Canvas()
	entry(t, w, "timeout_seconds").SetText("50")
	for _, k := range []fyne.KeyName{fyne.KeyReturn, fyne.KeyEscape} {
		w.RequestClose()
		keep, ok := c.Focused().(*modal.Button)
		if !ok || keep.Text != "Keep editing" || keep.Importance != widget.HighImportance {
			t.Fatalf("focused %T, want the primary Keep editing button", c.Focused())
		}
		keep.TypedKey(&fyne.KeyEvent{Name: k})
		if c.Overlays().Top() != nil || !stillOpen(w) || entry(t, w, "timeout_seconds").Text != "50" {
			t.Fatalf("%s did not keep editing", k)
		}
	}
	w.RequestClose()
	test.Tap(w.discard)
	if stillOpen(w) {
		t.Fatal("Discard did not close the window")
	}
}

func stillOpen(w *Window) bool {
	for _, win := range fyne.CurrentApp().Driver().AllWindows() {
		if win == w.Fyne() {
			return true
		}
	}
	return false
}

// Every duration on the pages is in seconds — away_after_minutes too,
// shown and entered in seconds (whole minutes) — so "(s)" and "(min)" are
// never mixed.
func TestDurationsAreAllInSeconds(t *testing.T) {
	w, _, _, _ := open(t, `{"away_after_minutes": 10}`, nil)
	for _, f := range w.fields {
		if strings.Contains(f.name, "(min)") {
			t.Errorf("%s is in minutes", f.name)
		}
	}
	e := entry(t, w, "away_after_minutes")
	if e.Text != "600" || w.byKey["away_after_minutes"].name != "Away after (s)" {
		t.Fatalf("away after shows %q as %q, want 600 (s)", e.Text, w.byKey["away_after_minutes"].name)
	}
	e.SetText("120")
	if s, ok := w.Check(); !ok || s.AwayAfterMinutes != 2 {
		t.Fatalf("120 s: %d min, ok %v", s.AwayAfterMinutes, ok)
	}
	e.SetText("90")
	if _, ok := w.Check(); ok || !strings.Contains(w.Problem("away_after_minutes"), "whole minutes") {
		t.Fatalf("90 s accepted (%q)", w.Problem("away_after_minutes"))
	}
}

// Escape closes Settings, as it closes History, the questions and the note
// window, whatever has the keyboard — an entry, a checkbox, a drop-down,
// nothing; with unsaved changes it asks first.
func TestEscapeClosesSettings(t *testing.T) {
	for _, key := range []string{"timeout_seconds", "quick_replies", "sound", "language", ""} {
		w, _, _, _ := open(t, "", nil)
		c := w.Fyne().Canvas()
		if key != "" {
			c.Focus(w.byKey[key].input.(fyne.Focusable))
		}
		esc := &fyne.KeyEvent{Name: fyne.KeyEscape}
		if f := c.Focused(); f != nil {
			f.TypedKey(esc)
		} else {
			c.OnTypedKey()(esc)
		}
		if stillOpen(w) {
			t.Errorf("Escape with %q focused left Settings open", key)
		}
	}
	w, _, _, _ := open(t, "", nil)
	entry(t, w, "timeout_seconds").SetText("50")
	w.Fyne().Canvas().Focus(w.byKey["timeout_seconds"].input.(fyne.Focusable))
	w.Fyne().Canvas().Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if !stillOpen(w) || w.discard == nil {
		t.Error("Escape with a change closed Settings without asking")
	}
}
