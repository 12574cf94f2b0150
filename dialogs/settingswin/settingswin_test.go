package settingswin

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"feedback/internal/settings"
	"feedback/internal/settings/settingsfile"
)

var tools = []string{"interactive_feedback", "ask_human", "ask_user_question"}

func open(t *testing.T, file string, env map[string]string) (*Window, string, chan error, *[]settings.Settings) {
	t.Helper()
	a := test.NewTempApp(t)
	path := filepath.Join(t.TempDir(), "settings.json")
	if file != "" {
		if err := os.WriteFile(path, []byte(file), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	var got []settings.Settings
	o := fileOptions(path)
	o.Tools, o.Getenv = tools, func(k string) string { return env[k] }
	o.OnSaved = func(s settings.Settings) { got = append(got, s) }
	w := New(a, o)
	done := make(chan error, 1)
	w.saved = func(err error) { done <- err }
	w.Fyne().Show()
	t.Cleanup(func() {
		for _, win := range a.Driver().AllWindows() {
			if win == w.Fyne() {
				win.Close()
			}
		}
	})
	return w, path, done, &got
}

// fileOptions are the options the UI process gives a window over the
// settings file at path, as the app answers it (app/uirequests.go): the
// values read with settingsfile.ReadFile, the edits saved with
// settingsfile.SaveEdits (here in the test's process: the window does not
// care how they travel).
func fileOptions(path string) Options {
	values, err := settingsfile.ReadFile(path)
	return Options{Values: values, ReadError: err, Save: func(v settings.Settings, ch map[string]json.RawMessage) (settings.Settings, string, error) {
		return settingsfile.SaveEdits(path, v, ch)
	}}
}

func entry(t *testing.T, w *Window, key string) *widget.Entry {
	t.Helper()
	e, ok := w.byKey[key].input.(*escEntry)
	if !ok {
		t.Fatalf("%s: %T is not an entry", key, w.byKey[key].input)
	}
	return &e.Entry
}

func waitSaved(t *testing.T, done chan error) error {
	t.Helper()
	select {
	case err := <-done:
		return err
	case <-time.After(10 * time.Second):
		t.Fatal("the save did not end within 10 s")
		return nil
	}
}

func TestInvalidValueShowsItsMessageAndBlocksSave(t *testing.T) {
	w, path, _, got := open(t, `{"timeout_seconds": 5}`, nil)
	for _, tc := range []struct {
		key, text, want, fix string
	}{
		{"timeout_seconds", "-5", "Must be 0 (no countdown) or more, not -5.", "40"},
		{"timeout_seconds", "soon", "Enter a whole number.", "40"},
		{"images.max_total_mib", "2", "Must be at least images.max_mib (4), not 2.", "16"},
		{"retention_days", "0", "Must be 1 to 36500", "30"},
		{"ui_linger_seconds", "-1", "Must be 0 (quit at once) to 86400 seconds, not -1.", "0"},
		{"wait_seconds", "claude-code 540", "Line 1: write name = seconds", ""},
		{"wait_seconds", "cursor = 0", "cursor: must be 1 or more, not 0", "cursor = 30"},
		{"dnd_schedule", "22:00", `Must be HH:MM-HH:MM (24-hour clock), e.g. 22:00-08:00, or empty for none, not "22:00".`, "22:00-08:00"},
		{"dnd_schedule", "8:00-08:00", "Starts and ends at the same time", ""},
	} {
		e := entry(t, w, tc.key)
		e.SetText("")
		test.Type(e, tc.text)
		if p := w.Problem(tc.key); !strings.Contains(p, tc.want) {
			t.Fatalf("%s=%q: beside it %q, want %q", tc.key, tc.text, p, tc.want)
		}
		for key := range w.byKey {
			if key != tc.key && w.Problem(key) != "" {
				t.Errorf("%s=%q: beside %s too: %q", tc.key, tc.text, key, w.Problem(key))
			}
		}
		if !w.save.Disabled() {
			t.Fatalf("%s=%q: Save is enabled", tc.key, tc.text)
		}
		// The field's border is marked, and by Save the summary names it.
		if f := w.byKey[tc.key]; !f.mark.Visible() || !strings.HasPrefix(w.summaryText.Text, f.name+": ") || !w.summary.Visible() {
			t.Fatalf("%s=%q: border marked %v, summary %q", tc.key, tc.text, f.mark.Visible(), w.summaryText.Text)
		}
		test.Tap(w.save)
		w.Save()
		if data, _ := os.ReadFile(path); string(data) != `{"timeout_seconds": 5}` || len(*got) != 0 {
			t.Fatalf("%s=%q: saved anyway: %s", tc.key, tc.text, data)
		}
		e.SetText(tc.fix) // fixing it clears the message and enables Save
		if p := w.Problem(tc.key); p != "" || w.save.Disabled() || w.byKey[tc.key].mark.Visible() || w.summary.Visible() {
			t.Fatalf("%s=%q fixed: %q beside it, Save disabled %v, summary %q", tc.key, tc.fix, p, w.save.Disabled(), w.summaryText.Text)
		}
	}
}

func TestSaveWritesTheFileTheAppReads(t *testing.T) {
	w, path, done, got := open(t, `{"$comment": "kept", "timeout_seconds": 5, "tools": ["ask_human"]}`, nil)
	if e := entry(t, w, "timeout_seconds"); e.Text != "5" {
		t.Fatalf("countdown shows %q, want the file's 5", e.Text)
	}
	entry(t, w, "extend_seconds").SetText("120")
	entry(t, w, "wait_seconds").SetText("claude-code = 540\n\ncursor=50")
	w.byKey["sound"].input.(*escCheck).SetChecked(true)
	w.byKey["ui_prewarm"].input.(*escCheck).SetChecked(true)
	w.byKey["language"].input.(*escSelect).SetSelected("繁體中文 (zh-Hant)")
	w.byKey["start_at_login"].input.(*escSelect).SetSelected("Off")
	w.byKey["tools"].input.(*widget.CheckGroup).SetSelected([]string{"ask_user_question", "interactive_feedback"})
	test.Tap(w.save)
	if err := waitSaved(t, done); err != nil {
		t.Fatal(err)
	}
	s, err := settingsfile.Load(path, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	if s.TimeoutSeconds != 5 || s.ExtendSeconds != 120 || !s.Sound || !s.UIPrewarm || s.Language != settings.TraditionalChinese ||
		s.StartAtLogin == nil || *s.StartAtLogin || s.WaitSeconds["claude-code"] != 540 || s.WaitSeconds["cursor"] != 50 ||
		strings.Join(s.Tools, ",") != "interactive_feedback,ask_user_question" {
		t.Fatalf("file holds %+v", s)
	}
	if data, _ := os.ReadFile(path); !strings.Contains(string(data), `"$comment": "kept"`) {
		t.Fatalf("unknown key lost:\n%s", data)
	}
	if len(*got) != 1 || (*got)[0].ExtendSeconds != 120 {
		t.Fatalf("OnSaved got %+v", *got)
	}
	for _, win := range fyne.CurrentApp().Driver().AllWindows() {
		if win == w.Fyne() {
			t.Fatal("the window is still open after Save")
		}
	}
}

func TestMalformedFileIsSaidAndReplaced(t *testing.T) {
	w, path, done, _ := open(t, `{"timeout_seconds": `, nil)
	if w.banner.Hidden || !strings.Contains(w.banner.Text, "could not be read") {
		t.Fatalf("banner %q (hidden %v)", w.banner.Text, w.banner.Hidden)
	}
	if e := entry(t, w, "timeout_seconds"); e.Text != "600" {
		t.Fatalf("countdown shows %q, want the default", e.Text)
	}
	test.Tap(w.save)
	if err := waitSaved(t, done); err != nil {
		t.Fatal(err)
	}
	aside, _ := filepath.Glob(path + ".invalid-*")
	if len(aside) != 1 {
		t.Fatalf("moved aside: %v", aside)
	}
	if _, err := settingsfile.Load(path, func(string) string { return "" }); err != nil {
		t.Fatal(err)
	}
}

func TestOutOfRangeFileValueShownAtOpen(t *testing.T) {
	w, _, _, _ := open(t, `{"retention_days": 0}`, map[string]string{"FEEDBACK_TIMEOUT": "30"})
	if p := w.Problem("retention_days"); !strings.Contains(p, "Must be 1 to 36500 (days the history of ended questions is kept), not 0.") || !w.save.Disabled() {
		t.Fatalf("beside retention_days: %q; Save disabled %v", p, w.save.Disabled())
	}
	if h := w.byKey["timeout_seconds"].msg.Text; !strings.Contains(h, "FEEDBACK_TIMEOUT is set in the environment") {
		t.Fatalf("countdown hint %q does not say the environment overrides it", h)
	}
}

func TestParseWait(t *testing.T) {
	for _, tc := range []struct {
		in, problem string
		n           int
	}{
		{"", "", 0}, {"a = 1\n b=2 \n", "", 2}, {"* = 60", "", 1},
		{"a = 1\na = 2", "Line 2: a is listed twice.", 0}, {"= 3", "Line 1", 0}, {"a = x", "Line 1", 0},
		{strings.Repeat("a=1\n", MaxWaitLines+1), "At most", 0},
	} {
		got, p := ParseWait(tc.in)
		if !strings.Contains(p, tc.problem) || (tc.problem == "") != (p == "") || len(got) != tc.n {
			t.Errorf("ParseWait(%q) = %v, %q; want %d entries, %q", tc.in, got, p, tc.n, tc.problem)
		}
	}
}

func TestSettingsGolden(t *testing.T) {
	w, _, _, _ := open(t, `{"timeout_seconds": -5, "wait_seconds": {"claude-code": 540}}`, nil)
	w.Fyne().Resize(fyne.NewSize(720, 560))
	test.AssertImageMatches(t, "settings.png", w.Fyne().Canvas().Capture())
	w.tabs.SelectIndex(1)
	test.AssertImageMatches(t, "settings-agents.png", w.Fyne().Canvas().Capture())
	w.tabs.SelectIndex(3) // the linger time and ui_sleep, with what sleeping keeps
	test.AssertImageMatches(t, "settings-app.png", w.Fyne().Canvas().Capture())
}

// Save greyed by a field on another page, scrolled away: the summary by
// Save names it and a tap on it goes there (its page, its input focused).
func TestSummaryGoesToTheBadField(t *testing.T) {
	w, _, _, _ := open(t, `{"ui_linger_seconds": -1}`, nil)
	w.Fyne().Resize(fyne.NewSize(720, 560))
	f := w.byKey["ui_linger_seconds"]
	if !w.summary.Visible() || !strings.HasPrefix(w.summaryText.Text, "Keep windows ready (s): Must be 0") {
		t.Fatalf("summary %q (visible %v)", w.summaryText.Text, w.summary.Visible())
	}
	if w.tabs.Selected() == f.page.tab {
		t.Fatal("the bad field's page is already shown: the test proves nothing")
	}
	if !strings.HasSuffix(f.page.tab.Text, "⚠") {
		t.Errorf("the bad page's tab reads %q, want it marked", f.page.tab.Text)
	}
	test.Tap(w.summaryText)
	if w.tabs.Selected() != f.page.tab {
		t.Fatalf("the summary went to %q, want %q", w.tabs.Selected().Text, f.page.tab.Text)
	}
	if fo, _ := f.input.(fyne.Focusable); w.Fyne().Canvas().Focused() != fo || fo == nil {
		t.Fatalf("focused %T, want the bad field's entry", w.Fyne().Canvas().Focused())
	}
}

// Cancel, or closing the window, with an edit asks before dropping it;
// without one it closes at once.
func TestCancelAsksBeforeDiscarding(t *testing.T) {
	w, path, _, _ := open(t, `{"timeout_seconds": 5}`, nil)
	open := func() bool {
		for _, win := range fyne.CurrentApp().Driver().AllWindows() {
			if win == w.Fyne() {
				return true
			}
		}
		return false
	}
	entry(t, w, "timeout_seconds").SetText("50")
	test.Tap(w.cancel)
	if !open() || w.Fyne().Canvas().Overlays().Top() == nil {
		t.Fatal("Cancel with an edit closed the window without asking")
	}
	w.Fyne().Canvas().Overlays().Top().Hide() // "Keep editing"
	w.Fyne().Canvas().Overlays().Remove(w.Fyne().Canvas().Overlays().Top())
	if !open() || entry(t, w, "timeout_seconds").Text != "50" {
		t.Fatal("keeping on editing lost the edit")
	}
	entry(t, w, "timeout_seconds").SetText("5") // back as in the file: nothing to lose
	w.RequestClose()
	if open() {
		t.Fatal("a window without edits asked before closing")
	}
	if data, _ := os.ReadFile(path); string(data) != `{"timeout_seconds": 5}` {
		t.Fatalf("the file changed: %s", data)
	}
}

// The wheel over a multi-line field scrolls the page, not the field.
func TestWheelOverMultiLineFieldScrollsThePage(t *testing.T) {
	w, _, _, _ := open(t, "", nil)
	w.Fyne().Resize(fyne.NewSize(720, 400))
	f := w.byKey["resubmit_prompt"]
	w.tabs.Select(f.page.tab)
	var fwd *wheelForward
	for _, o := range f.box.(*fyne.Container).Objects {
		if wf, ok := o.(*wheelForward); ok {
			fwd = wf
		}
	}
	if fwd == nil {
		t.Fatal("no wheel layer over the multi-line field")
	}
	before := f.page.scroll.Offset.Y
	fwd.Scrolled(&fyne.ScrollEvent{Scrolled: fyne.NewDelta(0, -120)})
	if f.page.scroll.Offset.Y <= before {
		t.Fatalf("page offset %v → %v: the wheel did not scroll the page", before, f.page.scroll.Offset.Y)
	}
}

// A hand edit made while the window was open survives its Save; the
// window's own edits win where both changed a value.
func TestSaveKeepsAHandEditMadeMeanwhile(t *testing.T) {
	w, path, done, got := open(t, `{"timeout_seconds": 5}`, nil)
	entry(t, w, "extend_seconds").SetText("120")
	entry(t, w, "images.max_count").SetText("3")
	entry(t, w, "timeout_seconds").SetText("9")
	if err := os.WriteFile(path, []byte(`{"timeout_seconds": 7, "retention_days": 7, "images": {"max_edge": 800}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	test.Tap(w.save)
	if err := waitSaved(t, done); err != nil {
		t.Fatal(err)
	}
	s, err := settingsfile.Load(path, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	if s.RetentionDays != 7 || s.Images.MaxEdge != 800 || s.ExtendSeconds != 120 || s.Images.MaxCount != 3 || s.TimeoutSeconds != 9 {
		t.Fatalf("file holds %+v", s)
	}
	if len(*got) != 1 || (*got)[0].RetentionDays != 7 {
		t.Fatalf("OnSaved got %+v, want the merged settings", *got)
	}
}

// A language the file names but the app lacks is said beside the field
// until one is chosen; unknown tools likewise until the boxes are changed.
func TestUnknownLanguageAndToolsFromTheFile(t *testing.T) {
	w, _, _, _ := open(t, `{"language": "fr", "tools": ["ask_human", "gone_tool"]}`, nil)
	if p := w.Problem("language"); !strings.Contains(p, `Must be one of auto, en, zh-Hans, zh-Hant, not "fr".`) || !w.save.Disabled() {
		t.Fatalf("beside language: %q; Save disabled %v", p, w.save.Disabled())
	}
	if p := w.Problem("tools"); !strings.Contains(p, "Unknown tools in the file: gone_tool.") {
		t.Fatalf("beside tools: %q", p)
	}
	w.byKey["language"].input.(*escSelect).SetSelected("English")
	g := w.byKey["tools"].input.(*widget.CheckGroup)
	if strings.Join(g.Selected, ",") != "ask_human" {
		t.Fatalf("tools checked: %q, want the known one", g.Selected)
	}
	g.SetSelected([]string{"ask_human", "interactive_feedback"})
	s, ok := w.Check()
	if !ok || s.Language != "en" || strings.Join(s.Tools, ",") != "interactive_feedback,ask_human" {
		t.Fatalf("Check = %+v, %v", s, ok)
	}
}

// Without the list of tools the field is a comma-separated entry.
func TestToolsAsTextWithoutTheList(t *testing.T) {
	a := test.NewTempApp(t)
	path := filepath.Join(t.TempDir(), "settings.json")
	o := fileOptions(path)
	o.Getenv = func(string) string { return "" }
	w := New(a, o)
	e := entry(t, w, "tools")
	e.SetText(" ask_human ,, interactive_feedback ")
	if s, ok := w.Check(); !ok || strings.Join(s.Tools, ",") != "ask_human,interactive_feedback" {
		t.Fatalf("Check = %q, %v", s.Tools, ok)
	}
	e.SetText("")
	if s, _ := w.Check(); s.Tools != nil {
		t.Fatalf("empty entry gives %q, want none (all tools)", s.Tools)
	}
}

// The do-not-disturb schedule is saved where the app reads it; the
// environment variable that overrides it is named beside it.
func TestDNDScheduleField(t *testing.T) {
	w, path, done, _ := open(t, `{"dnd_schedule": "23:00-07:00"}`, map[string]string{"FEEDBACK_DND_SCHEDULE": "22:00-06:00"})
	e := entry(t, w, "dnd_schedule")
	if e.Text != "23:00-07:00" {
		t.Fatalf("the field shows %q, want the file's", e.Text)
	}
	if hint := w.byKey["dnd_schedule"].msg.Text; !strings.Contains(hint, "22:00-08:00") || !strings.Contains(hint, "FEEDBACK_DND_SCHEDULE is set") {
		t.Errorf("beside it: %q", hint)
	}
	if ph := e.PlaceHolder; ph != "e.g. 22:00-08:00" {
		t.Errorf("placeholder %q, want it to read as an example", ph)
	}
	e.SetText(" 21:30-06:45 ")
	test.Tap(w.save)
	if err := waitSaved(t, done); err != nil {
		t.Fatal(err)
	}
	s, err := settingsfile.ReadFile(path)
	if err != nil || s.DNDSchedule != "21:30-06:45" {
		t.Fatalf("file holds %q, %v", s.DNDSchedule, err)
	}
}

// A save the app refuses (a full disk, a value it checks otherwise) is
// said in the window, which stays open with every value the user typed;
// the next save sends them again.
func TestFailedSaveIsSaidAndKeepsTheEdits(t *testing.T) {
	a := test.NewTempApp(t)
	var sent []settings.Settings
	fail := true
	o := Options{Values: settings.Default(), Getenv: func(string) string { return "" }, Tools: tools,
		Save: func(v settings.Settings, ch map[string]json.RawMessage) (settings.Settings, string, error) {
			sent = append(sent, v)
			if _, ok := ch["timeout_seconds"]; !ok {
				t.Errorf("the edit is not among the changes sent: %v", ch)
			}
			if fail {
				return v, "", errors.New("disk full")
			}
			return v, "", nil
		}}
	closed := false
	o.OnClosed = func() { closed = true }
	w := New(a, o)
	done := make(chan error, 1)
	w.saved = func(err error) { done <- err }
	w.Fyne().Show()
	e := entry(t, w, "timeout_seconds")
	e.SetText("42")
	test.Tap(w.save)
	if err := waitSaved(t, done); err == nil {
		t.Fatal("the save did not fail")
	}
	if !strings.Contains(w.banner.Text, "Not saved: disk full") || !w.banner.Visible() {
		t.Errorf("banner %q (shown %v), want the app's error", w.banner.Text, w.banner.Visible())
	}
	if closed || e.Text != "42" || w.save.Disabled() {
		t.Errorf("after the failure: closed %v, field %q, save disabled %v", closed, e.Text, w.save.Disabled())
	}
	fail = false
	test.Tap(w.save)
	if err := waitSaved(t, done); err != nil {
		t.Fatal(err)
	}
	if len(sent) != 2 || sent[1].TimeoutSeconds != 42 {
		t.Errorf("sent %+v, want the edit twice", sent)
	}
}

// The wheel over any multi-line field scrolls the page as the window's
// driver routes it — to the Scrollable under the pointer — at the field's
// middle, on each page that has one.
func TestWheelRoutedOverEntriesScrollsThePage(t *testing.T) {
	for _, key := range []string{"quick_replies", "resubmit_prompt", "wait_seconds", "dnd_schedule", "focus_shortcut", "max_wait_seconds", "retention_image_mib"} {
		w, _, _, _ := open(t, "", nil)
		w.Fyne().Resize(fyne.NewSize(720, 400))
		f := w.byKey[key]
		w.tabs.Select(f.page.tab)
		c := w.Fyne().Canvas()
		d := fyne.CurrentApp().Driver()
		f.page.scroll.ScrollToOffset(fyne.NewPos(0, 0))
		// Bring the field into view, leaving room below it to scroll.
		top := d.AbsolutePositionForObject(f.box).Y - d.AbsolutePositionForObject(f.page.scroll).Y
		f.page.scroll.ScrollToOffset(fyne.NewPos(0, max(0, top-40)))
		before := f.page.scroll.Offset.Y
		pos := d.AbsolutePositionForObject(f.box).Add(fyne.NewPos(f.box.Size().Width/2, min(f.box.Size().Height/2, 20)))
		if before == 0 {
			t.Fatalf("%s: the page did not scroll to the field", key)
		}
		test.Scroll(c, pos, 0, 60) // up: the page can always go back up
		if f.page.scroll.Offset.Y >= before {
			t.Errorf("%s: the wheel at %v over the field left the page at %v", key, pos, before)
		}
	}
}
