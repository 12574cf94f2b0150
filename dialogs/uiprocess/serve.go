package uiprocess

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strconv"
	"time"

	"fyne.io/fyne/v2"
	fyneapp "fyne.io/fyne/v2/app"

	"feedback/assets"
	"feedback/dialogs"
	"feedback/dialogs/clipimage"
	"feedback/dialogs/imagepipe"
	"feedback/internal/display"
	"feedback/internal/i18n"
	"feedback/ipc/uiproto"
	"feedback/ipc/wire"
)

// ID is the application's unique identifier (also in FyneApp.toml).
const ID = "io.feedback.app"

// Config is what Serve needs.
type Config struct {
	Logger *slog.Logger
	// Build is this binary's build (what `feedback version` prints), said
	// in the Hello: the app ends a UI process of another build.
	Build string
}

// Serve runs the UI process: a Fyne app whose windows the core asks for over
// ch (the UI protocol, package uiproto), until the core sends uiproto.Exit
// or closes ch. Its first event is uiproto.Hello with cfg.Build. Every window reports its draft, its countdown and its outcome
// back over ch. (SIGTERM and SIGINT end Fyne's loop through Fyne's own
// handler, on the Fyne goroutine.)
func Serve(ch io.ReadWriteCloser, cfg Config) (err error) {
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	defer profileOnSignal(log)() // FEEDBACK_UI_CPUPROFILE (cpuprofile_unix.go)
	nameProcess()
	conn := uiproto.NewUIConn(ch)
	defer conn.Close()
	// First, before Fyne starts: the app sends no command until it has
	// checked that this process is of its build.
	if err := conn.Send(uiproto.Hello{Protocol: uiproto.Version, Build: cfg.Build}); err != nil {
		return fmt.Errorf("greeting the app: %w", err)
	}
	if err := display.Check(); err != nil {
		return err
	}
	afterDisplayCheck()
	keepX11() // platform.go
	// The display may go away at any moment, as this process starts too
	// (GLFW then fails to open it, and Fyne's driver panics: "the GLFW
	// library is not initialized"). A panic with the display gone is that:
	// the process ends quietly, saying so; any other panic stays one.
	defer func() {
		if r := recover(); r != nil {
			derr := display.Check()
			if derr == nil {
				panic(r)
			}
			log.Debug("Fyne's driver panicked as the display went away", "panic", r)
			err = fmt.Errorf("the display went away: %w", derr)
		}
	}()
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
	// The app's settings come first (the app alone reads, watches and
	// writes the settings file): before any window, every word in the
	// user's language.
	first, err := conn.Receive()
	if errors.Is(err, io.EOF) { // the app is gone already
		return nil
	}
	if err != nil {
		return fmt.Errorf("the app's first command: %w", err)
	}
	set, ok := first.(uiproto.Settings)
	if ok {
		first = nil
	} else {
		log.Warn("the app sent no settings first: the defaults apply", "type", first.Type())
	}
	useLanguage(i18n.Choose(set.Language, i18n.Locales()))
	guard := inputGuard(log)
	u := newWindows(a, windowOptions(set, guard))
	u.pool.Log = log // a window another X client destroyed (dialogs/lost.go)
	u.do(func() { u.setShortcut(set.FocusShortcut, log) })
	s := &server{conn: conn, win: u, app: a, log: log, guard: guard, appWins: make(map[uiproto.WindowName]fyne.Window)}
	go s.receive(first)
	a.Run()
	u.loopEnded()
	return nil
}

// afterDisplayCheck runs after Serve found the display answering and before
// Fyne opens it: a test takes the display away there.
var afterDisplayCheck = func() {}

// server applies the core's commands to the windows and reports their
// events back.
type server struct {
	conn *uiproto.UIConn
	win  *windows
	app  fyne.App
	log  *slog.Logger
	kept bool // keepAlive made its window; on the Fyne goroutine only
	// guard is the windows' input guard (FEEDBACK_INPUT_GUARD_MS).
	guard time.Duration
	// appWins are the app's own windows open (history, settings…), by
	// name; on the Fyne goroutine only.
	appWins map[uiproto.WindowName]fyne.Window
	// reqs are the app windows' requests waiting for the app's answer
	// (requests.go).
	reqs requests
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
func (s *server) send(m uiproto.Event) {
	if err := s.conn.Send(m); err != nil {
		s.log.Debug("reporting to the core", "type", m.Type(), "err", err)
	}
}

// receive reads the core's commands until Exit, then ends the process:
// the windows close (reporting their drafts first) and it exits.
// When the channel closes (the app is gone) the process exits at once.
// (The loop starts before a.Run returns control: fyne.Do queues until it
// runs, so the first command is not lost.)
func (s *server) receive(first uiproto.Command) {
	for m := first; ; m = nil {
		var err error
		if m == nil {
			m, err = s.conn.Receive()
		}
		var unknown *uiproto.UnknownTypeError
		if errors.As(err, &unknown) { // its line is read: the next one is whole
			s.log.Warn("unknown command from the core", "type", unknown.Type)
			continue
		}
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
			exitProcess(0)
			return
		}
		if _, ok := m.(uiproto.Exit); ok {
			break
		}
		if _, ok := m.(uiproto.Ping); ok { // answered here, off the Fyne goroutine: this process reads its commands
			s.send(uiproto.Pong{})
			continue
		}
		if resp, ok := m.(uiproto.Response); ok { // an answer to an app window's request (requests.go)
			if !s.reqs.deliver(resp) {
				s.log.Warn("an answer from the core that nothing waits for", "type", resp.Type())
			}
			continue
		}
		s.apply(m)
	}
	// The windows close, each reporting its draft first (sent before stop
	// returns), and the process ends there rather than through Fyne's
	// teardown: that can crash on a pointer event for a window it has
	// just destroyed (glfw SetInputMode on a nil window in
	// processMouseMoved), as when the app quit while a window it had just
	// shown was under the pointer (e2e TestSIGTERMAtAnyMoment).
	s.win.do(func() {
		s.win.stop()
		exitProcess(0)
	})
}

// exitProcess ends the UI process (a variable for the tests, which run in
// the test binary's own process).
var exitProcess = os.Exit

// apply carries out one command (Exit and Ping are the reader's).
func (s *server) apply(cmd uiproto.Command) {
	switch m := cmd.(type) {
	case uiproto.Settings:
		s.win.applySettings(m, s.guard, s.log)
	case uiproto.Show:
		s.show(m.Question, m.Draft, m.Countdown, m.Quiet)
		s.keepAlive()
	case uiproto.Withdraw:
		id := m.ID
		s.win.withdraw(id, func() { s.send(uiproto.Closed{ID: id}) })
	case uiproto.Focus:
		s.win.Focus(m.ID)
	case uiproto.Notify:
		s.win.do(func() { s.app.SendNotification(fyne.NewNotification(m.Title, m.Body)) })
	case uiproto.OpenWindow:
		s.openAppWindow(m)
	case uiproto.Warm:
		s.win.warm(s.log)
		s.keepAlive()
	case uiproto.Sleep:
		// What the heaps do not use goes back to the system first: a
		// stopped process keeps every page it holds (25–40 MiB measured
		// after a burst of questions).
		dialogs.ReleaseMemory()
		s.win.do(func() { s.send(uiproto.Sleeping{Refused: sleepRefusal()}) })
	case uiproto.ConfirmQuit:
		s.keepAlive() // first: closing the dialog must not close the last window
		s.win.do(func() {
			confirmQuit(s.app, m.Open, func(yes bool) { s.send(uiproto.QuitAnswer{Confirmed: yes}) })
		})
	default:
		s.log.Warn("unexpected command from the core", "type", cmd.Type())
	}
}

// sleepRefusal says why this process may not be stopped now ("": it
// may). Stopped while it owns a selection the user copied from a question
// window, it would hang every program that pastes until it is woken; and
// where the window system cannot tell, it may own one.
func sleepRefusal() string {
	switch holds, known := dialogs.HoldsSelection(); {
	case !known:
		return "cannot tell whether it holds the clipboard (not X11, or its server lacks X-Resource)"
	case holds:
		return "text copied from one of its windows is on the clipboard: a stopped owner would hang every program that pastes"
	}
	return ""
}

// show opens the window of q, with draft and the countdown where it was
// (after a restart of this process), reporting everything back; quiet: it
// does not take the focus (shown again after a restart).
func (s *server) show(q wire.Question, draft *wire.Draft, cd *wire.Countdown, quiet bool) {
	id := q.ID
	unfocused := false              // set before Shown, on the Fyne goroutine
	var drafts uiproto.DraftEncoder // its drafts' images cross once; on the Fyne goroutine
	h := hooks{
		Shown: func() {
			s.send(uiproto.Shown{ID: id, Unfocused: unfocused})
			s.log.Info("window shown", "id", id, "draft_restored", draft != nil, "countdown", describeCountdown(cd), "unfocused", unfocused, "quiet", quiet)
		},
		Draft: func(d wire.Draft) { s.send(drafts.Encode(id, d)) },
		Done:  func(a wire.Answer) { s.send(uiproto.Done{ID: id, Answer: a}) },
	}
	s.win.show(q, draft, func(o *dialogs.Options) {
		o.Countdown = cd // as it stood in the last UI process; nil: a fresh one
		o.OnCountdown = func(c wire.Countdown) { s.send(uiproto.CountdownChanged{ID: id, Countdown: c}) }
		o.OnFound = func() { s.send(uiproto.Found{ID: id}) }
		o.OnSnooze = func(minutes int, untilBack bool) { // the app closes the window (app/core/snooze)
			s.send(uiproto.Snooze{ID: id, Minutes: minutes, UntilBack: untilBack})
		}
		o.Quiet = quiet
	}, h, func() { unfocused = true })
}

// describeCountdown says how a window's countdown starts, for the log.
func describeCountdown(cd *wire.Countdown) string {
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

// windowOptions turns the app's settings into the question windows'
// options, with the input guard guard.
func windowOptions(s uiproto.Settings, guard time.Duration) dialogs.Options {
	return dialogs.Options{
		DefaultTimeout: s.DefaultTimeout,
		Images: imagepipe.Limits{
			MaxCount:      s.Images.MaxCount,
			MaxEdge:       s.Images.MaxEdge,
			MaxImageBytes: s.Images.MaxImageBytes,
			MaxTotalBytes: s.Images.MaxTotalBytes,
		},
		PasteImage:           pasteImage,
		Extend:               s.Extend,
		SubmitDraftOnTimeout: s.SubmitDraftOnTimeout,
		InputGuard:           guard,
		QuickReplies:         quickReplies(s.QuickReplies),
	}
}

// quickReplies are the user's saved replies, or the defaults in the
// windows' language when they set none.
func quickReplies(saved []string) []string {
	if saved != nil {
		return saved
	}
	return []string{i18n.T("quick.default.continue"), i18n.T("quick.default.wait"), i18n.T("quick.default.tradeoffs")}
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
