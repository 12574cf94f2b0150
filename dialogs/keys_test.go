package dialogs

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"feedback/ipc/wire"
)

func TestModsPerSystem(t *testing.T) {
	for _, tt := range []struct {
		goos                   string
		primary                fyne.KeyModifier
		submit, toggle, attach string
	}{
		{"darwin", fyne.KeyModifierSuper, "Cmd+Enter", "Option+1", "Cmd+O"},
		{"linux", fyne.KeyModifierControl, "Ctrl+Enter", "Alt+1", "Ctrl+O"},
		{"windows", fyne.KeyModifierControl, "Ctrl+Enter", "Alt+1", "Ctrl+O"},
		{"freebsd", fyne.KeyModifierControl, "Ctrl+Enter", "Alt+1", "Ctrl+O"},
	} {
		m := modsFor(tt.goos)
		if m.Primary != tt.primary || m.Alt != fyne.KeyModifierAlt {
			t.Errorf("%s: modifiers %v/%v, want %v/Alt", tt.goos, m.Primary, m.Alt, tt.primary)
		}
		if got := m.withPrimary("Enter"); got != tt.submit {
			t.Errorf("%s: submit is %q, want %q", tt.goos, got, tt.submit)
		}
		if got := m.withPrimary("O"); got != tt.attach {
			t.Errorf("%s: attach is %q, want %q", tt.goos, got, tt.attach)
		}
		if got := m.withAlt("1"); got != tt.toggle {
			t.Errorf("%s: toggle is %q, want %q", tt.goos, got, tt.toggle)
		}
	}
}

// On macOS Cmd (KeyModifierSuper) submits, Ctrl does not, Option (Alt)
// toggles, and the hint line says so.
func TestMacOSKeysAndHint(t *testing.T) {
	defer func(m keyMods) { mods = m }(mods)
	mods = modsFor("darwin")

	v, r, _ := newTestView(t, question(wire.Prompt{Markdown: "?", Options: []wire.Option{{Label: "A"}, {Label: "B"}}}), Options{})
	if !strings.Contains(v.hint.keys, "Cmd+Enter submit") {
		t.Errorf("hint %q lacks Cmd+Enter submit", v.hint.keys)
	}
	var keys string
	for _, r := range v.keyRows() { // the keys dialog (F1)
		keys += r.key + "\n"
	}
	if !strings.Contains(keys, "Option+1 … 2") || !strings.Contains(keys, "Cmd+O") {
		t.Errorf("the keys dialog's keys %q lack Option+1 … 2 or Cmd+O", keys)
	}
	if strings.Contains(v.hint.keys+keys, "Ctrl+Enter") || strings.Contains(v.hint.keys+keys, "Alt+") {
		t.Errorf("hint %q or keys %q name a PC key on macOS", v.hint.keys, keys)
	}
	entry := v.prompts[0].entry
	entry.TypedShortcut(alt("2"))
	entry.TypedShortcut(ctrlEnter)
	if len(r.answers) != 0 {
		t.Fatalf("Ctrl+Enter submitted on macOS: %+v", r.answers)
	}
	entry.TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyReturn, Modifier: fyne.KeyModifierSuper})
	if got := r.only(t); len(got.Replies) != 1 || !reflect.DeepEqual(got.Replies[0].Selected, []string{"B"}) {
		t.Errorf("Cmd+Enter answered %+v, want option B selected", got)
	}
}

// Elsewhere Ctrl submits and Cmd/Super does nothing.
func TestPCKeys(t *testing.T) {
	defer func(m keyMods) { mods = m }(mods)
	mods = modsFor("windows")

	v, r, _ := newTestView(t, question(wire.Prompt{Markdown: "?"}), Options{})
	if !strings.HasPrefix(v.hint.keys, "Ctrl+Enter submit") {
		t.Errorf("hint %q, want it to start with Ctrl+Enter submit", v.hint.keys)
	}
	entry := v.prompts[0].entry
	entry.TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyReturn, Modifier: fyne.KeyModifierSuper})
	if len(r.answers) != 0 {
		t.Fatalf("Super+Enter submitted on Windows: %+v", r.answers)
	}
	entry.TypedShortcut(ctrlEnter)
	r.only(t)
}

// ask_confirm with default false, in a window: No is the primary button,
// it has the keyboard (its focus ring shows), and Enter presses it: the
// answer is no (TestAskConfirmDefaultNo sees "no" come back). Yes is never
// chosen.
func TestConfirmDefaultNoEnter(t *testing.T) {
	a := test.NewTempApp(t)
	r := &recorder{}
	w := NewWindow(a, yesNoQuestion("No"), Options{Now: (&clock{now: t0}).Now, InputGuard: -1}, r.done)
	w.Show()
	defer w.Close()
	var primary []string
	for _, b := range findAll[*keyButton](w.View().Content()) {
		if b.Importance == widget.HighImportance {
			primary = append(primary, b.Text)
		}
	}
	if !reflect.DeepEqual(primary, []string{"No"}) {
		t.Errorf("primary buttons %v, want [No]", primary)
	}
	if got := w.View().hint.keys; !strings.HasPrefix(got, "Enter no · ") {
		t.Errorf("hint %q, want it to start with Enter no", got)
	}
	if f := w.Fyne().Canvas().Focused(); f != yesNoButton(t, w, "No") {
		t.Fatalf("%T has the keyboard, want the No button", f)
	}
	typeEnter(w)
	if got := r.only(t); got.Status != wire.StatusAnswered || got.Replies[0].Text != "no" {
		t.Errorf("answer = %+v, want no", got)
	}
}

// yesNoQuestion is an ask_confirm recommending rec ("Yes", "No"; "": none).
func yesNoQuestion(rec string) wire.Question {
	q := wire.Question{ID: "c", Prompts: []wire.Prompt{{Kind: wire.KindYesNo, Markdown: "Force-push to main?"}}}
	if rec != "" {
		q.Context = []wire.Field{{Label: "Recommended", Value: rec}}
	}
	return q
}

// yesNoButton is w's button labelled label.
func yesNoButton(t *testing.T, w *Window, label string) *keyButton {
	t.Helper()
	for _, b := range findAll[*keyButton](w.View().Content()) {
		if b.Text == label {
			return b
		}
	}
	t.Fatalf("no button %q", label)
	return nil
}

// typeEnter is the user pressing Enter in w, delivered as Fyne's driver
// does: to the focused widget, or to the canvas when nothing is focused.
func typeEnter(w *Window) {
	ev := &fyne.KeyEvent{Name: fyne.KeyReturn}
	c := w.Fyne().Canvas()
	if f := c.Focused(); f != nil {
		if k, ok := f.(desktop.Keyable); ok {
			k.KeyDown(ev)
		}
		f.TypedKey(ev)
		if k, ok := f.(desktop.Keyable); ok {
			k.KeyUp(ev)
		}
		return
	}
	w.View().keyDown(&fyne.KeyEvent{Name: ev.Name}) // as the canvas reports it (the test canvas has no OnKeyDown)
	c.OnTypedKey()(ev)
	w.View().keyUp(&fyne.KeyEvent{Name: ev.Name})
}

// A yes/no window shows what Enter will do. The recommended answer's button
// has the keyboard when the window opens and Enter presses exactly it;
// Shift+Tab and Tab move the keyboard between No and Yes, and Enter
// follows. Without a recommendation no button has it and Enter answers
// nothing (keys.go says why). With nothing focused (the user clicked the
// message) Enter shows the recommended button again and answers nothing;
// the next Enter presses it.
func TestYesNoEnterPressesTheFocusedButton(t *testing.T) {
	for _, tc := range []struct {
		name    string
		rec     string
		focused string              // the button with the keyboard when the window opens; "": none
		move    func(c fyne.Canvas) // the user's keys before Enter
		want    string              // the answer Enter gives; "": none
	}{
		{"recommended yes", "Yes", "Yes", nil, "yes"},
		{"recommended no", "No", "No", nil, "no"},
		{"recommended yes, Shift+Tab to No", "Yes", "Yes", func(c fyne.Canvas) { c.FocusPrevious() }, "no"},
		{"recommended no, Tab to Yes", "No", "No", func(c fyne.Canvas) { c.FocusNext() }, "yes"},
		{"no recommendation", "", "", nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := test.NewTempApp(t)
			r := &recorder{}
			w := NewWindow(a, yesNoQuestion(tc.rec), Options{Now: (&clock{now: t0}).Now, InputGuard: -1}, r.done)
			w.Show()
			defer w.Close()
			c := w.Fyne().Canvas()
			var want fyne.Focusable
			if tc.focused != "" {
				want = yesNoButton(t, w, tc.focused)
			}
			if got := c.Focused(); got != want {
				t.Fatalf("%T has the keyboard, want the %q button", got, tc.focused)
			}
			if tc.move != nil {
				tc.move(c)
			}
			typeEnter(w)
			if tc.want == "" {
				if len(r.answers) != 0 {
					t.Fatalf("Enter answered %+v with no recommendation", r.answers)
				}
				return
			}
			if got := r.only(t); got.Status != wire.StatusAnswered || got.Replies[0].Text != tc.want {
				t.Errorf("answer = %+v, want %s", got, tc.want)
			}
		})
	}
	t.Run("nothing focused", func(t *testing.T) {
		a := test.NewTempApp(t)
		r := &recorder{}
		w := NewWindow(a, yesNoQuestion("Yes"), Options{Now: (&clock{now: t0}).Now, InputGuard: -1}, r.done)
		w.Show()
		defer w.Close()
		c := w.Fyne().Canvas()
		c.Unfocus() // a click on the message
		typeEnter(w)
		if len(r.answers) != 0 {
			t.Fatalf("Enter with nothing focused answered %+v", r.answers)
		}
		if c.Focused() != yesNoButton(t, w, "Yes") {
			t.Fatalf("%T has the keyboard, want Yes back", c.Focused())
		}
		typeEnter(w)
		if got := r.only(t); got.Replies[0].Text != "yes" {
			t.Errorf("answer = %+v, want yes", got)
		}
	})
}

// The hint line names what Enter does now: "Enter yes" while Yes has the
// keyboard, "Enter no" once Shift+Tab moved it to No, nothing on Don't
// answer (Enter presses that one: its label says so). Without a
// recommendation it names no Enter until a yes/no button has the keyboard.
func TestYesNoHintFollowsTheFocus(t *testing.T) {
	for _, tc := range []struct {
		rec   string
		moves []func(fyne.Canvas)
		want  []string // the hint's first part after each move: "" none of Enter
	}{
		{"Yes", []func(fyne.Canvas){fyne.Canvas.FocusPrevious, fyne.Canvas.FocusPrevious, fyne.Canvas.FocusNext, fyne.Canvas.FocusNext},
			[]string{"Enter yes", "Enter no", "", "Enter no", "Enter yes"}},
		{"", []func(fyne.Canvas){fyne.Canvas.FocusPrevious}, []string{"", "Enter yes"}},
	} {
		t.Run("recommended "+tc.rec, func(t *testing.T) {
			a := test.NewTempApp(t)
			w := NewWindow(a, yesNoQuestion(tc.rec), Options{Now: (&clock{now: t0}).Now, InputGuard: -1}, func(wire.Answer) {})
			w.Fyne().Resize(fyne.NewSize(600, 240))
			w.Show()
			defer w.Close()
			v := w.View()
			for i, want := range tc.want {
				if i > 0 {
					tc.moves[i-1](w.Fyne().Canvas())
				}
				v.followFocus() // the heartbeat
				first, _, _ := strings.Cut(v.hint.text.String(), " · ")
				if !strings.HasPrefix(first, "Enter") {
					first = ""
				}
				if first != want {
					t.Errorf("after %d moves (%T focused) the hint is %q, want it to start with %q", i, w.Fyne().Canvas().Focused(), v.hint.text.String(), want)
				}
			}
		})
	}
}

// Tab to a button, then Enter presses it (as Space does), as on other
// desktops: Yes in a window that recommends No answers yes. A key that did
// not go down in the window (the input guard) presses nothing.
func TestEnterPressesTheFocusedButton(t *testing.T) {
	a := test.NewTempApp(t)
	r := &recorder{}
	q := wire.Question{ID: "c", Context: []wire.Field{{Label: "Recommended", Value: "No"}},
		Prompts: []wire.Prompt{{Kind: wire.KindYesNo, Markdown: "Drop it?"}}}
	w := NewWindow(a, q, Options{Now: (&clock{now: t0}).Now, InputGuard: -1}, r.done)
	w.Show()
	defer w.Close()
	var yes *keyButton
	for _, b := range findAll[*keyButton](w.View().Content()) {
		if b.Text == "Yes" {
			yes = b
		}
	}
	w.Fyne().Canvas().Focus(yes)
	enter := &fyne.KeyEvent{Name: fyne.KeyReturn}
	yes.TypedKey(enter) // never went down in this window
	if len(r.answers) != 0 {
		t.Fatalf("an Enter from elsewhere pressed Yes: %+v", r.answers)
	}
	yes.KeyDown(enter)
	yes.TypedKey(enter)
	if got := r.only(t); got.Replies[0].Text != "yes" {
		t.Errorf("answer = %+v, want yes", got)
	}
}

// Tab follows the layout, top to bottom: from the control at the top
// (Snooze), one round of Tab visits the countdown's buttons, the options,
// the reply box, then the footer's help, Attach, Quick reply, Don't answer
// and Submit, each no higher in the window than the one before, and comes
// back to where it began.
func TestTabFollowsTheLayout(t *testing.T) {
	a := test.NewTempApp(t)
	q := question(wire.Prompt{Markdown: "Refactor the auth module?", Placeholder: "Anything to add?",
		Options: []wire.Option{{Label: "Refactor", Default: true}, {Label: "Add tests first"}}})
	w := NewWindow(a, q, Options{Now: (&clock{now: t0}).Now, InputGuard: -1, DefaultTimeout: 10 * time.Minute,
		QuickReplies: []string{"Go ahead"}, OnSnooze: func(int, bool) {}}, func(wire.Answer) {})
	w.Fyne().Resize(fyne.NewSize(480, 460))
	w.Show()
	defer w.Close()
	c := w.Fyne().Canvas()
	start := fyne.Focusable(w.View().snooze.btn)
	c.Focus(start)
	type stop struct {
		what string
		y    float32
	}
	name := func(f fyne.Focusable) string {
		switch o := f.(type) {
		case *keyButton:
			if o.Text == "" {
				return "(icon button)"
			}
			return o.Text
		case *optionCheck:
			for i, opt := range w.View().options {
				if opt.focusable() == f {
					return fmt.Sprintf("option %d", i+1)
				}
			}
		case *replyEntry:
			return "reply box"
		}
		return fmt.Sprintf("%T", f)
	}
	var round []stop
	for f := start; ; {
		o := f.(fyne.CanvasObject)
		round = append(round, stop{name(f), a.Driver().AbsolutePositionForObject(o).Y + o.Size().Height/2})
		c.FocusNext()
		if f = c.Focused(); f == start || len(round) > 30 {
			break
		}
	}
	var names []string
	for _, s := range round {
		names = append(names, s.what)
	}
	t.Logf("Tab: %s", strings.Join(names, " → "))
	for i := 1; i < len(round); i++ {
		if round[i].y < round[i-1].y-1 {
			t.Errorf("Tab goes up from %q (y %.0f) to %q (y %.0f)", round[i-1].what, round[i-1].y, round[i].what, round[i].y)
		}
	}
	for _, want := range []string{"option 1", "option 2", "reply box", "Submit"} {
		if !slices.Contains(names, want) {
			t.Errorf("Tab never reaches %q", want)
		}
	}
}
