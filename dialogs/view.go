package dialogs

import (
	"context"
	"image/color"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"feedback/dialogs/imagepipe"
	"feedback/dialogs/markdown"
	"feedback/internal/i18n"
	"feedback/ipc/wire"
)

// Options configure a View.
type Options struct {
	// DefaultTimeout is the countdown used when the question asks for the
	// app's default (TimeoutSeconds == 0). Zero or less means no countdown.
	DefaultTimeout time.Duration
	// Now returns the current time; nil means time.Now. Tests inject a clock.
	Now func() time.Time
	// Images bounds the attachments; zero fields take imagepipe's defaults.
	Images imagepipe.Limits
	// PasteImage reads an image from the system clipboard for Ctrl+V; ok is
	// false when the clipboard holds none, and the reply box then pastes
	// text as usual. Nil leaves Ctrl+V to text.
	PasteImage func(ctx context.Context) (data []byte, ok bool, err error)
	// Extend is what the "+ time" button (Alt+T) adds to the countdown;
	// zero means DefaultExtend.
	Extend time.Duration
	// SubmitDraftOnTimeout: when the countdown reaches zero with a non-empty
	// draft, the draft is submitted with wire.Answer.Auto set instead of the
	// question ending as timed out. An empty draft never is.
	SubmitDraftOnTimeout bool
	// OnDraft, if set, receives the user's unfinished answer DraftDelay
	// after their last edit, and once more when the view is closed without
	// an answer while an edit is unreported (see FlushDraft). It runs on the
	// Fyne goroutine and must not block: hand the draft to another goroutine.
	OnDraft func(wire.Draft)
	// DraftDelay is the quiet time after an edit before OnDraft; zero means
	// DefaultDraftDelay.
	DraftDelay time.Duration
	// InputGuard is how long after a window takes the focus the keys that
	// act are ignored (see keyguard.go); zero means DefaultInputGuard, less
	// than zero none (the rule that a key must go down in the window stays).
	InputGuard time.Duration
	// Countdown, if not nil, is the countdown the view starts with instead
	// of a fresh one from the question's time limit: the state OnCountdown
	// last reported, carried across a restart of the process that shows
	// the window. A Deadline already past closes the view at the first Tick.
	Countdown *wire.Countdown
	// OnCountdown, if set, receives the countdown's state whenever it
	// changes: once when the view is built, then on "+ time", on the hold
	// an edit (or a restored draft) puts on it, and on pin and unpin. It
	// runs on the Fyne goroutine and must not block.
	OnCountdown func(wire.Countdown)
	// OnFound, if set, is called on the Fyne goroutine when the user first
	// types in the window, edits its answer (an option, an image) or comes
	// to it (Window.Focus), whether or not it opened with the focus: they
	// found it. Must not block.
	OnFound func()
	// QuickReplies are the user's saved replies (quick.go): a window with a
	// reply box offers them in a menu (Alt+R) that inserts one, and one
	// with a single text prompt and no options also shows them as chips
	// above it; either way a reply fills the box, and only Submit sends.
	QuickReplies []string
	// OnSnooze, if set, offers "Snooze" (Alt+Z): not now, for minutes, or
	// until the user is back after being away. The view stays open until
	// its owner closes it. Runs on the Fyne goroutine; must not block.
	OnSnooze func(minutes int, untilBack bool)
	// Quiet shows the window without taking the focus: it comes back after
	// a restart of its process, and the user may be busy elsewhere. The
	// window that had the focus keeps it (or gets it back once the window
	// manager has mapped this one).
	Quiet bool
}

// Defaults of Options.
const (
	DefaultExtend     = 5 * time.Minute
	DefaultDraftDelay = 300 * time.Millisecond
)

// View is the content of a question window. Create it with NewView, place
// Content() in a window, call Tick about once a second, and it calls onDone
// exactly once with the outcome. All methods run on the Fyne goroutine.
type View struct {
	q      wire.Question
	opts   Options
	now    func() time.Time
	onDone func(wire.Answer)
	hooks  windowHooks // what a Window plugs in

	prompts []*promptView
	options []optionControl // every option of every prompt, in Alt+digit order
	ctx     *contextBar     // who asks, the context lines, "n of m open" (whoasks.go)
	att     *attachments    // images; nil when the window has no reply box
	sending *sendingLine    // what Submit sends (sending.go); nil when not shown
	allow   *allowGate      // an approval's Allow, offered once the call was seen (approve.go); nil otherwise
	yesNo   [2]*keyButton   // a window of one yes/no question: its Yes and No buttons (keys.go); nil otherwise
	submit  *keyButton      // Submit; off while a reply breaks its prompt's rule (rule.go); nil without one
	content fyne.CanvasObject

	// Each feature's widgets and state are a type of their own: a new
	// feature adds a type here, not fields.
	panes  paneSet      // the message and the options, and how they scroll (layout.go)
	clock  countdownBar // the countdown and its buttons (view_countdown.go)
	snooze snoozeState  // "Snooze" (snooze.go)
	quick  quickReplies // "Quick reply" and the chips (quick.go)
	pages  pagerState   // several prompts: the pager (pager.go)
	hint   footerHint   // the footer's hint line (keyhelp.go)
	flash  flashState   // the top bar's flash (Flash)
	focus  focusState   // where the keyboard goes and went (keys.go, layout.go)

	// The state with rules of its own is kept in plain types that import no
	// toolkit (TestStateIsToolkitFree); the view drives them and draws what
	// they say.
	shownAt    time.Time
	cd         Countdown // countdown.go: what the countdown says and whether it reached zero (the closing state)
	guard      keyGuard  // guard.go: the input guard (keyguard.go), on in a Window
	heldLooked time.Time // when lookHeld last asked which keys are down
	drafts     debouncer // debounce.go: when the edits are reported through OnDraft (draft.go)
	restoring  bool      // RestoreDraft is setting the controls: not an edit
	done       bool
}

// paneSet is what scrolls in a view and how it is laid out (layout.go).
type paneSet struct {
	body     fyne.CanvasObject   // what scrolls: the question (and the options of several prompts)
	viewHint float32             // the page's height while fitSize chooses the window's (layout.go)
	scroll   *container.Scroll   // holds body
	choices  *container.Scroll   // a single prompt's options, under the message; nil if none
	all      []*container.Scroll // scroll and choices
	center   fyne.CanvasObject   // the panes as laid out
	split    *splitMemory        // the split's last layout (layout.go); nil without options
}

// countdownBar is the countdown in the top bar (view_countdown.go).
type countdownBar struct {
	label  *countdownLabel
	extend *keyButton        // "+ time"; nil without a countdown
	pin    *keyButton        // pins the question (no deadline); nil without a countdown
	band   *canvas.Rectangle // behind the countdown: the warning band in the last minute
}

// snoozeState is the "Snooze" button and its menu (snooze.go).
type snoozeState struct {
	btn  *keyButton        // nil without Options.OnSnooze
	menu *widget.PopUpMenu // the menu last opened; nil before
}

// quickReplies are the user's saved replies as the view offers them (quick.go).
type quickReplies struct {
	btn  *keyButton        // "Quick reply"; nil without replies or a reply box
	menu *widget.PopUpMenu // the Quick reply menu last opened; nil before
	row  *fyne.Container   // the chips above the reply box; nil when not shown
}

// pagerState is the prompt a view of several prompts is on (pager.go).
type pagerState struct {
	bar     *pager // "‹ Question n of m ›"; nil with one prompt
	current int    // the prompt the pager is on
}

// footerHint is the footer's hint line (keyhelp.go).
type footerHint struct {
	text  *widget.RichText
	keys  string  // the keyboard hint, shown unless a button's tip is
	width float32 // the line's width at its last layout
	// waiting: the window opened without the keyboard and the user has not
	// come to it; the hint says how to (bring, the global shortcut, or
	// none: a click).
	waiting bool
	bring   string
}

// flashState is the top bar's flash (Flash).
type flashState struct {
	rect  *canvas.Rectangle // behind the top bar
	count int               // times Flash ran (tests)
	anim  *fyne.Animation   // the running flash; nil when none
}

// focusState is where the keyboard goes on open and where the heartbeat
// last saw it (followFocus, layout.go).
type focusState struct {
	initial fyne.Focusable // the reply box to focus on open, if any
	last    fyne.Focusable // the focused widget the heartbeat last saw
	seen    bool           // whether it saw one yet
}

// windowHooks are what a Window plugs into its View (NewWindow sets
// them). A View alone, as in tests, has confirm, async and after at their
// defaults and the others nil.
type windowHooks struct {
	confirm  func(title, message string, ok func()) // asks before discarding a draft
	onAttach func()                                 // opens the file picker
	focusOn  func(fyne.Focusable)                   // gives a widget the keyboard
	focused  func() fyne.Focusable                  // the widget with the keyboard
	keysDown func() []int                           // the scancodes held down now; nil: unknown (ArmGuard)
	onCycle  func(dir int)                          // moves to the next (1) or previous (-1) open question
	engaged  func()                                 // the user edited the answer: Window.found
	refit    func()                                 // grows the window to changed content: Window.refit (budget.go)
	onHelp   func()                                 // shows the keys dialog: Window.showKeys (keyhelp.go)
	onUrgent func()                                 // the last minute began: the window asks for attention once
	post     func(func())                           // runs f on the Fyne goroutine from any goroutine; nil: fyne.Do
	async    func(func())                           // runs slow work off the Fyne goroutine; tests run it inline

	// after runs f on the Fyne goroutine once d has passed, unless the
	// returned stop is called first; tests drive it by hand.
	after func(d time.Duration, f func()) (stop func() bool)
}

// newPictures returns the loader of a question's images (a test runs the
// finished loads itself: markdown.NewPicturesOn).
var newPictures = markdown.NewPictures

// NewView builds the view of q. onDone receives the one Answer.
func NewView(q wire.Question, opts Options, onDone func(wire.Answer)) *View {
	if opts.Images == (imagepipe.Limits{}) {
		opts.Images = imagepipe.Default()
	}
	if opts.Extend <= 0 {
		opts.Extend = DefaultExtend
	}
	if opts.DraftDelay <= 0 {
		opts.DraftDelay = DefaultDraftDelay
	}
	v := &View{q: q, opts: opts, now: opts.Now, onDone: onDone,
		hooks: windowHooks{async: func(f func()) { go f() }, after: afterOnFyne}}
	if v.now == nil {
		v.now = time.Now
	}
	v.hooks.confirm = func(_, _ string, ok func()) { ok() }
	v.drafts = debouncer{quiet: opts.DraftDelay, most: MaxDraftInterval, report: v.reportDraft,
		after: func(d time.Duration, f func()) func() bool { return v.hooks.after(d, f) }}
	v.shownAt = v.now()
	limit := TimeLimit(q.TimeoutSeconds, opts.DefaultTimeout)
	if opts.Countdown != nil {
		v.cd = RestoreCountdown(*opts.Countdown, limit)
	} else {
		v.cd = NewCountdown(v.shownAt, limit)
	}
	v.clock.label = newCountdownLabel() // view_countdown.go
	v.content = v.build()
	v.updateCountdown(v.shownAt)
	v.reportCountdown()
	return v
}

// Content is the view's root object.
func (v *View) Content() fyne.CanvasObject { return v.content }

// page is the message's scroll: the wheel over a wide code block or table
// scrolls it (markdown.SideScroll).
func (v *View) page() *container.Scroll { return v.panes.scroll }

// Done reports whether the view has reported its Answer.
func (v *View) Done() bool { return v.done }

// HasDraft reports whether the user typed or attached anything, or
// ticked options other than the recommended ones: ticks are work, as the
// countdown, which they hold, counts them.
func (v *View) HasDraft() bool {
	return v.typedDraft() || v.ticked()
}

// typedDraft reports whether the user typed or attached anything.
func (v *View) typedDraft() bool {
	if v.att != nil && (v.att.set.Len() > 0 || v.att.busy > 0) {
		return true
	}
	for _, p := range v.prompts {
		if p.typed() {
			return true
		}
	}
	return false
}

// ticked reports whether a prompt's options differ from the recommended ones.
func (v *View) ticked() bool {
	for _, p := range v.prompts {
		if p.selectionChanged() {
			return true
		}
	}
	return false
}

// Submit ends the view with the user's choices and text.
func (v *View) Submit() {
	if v.ended() {
		return
	}
	if v.att != nil && v.att.busy > 0 {
		v.att.showProblem(i18n.T("question.still_preparing"))
		return
	}
	if i := v.brokenRule(); i >= 0 {
		v.refuseBroken(i) // rule.go: never what the caller would refuse
		return
	}
	if i := v.unaskedUnanswered(); i >= 0 {
		v.askUnanswered(i) // pager.go: never declined by one keystroke
		return
	}
	if v.holdsBackAllow() { // approve.go: never allowed unseen
		return
	}
	v.finish(v.collect(), v.now())
}

// collect is the answer as it stands.
func (v *View) collect() wire.Answer {
	replies := make([]wire.Reply, len(v.prompts))
	for i, p := range v.prompts {
		replies[i] = p.reply()
	}
	a := wire.Answer{Status: wire.StatusAnswered, Replies: replies}
	if v.att != nil {
		a.Images = v.att.images()
	}
	return a
}

// draftNonEmpty reports whether the answer as it stands holds something of
// the user's: text, an image, or options other than the recommended ones.
func (v *View) draftNonEmpty() bool {
	if v.att != nil && v.att.set.Len() > 0 {
		return true
	}
	for _, p := range v.prompts {
		if p.p.EffectiveKind() != wire.KindYesNo && strings.TrimSpace(p.reply().Text) != "" && p.reply().Text != p.p.Prefill {
			return true
		}
		if p.selectionChanged() {
			return true
		}
	}
	return false
}

// AttachImage attaches an image the user gave (dropped, picked): it is
// processed off the Fyne goroutine, then shown, or its problem is.
func (v *View) AttachImage(name string, data []byte) {
	if v.att != nil && !v.ended() {
		v.att.add(name, data)
	}
}

// AttachError tells the user that name could not be attached.
func (v *View) AttachError(name string, err error) {
	if v.att != nil && !v.ended() {
		v.att.addError(name, err)
	}
}

// pasteInto implements keyHandler: Ctrl+V attaches a clipboard image when
// there is one, and otherwise pastes text into e (nil: nowhere).
func (v *View) pasteInto(e *replyEntry, s fyne.Shortcut) bool {
	if _, ok := s.(*fyne.ShortcutPaste); !ok || v.att == nil || v.opts.PasteImage == nil || v.ended() {
		return false
	}
	v.att.paste(e, s)
	return true
}

// RequestDismiss dismisses the question; with a draft (typed, attached or
// ticked) it asks first.
func (v *View) RequestDismiss() {
	if v.ended() {
		return
	}
	if !v.HasDraft() {
		v.dismiss()
		return
	}
	text := i18n.T("discard.text")
	if !v.typedDraft() {
		text = i18n.T("discard.text_choices")
	}
	v.hooks.confirm(i18n.T("discard.title"), text, v.dismiss)
}

func (v *View) dismiss() {
	if v.ended() {
		return // the time ran out while the user was asked
	}
	v.finish(wire.Answer{Status: wire.StatusDismissed}, v.now())
}

// ToggleOption chooses option n (1-based, numbered through the window) and
// reports whether there is such an option: a checkbox toggles; in a
// one-choice prompt the option is selected and replaces the prompt's
// other choice.
func (v *View) ToggleOption(n int) bool {
	if v.ended() || n < 1 || n > len(v.options) {
		return false
	}
	if v.refuseAllow(n - 1) { // approve.go
		return true
	}
	v.options[n-1].choose()
	return true
}

// answerYesNo answers the first yes/no prompt and submits.
func (v *View) answerYesNo(yes bool) bool {
	for _, p := range v.prompts {
		if p.p.Kind == wire.KindYesNo {
			p.choose(yes)
			v.Submit()
			return true
		}
	}
	return false
}

func (v *View) finish(a wire.Answer, at time.Time) {
	if v.done {
		return
	}
	v.done = true
	v.drafts.Cancel()
	a.QuestionID = v.q.ID
	a.ElapsedMS = at.Sub(v.shownAt).Milliseconds()
	v.onDone(a)
}

// edited records an edit by the user: it holds the countdown and reports
// the draft once the user pauses. Setting a restored draft is no edit.
func (v *View) edited() {
	if v.restoring || v.ended() {
		return
	}
	if v.hooks.engaged != nil {
		v.hooks.engaged()
	}
	v.hold()
	v.scheduleDraft()
}

// showHint implements keyHandler: the footer's hint line shows tip while
// the pointer is over a button that has one, and the keyboard hint again
// for "".
func (v *View) showHint(tip string) {
	if v.hint.text == nil {
		return
	}
	if tip == "" {
		tip = v.hint.keys
	}
	if seg, ok := v.hint.text.Segments[0].(*widget.TextSegment); ok && seg.Text != tip {
		seg.Text = tip
		v.hint.text.Refresh()
	}
	if v.sending != nil { // sending.go: the Sending line gives the slot up to a tip
		v.sending.tip = tip != v.hint.keys
		v.placeSending()
	}
}

func (v *View) build() fyne.CanvasObject {
	body := container.NewVBox()
	body.Add(v.contextBlock())
	bottom := container.NewVBox()
	choices := container.NewVBox()
	single := len(v.q.Prompts) == 1
	pictures := newPictures()           // the cap on images is per question
	pictures.Changed = v.contentChanged // an image loaded: the window may grow
	for i, p := range v.q.Prompts {
		pv := v.newPromptView(p)
		v.prompts = append(v.prompts, pv)
		var fixed []fyne.CanvasObject // above the message (layout.go: promptLimit)
		if i == 0 {
			fixed = append(fixed, body.Objects...) // the context block
		}
		if i > 0 {
			sep := widget.NewSeparator()
			body.Add(sep)
			fixed = append(fixed, sep)
		}
		// An approval's call is wrapped, never off to the side (approve.go).
		md := markdown.New(p.Markdown, markdown.Options{Pictures: pictures, Page: v.page, WrapCode: v.q.IsApproval()})
		if i == 0 && v.q.IsApproval() && offersAllow(v.q) {
			v.allow = &allowGate{md: md}
		}
		// One prompt: its options sit in a pane of their own under the
		// message, so a long message never hides them (splitLayout).
		// Several: each message is capped so that its prompt's options
		// follow within the page's height (promptPane); the header line
		// holds the prompt's chip and the pane's "Show all".
		to := choices
		if single {
			body.Add(md)
		} else {
			to = container.NewVBox()
			pane := newPromptPane(md, v.page, v)
			pane.changed = v.contentChanged
			head := pane.headLine(p.Header, i18n.T("question.of", map[string]any{"N": i + 1, "M": len(v.q.Prompts)}))
			pv.head = head
			body.Add(head)
			floor := promptFloorLines
			if i == 0 {
				floor = firstPromptFloorLines // its options in view at open
			}
			pane.limit = v.promptLimit(append(fixed, head), to, floor)
			body.Add(pane)
			body.Add(to)
		}
		for _, o := range pv.rows {
			to.Add(o)
		}
		if pv.entry != nil {
			if single && p.EffectiveKind() == wire.KindText {
				if row := v.chipRow(pv); row != nil { // quick.go
					bottom.Add(row)
				}
				bottom.Add(pv.entry) // the reply box stays in view while the question scrolls
			} else {
				to.Add(pv.entry)
			}
		}
		if pv.rule != nil { // rule.go: under the reply box, or the options, always in view with one prompt
			if single {
				bottom.Add(pv.rule)
			} else {
				to.Add(pv.rule)
			}
		}
	}
	// The first reply box takes the keyboard in every dialect (several
	// prompts too), so typed text is never lost; without one, the first
	// prompt with options does: its selected radio button, else its first
	// option, checkbox or radio button (Space chooses it, Tab and the
	// arrows move on).
	for _, pv := range v.prompts {
		if pv.entry != nil && pv.p.EffectiveKind() == wire.KindText {
			v.focus.initial = pv.entry
			break
		}
	}
	for _, pv := range v.prompts {
		if v.focus.initial == nil && len(pv.options) > 0 {
			v.focus.initial = pv.keyControl() // prompt.go
		}
	}
	if v.hasKind(wire.KindText) && !v.q.IsApproval() { // an approval carries only its decision
		v.att = newAttachments(v, v.opts.Images)
		bottom.Objects = append([]fyne.CanvasObject{v.att.box}, bottom.Objects...)
	}
	if v.wantsSendingLine() {
		v.sending = newSendingLine()
		if len(v.prompts) > 1 {
			v.pages.bar = v.newPager()
			v.sending.row = container.NewBorder(nil, nil, v.pages.bar.box, nil, v.sending.box)
			v.setCurrent(0)
		}
		bottom.Add(v.sending.row)
	}
	foot := v.footer()
	bottom.Add(foot)
	if v.sending != nil {
		v.sending.footer = foot
		v.updateSending()
	}
	v.updateRules()

	var chip fyne.CanvasObject
	if v.q.Title != "" {
		// Centred: the row is as tall as the countdown's buttons.
		chip = container.NewVBox(layout.NewSpacer(), newChip(v.q.Title), layout.NewSpacer())
	}
	buttons := container.NewHBox()
	if v.opts.OnSnooze != nil && !v.q.IsApproval() {
		v.snooze.btn = newKeyButton(i18n.T("question.snooze"), theme.HistoryIcon(), v, v.OpenSnoozeMenu)
		v.snooze.btn.tip = i18n.T("question.snooze.tip", map[string]any{"Key": mods.withAlt("Z")})
		buttons.Add(v.snooze.btn)
	}
	if v.cd.On() {
		v.clock.extend = newKeyButton(formatExtend(v.opts.Extend), nil, v, func() { v.Extend() })
		v.clock.extend.tip = i18n.T("question.extend.tip", map[string]any{"Duration": describeExtend(v.opts.Extend), "Key": mods.withAlt("T")})
		v.clock.pin = newKeyButton(i18n.T("question.pin"), nil, v, func() { v.TogglePin() })
		buttons.Add(v.clock.extend)
		buttons.Add(v.clock.pin)
	}
	top := container.NewBorder(nil, nil, chip, buttons, v.countdownBand()) // view_countdown.go

	v.panes.body = container.NewPadded(body)
	v.panes.scroll = container.NewVScroll(v.panes.body)
	v.panes.scroll.OnScrolled = func(fyne.Position) { v.markSeen(); v.scrolled() }
	v.panes.all = []*container.Scroll{v.panes.scroll}
	center := fyne.CanvasObject(v.panes.scroll)
	if v.allow != nil {
		v.placeAllowReason(choices) // approve.go
	}
	if len(choices.Objects) > 0 {
		v.panes.choices = container.NewVScroll(container.NewPadded(choices))
		v.panes.all = append(v.panes.all, v.panes.choices)
		v.panes.split = &splitMemory{}
		center = container.New(splitLayout{laidOut: v.laidOut, messageFirst: v.allow != nil, last: v.panes.split}, v.panes.scroll, v.panes.choices)
	}
	v.panes.center = center
	v.flash.rect = canvas.NewRectangle(color.Transparent)
	v.updateAllow()
	// In the order drawn, top to bottom: Tab follows it (layout.go).
	return topToBottom(container.NewStack(v.flash.rect, top), center, bottom)
}

func (v *View) footer() fyne.CanvasObject {
	// Dismissing is not answering No: its own words and icon.
	dismiss := newKeyButton(i18n.T("question.dont_answer"), theme.MediaSkipNextIcon(), v, v.tap(v.RequestDismiss))
	dismiss.tip = i18n.T("question.dont_answer.tip")
	buttons := []fyne.CanvasObject{dismiss}
	if b := v.quickButton(); b != nil { // quick.go
		buttons = append([]fyne.CanvasObject{b}, buttons...)
	}
	if v.att != nil {
		attach := newKeyButton(i18n.T("question.attach"), theme.FileImageIcon(), v, func() {
			if v.hooks.onAttach != nil && !v.ended() {
				v.hold() // choosing a file is answering
				v.hooks.onAttach()
			}
		})
		buttons = append([]fyne.CanvasObject{attach}, buttons...)
	}
	if v.hasKind(wire.KindYesNo) {
		no := newKeyButton(i18n.T("question.no"), theme.CancelIcon(), v, v.tap(func() { v.answerYesNo(false) }))
		yes := newKeyButton(i18n.T("question.yes"), theme.ConfirmIcon(), v, v.tap(func() { v.answerYesNo(true) }))
		// The recommended answer is the primary button; none without one.
		switch v.recommended() {
		case "yes":
			yes.Importance = widget.HighImportance
		case "no":
			no.Importance = widget.HighImportance
		}
		v.focusYesNo(yes, no) // keys.go: Enter presses the button it shows
		buttons = append(buttons, no, yes)
	}
	if v.hasSubmit() {
		submit := newKeyButton(i18n.T("question.submit"), theme.MailSendIcon(), v, v.tap(v.Submit))
		submit.Importance = widget.HighImportance
		v.submit = submit
		buttons = append(buttons, submit)
	}
	v.hint.keys = v.shortHint() // keyhelp.go: the rest behind "?" and F1
	v.hint.text = caption(v.hint.keys)
	v.hint.text.Wrapping = fyne.TextWrapOff
	v.hint.text.Truncation = fyne.TextTruncateEllipsis
	// Apart enough for a button's focus ring (focusring.go) not to touch the next.
	row := container.New(layout.NewCustomPaddedHBoxLayout(theme.Padding()+focusRingWidth+focusRingGap), buttons...)
	var line fyne.CanvasObject = container.New(hintLayout{v}, container.NewVBox(layout.NewSpacer(), v.hint.text, layout.NewSpacer())) // keyhelp.go
	// sending.go: what Submit sends, in the hint's place while it fits there whole.
	if v.sending != nil {
		line = container.New(sendingSlot{v}, line, v.sending.inline)
	}
	hint := container.NewBorder(nil, nil, v.helpButton(), nil, line)
	return container.New(ringRoomLayout{}, container.NewBorder(nil, nil, nil, row, hint)) // focusring.go
}

// recommended is the answer the caller recommends for a yes/no question
// ("yes", "no"), or "".
func (v *View) recommended() string { return v.q.RecommendedYesNo() }

func (v *View) hasKind(k wire.PromptKind) bool {
	for _, p := range v.prompts {
		if p.p.EffectiveKind() == k {
			return true
		}
	}
	return false
}

// flashFor is how long the top bar of a window that has just taken the
// focus takes to fade from the primary colour.
const flashFor = 1200 * time.Millisecond

// Flash marks the window that has just taken the keyboard: its top bar
// (the title chip, the countdown) lights up in the primary colour and
// fades, so the user sees which question their keys now go to; the input
// guard ignores the keys that act for its first moments (keyguard.go).
func (v *View) Flash() {
	v.flash.count++
	from := color.NRGBAModel.Convert(theme.Color(theme.ColorNamePrimary)).(color.NRGBA)
	from.A = 0x90
	to := from
	to.A = 0
	v.StopFlash()
	v.flash.anim = canvas.NewColorRGBAAnimation(from, to, flashFor, func(c color.Color) {
		v.flash.rect.FillColor = c
		v.flash.rect.Refresh()
	})
	v.flash.anim.Start()
}

// StopFlash ends the flash at once (the window closes).
func (v *View) StopFlash() {
	if v.flash.anim != nil {
		v.flash.anim.Stop()
		v.flash.anim = nil
		v.flash.rect.FillColor = color.Transparent
		v.flash.rect.Refresh()
	}
}

// WindowTitle is the title of q's window: its summary followed by " — feedback".
func WindowTitle(q wire.Question) string {
	if t := q.Summary(60); t != "" {
		return t + " — feedback"
	}
	return "feedback"
}
