package dialogs

import (
	"fmt"
	"image"
	"os"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"feedback/internal/hotkey"
	"feedback/ipc/wire"
)

func TestCascade(t *testing.T) {
	area := image.Rect(0, 24, 1280, 1024) // a panel on top
	size := image.Pt(700, 500)
	for _, tc := range []struct {
		name    string
		last    image.Rectangle
		hasLast bool
		size    image.Point
		want    image.Point
	}{
		{"first window centred", image.Rectangle{}, false, size, image.Pt(290, 274)},
		{"offset from the last", image.Rect(290, 274, 990, 774), true, size, image.Pt(322, 306)},
		{"right edge: x wraps, y goes on", image.Rect(560, 100, 1260, 600), true, size, image.Pt(0, 132)},
		{"bottom edge: y wraps, x goes on", image.Rect(100, 500, 800, 1000), true, size, image.Pt(132, 24)},
		{"both edges wrap", image.Rect(570, 510, 1270, 1010), true, size, image.Pt(0, 24)},
		{"exactly fits the corner", image.Rect(548, 492, 1248, 992), true, size, image.Pt(580, 524)},
		{"last moved above the area", image.Rect(100, -300, 800, 200), true, size, image.Pt(132, 24)},
		{"window larger than the area", image.Rect(0, 24, 1280, 1024), true, image.Pt(1400, 1100), image.Pt(0, 24)},
		{"first, larger than the area", image.Rectangle{}, false, image.Pt(1400, 1100), image.Pt(0, 24)},
		// A smaller window a step off the larger one's corner would sit
		// inside it, hidden under it: it shows a step past its right and
		// bottom edges.
		{"smaller than the last", image.Rect(290, 274, 990, 774), true, image.Pt(400, 300), image.Pt(622, 506)},
		{"smaller, past the right edge", image.Rect(560, 100, 1260, 600), true, image.Pt(400, 300), image.Pt(0, 332)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := cascade(area, tc.last, tc.hasLast, tc.size, CascadeStep); got != tc.want {
				t.Errorf("cascade = %v, want %v", got, tc.want)
			}
		})
	}
}

// Five windows in a row each step off the last and stay in the work area.
func TestCascadeFiveStayInside(t *testing.T) {
	area := image.Rect(0, 0, 1024, 768)
	size := image.Pt(680, 560)
	var last image.Rectangle
	for i := range 5 {
		p := cascade(area, last, i > 0, size, CascadeStep)
		r := image.Rectangle{Min: p, Max: p.Add(size)}
		if !r.In(area) {
			t.Fatalf("window %d at %v leaves the work area %v", i+1, r, area)
		}
		if i > 0 && p == last.Min {
			t.Fatalf("window %d sits exactly on window %d", i+1, i)
		}
		last = r
	}
}

func TestCycleDir(t *testing.T) {
	for _, tc := range []struct {
		s    fyne.Shortcut
		want int
	}{
		{CycleNext, 1},
		{CyclePrevious, -1},
		{&desktop.CustomShortcut{KeyName: fyne.KeyPageDown, Modifier: fyne.KeyModifierAlt}, 0},
		{&desktop.CustomShortcut{KeyName: fyne.KeyReturn, Modifier: fyne.KeyModifierControl}, 0},
		{&fyne.ShortcutCopy{}, 0},
	} {
		if got := cycleDir(tc.s); got != tc.want {
			t.Errorf("cycleDir(%s) = %d, want %d", tc.s.ShortcutName(), got, tc.want)
		}
	}
}

// contextText is the context bar's text, its segments joined.
func contextText(v *View) string {
	var b strings.Builder
	for _, s := range v.ctx.text.Segments {
		if ts, ok := s.(*widget.TextSegment); ok {
			b.WriteString(ts.Text)
		}
	}
	return b.String()
}

// The context bar names the client and the project, and, while more than
// one question is open, "n of m" with the cycle shortcut; the count
// follows the windows that open and close.
func TestContextBarSaysWhoAsksAndHowManyAreOpen(t *testing.T) {
	a := test.NewTempApp(t)
	p := NewPool(a)
	c := &clock{now: t0}
	var ws []*Window
	for i, proj := range []string{"feedback", "", "website"} {
		q := question(wire.Prompt{Markdown: fmt.Sprint("question ", i+1)})
		q.Client, q.Project = "claude-code", proj
		w := p.NewWindow(q, Options{Now: c.Now}, func(wire.Answer) {})
		w.Show()
		ws = append(ws, w)
	}
	for i, want := range []string{
		"From claude-code   ·   Project feedback   ·   Open 1 of 3 · Ctrl+PgDn",
		"From claude-code   ·   Open 2 of 3 · Ctrl+PgDn",
		"From claude-code   ·   Project website   ·   Open 3 of 3 · Ctrl+PgDn",
	} {
		if got := contextText(ws[i].View()); got != want {
			t.Errorf("window %d: context bar %q, want %q", i+1, got, want)
		}
	}
	ws[1].Close()
	ws[2].Close()
	if got, want := contextText(ws[0].View()), "From claude-code   ·   Project feedback"; got != want {
		t.Errorf("alone again: context bar %q, want %q", got, want)
	}
	if p.Open() != 1 {
		t.Errorf("Open() = %d, want 1", p.Open())
	}
}

// With nothing to say the bar is hidden; a second window shows it.
func TestContextBarHiddenUntilThereIsSomethingToSay(t *testing.T) {
	a := test.NewTempApp(t)
	p := NewPool(a)
	c := &clock{now: t0}
	one := p.NewWindow(question(wire.Prompt{Markdown: "one"}), Options{Now: c.Now}, func(wire.Answer) {})
	one.Show()
	if one.View().ctx.box.Visible() {
		t.Fatal("an empty context bar is shown")
	}
	before := one.Fyne().Canvas().Size()
	two := p.NewWindow(question(wire.Prompt{Markdown: "two"}), Options{Now: c.Now}, func(wire.Answer) {})
	two.Show()
	if !one.View().ctx.box.Visible() || contextText(one.View()) != "Open 1 of 2 · Ctrl+PgDn" {
		t.Errorf("with two open: visible %v, %q", one.View().ctx.box.Visible(), contextText(one.View()))
	}
	// The window grew by the bar, so the message keeps its room.
	if after, bar := one.Fyne().Canvas().Size(), one.View().ctx.height(); after.Height != before.Height+bar || bar <= 0 {
		t.Errorf("window %v → %v with a bar of %v: want it taller by the bar", before, after, bar)
	}
	two.Close()
	if one.View().ctx.box.Visible() {
		t.Error("alone again, the bar is still shown")
	}
}

// Ctrl+PageDown in the reply box moves the keyboard to the next open
// question, Ctrl+PageUp to the previous, wrapping around; neither types
// into the reply nor counts as an answer.
func TestCycleShortcutMovesBetweenOpenQuestions(t *testing.T) {
	a := test.NewTempApp(t)
	p := NewPool(a)
	c := &clock{now: t0}
	r := &recorder{}
	var ws []*Window
	for i := range 3 {
		w := p.NewWindow(question(wire.Prompt{Markdown: fmt.Sprint("q", i)}), Options{Now: c.Now, InputGuard: -1}, r.done)
		w.Show()
		ws = append(ws, w)
	}
	unfocusAll := func() {
		for _, w := range ws {
			w.Fyne().Canvas().Unfocus()
		}
	}
	focusedOn := func() int {
		for i, w := range ws {
			if w.Fyne().Canvas().Focused() != nil {
				return i
			}
		}
		return -1
	}
	for _, step := range []struct {
		from int
		s    fyne.Shortcut
		want int
	}{
		{0, CycleNext, 1}, {1, CycleNext, 2}, {2, CycleNext, 0}, {0, CyclePrevious, 2}, {2, CyclePrevious, 1},
	} {
		unfocusAll()
		ws[step.from].View().prompts[0].entry.TypedShortcut(step.s)
		if got := focusedOn(); got != step.want {
			t.Errorf("%s from window %d: the keyboard is in window %d, want %d", step.s.ShortcutName(), step.from+1, got+1, step.want+1)
		}
	}
	if len(r.answers) != 0 || ws[0].View().prompts[0].entry.Text != "" {
		t.Errorf("cycling answered (%d) or typed (%q)", len(r.answers), ws[0].View().prompts[0].entry.Text)
	}
}

// fakeDesk is a window system that reports one window as active and
// records what it was asked.
type fakeDesk struct {
	noDesk
	activeWin fyne.Window
	mapped    map[fyne.Window]bool
	quieted   map[fyne.Window]bool
	urgent    map[fyne.Window]bool
	below     map[fyne.Window]fyne.Window
	activated []fyne.Window
	other     uint32   // another program's window that has the focus (activeWin nil)
	gaveTo    []uint32 // activateID's arguments
	grabs     int      // times the keys were held
	held      int      // keys held and not released
	idleFor   time.Duration
	idleKnown bool           // idleFor is the user's idle time; else unknown
	owners    map[uint32]int // the process of each native window id
	mons      []image.Rectangle
	pointer   image.Point
	frames    map[fyne.Window]image.Rectangle // nil: frames unknown
	raised    map[fyne.Window]bool
	came      uint32   // what activeBefore answers: the other program's window the user came from
	down      []uint32 // the keys held down now (keysDown)
	shortcut  func(at uint32)
	holds     int   // the shortcut held and not released
	holdErr   error // what holdShortcut fails with
	atTimes   []uint32
}

func newFakeDesk(t *testing.T) *fakeDesk {
	d := &fakeDesk{mapped: map[fyne.Window]bool{}, quieted: map[fyne.Window]bool{}, urgent: map[fyne.Window]bool{}, below: map[fyne.Window]fyne.Window{},
		raised: map[fyne.Window]bool{}}
	old := desk
	desk = d
	t.Cleanup(func() { desk = old })
	return d
}

func (d *fakeDesk) ready(w fyne.Window) bool         { return d.mapped[w] }
func (d *fakeDesk) active(w fyne.Window) bool        { return w == d.activeWin }
func (d *fakeDesk) quiet(w fyne.Window, on bool)     { d.quieted[w] = on }
func (d *fakeDesk) attention(w fyne.Window, on bool) { d.urgent[w] = on }
func (d *fakeDesk) stackBelow(w, s fyne.Window)      { d.below[w] = s }
func (d *fakeDesk) activate(w fyne.Window)           { d.activated = append(d.activated, w); d.activeWin = w }
func (d *fakeDesk) focused() uint32 {
	if d.activeWin != nil {
		return 1
	}
	return d.other
}
func (d *fakeDesk) activateID(id uint32) {
	d.gaveTo = append(d.gaveTo, id)
	d.activeWin = nil
	d.other = id
}
func (d *fakeDesk) idle() (time.Duration, bool) { return d.idleFor, d.idleKnown }
func (d *fakeDesk) monitors() ([]image.Rectangle, image.Point, bool) {
	return d.mons, d.pointer, len(d.mons) > 0
}
func (d *fakeDesk) frame(w fyne.Window) (image.Rectangle, bool) {
	fr, ok := d.frames[w]
	return fr, ok
}
func (d *fakeDesk) move(w fyne.Window, p image.Point) {
	if fr, ok := d.frames[w]; ok {
		d.frames[w] = fr.Add(p.Sub(fr.Min))
	}
}
func (d *fakeDesk) owner(id uint32) (int, bool) {
	pid, ok := d.owners[id]
	return pid, ok
}
func (d *fakeDesk) raise(w fyne.Window) { d.raised[w] = true }
func (d *fakeDesk) activeBefore(skip func(uint32) bool) uint32 {
	if d.came != 0 && !skip(d.came) {
		return d.came
	}
	return 0
}
func (d *fakeDesk) keysDown() ([]uint32, bool) { return d.down, true }
func (d *fakeDesk) activateAt(w fyne.Window, at uint32) {
	d.atTimes = append(d.atTimes, at)
	d.activate(w)
}
func (d *fakeDesk) holdShortcut(_ hotkey.Shortcut, on func(uint32)) (func(), error) {
	if d.holdErr != nil {
		return nil, d.holdErr
	}
	d.holds++
	d.shortcut = on
	return func() { d.holds--; d.shortcut = nil }, nil
}
func (d *fakeDesk) holdKeys(fyne.Window) func() {
	d.grabs++
	d.held++
	return func() { d.held-- }
}

// A new window never takes the keyboard: it opens without the focus
// (reported by Unfocused), asks for attention and does not flash; the
// window the user is in keeps the keyboard. Once the user types in the
// new window, or moves to it (the cycle shortcut, the tray), it stops
// asking, once.
func TestNewWindowOpensUnfocusedWhileTheUserTypes(t *testing.T) {
	d := newFakeDesk(t)
	a := test.NewTempApp(t)
	p := NewPool(a)
	c := &clock{now: t0}
	open := func(name string) *Window {
		w := p.NewWindow(question(wire.Prompt{Markdown: name}), Options{Now: c.Now}, func(wire.Answer) {})
		w.Show()
		d.mapped[w.Fyne()] = true
		return w
	}
	typing := open("A")
	if !typing.Unfocused() || typing.View().flash.count != 0 || d.activeWin != nil {
		t.Errorf("A, the first window: unfocused %v, flashed %d, active %v; want it to wait for the user", typing.Unfocused(), typing.View().flash.count, d.activeWin != nil)
	}
	typing.Focus() // the user clicks it
	if typing.Unfocused() || d.activeWin != typing.Fyne() || typing.View().flash.count != 1 {
		t.Errorf("A after the user came: unfocused %v, active %v, flashed %d", typing.Unfocused(), d.activeWin == typing.Fyne(), typing.View().flash.count)
	}
	typing.View().prompts[0].entry.KeyDown(&fyne.KeyEvent{Name: fyne.KeyH})

	b := open("B")
	if b.View().flash.count != 0 {
		t.Error("B, opened without the focus, flashed")
	}
	if !b.Unfocused() || !d.urgent[b.Fyne()] {
		t.Fatalf("B: unfocused %v, urgent %v; want both", b.Unfocused(), d.urgent[b.Fyne()])
	}
	if d.activeWin != typing.Fyne() {
		t.Error("the typing window lost the focus")
	}
	b.View().prompts[0].entry.KeyDown(&fyne.KeyEvent{Name: fyne.KeyB}) // the user found it
	if b.Unfocused() || d.urgent[b.Fyne()] {
		t.Errorf("after typing in B: unfocused %v, urgent %v; want neither", b.Unfocused(), d.urgent[b.Fyne()])
	}

	// Moving there (the cycle shortcut, the tray) finds it too, once.
	d.activeWin = typing.Fyne()
	found := 0
	e := p.NewWindow(question(wire.Prompt{Markdown: "E"}), Options{Now: c.Now, OnFound: func() { found++ }}, func(wire.Answer) {})
	e.Show()
	if !e.Unfocused() || found != 0 {
		t.Fatalf("E: unfocused %v, found %d", e.Unfocused(), found)
	}
	typing.View().prompts[0].entry.TypedShortcut(CyclePrevious) // A is first, E last: back around to E
	if e.Unfocused() || d.urgent[e.Fyne()] || found != 1 || d.activeWin != e.Fyne() {
		t.Errorf("E after Ctrl+PageUp from A: unfocused %v, urgent %v, found %d, active %v", e.Unfocused(), d.urgent[e.Fyne()], found, d.activeWin == e.Fyne())
	}
	e.View().prompts[0].entry.KeyDown(&fyne.KeyEvent{Name: fyne.KeyE})
	if found != 1 {
		t.Errorf("OnFound called %d times, want once", found)
	}

	// Another program has the focus: the new window does not take it either.
	d.activeWin, d.other = nil, 77
	if d2 := open("D"); !d2.Unfocused() || d.other != 77 || !d.raised[d2.Fyne()] {
		t.Errorf("D: unfocused %v, focus with %d (want 77), raised %v", d2.Unfocused(), d.other, d.raised[d2.Fyne()])
	}
}

// Shown again from the pool (the native window exists), an unfocused
// window is mapped asking not to be focused and goes under the typing
// window; the next window that takes the focus is mapped normally.
func TestReusedWindowOpensQuietlyUnderTheTypingWindow(t *testing.T) {
	d := newFakeDesk(t)
	a := test.NewTempApp(t)
	p := NewPool(a)
	c := &clock{now: t0}
	warm := p.NewWindow(question(wire.Prompt{Markdown: "warm"}), Options{Now: c.Now}, func(wire.Answer) {})
	warm.Show()
	native := warm.Fyne()
	warm.Close()
	d.mapped[native] = true // hidden, kept by the pool

	typing := p.NewWindow(question(wire.Prompt{Markdown: "A"}), Options{Now: c.Now}, func(wire.Answer) {})
	typing.Show()
	if typing.Fyne() != native || !d.quieted[native] {
		t.Fatalf("A: reused %v, quiet %v", typing.Fyne() == native, d.quieted[native])
	}
	typing.Focus()
	typing.View().prompts[0].entry.KeyDown(&fyne.KeyEvent{Name: fyne.KeyH})
	b := p.NewWindow(question(wire.Prompt{Markdown: "B"}), Options{Now: c.Now}, func(wire.Answer) {})
	b.Show() // a new native window: the keys are held for A while the focus comes back
	if !b.Unfocused() || d.grabs != 1 || d.activeWin != typing.Fyne() {
		t.Errorf("new B: unfocused %v, keys held %d times, active is A %v", b.Unfocused(), d.grabs, d.activeWin == typing.Fyne())
	}
	b.Close()
	d.mapped[b.Fyne()] = true
	again := p.NewWindow(question(wire.Prompt{Markdown: "B again"}), Options{Now: c.Now}, func(wire.Answer) {})
	again.Show()
	if !again.Unfocused() || !d.quieted[again.Fyne()] || d.below[again.Fyne()] != typing.Fyne() {
		t.Errorf("reused B: unfocused %v, quiet %v, under A %v", again.Unfocused(), d.quieted[again.Fyne()], d.below[again.Fyne()] == typing.Fyne())
	}
}

// A Quiet window (shown again after its process restarted) does not take
// the focus: a new native window gives it back to the window that had it,
// a reused one is mapped asking not to be focused; neither asks for
// attention or reports itself unfocused (nothing for the user to find).
func TestQuietWindowLeavesTheFocusWhereItIs(t *testing.T) {
	d := newFakeDesk(t)
	a := test.NewTempApp(t)
	p := NewPool(a)
	c := &clock{now: t0}
	d.other = 77 // the user's editor
	fresh := p.NewWindow(question(wire.Prompt{Markdown: "restored"}), Options{Now: c.Now, Quiet: true}, func(wire.Answer) {})
	fresh.Show()
	if len(d.gaveTo) != 1 || d.gaveTo[0] != 77 || d.other != 77 {
		t.Errorf("new quiet window: focus given to %v, want back to 77", d.gaveTo)
	}
	if fresh.Unfocused() || d.urgent[fresh.Fyne()] {
		t.Errorf("quiet window: unfocused %v, urgent %v; want neither", fresh.Unfocused(), d.urgent[fresh.Fyne()])
	}
	native := fresh.Fyne()
	fresh.Close()
	d.mapped[native] = true
	again := p.NewWindow(question(wire.Prompt{Markdown: "restored too"}), Options{Now: c.Now, Quiet: true}, func(wire.Answer) {})
	again.Show()
	if again.Fyne() != native || !d.quieted[native] {
		t.Errorf("reused quiet window: reused %v, mapped quiet %v", again.Fyne() == native, d.quieted[native])
	}
	// Not quiet: it leaves the focus where it is too, and asks for
	// attention.
	again.Close()
	normal := p.NewWindow(question(wire.Prompt{Markdown: "asked"}), Options{Now: c.Now}, func(wire.Answer) {})
	normal.Show()
	if !d.quieted[normal.Fyne()] || !d.urgent[normal.Fyne()] || !normal.Unfocused() || d.other != 77 {
		t.Errorf("a normal window: mapped quiet %v, urgent %v, unfocused %v, focus with %d", d.quieted[normal.Fyne()], d.urgent[normal.Fyne()], normal.Unfocused(), d.other)
	}
}

// typingAndNew shows two windows of a pool on a fake desk: the one the
// user types in, then a new one.
func typingAndNew(t *testing.T) (d *fakeDesk, a fyne.App, typing, b *Window) {
	d = newFakeDesk(t)
	a = test.NewTempApp(t)
	p := NewPool(a)
	c := &clock{now: t0}
	typing = p.NewWindow(question(wire.Prompt{Markdown: "A"}), Options{Now: c.Now}, func(wire.Answer) {})
	typing.Show()
	b = p.NewWindow(question(wire.Prompt{Markdown: "B"}), Options{Now: c.Now}, func(wire.Answer) {})
	b.Show()
	return d, a, typing, b
}

// The keys held for the typing window while a new window opens go as
// soon as the focus is back with it, or with any other window the user
// moved to (the tray's Quit confirmation took Enter after a question
// opened, and the held keys sent it to the question instead), and at the
// latest after keysHeldFor; they stay while the new window or none has
// the focus (the window manager's hand-over).
func TestHeldKeysGoWhenTheUserIsElsewhere(t *testing.T) {
	d, a, typing, b := typingAndNew(t)
	quit := a.NewWindow("Quit feedback?")
	for _, tc := range []struct {
		name   string
		active fyne.Window
		other  uint32
		since  time.Duration
		want   bool
	}{
		{"the new window has the focus", b.Fyne(), 0, 0, true},
		{"no window has the focus", nil, 0, 0, true},
		{"the typing window has it back", typing.Fyne(), 0, 0, false},
		{"another of the app's windows has it", quit, 0, 0, false},
		{"another program's window has it", nil, 77, 0, false},
		{"held long enough", b.Fyne(), 0, keysHeldFor, false},
	} {
		d.activeWin, d.other = tc.active, tc.other
		if got := holding(typing.slot, b.slot, tc.since); got != tc.want {
			t.Errorf("%s: holding %v, want %v", tc.name, got, tc.want)
		}
	}
}

// While the keys are held, a window manager that focuses the new window
// after the typing window was given the focus back has it given back
// again, at most every askAgainEvery; once the typing window has it, the
// hand-over ends and a later move to the new window is the user's.
func TestFocusIsGivenBackAgainWhileTheKeysAreHeld(t *testing.T) {
	d, _, typing, b := typingAndNew(t)
	d.activated = nil
	h := &handOver{typing: typing.slot, w: b.slot, start: t0}

	d.activeWin = b.Fyne() // the window manager focused B late
	if !h.step(t0.Add(10 * time.Millisecond)) {
		t.Fatal("the hand-over ended while the new window has the focus")
	}
	if len(d.activated) != 1 || d.activated[0] != typing.Fyne() {
		t.Fatalf("activated %v, want the typing window once", d.activated)
	}
	d.activeWin = b.Fyne() // and again, at once
	h.step(t0.Add(50 * time.Millisecond))
	if len(d.activated) != 1 {
		t.Errorf("activated again within %v: %d times", askAgainEvery, len(d.activated))
	}
	h.step(t0.Add(10*time.Millisecond + askAgainEvery))
	if len(d.activated) != 2 {
		t.Errorf("not activated again after %v: %d activations", askAgainEvery, len(d.activated))
	}
	if h.step(t0.Add(200 * time.Millisecond)) { // the typing window has it (the fake's activate)
		t.Error("the hand-over goes on with the typing window focused")
	}
}

// A new window never takes the keyboard, whatever the user was doing and
// however long ago: a new native window is made hidden first and mapped
// asking not to be focused (no key reaches it), asks for attention,
// reports Unfocused and does not flash; the window that had the focus
// keeps it (none: none gets it).
func TestNewWindowNeverTakesTheKeyboard(t *testing.T) {
	d := newFakeDesk(t)
	a := test.NewTempApp(t)
	c := &clock{now: t0}
	warmed := 0
	oldWarm := warmNative
	warmNative = func(_ fyne.App, w fyne.Window) bool { warmed++; d.mapped[w] = true; return true }
	t.Cleanup(func() { warmNative = oldWarm })
	d.owners = map[uint32]int{77: os.Getpid() + 1000, 78: os.Getpid()}
	open := func(name string) *Window { // in a pool of its own: a new native window
		w := NewPool(a).NewWindow(question(wire.Prompt{Markdown: name}), Options{Now: c.Now}, func(wire.Answer) {})
		w.Show()
		return w
	}
	for _, tc := range []struct {
		name  string
		idle  time.Duration
		known bool
		other uint32
	}{
		{"typing in the editor", 200 * time.Millisecond, true, 77},
		{"a pause to think, then more keys", 3600 * time.Millisecond, true, 77},
		{"idle for an hour", time.Hour, true, 77},
		{"idle time unknown", 0, false, 77},
		{"a window nobody can name", time.Second, true, 79},
		{"a window of this process", 0, true, 78},
		{"no window has the focus", 0, true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d.idleFor, d.idleKnown, d.other, d.activeWin, d.gaveTo, warmed = tc.idle, tc.known, tc.other, nil, nil, 0
			w := open(tc.name)
			defer w.Close()
			if !w.Unfocused() || !d.urgent[w.Fyne()] || !d.quieted[w.Fyne()] || !w.View().Waiting() {
				t.Errorf("unfocused %v, urgent %v, mapped quiet %v, waiting %v; want all", w.Unfocused(), d.urgent[w.Fyne()], d.quieted[w.Fyne()], w.View().Waiting())
			}
			if warmed != 1 || d.other != tc.other || d.activeWin != nil || w.View().flash.count != 0 {
				t.Errorf("made hidden first %d times, focus with %d (want %d), ours %v, flashed %d", warmed, d.other, tc.other, d.activeWin != nil, w.View().flash.count)
			}
		})
	}
}

func TestMonitorAt(t *testing.T) {
	left, right := image.Rect(0, 0, 1920, 1080), image.Rect(1920, 0, 3200, 1024) // a 1280x1024 beside a 1920x1080
	mons := []image.Rectangle{left, right}
	for _, tc := range []struct {
		name string
		at   image.Point
		want image.Rectangle
	}{
		{"on the first", image.Pt(100, 100), left},
		{"on the second", image.Pt(2000, 500), right},
		{"second's first column", image.Pt(1920, 0), right},
		{"below the smaller one: the nearest", image.Pt(2500, 1050), right},
		{"off every monitor, left of them", image.Pt(-50, 500), left},
	} {
		if got := monitorAt(mons, tc.at); got != tc.want {
			t.Errorf("%s: monitorAt(%v) = %v, want %v", tc.name, tc.at, got, tc.want)
		}
	}
}

// A window opens on the monitor under the pointer, centred in its work
// area; the next ones there cascade from the last one on that monitor and
// stay within it; a window opened with the pointer back on the first
// monitor is centred there, whatever is open on the second.
func TestWindowsOpenOnTheMonitorUnderThePointer(t *testing.T) {
	d := newFakeDesk(t)
	d.frames = map[fyne.Window]image.Rectangle{}
	primary, second := image.Rect(0, 0, 1920, 1050), image.Rect(1920, 0, 3200, 1024) // a panel on the first
	d.mons = []image.Rectangle{primary, second}
	a := test.NewTempApp(t)
	p := NewPool(a)
	c := &clock{now: t0}
	size := image.Pt(680, 420)
	open := func(name string) image.Rectangle {
		w := p.NewWindow(question(wire.Prompt{Markdown: name}), Options{Now: c.Now}, func(wire.Answer) {})
		d.frames[w.Fyne()] = image.Rectangle{Max: size}
		w.Show()
		return d.frames[w.Fyne()]
	}
	d.pointer = image.Pt(2500, 300)
	var frames []image.Rectangle
	for i := range 6 {
		fr := open(fmt.Sprintf("on the second %d", i+1))
		if !fr.In(second) {
			t.Fatalf("window %d's frame %v leaves the second monitor %v", i+1, fr, second)
		}
		if i == 0 && fr.Min != image.Pt(1920+(1280-680)/2, (1024-420)/2) {
			t.Errorf("the first window's frame %v is not centred on the second monitor", fr)
		}
		if i > 0 && fr.Min == frames[i-1].Min {
			t.Errorf("window %d sits on window %d", i+1, i)
		}
		frames = append(frames, fr)
	}
	if frames[1].Min != frames[0].Min.Add(image.Pt(CascadeStep, CascadeStep)) {
		t.Errorf("the second window %v is not a cascade step from the first %v", frames[1], frames[0])
	}
	d.pointer = image.Pt(10, 1040)
	if fr := open("on the primary"); fr.Min != image.Pt((1920-680)/2, (1050-420)/2) {
		t.Errorf("with the pointer on the primary monitor, the frame %v is not centred there", fr)
	}
}
