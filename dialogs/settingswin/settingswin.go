// Package settingswin is the Settings window of the UI process ("Settings…"
// in the tray): every setting of package settings on four pages, each with
// its hint and, when its value is wrong, the reason under it as a
// translated sentence (settings.Validate, the checks the file and the
// environment get) with the input's border marked, a summary by Save that
// goes to the first bad field, and a question before edits are discarded.
// It reads and writes no file: it shows the values it is given
// (Options.Values, which the UI process asks of the app) and hands its
// edits to Options.Save (the UI process sends them to the app, which alone
// writes settings.json). It imports neither package app nor uiprocess, so
// it is driven whole by fyne.io/fyne/v2/test.
package settingswin

import (
	"encoding/json"
	"errors"
	"fmt"
	"image/color"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"feedback/dialogs/internal/modal"
	"feedback/internal/hotkey"
	"feedback/internal/i18n"
	"feedback/internal/settings"
)

// Title is the window's title (ASCII, so that xdotool can anchor on it).
const Title = "feedback settings"

// Options configure a Settings window.
type Options struct {
	// Values are the settings file's values over the defaults, without the
	// environment's overrides: what the window shows and edits.
	Values settings.Settings
	// ReadError, when set, is why the file could not be read (Values are
	// then the defaults): the window says so, and a save writes a new one.
	ReadError error
	// Save saves the window's edits: changes (settings.Changes from
	// Values) over the file as it is when saved, or values whole when
	// changes is nil; it returns the values written and where a malformed
	// file was kept, or why nothing was saved. It blocks (the UI process asks the app: uiproto's
	// SaveSettings); the window calls it off the Fyne goroutine.
	Save func(values settings.Settings, changes map[string]json.RawMessage) (saved settings.Settings, movedAside string, err error)
	// Getenv tells which fields an environment variable overrides, to say
	// so beside them; nil means os.Getenv.
	Getenv func(string) string
	// Tools are the MCP tools the "tools" setting may list
	// (wire.ToolNames(), the shim's tools), shown as checkboxes; empty shows a
	// comma-separated entry instead.
	Tools []string
	// OnSaved is called on the Fyne goroutine after a save with the values
	// written to the file (without the environment's overrides). The app,
	// which wrote them, applies them too; OnSaved is for the caller's own
	// bookkeeping and may be nil.
	OnSaved func(settings.Settings)
	// OnClosed, when set, is called on the Fyne goroutine once the window
	// has closed, saved or not.
	OnClosed func()
	// Relay is the remote relay's broker connection as the app saw it
	// when the window opened (docs/remote.md), said on a line of its own.
	Relay RelayState
}

// RelayState is the relay's broker connection (uiproto.RelayState):
// Broker "" when none is set up; else connected since Since, or not, with
// the last error the app met.
type RelayState struct {
	Broker    string
	Connected bool
	Since     time.Time
	LastError string
}

// relayLine says st in one line.
func relayLine(st RelayState) string {
	broker := clipRunes(st.Broker, 120)
	switch {
	case st.Broker == "":
		return fmt.Sprintf(lang.L("Remote agents: no relay set up (how: %s)."), "docs/remote.md")
	case st.Connected:
		return fmt.Sprintf(lang.L("Remote agents: relay connected to %s since %s."), broker, st.Since.Local().Format("2006-01-02 15:04"))
	case st.LastError != "":
		return fmt.Sprintf(lang.L("Remote agents: relay not connected to %s: %s"), broker, clipRunes(st.LastError, 300))
	default:
		return fmt.Sprintf(lang.L("Remote agents: relay connecting to %s…"), broker)
	}
}

// clipRunes cuts s to n runes, with an ellipsis when it cut.
func clipRunes(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// Window is one Settings window.
type Window struct {
	win    fyne.Window
	opts   Options
	base   settings.Settings // the file's values as read: fields the window does not show keep them
	fields []*field
	byKey  map[string]*field
	tabs   *container.AppTabs // one page per section
	pages  []*page
	banner *widget.Label // readErr and saveErr, when there are
	relay  *widget.Label // Options.Relay (relayLine)
	// readErr: the file could not be read; saveErr: the last save failed.
	readErr, saveErr string
	save             *widget.Button
	cancel           *widget.Button
	summary          *fyne.Container // by Save: the first problem and how many; tapping goes to it
	summaryText      *tapLabel
	saving           bool          // a save is in flight (Fyne goroutine only)
	closing          bool          // the user chose to discard the edits
	discard          *modal.Button // the Discard button of the last "Discard your changes?", for tests
	// saved is called off the Fyne goroutine's stack once a save ended
	// (tests wait on it); nil in production.
	saved func(error)
}

// page is one section's tab: its fields in one form, in a scroll.
type page struct {
	title  string
	tab    *container.TabItem
	scroll *container.Scroll
	fields []*field
}

// field is one setting: its input, and below it the hint or, when the
// value is wrong, the reason in the error colour with the input's border
// drawn in that colour.
type field struct {
	key   string // the JSON name, as settings.FieldError.Field names it
	name  string // the form's label
	hint  string
	input fyne.CanvasObject
	box   fyne.CanvasObject // the input with its problem border, as the form holds it
	mark  *canvas.Rectangle // the problem border, hidden without one
	msg   *widget.Label
	page  *page
	// read stores the input's value into s; it returns what is wrong with
	// the text when it cannot be parsed ("" when it can).
	read func(s *settings.Settings) string
}

// New opens nothing: it builds the Settings window over o.Values and
// returns it for the caller to Show. Call it on the Fyne goroutine.
func New(a fyne.App, o Options) *Window {
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	w := &Window{win: a.NewWindow(lang.L(Title)), opts: o, byKey: map[string]*field{}}
	base, err := o.Values, o.ReadError
	w.base = base
	w.banner = widget.NewLabel("")
	w.banner.Wrapping = fyne.TextWrapWord
	w.banner.Importance = widget.DangerImportance
	w.banner.Hide() // Check shows it when there is something to say
	if err != nil {
		w.readErr = fmt.Sprintf(lang.L("The settings file could not be read: %v. Save keeps it as settings.json.invalid-<time> and writes a new one."), err)
	}
	w.save = widget.NewButton(lang.L("Save"), w.Save)
	w.save.Importance = widget.HighImportance
	w.cancel = widget.NewButton(lang.L("Cancel"), w.RequestClose)
	w.summaryText = newTapLabel(w.goToProblem)
	w.summary = container.NewBorder(nil, nil, widget.NewIcon(theme.NewErrorThemedResource(theme.ErrorIcon())), nil, w.summaryText)
	w.summary.Hide()
	w.tabs = container.NewAppTabs()
	for _, sec := range w.sections(base) {
		pg := &page{title: sec.title, fields: sec.fields}
		form := widget.NewForm()
		for _, f := range sec.fields {
			f.page = pg
			w.fields = append(w.fields, f)
			w.byKey[f.key] = f
			form.Append(f.name, container.NewVBox(f.box, f.msg))
		}
		pg.scroll = container.NewVScroll(container.NewPadded(form))
		pg.tab = container.NewTabItem(sec.title, pg.scroll)
		w.pages = append(w.pages, pg)
		w.tabs.Append(pg.tab)
	}
	buttons := container.NewHBox(w.cancel, w.save)
	w.relay = widget.NewLabel(relayLine(o.Relay))
	w.relay.Wrapping = fyne.TextWrapWord
	if o.Relay.Broker != "" && !o.Relay.Connected && o.Relay.LastError != "" {
		w.relay.Importance = widget.DangerImportance
	}
	bottom := container.NewVBox(w.relay, container.NewBorder(nil, nil, nil, buttons, w.summary))
	w.win.SetContent(container.NewBorder(w.banner, container.NewPadded(bottom), nil, nil, w.tabs))
	w.win.Resize(fyne.NewSize(720, 560))
	w.win.CenterOnScreen() // not where the window manager puts a new window (a corner, partly off screen)
	w.win.SetCloseIntercept(w.RequestClose)
	w.win.Canvas().SetOnTypedKey(func(k *fyne.KeyEvent) { // nothing has the keyboard (widgets.go: the inputs)
		if k.Name == fyne.KeyEscape {
			w.RequestClose()
		}
	})
	if o.OnClosed != nil {
		w.win.SetOnClosed(o.OnClosed)
	}
	w.Check()
	return w
}

// Changed reports whether the fields differ from the file as read (a field
// whose text cannot be read counts as changed).
func (w *Window) Changed() bool {
	s := w.base
	for _, f := range w.fields {
		if f.read(&s) != "" {
			return true
		}
	}
	edits, err := settings.Changes(w.base, s)
	return err != nil || len(edits) > 0
}

// RequestClose closes the window, after asking whether to discard the
// edits when there are (Cancel and the window's close button).
func (w *Window) RequestClose() {
	if w.saving {
		return
	}
	if w.closing || !w.Changed() {
		w.win.Close()
		return
	}
	w.discard = askDiscard(w.win, lang.L("Discard your changes?"), lang.L("The settings you changed have not been saved."), func() {
		w.closing = true
		w.win.Close()
	})
}

// askDiscard asks in win whether to throw the edits away, as the question
// window asks about a reply (modal.AskDiscard: "Keep editing" is the safe
// default of every key); it returns the Discard button.
func askDiscard(win fyne.Window, title, message string, discard func()) *modal.Button {
	_, drop := modal.AskDiscard(win, modal.Discard{Title: title, Message: message, Keep: lang.L("Keep editing"), Discard: lang.L("Discard")}, discard, nil)
	return drop
}

// goToProblem shows the first field with a problem: its page, scrolled to
// it, its input focused.
func (w *Window) goToProblem() {
	for _, f := range w.fields {
		if f.mark.Visible() {
			w.reveal(f)
			return
		}
	}
}

// reveal selects f's page, scrolls f into view and focuses its input.
func (w *Window) reveal(f *field) {
	w.tabs.Select(f.page.tab)
	d := fyne.CurrentApp().Driver()
	top := d.AbsolutePositionForObject(f.page.scroll.Content).Y
	y := d.AbsolutePositionForObject(f.box).Y - top
	f.page.scroll.ScrollToOffset(fyne.NewPos(0, max(0, y-theme.Padding()*4)))
	if fo, ok := f.input.(fyne.Focusable); ok {
		w.win.Canvas().Focus(fo)
	}
}

// Fyne is the window, for the caller to Show, RequestFocus or Close.
func (w *Window) Fyne() fyne.Window { return w.win }

// Check reads every field, shows each one's problem beside it and enables
// Save only when there is none. It returns the settings as the fields give
// them and whether they are valid. Every edit calls it.
func (w *Window) Check() (settings.Settings, bool) {
	s := w.base
	problems := map[string]string{}
	for _, f := range w.fields {
		if p := f.read(&s); p != "" {
			problems[f.key] = p
		}
	}
	var hidden []string // problems of fields the window does not show
	for _, fe := range s.Validate() {
		key, client, _ := strings.Cut(fe.Field, "[") // wait_seconds["x"] → wait_seconds
		switch _, shown := w.byKey[key]; {
		case !shown:
			hidden = append(hidden, fe.Error())
		case problems[key] != "":
		case client != "": // names the client
			problems[key] = fmt.Sprintf(lang.L("%s: %s"), strings.Trim(client, `"]`), translate(fe))
		default:
			problems[key] = Sentence(translate(fe))
		}
	}
	var first *field
	bad := 0
	badPages := map[*page]bool{}
	for _, f := range w.fields {
		text, imp := f.hint, widget.MediumImportance
		p, isBad := problems[f.key]
		if isBad {
			text, imp = p, widget.DangerImportance
			bad++
			badPages[f.page] = true
			if first == nil {
				first = f
			}
		}
		if f.msg.Text != text || f.msg.Importance != imp {
			f.msg.Importance = imp
			f.msg.SetText(text) // and refreshes: a keystroke re-measures only what changed
		}
		if isBad != f.mark.Visible() {
			f.mark.StrokeColor = theme.Color(theme.ColorNameError)
			if isBad {
				f.mark.Show()
			} else {
				f.mark.Hide()
			}
		}
	}
	w.markPages(badPages)
	w.summarize(first, bad)
	banner := slices.DeleteFunc(append([]string{w.readErr, w.saveErr}, hidden...), func(s string) bool { return s == "" })
	w.banner.SetText(strings.Join(banner, "\n"))
	if show := len(banner) > 0; show != w.banner.Visible() {
		if show {
			w.banner.Show()
		} else {
			w.banner.Hide()
		}
	}
	ok := len(problems) == 0 && len(hidden) == 0
	if ok && !w.saving {
		w.save.Enable()
	} else {
		w.save.Disable()
	}
	return s, ok
}

// translate is fe's problem in the window's language.
func translate(fe *settings.FieldError) string {
	if fe.Format == "" {
		return fe.Problem
	}
	return fmt.Sprintf(lang.L(fe.Format), fe.Args...)
}

// Sentence makes a problem a sentence: a capital first letter and a full
// stop (a Chinese text keeps its own punctuation).
func Sentence(p string) string {
	p = strings.TrimSpace(p)
	if p == "" {
		return p
	}
	r, n := utf8.DecodeRuneInString(p)
	p = string(unicode.ToUpper(r)) + p[n:]
	if last, _ := utf8.DecodeLastRuneInString(p); !strings.ContainsRune(".。!?！？", last) {
		stop := "."
		if strings.IndexFunc(p, func(r rune) bool { return unicode.Is(unicode.Han, r) }) >= 0 {
			stop = "。"
		}
		p += stop
	}
	return p
}

// markPages puts a warning sign on the tabs whose fields have a problem.
func (w *Window) markPages(bad map[*page]bool) {
	changed := false
	for _, pg := range w.pages {
		text := pg.title
		if bad[pg] {
			text = pg.title + " ⚠"
		}
		if pg.tab.Text != text {
			pg.tab.Text = text
			changed = true
		}
	}
	if changed {
		w.tabs.Refresh()
	}
}

// summarize says by Save what keeps it greyed: the first field with a
// problem, and how many there are; tapping it goes there.
func (w *Window) summarize(first *field, n int) {
	if first == nil {
		w.summary.Hide()
		return
	}
	text := fmt.Sprintf(lang.L("%s: %s"), first.name, first.msg.Text)
	if n > 1 {
		text = fmt.Sprintf(lang.L("%s (and %d more)"), text, n-1)
	}
	w.summaryText.SetText(text)
	w.summary.Show()
}

// Problem is what the window shows beside the field key ("" when it shows
// the hint): for tests and the screenshots.
func (w *Window) Problem(key string) string {
	f := w.byKey[key]
	if f == nil || f.msg.Importance != widget.DangerImportance {
		return ""
	}
	return f.msg.Text
}

// Save checks the fields and, when they are valid, has what the user
// changed saved over the file as it is now (an edit made by hand meanwhile
// is kept) off the Fyne goroutine (Options.Save: the app checks them
// again and writes them atomically, unknown keys kept), then closes the
// window and calls OnSaved; a failure is shown in the banner and the
// window stays open with every value the user typed.
func (w *Window) Save() {
	s, ok := w.Check()
	if !ok || w.saving {
		return
	}
	w.saving = true
	w.save.Disable()
	w.cancel.Disable()
	save, done := w.opts.Save, w.saved
	edits, err := settings.Changes(w.base, s)
	if err != nil {
		edits = nil // cannot happen (plain JSON types): write the window's values whole
	}
	go func() {
		// What the user changed, over the file as it is now (the app lays
		// it over): an edit made by hand while the window was open is
		// kept. A file that cannot be read gets the window's values whole.
		var aside string
		err := errNoSave
		if save != nil {
			s, aside, err = save(s, edits)
		}
		fyne.Do(func() {
			w.saving = false
			w.cancel.Enable()
			if err != nil {
				w.saveErr = fmt.Sprintf(lang.L("Not saved: %v"), err)
				w.Check()
			} else {
				w.base = s
				if aside != "" {
					fyne.LogError("settings: the malformed file was kept as "+aside, nil)
				}
				if w.opts.OnSaved != nil {
					w.opts.OnSaved(s)
				}
				w.win.Close()
			}
		})
		if done != nil {
			done(err)
		}
	}()
}

// errNoSave: the window was given no Options.Save.
var errNoSave = errors.New("nothing saves the settings here")

type section struct {
	title  string
	fields []*field
}

func (w *Window) sections(s settings.Settings) []section {
	return []section{
		{lang.L("Questions"), []*field{
			w.intField("timeout_seconds", "Countdown (s)", "0 turns the countdown off", "FEEDBACK_TIMEOUT", s.TimeoutSeconds,
				func(s *settings.Settings) *int { return &s.TimeoutSeconds }),
			w.intField("extend_seconds", "Extend step (s)", "what the \"+5 min\" button beside the countdown adds (its label follows this value)", "", s.ExtendSeconds,
				func(s *settings.Settings) *int { return &s.ExtendSeconds }),
			w.boolField("submit_draft_on_timeout", "Submit draft on timeout", "at zero, send a non-empty draft (marked as such) instead of timing out",
				s.SubmitDraftOnTimeout, func(s *settings.Settings) *bool { return &s.SubmitDraftOnTimeout }),
			w.boolField("sound", "Sound", "notifications ask the desktop for a sound (never under do not disturb)",
				s.Sound, func(s *settings.Settings) *bool { return &s.Sound }),
			w.awayField(s.Away),
			w.minutesField("away_after_minutes", "Away after (s)", "seconds without keyboard or mouse input after which you count as away, in whole minutes (a locked screen counts at once)",
				s.AwayAfterMinutes, func(s *settings.Settings) *int { return &s.AwayAfterMinutes }),
			w.lineField("dnd_schedule", "Do not disturb schedule", "daily quiet hours, e.g. 22:00-08:00 (may cross midnight): questions wait in the tray as under do not disturb; empty: none",
				"FEEDBACK_DND_SCHEDULE", "22:00-08:00", s.DNDSchedule, func(s *settings.Settings) *string { return &s.DNDSchedule }),
			w.lineField("focus_shortcut", "Shortcut to a question", "brings the keyboard to the question waiting longest, from any application, while one is open; empty: none (click the window, the notification or the tray)",
				"", hotkey.Default, s.FocusShortcut, func(s *settings.Settings) *string { return &s.FocusShortcut }),
			w.languageField(s.Language),
			w.quickRepliesField(s.QuickReplies),
		}},
		{lang.L("Agents"), []*field{
			w.textField("prompt_suffix", "Prompt suffix", "appended to every interactive_feedback answer", "FEEDBACK_PROMPT_SUFFIX", s.PromptSuffix, "",
				func(s *settings.Settings) *string { return &s.PromptSuffix }),
			w.textField("resubmit_prompt", "Resubmit prompt", "what agents are told when the window could not collect an answer; {error} in it becomes what went wrong", "FEEDBACK_RESUBMIT_PROMPT",
				s.ResubmitPrompt, settings.DefaultResubmitPrompt, func(s *settings.Settings) *string { return &s.ResubmitPrompt }),
			w.intField("pending_wait_seconds", "Pending wait (s)", "how long ask_human waits for your answer before its agent is told to check back later", "FEEDBACK_PENDING_WAIT",
				s.PendingWaitSeconds, func(s *settings.Settings) *int { return &s.PendingWaitSeconds }),
			w.intField("max_wait_seconds", "Wait for every client (s)", "longest an agent's call waits for your answer before it is told to call again; 0: each client's time from Wait per client below", "FEEDBACK_MAX_WAIT",
				s.MaxWaitSeconds, func(s *settings.Settings) *int { return &s.MaxWaitSeconds }),
			w.waitField(s.WaitSeconds),
			w.toolsField(s.Tools),
		}},
		{lang.L("Images"), []*field{
			w.intField("images.max_count", "Images per answer", "more are refused when attached", "", s.Images.MaxCount, func(s *settings.Settings) *int { return &s.Images.MaxCount }),
			w.intField("images.max_edge", "Longest edge (px)", "larger images are scaled down", "", s.Images.MaxEdge, func(s *settings.Settings) *int { return &s.Images.MaxEdge }),
			w.intField("images.max_mib", "One image (MiB)", "after scaling and re-encoding", "", s.Images.MaxMiB, func(s *settings.Settings) *int { return &s.Images.MaxMiB }),
			w.intField("images.max_total_mib", "All images (MiB)", "of one answer", "", s.Images.MaxTotalMiB, func(s *settings.Settings) *int { return &s.Images.MaxTotalMiB }),
		}},
		{lang.L("History and app"), []*field{
			w.intField("retention_days", "Keep history (days)", "questions that ended longer ago are deleted (open ones never)", "", s.RetentionDays,
				func(s *settings.Settings) *int { return &s.RetentionDays }),
			w.intField("retention_image_mib", "Keep images (MiB)", "past it, the oldest ended questions with images go first", "", s.RetentionImageMiB,
				func(s *settings.Settings) *int { return &s.RetentionImageMiB }),
			w.startAtLoginField(s.StartAtLogin),
			w.intField("ui_linger_seconds", "Keep windows ready (s)", "how long the window process keeps running after the last question, then sleeps or quits (below); 0: at once", "",
				s.UILingerSeconds, func(s *settings.Settings) *int { return &s.UILingerSeconds }),
			w.boolField("ui_sleep", "Sleep instead of quitting", "then the window process is paused, not ended: it uses no CPU and keeps its memory (about 160 MiB, more after large questions), and the next question opens at once",
				s.UISleep, func(s *settings.Settings) *bool { return &s.UISleep }),
			w.boolField("ui_prewarm", "Prepare windows early", "when an agent starts, start the app and have the window process prepare a question window, unseen, so the first question opens at once; its memory (about 175 MiB) is then used from the agent's start",
				s.UIPrewarm, func(s *settings.Settings) *bool { return &s.UIPrewarm }),
		}},
	}
}

func (w *Window) newField(key, name, hint, env string, input fyne.CanvasObject, read func(*settings.Settings) string) *field {
	if hint != "" {
		hint = lang.L(hint)
	}
	if env != "" {
		if v := w.opts.Getenv(env); v != "" {
			note := fmt.Sprintf(lang.L("%s is set in the environment: it overrides this value"), env)
			if hint != "" {
				hint = fmt.Sprintf(lang.L("%s. %s"), hint, note) // "%s。%s" in Chinese
			} else {
				hint = note
			}
		}
	}
	msg := widget.NewLabel(hint)
	msg.Wrapping = fyne.TextWrapWord
	msg.Importance = widget.MediumImportance
	msg.SizeName = theme.SizeNameCaptionText
	mark := canvas.NewRectangle(color.Transparent)
	mark.StrokeWidth = 2
	mark.CornerRadius = theme.InputRadiusSize()
	mark.Hide()
	f := &field{key: key, name: lang.L(name), hint: hint, input: input, box: container.NewStack(input, mark), mark: mark, msg: msg, read: read}
	if _, ok := input.(*escEntry); ok {
		// An entry, one line or many, keeps the wheel for its own
		// scrolling: the page would stop under the pointer.
		f.box = w.wheelToPage(f)
	}
	return f
}

func (w *Window) intField(key, label, hint, env string, v int, dst func(*settings.Settings) *int) *field {
	e := newEscEntry(false, w.RequestClose)
	e.SetText(strconv.Itoa(v))
	f := w.newField(key, label, hint, env, e, func(s *settings.Settings) string {
		n, err := strconv.Atoi(strings.TrimSpace(e.Text))
		if err != nil {
			return lang.L("Enter a whole number.")
		}
		*dst(s) = n
		return ""
	})
	e.OnChanged = func(string) { w.Check() }
	e.OnSubmitted = func(string) { w.Save() }
	return f
}

// minutesField is a setting kept in whole minutes, shown in seconds as
// every other duration of the window is (a page that mixed "(s)" and
// "(min)" read wrong).
func (w *Window) minutesField(key, label, hint string, v int, dst func(*settings.Settings) *int) *field {
	e := newEscEntry(false, w.RequestClose)
	e.SetText(strconv.Itoa(v * 60))
	f := w.newField(key, label, hint, "", e, func(s *settings.Settings) string {
		n, err := strconv.Atoi(strings.TrimSpace(e.Text))
		switch {
		case err != nil:
			return lang.L("Enter a whole number.")
		case n < 60 || n > 86400 || n%60 != 0:
			return lang.L("Enter whole minutes in seconds, from 60 to 86400 (60 is 1 minute).")
		}
		*dst(s) = n / 60
		return ""
	})
	e.OnChanged = func(string) { w.Check() }
	e.OnSubmitted = func(string) { w.Save() }
	return f
}

// textField is a multi-line text setting; def, when not "", is its
// built-in value, shown as an empty field (the placeholder says so).
func (w *Window) textField(key, label, hint, env, v, def string, dst func(*settings.Settings) *string) *field {
	e := newEscEntry(true, w.RequestClose)
	e.Wrapping = fyne.TextWrapWord
	e.SetMinRowsVisible(3)
	if v == def && def != "" {
		v = "" // the built-in text, in English: the placeholder says so
		e.SetPlaceHolder(lang.L("Empty: the built-in text"))
	}
	e.SetText(v)
	f := w.newField(key, label, hint, env, e, func(s *settings.Settings) string {
		*dst(s) = e.Text
		if strings.TrimSpace(e.Text) == "" && def != "" {
			*dst(s) = def
		}
		return ""
	})
	e.OnChanged = func(string) { w.Check() }
	return f
}

// wheelToPage lays a transparent layer over f's input (an entry) that
// hands the mouse wheel to the page (a multi-line entry would keep it
// for its own few lines, a one-line entry for its sideways scroll, and
// the page would stop scrolling under the pointer); clicks, typing and
// selection still reach the entry.
func (w *Window) wheelToPage(f *field) fyne.CanvasObject {
	return container.NewStack(f.box, newWheelForward(func(ev *fyne.ScrollEvent) {
		if f.page != nil {
			f.page.scroll.Scrolled(ev)
		}
	}))
}

// lineField is a one-line text setting; Validate says what is wrong with it.
func (w *Window) lineField(key, label, hint, env, placeholder, v string, dst func(*settings.Settings) *string) *field {
	e := newEscEntry(false, w.RequestClose)
	e.SetPlaceHolder(fmt.Sprintf(lang.L("e.g. %s"), placeholder))
	e.SetText(v)
	f := w.newField(key, label, hint, env, e, func(s *settings.Settings) string {
		*dst(s) = strings.TrimSpace(e.Text)
		return ""
	})
	e.OnChanged = func(string) { w.Check() }
	e.OnSubmitted = func(string) { w.Save() }
	return f
}

func (w *Window) boolField(key, label, hint string, v bool, dst func(*settings.Settings) *bool) *field {
	c := newEscCheck(w.RequestClose)
	c.SetChecked(v)
	f := w.newField(key, label, hint, "", c, func(s *settings.Settings) string {
		*dst(s) = c.Checked
		return ""
	})
	c.OnChanged = func(bool) { w.Check() }
	return f
}

var languages = []struct{ code, name string }{
	{settings.Auto, "System language (auto)"},
	{settings.English, "English"},
	{settings.SimplifiedChinese, "简体中文 (zh-Hans)"},
	{settings.TraditionalChinese, "繁體中文 (zh-Hant)"},
}

func (w *Window) languageField(v string) *field {
	var names []string
	for _, l := range languages {
		names = append(names, lang.L(l.name))
	}
	sel := newEscSelect(names, w.RequestClose)
	other := ""
	for _, l := range languages {
		if l.code == v {
			sel.SetSelected(lang.L(l.name))
		}
	}
	if sel.Selected == "" {
		other = v // not one of ours: Validate says so until one is chosen
	}
	f := w.newField("language", "Language", "of the windows, tray and notifications, and of the phrases returned to agents; System language: the system's for the windows, English for the agents", "FEEDBACK_LANGUAGE", sel, func(s *settings.Settings) string {
		s.Language = other
		for _, l := range languages {
			if lang.L(l.name) == sel.Selected {
				s.Language = l.code
			}
		}
		return ""
	})
	sel.OnChanged = func(string) { other = ""; w.Check() }
	return f
}

func (w *Window) startAtLoginField(v *bool) *field {
	leave, on, off := lang.L("Leave as it is"), lang.L("On"), lang.L("Off")
	sel := newEscSelect([]string{leave, on, off}, w.RequestClose)
	switch {
	case v == nil:
		sel.SetSelected(leave)
	case *v:
		sel.SetSelected(on)
	default:
		sel.SetSelected(off)
	}
	f := w.newField("start_at_login", "Start at login", "On or Off: the app makes its start-at-login entry match each time it starts", "", sel, func(s *settings.Settings) string {
		switch sel.Selected {
		case on, off:
			b := sel.Selected == on
			s.StartAtLogin = &b
		default:
			s.StartAtLogin = nil
		}
		return ""
	})
	sel.OnChanged = func(string) { w.Check() }
	return f
}

// defaultQuickReplies are the quick replies in the windows' language.
func defaultQuickReplies() []string {
	return []string{i18n.T("quick.default.continue"), i18n.T("quick.default.wait"), i18n.T("quick.default.tradeoffs")}
}

// quickRepliesField edits quick_replies, one reply a line: the defaults
// (in the windows' language) unless the user saved others; left as the
// defaults it stays unset, so that they follow the language; emptied, it
// is none.
func (w *Window) quickRepliesField(v []string) *field {
	shown := v
	if shown == nil {
		shown = defaultQuickReplies()
	}
	e := newEscEntry(true, w.RequestClose)
	e.SetMinRowsVisible(3)
	e.SetText(strings.Join(shown, "\n"))
	f := w.newField("quick_replies", "Quick replies", "one a line: from a window's Quick reply menu (Alt+R) and the chips above its reply box, they fill the box; only Submit sends", "", e, func(s *settings.Settings) string {
		lines := []string{}
		for _, l := range strings.Split(e.Text, "\n") {
			if l = strings.TrimSpace(l); l != "" {
				lines = append(lines, l)
			}
		}
		if len(lines) > settings.MaxQuickReplies {
			return fmt.Sprintf(lang.L("At most %d lines."), settings.MaxQuickReplies)
		}
		if v == nil && slices.Equal(lines, defaultQuickReplies()) {
			lines = nil // still the defaults: they follow the language
		}
		s.QuickReplies = lines
		return ""
	})
	e.OnChanged = func(string) { w.Check() }
	return f
}

// awayField chooses what a question gets while the user is away.
func (w *Window) awayField(v string) *field {
	choices := []struct{ code, name string }{
		{settings.AwayOff, "Nothing changes"},
		{settings.AwayWait, "Questions wait for me"},
		{settings.AwayProceed, "Agents proceed without me"},
	}
	var names []string
	for _, c := range choices {
		names = append(names, lang.L(c.name))
	}
	sel := newEscSelect(names, w.RequestClose)
	for _, c := range choices {
		if c.code == v || (v == "" && c.code == settings.AwayOff) {
			sel.SetSelected(lang.L(c.name))
		}
	}
	f := w.newField("away", "When I'm away", "Questions wait for me: they wait, and you see what was asked when back. Agents proceed without me: they are told at once to use their best judgment and record what they decided", "", sel, func(s *settings.Settings) string {
		for _, c := range choices {
			if lang.L(c.name) == sel.Selected {
				s.Away = c.code
			}
		}
		return ""
	})
	sel.OnChanged = func(string) { w.Check() }
	return f
}

// MaxWaitLines bounds the per-client table.
const MaxWaitLines = 100

// waitField edits wait_seconds as lines "client = seconds".
func (w *Window) waitField(m map[string]int) *field {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, k := range names {
		fmt.Fprintf(&b, "%s = %d\n", k, m[k])
	}
	e := newEscEntry(true, w.RequestClose)
	e.SetMinRowsVisible(2)
	e.SetPlaceHolder(fmt.Sprintf(lang.L("e.g. %s"), "claude-code = 540"))
	e.SetText(strings.TrimSuffix(b.String(), "\n"))
	f := w.newField("wait_seconds", "Wait per client (s)", "one line per MCP client: name = seconds; \"*\" is every other client", "", e, func(s *settings.Settings) string {
		t, problem := ParseWait(e.Text)
		if problem != "" {
			return problem
		}
		s.WaitSeconds = t
		return ""
	})
	e.OnChanged = func(string) { w.Check() }
	return f
}

// ParseWait reads the lines "client = seconds" of the wait_seconds field;
// it returns what is wrong with the first bad line ("" when none). Blank
// lines are skipped; no line at all gives nil (the built-in table).
func ParseWait(text string) (map[string]int, string) {
	var t map[string]int
	lines := strings.Split(text, "\n")
	if len(lines) > MaxWaitLines {
		return nil, fmt.Sprintf(lang.L("At most %d lines."), MaxWaitLines)
	}
	for i, line := range lines {
		if strings.TrimSpace(line) == "" {
			continue
		}
		name, secs, ok := strings.Cut(line, "=")
		name = strings.TrimSpace(name)
		n, err := strconv.Atoi(strings.TrimSpace(secs))
		if !ok || name == "" || err != nil {
			return nil, fmt.Sprintf(lang.L("Line %d: write name = seconds, e.g. claude-code = 540."), i+1)
		}
		if t == nil {
			t = map[string]int{}
		}
		if _, dup := t[name]; dup {
			return nil, fmt.Sprintf(lang.L("Line %d: %s is listed twice."), i+1, name)
		}
		t[name] = n
	}
	return t, ""
}

func (w *Window) toolsField(v []string) *field {
	if len(w.opts.Tools) == 0 {
		e := newEscEntry(false, w.RequestClose)
		e.SetPlaceHolder(fmt.Sprintf(lang.L("e.g. %s"), "interactive_feedback, ask_human"))
		e.SetText(strings.Join(v, ", "))
		f := w.newField("tools", "Tools", "comma-separated MCP tools feedback mcp offers; empty offers them all", "FEEDBACK_TOOLS", e, func(s *settings.Settings) string {
			s.Tools = nil
			for _, n := range strings.Split(e.Text, ",") {
				if n = strings.TrimSpace(n); n != "" {
					s.Tools = append(s.Tools, n)
				}
			}
			return ""
		})
		e.OnChanged = func(string) { w.Check() }
		return f
	}
	var unknown []string
	for _, n := range v {
		if !slices.Contains(w.opts.Tools, n) {
			unknown = append(unknown, n)
		}
	}
	// The boxes show what agents get: every box ticked when the setting
	// lists none (all tools); some is a choice made by unticking.
	g := widget.NewCheckGroup(w.opts.Tools, nil)
	if len(v) == 0 {
		g.SetSelected(slices.Clone(w.opts.Tools))
	} else {
		g.SetSelected(slices.DeleteFunc(slices.Clone(v), func(n string) bool { return slices.Contains(unknown, n) }))
	}
	f := w.newField("tools", "Tools", "the MCP tools feedback mcp offers to agents; untick the ones they should not see", "FEEDBACK_TOOLS", g, func(s *settings.Settings) string {
		if len(unknown) > 0 {
			return fmt.Sprintf(lang.L("Unknown tools in the file: %s. Check the ones to keep, then save."), strings.Join(unknown, ", "))
		}
		if len(g.Selected) == 0 {
			return lang.L("Tick at least one tool.")
		}
		s.Tools = nil // every box ticked: all tools, the ones added later too
		if len(g.Selected) < len(w.opts.Tools) {
			for _, n := range w.opts.Tools { // in the shim's order
				if slices.Contains(g.Selected, n) {
					s.Tools = append(s.Tools, n)
				}
			}
		}
		return ""
	})
	g.OnChanged = func([]string) { unknown = nil; w.Check() }
	return f
}
