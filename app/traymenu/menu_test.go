package traymenu

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
	_ "time/tzdata" // the DST case needs Europe/Berlin on any machine
	"unicode/utf8"

	"feedback/app/core"
	"feedback/app/core/away"
	"feedback/app/core/dnd"
	"feedback/app/core/messages"
	"feedback/internal/i18n"
	"feedback/internal/settings"
	"feedback/ipc/wire"
)

// noon is a fixed "now" far from midnight, in a zone of its own.
var noon = time.Date(2026, 3, 10, 12, 0, 0, 0, time.FixedZone("test", 3600))

func item(id, title, client, project string, age time.Duration) core.Item {
	return core.Item{ID: id, Title: title, Client: client, Project: project, Since: noon.Add(-age)}
}

// labels lists the menu's lines, separators as "---", disabled lines in
// brackets and checked ones with "[x] ", submenus indented below them.
func labels(es []MenuEntry, indent string) []string {
	var out []string
	for _, e := range es {
		switch {
		case e.Separator:
			out = append(out, indent+"---")
			continue
		case !e.Enabled:
			out = append(out, indent+"["+e.Label+"]")
		case e.Checkable && e.Checked:
			out = append(out, indent+"[x] "+e.Label)
		case e.Checkable:
			out = append(out, indent+"[ ] "+e.Label)
		default:
			out = append(out, indent+e.Label)
		}
		out = append(out, labels(e.Children, indent+"  ")...)
	}
	return out
}

func find(t *testing.T, es []MenuEntry, prefix string) MenuEntry {
	t.Helper()
	for _, e := range es {
		if strings.HasPrefix(e.Label, prefix) {
			return e
		}
		for _, c := range e.Children {
			if strings.HasPrefix(c.Label, prefix) {
				return c
			}
		}
	}
	t.Fatalf("no entry %q in\n%s", prefix, strings.Join(labels(es, ""), "\n"))
	return MenuEntry{}
}

func wantLines(t *testing.T, v TrayView, want ...string) {
	t.Helper()
	got := labels(v.Menu, "")
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("menu:\n%s\n\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestTrayEmpty(t *testing.T) {
	v := Tray(TrayInput{Now: noon, History: true, Settings: true})
	wantLines(t, v,
		"[No open questions]",
		"---",
		"Do not disturb",
		"  [ ] On until I turn it off",
		"  [ ] For 1 hour",
		"  [ ] Until tomorrow 08:00",
		"  [x] Off",
		"History…",
		"Settings…",
		"---",
		"Quit",
	)
	if v.Title != "feedback" || v.Tooltip != "feedback — no questions waiting" || v.Count != 0 || v.DND {
		t.Errorf("view %+v", v)
	}
	if v.Refresh != 0 {
		t.Errorf("nothing waits and do-not-disturb is off, yet Refresh = %v", v.Refresh)
	}
	if a := find(t, v.Menu, "Quit").Action; a != (MenuAction{Kind: ActionQuit}) {
		t.Errorf("Quit does %+v", a)
	}
	if a := find(t, v.Menu, "History").Action; a.Kind != ActionHistory {
		t.Errorf("History… does %+v", a)
	}
	if a := find(t, v.Menu, "Settings").Action; a.Kind != ActionSettings {
		t.Errorf("Settings… does %+v", a)
	}
}

// Without their windows, History… and Settings… are not offered.
func TestTrayWithoutHistoryAndSettings(t *testing.T) {
	for _, l := range labels(Tray(TrayInput{Now: noon}).Menu, "") {
		if strings.Contains(l, "History") || strings.Contains(l, "Settings") {
			t.Errorf("menu offers %q", l)
		}
	}
}

func TestTrayOneQuestion(t *testing.T) {
	v := Tray(TrayInput{Now: noon, Items: []core.Item{item("q1", "Deploy now?", "claude-code", "shop", 3*time.Minute+10*time.Second)}})
	wantLines(t, v,
		"[claude-code · shop]",
		"Deploy now? — 3 min",
		"---",
		"Snooze",
		"  For 10 minutes",
		"  For 1 hour",
		"  Until I'm back",
		"Do not disturb",
		"  [ ] On until I turn it off",
		"  [ ] For 1 hour",
		"  [ ] Until tomorrow 08:00",
		"  [x] Off",
		"---",
		"Quit",
	)
	if v.Tooltip != "feedback — 1 question waiting" || v.Count != 1 {
		t.Errorf("tooltip %q, count %d", v.Tooltip, v.Count)
	}
	if a := find(t, v.Menu, "Deploy").Action; a != (MenuAction{Kind: ActionRaise, Question: "q1"}) {
		t.Errorf("the question's entry does %+v", a)
	}
}

// Questions are grouped by client and project; groups come in the order of
// their oldest question, questions oldest first within a group.
func TestTrayGroupsByClientAndProject(t *testing.T) {
	items := []core.Item{
		item("c1", "Codex first", "codex", "api", 50*time.Minute),
		item("a2", "Claude shop second", "claude-code", "shop", 2*time.Minute),
		item("a1", "Claude shop first", "claude-code", "shop", 2*time.Hour),
		item("b1", "Claude docs", "claude-code", "docs", 30*time.Second),
		item("n1", "Script", "", "", 5*time.Minute),
		item("p1", "Only project", "", "infra", 90*time.Minute),
	}
	v := Tray(TrayInput{Now: noon, Items: items})
	got := labels(v.Menu, "")
	want := []string{
		"[claude-code · shop]",
		"Claude shop first — 2 h",
		"Claude shop second — 2 min",
		"---",
		"[infra]",
		"Only project — 1 h",
		"---",
		"[codex · api]",
		"Codex first — 50 min",
		"---",
		"[Other]",
		"Script — 5 min",
		"---",
		"[claude-code · docs]",
		"Claude docs — just now",
		"---",
	}
	if strings.Join(got[:len(want)], "\n") != strings.Join(want, "\n") {
		t.Errorf("menu:\n%s\n\nwant it to start:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if v.Tooltip != "feedback — 6 questions waiting" || v.Count != 6 {
		t.Errorf("tooltip %q, count %d", v.Tooltip, v.Count)
	}
	for _, it := range items {
		e := find(t, v.Menu, it.Title+" —")
		if e.Action != (MenuAction{Kind: ActionRaise, Question: it.ID}) || !e.Enabled {
			t.Errorf("%q does %+v (enabled %v), want to raise %s", e.Label, e.Action, e.Enabled, it.ID)
		}
	}
}

// A lone group of questions from an unknown client needs no heading.
func TestTrayNoHeadingForOneNamelessGroup(t *testing.T) {
	v := Tray(TrayInput{Now: noon, Items: []core.Item{item("x", "From a script", "", "", 0)}})
	if got := labels(v.Menu, "")[0]; got != "From a script — just now" {
		t.Errorf("first line %q", got)
	}
}

func TestAge(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{-5 * time.Second, "just now"}, // a clock step back
		{0, "just now"},
		{59 * time.Second, "just now"},
		{time.Minute, "1 min"},
		{3*time.Minute + 59*time.Second, "3 min"},
		{59*time.Minute + 59*time.Second, "59 min"},
		{time.Hour, "1 h"},
		{23*time.Hour + 59*time.Minute, "23 h"},
		{24 * time.Hour, "1 d"},
		{49 * time.Hour, "2 d"},
	} {
		if got := Age(tc.d); got != tc.want {
			t.Errorf("Age(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}

// Question titles and client names are hostile: one plain line, no control
// or bidi characters, bounded.
func TestTrayLabelsAreCleanAndBounded(t *testing.T) {
	long := strings.Repeat("word ", 100)
	items := []core.Item{
		item("nl", "line one\nline two\r\n\tthree", "cl\x1bient", "pro\u202eject", 0),
		item("long", long, strings.Repeat("c", 300), "", time.Second),
		item("blank", " \n\u200b ", "x", "", 2*time.Second),
		item("emoji", "ship 👩\u200d💻 it\x00", "x", "", 3*time.Second),
	}
	v := Tray(TrayInput{Now: noon, Items: items})
	for _, l := range labels(v.Menu, "") {
		for _, r := range l {
			if r < 0x20 || r == 0x7f || r == '\u202e' || r == '\u200b' {
				t.Errorf("label %q holds %U", l, r)
			}
		}
		if n := utf8.RuneCountInString(l); n > 2+maxTitleRunes+len(" — just now") {
			t.Errorf("label of %d runes: %q", n, l)
		}
	}
	lines := strings.Join(labels(v.Menu, ""), "\n")
	for _, want := range []string{
		"[client · project]",
		"line one line two three — just now",
		"[" + strings.Repeat("c", maxNameRunes-1) + "…]",
		strings.TrimSpace(strings.Repeat("word ", 12)) + "…" + " — just now",
		"Question — just now",
		"ship 👩\u200d💻 it — just now",
	} {
		if !strings.Contains(lines, want) {
			t.Errorf("menu lacks %q:\n%s", want, lines)
		}
	}
}

// The menu lists at most MaxTrayQuestions, the oldest, and counts the rest.
func TestTrayCapsTheList(t *testing.T) {
	var items []core.Item
	for i := range 30 {
		items = append(items, item(fmt.Sprint("q", i), fmt.Sprint("Question ", i), "c", "", time.Duration(i)*time.Minute))
	}
	v := Tray(TrayInput{Now: noon, Items: items})
	raise := 0
	for _, e := range v.Menu {
		if e.Action.Kind == ActionRaise {
			raise++
			if e.Action.Question == "q0" || e.Action.Question == "q9" {
				t.Errorf("one of the 10 newest is listed: %q", e.Label)
			}
		}
	}
	if raise != MaxTrayQuestions {
		t.Errorf("%d questions listed, want %d", raise, MaxTrayQuestions)
	}
	find(t, v.Menu, "and 10 more")
	if v.Count != 30 || v.Tooltip != "feedback — 30 questions waiting" {
		t.Errorf("count %d, tooltip %q", v.Count, v.Tooltip)
	}
}

func TestTrayDoNotDisturb(t *testing.T) {
	hour, _ := dnd.For(dnd.Hour, noon.Add(-10*time.Minute))
	tomorrow, _ := dnd.For(dnd.Tomorrow, noon)
	for _, tc := range []struct {
		name    string
		dnd     dnd.State
		on      bool
		parent  string
		checked string
		tooltip string
	}{
		{"off", dnd.State{Mode: dnd.Off}, false, "Do not disturb", "Off", "feedback — 1 question waiting"},
		{"zero", dnd.State{}, false, "Do not disturb", "Off", "feedback — 1 question waiting"},
		{"on", dnd.State{Mode: dnd.On}, true, "Do not disturb (on)", "On until I turn it off",
			"feedback — 1 question waiting; do not disturb is on"},
		{"hour", hour, true, "Do not disturb (until 12:50)", "For 1 hour (until 12:50)",
			"feedback — 1 question waiting; do not disturb until 12:50"},
		{"tomorrow", tomorrow, true, "Do not disturb (until tomorrow 08:00)", "Until tomorrow 08:00",
			"feedback — 1 question waiting; do not disturb until tomorrow 08:00"},
		{"hour ended", dnd.State{Mode: dnd.Hour, Until: noon.Add(-time.Second)}, false, "Do not disturb", "Off", "feedback — 1 question waiting"},
		{"tomorrow ended", dnd.State{Mode: dnd.Tomorrow, Until: noon}, false, "Do not disturb", "Off", "feedback — 1 question waiting"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := Tray(TrayInput{Now: noon, DND: tc.dnd, Items: []core.Item{item("q", "Q", "", "", 0)}})
			if v.DND != tc.on || v.Tooltip != tc.tooltip {
				t.Errorf("dnd.State %v, tooltip %q; want %v, %q", v.DND, v.Tooltip, tc.on, tc.tooltip)
			}
			var parent MenuEntry
			for _, e := range v.Menu {
				if strings.HasPrefix(e.Label, "Do not disturb") {
					parent = e
				}
			}
			if parent.Label != tc.parent || len(parent.Children) != 4 {
				t.Fatalf("parent %q with %d choices, want %q with 4", parent.Label, len(parent.Children), tc.parent)
			}
			modes := []dnd.Mode{dnd.On, dnd.Hour, dnd.Tomorrow, dnd.Off}
			for i, c := range parent.Children {
				if c.Action != (MenuAction{Kind: ActionDND, DND: modes[i]}) || !c.Checkable || !c.Enabled {
					t.Errorf("choice %q: %+v", c.Label, c)
				}
				if c.Checked != (c.Label == tc.checked) {
					t.Errorf("choice %q checked %v, want only %q checked", c.Label, c.Checked, tc.checked)
				}
			}
		})
	}
}

// Refresh says when an age or the end of do-not-disturb changes a label.
func TestTrayRefresh(t *testing.T) {
	for _, tc := range []struct {
		name  string
		items []core.Item
		dnd   dnd.State
		want  time.Duration
	}{
		{"nothing", nil, dnd.State{}, 0},
		{"just now", []core.Item{item("a", "A", "", "", 20*time.Second)}, dnd.State{}, 40 * time.Second},
		{"minutes", []core.Item{item("a", "A", "", "", 3*time.Minute+20*time.Second)}, dnd.State{}, 40 * time.Second},
		{"hours", []core.Item{item("a", "A", "", "", 2*time.Hour+10*time.Minute)}, dnd.State{}, 50 * time.Minute},
		{"the soonest of two", []core.Item{item("a", "A", "", "", 2*time.Hour+10*time.Minute), item("b", "B", "", "", 5*time.Second)}, dnd.State{}, 55 * time.Second},
		{"do not disturb ends", nil, dnd.State{Mode: dnd.Hour, Until: noon.Add(10 * time.Minute)}, 10 * time.Minute},
		{"do not disturb ends after an age changes", []core.Item{item("a", "A", "", "", 30*time.Second)}, dnd.State{Mode: dnd.Hour, Until: noon.Add(10 * time.Minute)}, 30 * time.Second},
		{"on until turned off: midnight renames the choices", nil, dnd.State{Mode: dnd.On}, 12 * time.Hour},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Tray(TrayInput{Now: noon, Items: tc.items, DND: tc.dnd}).Refresh; got != tc.want {
				t.Errorf("Refresh = %v, want %v", got, tc.want)
			}
		})
	}
}

// Past midnight "until tomorrow" ends the same morning, and says so.
func TestTrayTomorrowChoiceAfterMidnight(t *testing.T) {
	night := time.Date(2026, 3, 10, 1, 30, 0, 0, noon.Location())
	v := Tray(TrayInput{Now: night})
	find(t, v.Menu, "Until 08:00")
}

func TestClock(t *testing.T) {
	for _, tc := range []struct {
		t    time.Time
		want string
	}{
		{noon.Add(35 * time.Minute), "12:35"},
		{noon.Add(20 * time.Hour), "tomorrow 08:00"},
		{noon.Add(44 * time.Hour), "Thu 12 Mar 08:00"},
		{noon.Add(35 * time.Minute).UTC(), "12:35"}, // shown in now's zone
	} {
		if got := endTime(i18n.For(i18n.English), tc.t, noon); got != tc.want {
			t.Errorf("endTime(%v) = %q, want %q", tc.t, got, tc.want)
		}
	}
}

func TestMenuLabel(t *testing.T) {
	for _, tc := range []struct{ goos, in, want string }{
		{"linux", "rename old_name & co", "rename old__name & co"},
		{"freebsd", "a_b", "a__b"},
		{"windows", "rename old_name & co", "rename old_name && co"},
		{"darwin", "old_name & co", "old_name & co"},
	} {
		if got := MenuLabel(tc.goos, tc.in); got != tc.want {
			t.Errorf("MenuLabel(%s, %q) = %q, want %q", tc.goos, tc.in, got, tc.want)
		}
	}
}

// The agents' recent messages are a "Messages" submenu, newest first, each
// "client: title or text — age" opening History; their ages refresh the
// view; a hostile text is one clean, bounded line.
func TestTrayMessages(t *testing.T) {
	ms := []messages.Item{
		{Message: wire.Message{Client: "claude-code", Text: "blocked on\ncredentials"}, At: noon.Add(-30 * time.Second)},
		{Message: wire.Message{Client: "codex", Title: "PR opened", Text: "tests green"}, At: noon.Add(-5*time.Minute - 10*time.Second)},
		{Message: wire.Message{Text: "\u202eevil " + strings.Repeat("x", 100)}, At: noon.Add(-2 * time.Hour)},
	}
	v := Tray(TrayInput{Now: noon, Messages: ms, History: true})
	wantLines(t, v,
		"[No open questions]",
		"---",
		"Messages (3)",
		"  claude-code: blocked on credentials — just now",
		"  codex: PR opened — 5 min",
		"  evil "+strings.Repeat("x", 54)+"… — 2 h",
		"---",
		"Do not disturb",
		"  [ ] On until I turn it off",
		"  [ ] For 1 hour",
		"  [ ] Until tomorrow 08:00",
		"  [x] Off",
		"History…",
		"---",
		"Quit",
	)
	if a := find(t, v.Menu, "codex").Action; a.Kind != ActionHistory {
		t.Errorf("a message's entry does %+v", a)
	}
	if v.Refresh != 30*time.Second {
		t.Errorf("refresh in %v, want 30s (the newest message's age)", v.Refresh)
	}
	if v := Tray(TrayInput{Now: noon, Messages: ms}); find(t, v.Menu, "codex").Enabled {
		t.Error("without History a message's entry does something")
	}
}

// A snoozed question is listed with its snooze instead of its age, is not
// counted as waiting, and clicking it brings it back (Raise); "Snooze"
// offers the three snoozes while any question waits: of all of them, or of
// each.
func TestTraySnoozed(t *testing.T) {
	a := item("a", "Deploy now?", "claude-code", "shop", 3*time.Minute)
	a.Snoozed = &wire.Snooze{Until: noon.Add(30 * time.Minute)}
	b := item("b", "Rename?", "claude-code", "shop", time.Minute)
	b.Snoozed = &wire.Snooze{UntilBack: true}
	v := Tray(TrayInput{Now: noon, Items: []core.Item{a, b}})
	if v.Count != 0 || v.Tooltip != "feedback — no questions waiting" {
		t.Errorf("count %d, tooltip %q", v.Count, v.Tooltip)
	}
	find(t, v.Menu, "Deploy now? — snoozed until 12:30")
	find(t, v.Menu, "Rename? — snoozed until you're back")
	for _, e := range v.Menu {
		if e.Label == "Snooze" {
			t.Error("snooze offered with nothing to snooze")
		}
	}
	c := item("c", "Ship?", "", "", time.Minute)
	v = Tray(TrayInput{Now: noon, Items: []core.Item{a, c}})
	s := find(t, v.Menu, "Snooze")
	if len(s.Children) != 3 || s.Children[1].Action != (MenuAction{Kind: ActionSnooze, SnoozeMinutes: 60}) || s.Children[2].Action != (MenuAction{Kind: ActionSnooze, UntilBack: true}) || v.Count != 1 {
		t.Errorf("one question waiting: snooze entry %+v, count %d", s, v.Count)
	}
	// Several waiting: all of them, or each (the snoozed one is not listed).
	d := item("d", "Rename?", "codex", "", 2*time.Minute)
	v = Tray(TrayInput{Now: noon, Items: []core.Item{a, c, d}})
	s = find(t, v.Menu, "Snooze")
	got := labels(s.Children, "")
	want := []string{"All questions", "  For 10 minutes", "  For 1 hour", "  Until I'm back", "---",
		"Rename?", "  For 10 minutes", "  For 1 hour", "  Until I'm back",
		"Ship?", "  For 10 minutes", "  For 1 hour", "  Until I'm back"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("snooze submenu:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if a := s.Children[3].Children[0].Action; a != (MenuAction{Kind: ActionSnooze, Question: "c", SnoozeMinutes: 10}) {
		t.Errorf("Ship? for 10 minutes does %+v", a)
	}
}

// Away shows in the tooltip and at the top of the menu, like do not
// disturb; what was asked meanwhile is listed with what each agent was told.
func TestTrayAway(t *testing.T) {
	a := away.State{Mode: settings.AwayProceed, On: true, Since: noon.Add(-20 * time.Minute), Asked: []away.Item{
		{Client: "claude-code", Title: "Deploy now?", Proceeded: true},
		{Client: "codex", Title: "Rename the package?"},
	}}
	v := Tray(TrayInput{Now: noon, Away: a, History: true})
	if v.Tooltip != "feedback — no questions waiting; you are away: agents proceed" {
		t.Errorf("tooltip %q", v.Tooltip)
	}
	if v.Menu[0].Label != "Away since 11:40: agents proceed without you" || v.Menu[0].Enabled {
		t.Errorf("first entry %+v", v.Menu[0])
	}
	e := find(t, v.Menu, "Asked while you were away (2)")
	if len(e.Children) != 2 || e.Children[0].Label != "claude-code: Deploy now? — told to proceed" || e.Children[1].Label != "codex: Rename the package? — waited for you" {
		t.Errorf("away entry %+v", e)
	}
	a.On, a.Mode = false, settings.AwayWait
	v = Tray(TrayInput{Now: noon, Away: a})
	if strings.Contains(v.Tooltip, "away") || strings.HasPrefix(v.Menu[0].Label, "Away") {
		t.Errorf("back: tooltip %q, first %q", v.Tooltip, v.Menu[0].Label)
	}
	find(t, v.Menu, "Asked while you were away (2)")
}

// night is a night in June, 22:00 to 08:00 (UTC).
func night(day, h, m, s int) time.Time { return time.Date(2026, 6, day, h, m, s, 0, time.UTC) }

// The tray says the schedule is what holds: in the tooltip, the heading
// and a checked entry; Off is not checked.
func TestTrayShowsTheSchedule(t *testing.T) {
	now := night(10, 23, 0, 0)
	v := Tray(TrayInput{DND: dnd.State{Mode: dnd.Scheduled, Until: night(11, 8, 0, 0)}, Now: now, Lang: "en"})
	if want := "feedback — no questions waiting; do not disturb until tomorrow 08:00 (schedule)"; v.Tooltip != want {
		t.Errorf("tooltip %q, want %q", v.Tooltip, want)
	}
	if !v.DND {
		t.Error("the icon is not the do-not-disturb one")
	}
	var dnd MenuEntry
	for _, e := range v.Menu {
		if len(e.Children) > 0 {
			dnd = e
		}
	}
	if dnd.Label != "Do not disturb (until tomorrow 08:00, schedule)" {
		t.Errorf("heading %q", dnd.Label)
	}
	var got []string
	for _, c := range dnd.Children {
		l := c.Label
		if c.Checked {
			l += " (checked)"
		}
		got = append(got, l)
	}
	want := "On until I turn it off|For 1 hour|Until tomorrow 08:00|Scheduled quiet hours (until tomorrow 08:00) (checked)|Off"
	if strings.Join(got, "|") != want {
		t.Errorf("choices %q, want %q", strings.Join(got, "|"), want)
	}
	if v.Refresh <= 0 || v.Refresh > 9*time.Hour {
		t.Errorf("refresh in %v", v.Refresh)
	}
}

// The tray offers "Note for an agent…" before History…, when asked to.
func TestTrayOffersTheNoteWindow(t *testing.T) {
	v := Tray(TrayInput{Now: noon, History: true, Note: true, Lang: "en"})
	e := find(t, v.Menu, "Note for an agent")
	if e.Label != "Note for an agent…" || !e.Enabled || e.Action != (MenuAction{Kind: ActionNote}) {
		t.Errorf("entry %+v", e)
	}
	got := labels(v.Menu, "")
	if i := slices.Index(got, "Note for an agent…"); i < 0 || got[i+1] != "History…" {
		t.Errorf("menu:\n%s", strings.Join(got, "\n"))
	}
	for _, l := range []string{"zh-Hans", "zh-Hant"} {
		if e := Tray(TrayInput{Now: noon, Note: true, Lang: l}); slices.ContainsFunc(labels(e.Menu, ""), func(s string) bool { return strings.HasPrefix(s, "Note for") }) {
			t.Errorf("%s: the entry is not translated", l)
		}
	}
	if slices.ContainsFunc(labels(Tray(TrayInput{Now: noon}).Menu, ""), func(s string) bool { return strings.HasPrefix(s, "Note for") }) {
		t.Error("offered without Note")
	}
}

// An approval asked while the user was away says what became of the call,
// never "told to proceed" under the window's generic title; other
// questions keep their lines; in the tray and the notification alike.
func TestAwayLines(t *testing.T) {
	asked := []away.Item{
		{ID: "a1", Client: "claude-code", Title: "Run a command?", Proceeded: true, Call: "Bash `rm -rf build`", Verdict: wire.VerdictAway},
		{ID: "a2", Client: "claude-code", Title: "Run a command?", Proceeded: true,
			Call: "Bash `rsync -av --delete ./dist/ deploy@example.com:/srv/w…`", Verdict: wire.VerdictAway},
		{ID: "plain", Title: "question plain", Proceeded: true},
		{ID: "a3", Client: "claude-code", Title: "Run a command?", Call: "Bash `make deploy`"},
	}
	en := i18n.For(i18n.English)
	var lines []string
	for _, it := range asked {
		lines = append(lines, AwayLine(en, it))
	}
	want := []string{
		"Denied while you were away: Bash `rm -rf build`",
		"Denied while you were away: Bash `rsync -av --delete ./dist/ deploy@example.com:/srv/w…`",
		"question plain — told to proceed",
		"Waited for you: Bash `make deploy`",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("back at the desk:\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	e := find(t, Tray(TrayInput{Now: noon, Away: away.State{Asked: asked}, History: true}).Menu, "Asked while you were away (4)")
	if len(e.Children) != 4 || e.Children[0].Label != want[0] || e.Children[3].Label != want[3] {
		t.Errorf("tray entry %+v", e.Children)
	}
	if got := AwayLine(i18n.For(i18n.SimplifiedChinese), asked[0]); got != "你离开期间已拒绝：Bash `rm -rf build`" {
		t.Errorf("in Chinese: %q", got)
	}
}
