// Package traymenu is the tray's model: what the icon, its tooltip and its
// menu show, as plain values built from the open questions, do not
// disturb, away and the agents' messages, for the resident process to
// render with fyne.io/systray. Nothing here imports a toolkit; every word
// the tray shows is in this package.
package traymenu

import (
	"sort"
	"strings"
	"time"
	"unicode"

	"feedback/app/core"
	"feedback/app/core/away"
	"feedback/app/core/dnd"
	"feedback/app/core/messages"
	"feedback/internal/i18n"
	"feedback/internal/settings"
)

// MenuActionKind is what clicking a menu entry does.
type MenuActionKind int

const (
	ActionNone     MenuActionKind = iota // a heading or a note: nothing
	ActionRaise                          // show or raise the window of MenuAction.Question
	ActionDND                            // set do-not-disturb to MenuAction.DND
	ActionHistory                        // open the History window
	ActionSettings                       // open the Settings window
	ActionNote                           // open the note window (a note for an agent)
	ActionSnooze                         // snooze MenuAction.Question, or every open question when ""
	ActionQuit                           // quit the app
)

// MenuAction is what a menu entry does; it is comparable.
type MenuAction struct {
	Kind     MenuActionKind
	Question string   // ActionRaise: the question's window id (core.Item.ID)
	DND      dnd.Mode // ActionDND
	// Snooze is ActionSnooze's: for SnoozeMinutes, or until the user is
	// back.
	SnoozeMinutes int
	UntilBack     bool
}

// MenuEntry is one line of the tray menu: a separator, or a label that may
// be disabled, checkable (and checked), or open a submenu (Children).
// Labels are plain text; a renderer escapes what its menu system reads as
// markup (see MenuLabel).
type MenuEntry struct {
	Separator bool
	Label     string
	Enabled   bool
	Checkable bool
	Checked   bool
	Children  []MenuEntry
	Action    MenuAction
}

// TrayInput is what the tray shows.
type TrayInput struct {
	Items []core.Item // the open questions (core.Inbox.Items)
	// Messages are the agents' recent messages, newest first
	// (messages.Control.Recent): a "Messages" submenu lists them.
	Messages []messages.Item
	// Away is the away mode and state (package away).
	Away away.State
	DND  dnd.State // do-not-disturb as stored; its end is checked against Now
	Now  time.Time // the time ages and the end of do-not-disturb are measured to
	// History and Settings offer "History…" and "Settings…" (leave false
	// until the window exists: an entry that does nothing is worse than none).
	History, Settings bool
	// Note offers "Note for an agent…" (the note window, notes.go).
	Note bool
	// Lang is the language of the words (i18n.Languages); "" is the
	// process's (i18n.Use).
	Lang string
}

// TrayView is the tray as it should look.
type TrayView struct {
	Title   string // the item's title: "feedback"
	Tooltip string // "feedback — 2 questions waiting", do-not-disturb named when on
	// Count is the number of questions waiting and DND whether
	// do-not-disturb is active: the icon is assets.TrayIcon(Count, DND).
	Count int
	DND   bool
	Menu  []MenuEntry
	// Refresh is how long until a label changes by itself (an age or the
	// end of do-not-disturb): rebuild the view then. 0: nothing changes
	// until the inbox does.
	Refresh time.Duration
}

// Limits of the menu: questions listed (the rest are counted in one line)
// and runes of a title, a client or a project name.
const (
	MaxTrayQuestions = 20
	maxTitleRunes    = 60
	maxNameRunes     = 40
	// maxAwayCallRunes bounds an approval's call named in a line: the
	// bound of away.Item.Call, and a little room.
	maxAwayCallRunes = 70
)

// The tray's words are in the translation files (ids "tray.*", "age.*",
// "time.*"; package i18n); these are not words.
const (
	trayTitle       = "feedback"
	nameSeparator   = " · "
	titleAgeDivider = " — "
)

// Tray builds the tray's view from the open questions and do-not-disturb:
// the questions grouped by client and project (groups in the order of
// their oldest question, each headed by a disabled "client · project"
// line), each "title — age" raising its window; then "Do not disturb" with
// its choices, "History…", "Settings…" and "Quit".
func Tray(in TrayInput) TrayView {
	l := i18n.For(in.Lang)
	dndOn := in.DND.Active(in.Now)
	waiting := 0 // a snoozed question does not wait for the user now
	for _, it := range in.Items {
		if it.Snoozed == nil {
			waiting++
		}
	}
	v := TrayView{Title: trayTitle, Count: waiting, DND: dndOn}
	v.Tooltip = tooltip(l, waiting, in.DND, in.Now)
	v.Menu = questionEntries(l, in.Items, in.Now)
	awayOn := in.Away.On && (in.Away.Mode == settings.AwayWait || in.Away.Mode == settings.AwayProceed)
	if awayOn {
		v.Tooltip += l.T("tray.tooltip.away_" + in.Away.Mode)
		v.Menu = append([]MenuEntry{{Label: l.T("tray.away_"+in.Away.Mode, map[string]any{"Time": endTime(l, in.Away.Since, in.Now)})}, {Separator: true}}, v.Menu...)
	}
	if len(in.Away.Asked) > 0 {
		v.Menu = append(v.Menu, MenuEntry{Separator: true}, awayEntry(l, in.Away, in.History))
	}
	if len(in.Messages) > 0 {
		v.Menu = append(v.Menu, MenuEntry{Separator: true}, messageEntry(l, in.Messages, in.Now, in.History))
	}
	v.Menu = append(v.Menu, MenuEntry{Separator: true})
	if waiting > 0 {
		v.Menu = append(v.Menu, snoozeEntry(l, in.Items, waiting))
	}
	v.Menu = append(v.Menu, dndEntry(l, in.DND, in.Now))
	if in.Note {
		v.Menu = append(v.Menu, MenuEntry{Label: l.T("tray.note"), Enabled: true, Action: MenuAction{Kind: ActionNote}})
	}
	if in.History {
		v.Menu = append(v.Menu, MenuEntry{Label: l.T("tray.history"), Enabled: true, Action: MenuAction{Kind: ActionHistory}})
	}
	if in.Settings {
		v.Menu = append(v.Menu, MenuEntry{Label: l.T("tray.settings"), Enabled: true, Action: MenuAction{Kind: ActionSettings}})
	}
	v.Menu = append(v.Menu, MenuEntry{Separator: true}, MenuEntry{Label: l.T("tray.quit"), Enabled: true, Action: MenuAction{Kind: ActionQuit}})
	v.Refresh = refresh(in.Items, in.DND, in.Now)
	for _, m := range in.Messages { // their ages too
		if d := ageChanges(in.Now.Sub(m.At)); v.Refresh == 0 || d < v.Refresh {
			v.Refresh = d
		}
	}
	return v
}

// tooltip is "feedback — N questions waiting", with do-not-disturb.
func tooltip(l *i18n.Localizer, n int, d dnd.State, now time.Time) string {
	s := l.N("tray.waiting", n)
	if n == 0 {
		s = l.T("tray.waiting.none")
	}
	s = trayTitle + titleAgeDivider + s
	if d.Active(now) {
		switch d.Mode {
		case dnd.On:
			s += l.T("tray.tooltip.dnd_on")
		case dnd.Scheduled: // the dnd_schedule setting's quiet hours
			s += l.T("tray.tooltip.dnd_schedule", map[string]any{"Time": endTime(l, d.Until, now)})
		default:
			s += l.T("tray.tooltip.dnd_until", map[string]any{"Time": endTime(l, d.Until, now)})
		}
	}
	return s
}

// group is the questions of one client and project.
type group struct {
	client, project string
	items           []core.Item
}

func questionEntries(l *i18n.Localizer, items []core.Item, now time.Time) []MenuEntry {
	if len(items) == 0 {
		return []MenuEntry{{Label: l.T("tray.none")}}
	}
	sorted := append([]core.Item(nil), items...)
	sort.SliceStable(sorted, func(i, j int) bool {
		if !sorted[i].Since.Equal(sorted[j].Since) {
			return sorted[i].Since.Before(sorted[j].Since)
		}
		return sorted[i].ID < sorted[j].ID
	})
	shown := sorted
	if len(shown) > MaxTrayQuestions {
		shown = shown[:MaxTrayQuestions] // the oldest: they have waited longest
	}
	var groups []*group
	index := map[[2]string]*group{}
	for _, it := range shown {
		c, p := clean(it.Client, maxNameRunes), clean(it.Project, maxNameRunes)
		k := [2]string{c, p}
		g := index[k]
		if g == nil {
			g = &group{client: c, project: p}
			index[k] = g
			groups = append(groups, g)
		}
		g.items = append(g.items, it)
	}
	var out []MenuEntry
	for i, g := range groups {
		if i > 0 {
			out = append(out, MenuEntry{Separator: true})
		}
		if h := heading(g); h != "" || len(groups) > 1 {
			if h == "" {
				h = l.T("tray.other")
			}
			out = append(out, MenuEntry{Label: h})
		}
		for _, it := range g.items {
			title := clean(it.Title, maxTitleRunes)
			if title == "" {
				title = l.T("tray.untitled")
			}
			state := ageIn(l, now.Sub(it.Since))
			switch s := it.Snoozed; {
			case s != nil && s.UntilBack:
				state = l.T("tray.snoozed_back")
			case s != nil:
				state = l.T("tray.snoozed_until", map[string]any{"Time": endTime(l, s.Until, now)})
			}
			out = append(out, MenuEntry{
				Label:   title + titleAgeDivider + state,
				Enabled: true,
				Action:  MenuAction{Kind: ActionRaise, Question: it.ID},
			})
		}
	}
	if more := len(sorted) - len(shown); more > 0 {
		out = append(out, MenuEntry{Label: l.N("tray.more", more)})
	}
	return out
}

// awayEntry is "Asked while you were away (N)" and, under it, each question
// as AwayLine says it ("client: title — proceeded" or "— waited";
// an approval's decision and call); with History each opens it.
func awayEntry(l *i18n.Localizer, a away.State, history bool) MenuEntry {
	var children []MenuEntry
	for _, it := range a.Asked {
		e := MenuEntry{Label: AwayLine(l, it)}
		if history {
			e.Enabled, e.Action = true, MenuAction{Kind: ActionHistory}
		}
		children = append(children, e)
	}
	return MenuEntry{Label: l.N("tray.while_away", len(a.Asked)), Enabled: true, Children: children}
}

// AwayLine is it as the tray's "Asked while you were away" and the
// notification that greets the user back list it, in l's words:
// "<client>: <title> — told to proceed" (or "— waited for you"); an
// approval says what became of which call instead: "Denied while you were
// away: Bash `rm -rf build`" (or "Waited for you: …"), since its agent was
// told not to go ahead, never to proceed. Control characters are dropped
// and each part is cut to a line.
func AwayLine(l *i18n.Localizer, it away.Item) string {
	if it.Call != "" {
		call := clean(it.Call, maxAwayCallRunes)
		if it.Verdict != "" {
			return l.T("away.approval.denied", map[string]any{"Call": call})
		}
		return l.T("away.approval.waited", map[string]any{"Call": call})
	}
	label := clean(it.Title, maxTitleRunes)
	if c := clean(it.Client, maxNameRunes); c != "" {
		label = c + ": " + label
	}
	told := l.T("tray.away.waited")
	if it.Proceeded {
		told = l.T("tray.away.proceeded")
	}
	return label + titleAgeDivider + told
}

// snoozeEntry is "Snooze": with several questions waiting, "All questions"
// and each question (oldest first, as listed above), each with the three
// snoozes; with one, the three snoozes of that question.
func snoozeEntry(l *i18n.Localizer, items []core.Item, waiting int) MenuEntry {
	choices := func(id string) []MenuEntry {
		choice := func(label string, minutes int, back bool) MenuEntry {
			return MenuEntry{Label: label, Enabled: true, Action: MenuAction{Kind: ActionSnooze, Question: id, SnoozeMinutes: minutes, UntilBack: back}}
		}
		return []MenuEntry{choice(l.T("snooze.10min"), 10, false), choice(l.T("snooze.1h"), 60, false), choice(l.T("snooze.back"), 0, true)}
	}
	if waiting == 1 {
		return MenuEntry{Label: l.T("tray.snooze"), Enabled: true, Children: choices("")}
	}
	children := []MenuEntry{{Label: l.T("tray.snooze_all"), Enabled: true, Children: choices("")}, {Separator: true}}
	sorted := append([]core.Item(nil), items...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Since.Before(sorted[j].Since) })
	for _, it := range sorted {
		if it.Snoozed != nil || len(children) >= MaxTrayQuestions+2 {
			continue
		}
		title := clean(it.Title, maxTitleRunes)
		if title == "" {
			title = l.T("tray.untitled")
		}
		children = append(children, MenuEntry{Label: title, Enabled: true, Children: choices(it.ID)})
	}
	return MenuEntry{Label: l.T("tray.snooze"), Enabled: true, Children: children}
}

// messageEntry is "Messages (N)" and, under it, each message as "client:
// text — age", newest first; with History each opens the History window.
func messageEntry(l *i18n.Localizer, ms []messages.Item, now time.Time, history bool) MenuEntry {
	var children []MenuEntry
	for _, it := range ms {
		m := it.Message
		text := m.Title
		if strings.TrimSpace(text) == "" {
			text = m.Text
		}
		label := clean(text, maxTitleRunes)
		if c := clean(m.Client, maxNameRunes); c != "" {
			label = c + ": " + label
		}
		e := MenuEntry{Label: label + titleAgeDivider + ageIn(l, now.Sub(it.At))}
		if history {
			e.Enabled, e.Action = true, MenuAction{Kind: ActionHistory}
		}
		children = append(children, e)
	}
	return MenuEntry{Label: l.N("tray.messages", len(ms)), Enabled: true, Children: children}
}

// heading is "client · project", either alone, or "" when neither is known.
func heading(g *group) string {
	switch {
	case g.client != "" && g.project != "":
		return g.client + nameSeparator + g.project
	case g.client != "":
		return g.client
	default:
		return g.project
	}
}

// dndEntry is "Do not disturb" and its choices; the one in force is checked.
func dndEntry(l *i18n.Localizer, d dnd.State, now time.Time) MenuEntry {
	active := d.Active(now)
	label := l.T("tray.dnd")
	if active {
		switch d.Mode {
		case dnd.On:
			label = l.T("tray.dnd.heading_on")
		case dnd.Scheduled:
			label = l.T("tray.dnd.heading_schedule", map[string]any{"Time": endTime(l, d.Until, now)})
		default:
			label = l.T("tray.dnd.heading_until", map[string]any{"Time": endTime(l, d.Until, now)})
		}
	}
	choice := func(label string, mode dnd.Mode, checked bool) MenuEntry {
		return MenuEntry{Label: label, Enabled: true, Checkable: true, Checked: checked,
			Action: MenuAction{Kind: ActionDND, DND: mode}}
	}
	hour := l.T("tray.dnd.hour")
	if active && d.Mode == dnd.Hour {
		hour = l.T("tray.dnd.hour_until", map[string]any{"Time": endTime(l, d.Until, now)})
	}
	tomorrow, _ := dnd.For(dnd.Tomorrow, now)
	morning := tomorrow.Until
	if active && d.Mode == dnd.Tomorrow {
		morning = d.Until
	}
	choices := []MenuEntry{
		choice(l.T("tray.dnd.on"), dnd.On, active && d.Mode == dnd.On),
		choice(hour, dnd.Hour, active && d.Mode == dnd.Hour),
		choice(l.T("tray.dnd.until", map[string]any{"Time": endTime(l, morning, now)}), dnd.Tomorrow, active && d.Mode == dnd.Tomorrow),
	}
	if active && d.Mode == dnd.Scheduled {
		// What holds: the schedule (set in Settings, so not a choice here);
		// Off below turns it off until the schedule's next start.
		choices = append(choices, MenuEntry{Label: l.T("tray.dnd.scheduled", map[string]any{"Time": endTime(l, d.Until, now)}),
			Checkable: true, Checked: true})
	}
	choices = append(choices, choice(l.T("tray.dnd.off"), dnd.Off, !active))
	return MenuEntry{Label: label, Enabled: true, Children: choices}
}

// endTime is t as the tray shows an end time, read from now: "14:35" today,
// "tomorrow 08:00", else "Mon 2 Jan 15:04" (in Chinese "1月2日（周一）15:04").
func endTime(l *i18n.Localizer, t, now time.Time) string {
	t = t.In(now.Location())
	ty, tm, td := t.Date()
	ny, nm, nd := now.Date()
	switch {
	case ty == ny && tm == nm && td == nd:
		return t.Format("15:04")
	case time.Date(ny, nm, nd+1, 0, 0, 0, 0, now.Location()).Equal(time.Date(ty, tm, td, 0, 0, 0, 0, now.Location())):
		return l.T("time.tomorrow", map[string]any{"Time": t.Format("15:04")})
	default:
		return l.T("time.date", map[string]any{
			"Weekday": l.T(strings.ToLower(t.Weekday().String()) + ".short"), // Fyne's ids: "monday.short"
			"Day":     t.Day(), "Month": t.Format("Jan"), "MonthNum": int(t.Month()), "Time": t.Format("15:04"),
		})
	}
}

// Age is how long a question has waited, as the tray shows it: "just now"
// under a minute, then "3 min", "2 h", "4 d" (whole units, rounded down),
// in the process's language (i18n.Use): "3 分钟".
func Age(d time.Duration) string { return ageIn(i18n.For(""), d) }

func ageIn(l *i18n.Localizer, d time.Duration) string {
	switch {
	case d < time.Minute:
		return l.T("age.just_now")
	case d < time.Hour:
		return l.T("age.min", map[string]any{"Count": int(d / time.Minute)})
	case d < 24*time.Hour:
		return l.T("age.h", map[string]any{"Count": int(d / time.Hour)})
	default:
		return l.T("age.d", map[string]any{"Count": int(d / (24 * time.Hour))})
	}
}

// ageChanges is how long after waiting d the label Age(d) changes.
func ageChanges(d time.Duration) time.Duration {
	unit := time.Minute
	switch {
	case d < 0:
		return -d + time.Minute
	case d < time.Hour:
	case d < 24*time.Hour:
		unit = time.Hour
	default:
		unit = 24 * time.Hour
	}
	return unit - d%unit
}

// refresh is how long until the view changes by itself.
func refresh(items []core.Item, d dnd.State, now time.Time) time.Duration {
	var next time.Duration
	earlier := func(x time.Duration) {
		if x > 0 && (next == 0 || x < next) {
			next = x
		}
	}
	n := len(items)
	if n > MaxTrayQuestions {
		n = MaxTrayQuestions // the others are not listed, their ages not shown
	}
	sorted := append([]core.Item(nil), items...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Since.Before(sorted[j].Since) })
	for _, it := range sorted[:n] {
		earlier(ageChanges(now.Sub(it.Since)))
	}
	if d.Active(now) && d.Mode != dnd.On {
		earlier(d.Until.Sub(now))
	}
	if len(items) > 0 || d.Active(now) {
		// "Until tomorrow 08:00" reads "Until 08:00" after midnight.
		y, m, dd := now.Date()
		earlier(time.Date(y, m, dd+1, 0, 0, 0, 0, now.Location()).Sub(now))
	}
	return next
}

// clean makes hostile text a one-line menu label: control and format
// characters (bidi overrides, zero-width marks; the emoji joiner stays)
// dropped, runs of white space made one space, at most max runes with "…".
func clean(s string, max int) string {
	var kept []rune
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			r = ' '
		case r == unicode.ReplacementChar, unicode.IsControl(r),
			unicode.Is(unicode.Cf, r) && r != '\u200d':
			continue
		}
		if r == ' ' && (len(kept) == 0 || kept[len(kept)-1] == ' ') {
			continue
		}
		kept = append(kept, r)
		if len(kept) > max+1 {
			break // enough to know it is cut
		}
	}
	if len(kept) > max {
		kept = append([]rune(strings.TrimRight(string(kept[:max-1]), " ")), '…')
	}
	return strings.TrimRight(string(kept), " ")
}

// MenuLabel is label escaped for the menu system of goos: on Linux and the
// BSDs (D-Bus menus) "_" marks a mnemonic and a literal one is written
// "__"; on Windows "&" does and is written "&&".
func MenuLabel(goos, label string) string {
	switch goos {
	case "windows":
		return strings.ReplaceAll(label, "&", "&&")
	case "darwin":
		return label
	default:
		return strings.ReplaceAll(label, "_", "__")
	}
}
