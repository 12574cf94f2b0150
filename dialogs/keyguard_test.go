package dialogs

import (
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"feedback/ipc/wire"
)

// guardedView is a view with the input guard on, as in a Window.
func guardedView(t *testing.T, q wire.Question) (*View, *recorder, *clock) {
	t.Helper()
	v, r, c := newTestView(t, q, Options{})
	v.enableGuard()
	return v, r, c
}

// press is a key going down then its shortcut, as Fyne delivers a
// Ctrl+Return the user typed: Ctrl down, Return down, the shortcut.
func press(v *View, s *desktop.CustomShortcut) {
	if s.Modifier&fyne.KeyModifierControl != 0 {
		v.keyDown(&fyne.KeyEvent{Name: desktop.KeyControlLeft})
	}
	if s.Modifier&fyne.KeyModifierAlt != 0 {
		v.keyDown(&fyne.KeyEvent{Name: desktop.KeyAltLeft})
	}
	v.keyDown(&fyne.KeyEvent{Name: s.KeyName})
	v.shortcut(s)
}

// release lets go of every key.
func release(v *View, s *desktop.CustomShortcut) {
	v.keyUp(&fyne.KeyEvent{Name: s.KeyName})
	v.keyUp(&fyne.KeyEvent{Name: desktop.KeyControlLeft})
	v.keyUp(&fyne.KeyEvent{Name: desktop.KeyAltLeft})
}

func TestGuardIgnoresSubmitRightAfterFocus(t *testing.T) {
	v, r, c := guardedView(t, question(wire.Prompt{Markdown: "?"}))
	press(v, ctrlEnter)
	release(v, ctrlEnter)
	if len(r.answers) != 0 {
		t.Fatal("a Ctrl+Enter within the guard submitted")
	}
	if text, _ := v.hintSegmentText(); text != guardCue() {
		t.Errorf("hint = %q, want the cue", text)
	}
	c.now = c.now.Add(DefaultInputGuard)
	v.prompts[0].entry.TypedRune('x')
	press(v, ctrlEnter)
	if a := r.only(t); a.Status != wire.StatusAnswered || a.Replies[0].Text != "x" {
		t.Errorf("answer = %+v", a)
	}
}

// The guard does not turn on the user at work in the window: once their
// typing put text in the reply, the keys after it act, even "within" the
// guard by the toolkit's clock, which reads the keys late when the window
// was busy as they came to it (a heavy question: the words typed after the
// click and the Ctrl+Enter after them read in one burst). The keys typed
// are kept; a key pressed before the words stays refused until released.
func TestGuardEndsWhenTheUserWritesInTheWindow(t *testing.T) {
	v, r, c := guardedView(t, question(wire.Prompt{Markdown: "?"}))
	e := v.prompts[0].entry
	c.now = c.now.Add(50 * time.Millisecond)
	for _, ch := range "ship it" {
		v.keyDown(&fyne.KeyEvent{Name: fyne.KeyName(string(ch))})
		e.TypedRune(ch)
		v.keyUp(&fyne.KeyEvent{Name: fyne.KeyName(string(ch))})
	}
	press(v, ctrlEnter)
	if a := r.only(t); a.Status != wire.StatusAnswered || a.Replies[0].Text != "ship it" {
		t.Errorf("answer = %+v", a)
	}
	if text, _ := v.hintSegmentText(); text == guardCue() {
		t.Error("the hint says a key was ignored")
	}

	// Ctrl went down before the words: it is no Ctrl of this window's.
	v, r, c = guardedView(t, question(wire.Prompt{Markdown: "?"}))
	v.keyDown(&fyne.KeyEvent{Name: desktop.KeyControlLeft})
	c.now = c.now.Add(50 * time.Millisecond)
	v.prompts[0].entry.TypedRune('y')
	v.keyDown(&fyne.KeyEvent{Name: fyne.KeyReturn})
	v.shortcut(ctrlEnter)
	if len(r.answers) != 0 {
		t.Errorf("a Ctrl held from before the words submitted: %+v", r.answers)
	}
}

// A key held since before the window took the focus (the X server
// repeating Ctrl+Return that nobody released) never answers: its shortcut
// arrives with no Ctrl press seen in the window, and the repeated Return
// went down during the guard.
func TestGuardRefusesKeysHeldFromBefore(t *testing.T) {
	v, r, c := guardedView(t, question(wire.Prompt{Markdown: "?"}))
	repeat := func() {
		v.keyDown(&fyne.KeyEvent{Name: fyne.KeyReturn}) // GLFW reports the first repeat as a press
		v.shortcut(ctrlEnter)
	}
	repeat()
	for range 50 {
		c.now = c.now.Add(40 * time.Millisecond)
		repeat()
	}
	if len(r.answers) != 0 {
		t.Fatalf("a held key answered: %+v", r.answers)
	}
	// Released, then pressed by the user: it counts.
	release(v, ctrlEnter)
	press(v, ctrlEnter)
	if len(r.answers) != 1 {
		t.Fatal("the user's own Ctrl+Enter did not submit")
	}
}

// A Return pressed by the user while Ctrl was held from before the window
// took the focus is no Ctrl+Return of this window.
func TestGuardNeedsTheModifierPressedHere(t *testing.T) {
	v, r, c := guardedView(t, question(wire.Prompt{Markdown: "?"}))
	c.now = c.now.Add(time.Second)
	v.keyDown(&fyne.KeyEvent{Name: fyne.KeyReturn})
	v.shortcut(ctrlEnter)
	if len(r.answers) != 0 {
		t.Fatal("submitted without a Ctrl press in the window")
	}
	v.keyUp(&fyne.KeyEvent{Name: fyne.KeyReturn})
	press(v, ctrlEnter)
	if len(r.answers) != 1 {
		t.Fatal("a Ctrl+Enter typed in the window did not submit")
	}
}

func TestGuardCoversYesNoOptionsAndEscape(t *testing.T) {
	v, r, c := guardedView(t, question(wire.Prompt{Markdown: "Deploy?", Kind: wire.KindYesNo}))
	press(v, altY)
	v.keyDown(&fyne.KeyEvent{Name: fyne.KeyEscape})
	v.escape()
	v.tap(v.Submit)()
	if len(r.answers) != 0 {
		t.Fatalf("answered within the guard: %+v", r.answers)
	}
	c.now = c.now.Add(DefaultInputGuard)
	release(v, altY)
	press(v, altY)
	if a := r.only(t); a.Replies[0].Text != "yes" {
		t.Errorf("answer = %+v", a)
	}
}

// Options changed by Alt+digit are guarded too, and a digit beyond the
// options is still left to the focused widget.
func TestGuardOnOptions(t *testing.T) {
	v, _, c := guardedView(t, question(wire.Prompt{Markdown: "?", Options: []wire.Option{{Label: "A"}}}))
	if !v.shortcut(alt("1")) || v.options[0].selected() {
		t.Fatal("Alt+1 within the guard: want consumed and ignored")
	}
	if v.shortcut(alt("2")) {
		t.Error("Alt+2 without such an option was consumed")
	}
	c.now = c.now.Add(DefaultInputGuard)
	release(v, alt("1"))
	press(v, alt("1"))
	if !v.options[0].selected() {
		t.Error("Alt+1 after the guard did not tick the option")
	}
}

// A view without a window (the tests of the rest of the package) is not
// guarded, and the cue goes away on its own.
func TestGuardOffWithoutWindowAndCueExpires(t *testing.T) {
	v, r, _ := newTestView(t, question(wire.Prompt{Markdown: "?"}), Options{})
	v.shortcut(ctrlEnter)
	if len(r.answers) != 1 {
		t.Fatal("an unguarded view did not submit")
	}
	g, _, c := guardedView(t, question(wire.Prompt{Markdown: "?"}))
	press(g, ctrlEnter)
	c.now = c.now.Add(guardCueFor)
	g.Tick(c.now)
	if text, _ := g.hintSegmentText(); text != g.hint.keys {
		t.Errorf("hint = %q after the cue's time, want %q", text, g.hint.keys)
	}
}

// In a Window the guard is armed when the window shows, and the reply box
// passes its key presses to it.
func TestWindowArmsTheGuard(t *testing.T) {
	c := &clock{now: t0}
	r := &recorder{}
	a := test.NewTempApp(t)
	w := NewWindow(a, question(wire.Prompt{Markdown: "?"}), Options{Now: c.Now}, r.done)
	w.Show()
	defer w.Close()
	e := w.View().prompts[0].entry
	typeShortcut := func() {
		e.KeyDown(&fyne.KeyEvent{Name: desktop.KeyControlLeft})
		e.KeyDown(&fyne.KeyEvent{Name: fyne.KeyReturn})
		e.TypedShortcut(ctrlEnter)
		e.KeyUp(&fyne.KeyEvent{Name: fyne.KeyReturn})
		e.KeyUp(&fyne.KeyEvent{Name: desktop.KeyControlLeft})
	}
	typeShortcut()
	if len(r.answers) != 0 {
		t.Fatal("submitted at once after the window showed")
	}
	c.now = c.now.Add(DefaultInputGuard)
	typeShortcut()
	if len(r.answers) != 1 {
		t.Fatal("the reply box's Ctrl+Enter did not submit after the guard")
	}
}

// While a widget that reports no key presses has the focus (a link in the
// Markdown, a radio button), the guard cannot see the keys go down: only
// its time rule applies.
func TestGuardWithAWidgetThatReportsNoKeys(t *testing.T) {
	v, r, c := guardedView(t, question(wire.Prompt{Markdown: "?"}))
	link := widget.NewHyperlink("a link", nil)
	v.hooks.focused = func() fyne.Focusable { return link }
	v.shortcut(ctrlEnter)
	if len(r.answers) != 0 {
		t.Fatal("submitted within the guard")
	}
	c.now = c.now.Add(DefaultInputGuard)
	v.shortcut(ctrlEnter)
	if len(r.answers) != 1 {
		t.Fatal("after the guard, with the focus on a link, Ctrl+Enter did not submit")
	}
}

// focusIn is the window manager giving one of the app's windows the
// keyboard: Fyne's GLFW driver runs the lifecycle's entered-foreground
// function as it handles the focus-in, before the window's next key.
func focusIn(t *testing.T, a fyne.App) {
	t.Helper()
	if f := a.Lifecycle().(foregroundHook).OnEnteredForeground(); f != nil { // as the driver does
		f()
	}
}

// The user answers window Y, the window manager hands the keyboard back to
// window X, and a key meant for Y lands in X a quarter of a second later.
// The guard covers every moment a window takes the keyboard, not only its
// first opening, whatever it asks and whichever of its controls has the
// keyboard (Fyne tells a focus-in only to a focused widget, so a guard
// armed there covers the reply box but not a button, an option or
// nothing). A key the user presses once the guard is over answers.
func TestGuardArmsOnEveryFocusIn(t *testing.T) {
	yesNo := wire.Question{ID: "c", Context: []wire.Field{{Label: "Recommended", Value: "Yes"}},
		Prompts: []wire.Prompt{{Kind: wire.KindYesNo, Markdown: "Force-push to main?"}}}
	choice := question(wire.Prompt{Markdown: "How?", Single: true, Options: []wire.Option{{Label: "Online", Default: true}, {Label: "Offline"}}})
	approval := wire.Question{ID: "a", Source: wire.SourceApproval, Prompts: []wire.Prompt{{Markdown: "`npm test`", Single: true,
		Options: []wire.Option{{Label: "Allow", Allows: true}, {Label: "Deny", Default: true}}}}}
	button := func(label string) func(*Window) fyne.Focusable {
		return func(w *Window) fyne.Focusable {
			for _, b := range findAll[*keyButton](w.View().Content()) {
				if b.Text == label {
					return b
				}
			}
			t.Fatalf("no button %q", label)
			return nil
		}
	}
	for _, tc := range []struct {
		name  string
		q     wire.Question
		focus func(*Window) fyne.Focusable // what has the keyboard in the window; nil: nothing
		key   *desktop.CustomShortcut
		want  func(wire.Answer) bool
	}{
		{"text, Submit focused", question(wire.Prompt{Markdown: "?"}), button("Submit"), ctrlEnter,
			func(a wire.Answer) bool { return a.Status == wire.StatusAnswered }},
		{"text, nothing focused", question(wire.Prompt{Markdown: "?"}), nil, ctrlEnter,
			func(a wire.Answer) bool { return a.Status == wire.StatusAnswered }},
		{"yes/no, Alt+Y", yesNo, nil, altY,
			func(a wire.Answer) bool { return a.Replies[0].Text == "yes" }},
		{"choice, radio focused", choice, func(w *Window) fyne.Focusable { return w.View().options[0].focusable() }, ctrlEnter,
			func(a wire.Answer) bool {
				return a.Status == wire.StatusAnswered && a.Replies[0].Selected[0] == "Online"
			}},
		{"approval, Deny recommended", approval, func(w *Window) fyne.Focusable { return w.View().options[0].focusable() }, ctrlEnter,
			func(a wire.Answer) bool { return a.Status == wire.StatusAnswered && a.Replies[0].Selected[0] == "Deny" }},
		{"choice, Alt+2", choice, func(w *Window) fyne.Focusable { return w.View().options[0].focusable() }, alt("2"),
			func(wire.Answer) bool { return true }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := test.NewTempApp(t)
			c := &clock{now: t0}
			r := &recorder{}
			w := NewWindow(a, tc.q, Options{Now: c.Now}, r.done)
			w.Show()
			defer w.Close()
			v := w.View()
			canvas := w.Fyne().Canvas()
			canvas.Unfocus()
			if tc.focus != nil {
				canvas.Focus(tc.focus(w))
			}
			c.now = c.now.Add(2 * DefaultInputGuard) // the user read it, then went to another window
			focusIn(t, a)                            // and answered it: the keyboard is back
			c.now = c.now.Add(250 * time.Millisecond)
			press(v, tc.key)
			release(v, tc.key)
			if len(r.answers) != 0 || (tc.key.KeyName == "2" && v.options[1].selected()) {
				t.Fatalf("a key 0.25 s after the window got the keyboard back acted: %+v", r.answers)
			}
			if text, _ := v.hintSegmentText(); text != guardCue() {
				t.Errorf("hint = %q, want the cue", text)
			}
			c.now = c.now.Add(DefaultInputGuard)
			press(v, tc.key)
			if tc.key.KeyName == "2" {
				if !v.options[1].selected() {
					t.Error("Alt+2 after the guard did not choose the option")
				}
				return
			}
			if got := r.only(t); !tc.want(got) {
				t.Errorf("answer = %+v", got)
			}
		})
	}
}

// A pool hears the focus-in without taking it from a function set on the
// lifecycle before it (another pool's, or the app's).
func TestFocusInHookChains(t *testing.T) {
	a := test.NewTempApp(t)
	heard := 0
	a.Lifecycle().SetOnEnteredForeground(func() { heard++ })
	c := &clock{now: t0}
	r := &recorder{}
	w := NewWindow(a, question(wire.Prompt{Markdown: "?"}), Options{Now: c.Now}, r.done)
	w.Show()
	defer w.Close()
	c.now = c.now.Add(2 * DefaultInputGuard)
	focusIn(t, a)
	if heard != 1 {
		t.Errorf("the earlier function ran %d times, want 1", heard)
	}
	press(w.View(), ctrlEnter)
	if len(r.answers) != 0 {
		t.Fatal("the pool did not hear the focus-in")
	}
}
