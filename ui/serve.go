package ui

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"strconv"
	"time"

	"fyne.io/fyne/v2"
	fyneapp "fyne.io/fyne/v2/app"

	"feedback/assets"
	"feedback/clipimage"
	"feedback/core"
	"feedback/dialogs"
	"feedback/i18n"
	"feedback/imagepipe"
	"feedback/launch"
	"feedback/settings"
	"feedback/store"
	"feedback/wire"
)

// ID is the application's unique identifier (also in FyneApp.toml).
const ID = "io.feedback.app"

// Config is what Serve needs.
type Config struct {
	Settings settings.Settings
	Logger   *slog.Logger
}

// Serve runs the UI process: a Fyne app whose windows the core asks for over
// ch (the UI protocol, package core), until the core sends core.UIExit or
// closes ch. Every window reports its draft, its countdown and its outcome
// back over ch. (SIGTERM and SIGINT end Fyne's loop through Fyne's own
// handler, on the Fyne goroutine.)
func Serve(ch io.ReadWriteCloser, cfg Config) error {
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	defer profileOnSignal(log)() // FEEDBACK_UI_CPUPROFILE (cpuprofile_unix.go)
	conn := core.NewUIConn(ch)
	defer conn.Close()
	if err := launch.CheckDisplay(); err != nil {
		return err
	}
	if path, err := fynePreferencesPath(ID); err == nil { // before Fyne reads it (fyneprefs.go)
		if did, err := repairPreferences(path); err != nil {
			log.Warn("Fyne's preferences file", "path", path, "err", err)
		} else if did != "" {
			log.Warn("Fyne's preferences file was unreadable", "path", path, "repair", did)
		}
	}
	a := fyneapp.NewWithID(ID)
	a.SetIcon(fyne.NewStaticResource("icon.png", assets.IconPNG))
	a.Settings().SetTheme(dialogs.Theme()) // contrast of outlines and placeholders (dialogs/theme.go)
	// Before any window: every word in the user's language.
	useLanguage(i18n.Choose(cfg.Settings.Language, i18n.Locales()))
	opts := windowOptions(cfg.Settings)
	opts.InputGuard = inputGuard(log)
	u := newWindows(a, opts)
	u.pool.Log = log // a window another X client destroyed (dialogs/lost.go)
	if path, err := settings.Path(); err == nil {
		defer watchSettings(u, path, opts.InputGuard, log, nil)()
	}
	s := &server{conn: conn, win: u, app: a, log: log, appWins: make(map[string]fyne.Window)}
	go s.receive()
	a.Run()
	u.loopEnded()
	return nil
}

// server applies the core's commands to the windows and reports their
// events back.
type server struct {
	conn *core.UIConn
	win  *windows
	app  fyne.App
	log  *slog.Logger
	kept bool // keepAlive made its window; on the Fyne goroutine only
	// appWins are the app's own windows open (history, settings…), by
	// name; on the Fyne goroutine only.
	appWins map[string]fyne.Window
}

// keepAlive makes, once, a hidden window of our own: Fyne quits when its
// last window closes, and the process must stay up between questions for
// the linger time. It is made after the first window, not before: each
// window costs a GL context, and the first popup is what a cold start is
// waiting for.
func (s *server) keepAlive() {
	s.win.do(func() {
		if !s.kept {
			s.kept = true
			s.app.NewWindow("feedback")
		}
	})
}

// send reports an event to the core; a closed channel means the core is
// gone, and the process ends with its next receive.
func (s *server) send(m core.UIMsg) {
	if err := s.conn.Send(m); err != nil {
		s.log.Debug("reporting to the core", "type", m.Type, "err", err)
	}
}

// receive reads the core's commands until UIExit, then ends the app: the
// windows close (reporting their drafts first) and Fyne's loop returns.
// When the channel closes (the app is gone) the process exits at once.
func (s *server) receive() {
	// The loop starts before a.Run returns control: fyne.Do queues until
	// it runs, so the first command is not lost.
	s.send(core.UIMsg{Type: core.UIEventReady})
	for {
		m, err := s.conn.Receive()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				s.log.Error("reading the core's commands", "err", err)
			}
			// The app is gone (it quit, or died): nobody takes a draft or an
			// answer any more, and it keeps what it was sent. The process
			// ends at once rather than through Fyne's teardown, which can
			// crash on a pointer event for a window it has just destroyed
			// (glfw SetInputMode on a nil window in processMouseMoved, seen
			// when the app quit while a window was under the pointer).
			os.Exit(0)
		}
		if m.Type == core.UIExit {
			break
		}
		if m.Type == core.UIPing { // answered here, off the Fyne goroutine: this process reads its commands
			s.send(core.UIMsg{Type: core.UIEventPong})
			continue
		}
		s.apply(m)
	}
	s.win.do(func() {
		s.win.stop()
		s.app.Quit()
	})
}

func (s *server) apply(m core.UIMsg) {
	switch m.Type {
	case core.UIShow:
		if m.Question == nil {
			s.log.Warn("a show command without a question", "id", m.ID)
			return
		}
		s.show(*m.Question, m.Draft, m.Countdown, m.Quiet)
		s.keepAlive()
	case core.UIWithdraw:
		id := m.ID
		s.win.withdraw(id, func() { s.send(core.UIMsg{Type: core.UIEventClosed, ID: id}) })
	case core.UIFocus:
		s.win.Focus(m.ID)
	case core.UINotify:
		title, body := m.Title, m.Body
		s.win.do(func() { s.app.SendNotification(fyne.NewNotification(title, body)) })
	case core.UIOpenWindow:
		s.openAppWindow(m)
	case core.UIConfirmQuit:
		s.keepAlive() // first: closing the dialog must not close the last window
		s.win.do(func() {
			confirmQuit(s.app, m.Open, func(yes bool) { s.send(core.UIMsg{Type: core.UIEventQuit, Confirmed: yes}) })
		})
	default:
		s.log.Warn("unknown command from the core", "type", m.Type)
	}
}

// show opens the window of q, with draft and the countdown where it was
// (after a restart of this process), reporting everything back; quiet: it
// does not take the focus (shown again after a restart).
func (s *server) show(q wire.Question, draft *store.Draft, cd *core.Countdown, quiet bool) {
	id := q.ID
	unfocused := false // set before Shown, on the Fyne goroutine
	h := core.Hooks{
		Shown: func() {
			s.send(core.UIMsg{Type: core.UIEventShown, ID: id, Unfocused: unfocused})
			s.log.Info("window shown", "id", id, "draft_restored", draft != nil, "countdown", describeCountdown(cd), "unfocused", unfocused, "quiet", quiet)
		},
		Draft: func(d store.Draft) { s.send(core.UIMsg{Type: core.UIEventDraft, ID: id, Draft: &d}) },
		Done:  func(a wire.Answer) { s.send(core.UIMsg{Type: core.UIEventDone, ID: id, Answer: &a}) },
	}
	s.win.show(q, draft, func(o *dialogs.Options) {
		countdownOptions(o, cd, func(c core.Countdown) {
			s.send(core.UIMsg{Type: core.UIEventCountdown, ID: id, Countdown: &c})
		})
		o.OnFound = func() { s.send(core.UIMsg{Type: core.UIEventFound, ID: id}) }
		o.Quiet = quiet
	}, h, func() { unfocused = true })
}

// describeCountdown says how a window's countdown starts, for the log.
func describeCountdown(cd *core.Countdown) string {
	switch {
	case cd == nil:
		return "fresh"
	case cd.Held:
		return "held"
	case cd.Pinned:
		return "pinned"
	case cd.Deadline.IsZero():
		return "none"
	}
	return "restored, " + time.Until(cd.Deadline).Round(time.Second).String() + " left"
}

// countdownOptions has a window start with cd, the countdown as it stood
// in the last UI process (nil: a fresh one), and report its changes.
func countdownOptions(o *dialogs.Options, cd *core.Countdown, report func(core.Countdown)) {
	if cd != nil {
		o.Countdown = &dialogs.CountdownState{Deadline: cd.Deadline, Held: cd.Held, Pinned: cd.Pinned, Left: cd.Left}
	}
	o.OnCountdown = func(s dialogs.CountdownState) {
		report(core.Countdown{Deadline: s.Deadline, Held: s.Held, Pinned: s.Pinned, Left: s.Left})
	}
}

// windowOptions turns the settings into the question windows' options.
func windowOptions(s settings.Settings) dialogs.Options {
	const mib = 1 << 20
	return dialogs.Options{
		DefaultTimeout: s.DefaultTimeout(),
		Images: imagepipe.Limits{
			MaxCount:      s.Images.MaxCount,
			MaxEdge:       s.Images.MaxEdge,
			MaxImageBytes: s.Images.MaxMiB * mib,
			MaxTotalBytes: s.Images.MaxTotalMiB * mib,
		},
		PasteImage:           pasteImage,
		Extend:               time.Duration(s.ExtendSeconds) * time.Second,
		SubmitDraftOnTimeout: s.SubmitDraftOnTimeout,
	}
}

// inputGuard is the windows' input guard: dialogs.DefaultInputGuard, or
// FEEDBACK_INPUT_GUARD_MS milliseconds (0 turns the time rule off, for
// tests that drive windows with xdotool; a key must still go down in the
// window to act).
func inputGuard(log *slog.Logger) time.Duration {
	v := os.Getenv("FEEDBACK_INPUT_GUARD_MS")
	if v == "" {
		return 0
	}
	ms, err := strconv.Atoi(v)
	if err != nil || ms < 0 {
		log.Warn("FEEDBACK_INPUT_GUARD_MS ignored: want a number of milliseconds", "value", v)
		return 0
	}
	if ms == 0 {
		return -1
	}
	return time.Duration(ms) * time.Millisecond
}

// pasteImage reads an image from the system clipboard for Ctrl+V. No image,
// or a platform without image paste, lets the reply box paste text.
func pasteImage(ctx context.Context) ([]byte, bool, error) {
	data, _, err := clipimage.Read(ctx)
	switch {
	case err == nil:
		return data, true, nil
	case errors.Is(err, clipimage.ErrNoImage), errors.Is(err, errors.ErrUnsupported):
		return nil, false, nil
	default:
		return nil, false, err
	}
}
