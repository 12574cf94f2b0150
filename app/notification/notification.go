package notification

import (
	"errors"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"feedback/internal/termtext"
)

// Limits on what a notification shows; longer texts are cut with "…".
const (
	MaxSummaryRunes = 100 // the summary, one line
	MaxBodyRunes    = 300 // the body
	MaxBodyLines    = 6   // the body's lines
	// MaxClientRunes bounds the client's name inside a summary, so that a
	// long self-declared name cannot push out "asks" or the question.
	MaxClientRunes = 32
)

// DefaultTimeout bounds each call to the bus when Config.Timeout is zero,
// starting the notification server by D-Bus activation included.
const DefaultTimeout = 2 * time.Second

// DefaultAppName is the app name notifications carry when Config.AppName is
// empty.
const DefaultAppName = "feedback"

// SoundName is the freedesktop sound-theme name played when a notification
// asks for a sound.
const SoundName = "message-new-instant"

// Errors, matched with errors.Is. Other OSes report errors.ErrUnsupported.
var (
	// ErrNoBus: no session bus could be reached (none running, or its
	// address unknown). The session bus is never launched by this package.
	ErrNoBus = errors.New("notification: no D-Bus session bus")
	// ErrNoServer: the session bus has no notification server
	// (org.freedesktop.Notifications) and none could be started.
	ErrNoServer = errors.New("notification: no desktop notification server (org.freedesktop.Notifications) on the session bus; install and run one, e.g. dunst")
	// ErrTimeout: the bus or the server did not answer within the timeout.
	ErrTimeout = errors.New("notification: the session bus or the notification server did not answer in time")
	// ErrClosed: the Notifier was closed.
	ErrClosed = errors.New("notification: the notifier is closed")
)

// ID identifies a notification shown; 0 is none.
type ID uint32

// Urgency is a notification's urgency; the zero value is Normal.
type Urgency int

const (
	Normal Urgency = iota
	Low
	Critical
)

// level is u's value in the "urgency" hint (0 low, 1 normal, 2 critical).
func (u Urgency) level() byte {
	switch u {
	case Low:
		return 0
	case Critical:
		return 2
	default:
		return 1
	}
}

// CloseReason tells why a notification closed, as the server reports it.
type CloseReason uint32

const (
	ClosedExpired   CloseReason = 1 // it timed out
	ClosedByUser    CloseReason = 2 // the user dismissed it (or clicked it)
	ClosedByCall    CloseReason = 3 // Notifier.Dismiss closed it
	ClosedUndefined CloseReason = 4 // the server gave no reason
)

// Notification is what Show shows.
type Notification struct {
	// Summary is the one-line heading, plain text: markup's < > & arrive
	// as the look-alikes ‹ › ＆ (see inertSummary).
	Summary string
	// Body is plain text: markup characters show as themselves.
	Body string
	// Urgency; the zero value is Normal.
	Urgency Urgency
	// Expire is how long it stays: 0 is the server's default, a negative
	// value never expires, otherwise rounded to milliseconds.
	Expire time.Duration
	// Sound asks the server to play SoundName. Without it the notification
	// asks the server for silence ("suppress-sound").
	Sound bool
	// Replaces is the ID of a notification this one replaces, or 0.
	Replaces ID
	// OnClick, if set, offers the "default" action (a click on the
	// notification) and is called when the user invokes it.
	OnClick func()
	// Actions are buttons, shown in order where the server supports
	// actions (the "actions" capability) and left out elsewhere: the
	// notification is then shown without them. A key must not be "default"
	// or "inline-reply"; at most MaxActions, labels capped at
	// MaxActionRunes.
	Actions []Action
	// OnAction, if set, is called with the key of the action the user
	// invoked.
	OnAction func(key string)
	// ReplyLabel, with OnReply, offers a short text reply typed in the
	// notification itself where the server supports it (the
	// "inline-reply" capability, as KDE Plasma's): ReplyLabel names the
	// button, ReplyPlaceholder fills the empty field. Left out elsewhere.
	ReplyLabel, ReplyPlaceholder string
	// OnReply is called with the text the user replied inline.
	OnReply func(text string)
	// OnClosed, if set, is called once when the server reports the
	// notification closed, with the reason.
	//
	// The callbacks run on the Notifier's own goroutine, one at a time, in
	// the order the server sent them (a click comes before its close); they
	// must not block. They are not called after Close, nor for a
	// notification whose Show returned an error.
	OnClosed func(CloseReason)
}

// Action is a button on a notification: Key is what OnAction receives,
// Label what the user reads.
type Action struct{ Key, Label string }

// Limits on actions: how many a notification offers, and a label's length.
const (
	MaxActions     = 4
	MaxActionRunes = 32
)

// Reserved action keys of the freedesktop protocol.
const (
	keyDefault = "default"      // a click on the notification
	keyReply   = "inline-reply" // the inline reply (KDE's extension)
)

// Config configures a Notifier. The zero value works.
type Config struct {
	// AppName is the app_name of every notification; DefaultAppName when
	// empty.
	AppName string
	// Icon is a PNG shown as the notification's image (the "image-data"
	// hint), scaled down to at most IconMaxSize pixels a side; nil shows
	// none. New reports an Icon that does not decode.
	Icon []byte
	// IconPath is the app_icon: an absolute file path (file:// is added)
	// or an icon-theme name; empty sends none.
	IconPath string
	// DesktopEntry is the "desktop-entry" hint: the basename of the app's
	// .desktop file without ".desktop" (io.feedback.app when packaged);
	// empty sends none.
	DesktopEntry string
	// Address is the D-Bus address to use; empty is the session bus of
	// DBUS_SESSION_BUS_ADDRESS, else $XDG_RUNTIME_DIR/bus.
	Address string
	// Timeout bounds every call; DefaultTimeout when zero or negative.
	Timeout time.Duration
}

func (c Config) timeout() time.Duration {
	if c.Timeout <= 0 {
		return DefaultTimeout
	}
	return c.Timeout
}

func (c Config) appName() string {
	if s := clean(c.AppName, MaxSummaryRunes, 1); s != "" {
		return s
	}
	return DefaultAppName
}

// clean makes s safe to show: valid UTF-8, no control characters other than
// line breaks (kept up to maxLines lines; tabs and extra breaks become
// spaces), no bidi embedding or override characters, runs of blanks
// collapsed, trimmed, at most max runes ("…" ends a cut text).
func clean(s string, max, maxLines int) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	var out []rune
	lines, pendingSpace, pendingBreak := 1, false, false
	for _, r := range s {
		switch {
		case r == '\n':
			if lines < maxLines {
				pendingBreak = true
			} else {
				pendingSpace = true
			}
			continue
		case r == '\t' || r == '\r' || unicode.IsSpace(r):
			pendingSpace = true
			continue
		case unicode.IsControl(r) || termtext.IsBidiControl(r):
			continue
		}
		if len(out) > 0 {
			switch {
			case pendingBreak:
				out = append(out, '\n')
				lines++
			case pendingSpace:
				out = append(out, ' ')
			}
		}
		pendingSpace, pendingBreak = false, false
		out = append(out, r)
		if len(out) > max {
			break
		}
	}
	if len(out) > max {
		out = append(out[:max-1], '…')
	}
	return string(out)
}

// escapeMarkup escapes the characters a server that parses the body's markup
// would read as markup.
var escapeMarkup = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace

// inertSummary makes a summary (the title) inert on every server. No
// capability says whether a server parses markup in the summary: some do
// (dunst's and mako's formats put it in their markup, so <b> or <a href>
// would render), others escape it themselves (GNOME Shell), where an
// entity such as &lt; would show as typed. So the three characters markup
// is made of are replaced by look-alikes that are not markup anywhere: ‹ ›
// and the fullwidth ＆.
var inertSummary = strings.NewReplacer("<", "\u2039", ">", "\u203a", "&", "\uff06").Replace
