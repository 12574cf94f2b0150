package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"runtime/debug"
	"sync/atomic"
	"time"

	"feedback/app/core"
	"feedback/app/core/away"
	"feedback/app/core/dnd"
	"feedback/app/core/messages"
	"feedback/app/core/notes"
	"feedback/app/core/snooze"
	"feedback/app/notification"
	"feedback/app/store"
	"feedback/app/supervisor"
	"feedback/app/windowreq"
	"feedback/internal/display"
	"feedback/internal/settings"
	"feedback/internal/settings/settingsfile"
	"feedback/ipc"
	"feedback/ipc/launch"
	"feedback/ipc/uiproto"
	"feedback/ipc/wire"
)

// Config is what Run needs.
type Config struct {
	Version  string
	Socket   string // the socket path; "" means ipc.SocketPath()
	Settings settings.Settings
	Logger   *slog.Logger
	// Database is the SQLite file that keeps questions, drafts and answers
	// across restarts: "" means $FEEDBACK_DB, else store.DefaultPath()
	// (~/.local/share/feedback/feedback.db); "off" keeps them in memory only.
	Database string
	// SettingsPath is the settings file whose changes apply while the app
	// runs (settingsfile.Watch); "" watches none.
	SettingsPath string
	// StartUI starts the UI process that shows the windows; nil means
	// StartUIProcess (this binary's `feedback ui`).
	StartUI supervisor.Starter
	// Notifier shows the desktop notifications (a window that opened
	// without the focus); nil means package notification's, with the app's icon.
	Notifier Notifier
}

// lingerOf is the UI process's linger time for s: ui_linger_seconds, 0
// meaning that it exits with its last window.
func lingerOf(s settings.Settings) time.Duration {
	if s.UILingerSeconds == 0 {
		return -1
	}
	return time.Duration(s.UILingerSeconds) * time.Second
}

// uiSettings are what the UI process takes from s: the language of its
// words and the question windows' options.
func uiSettings(s settings.Settings) *uiproto.Settings {
	const mib = 1 << 20
	return &uiproto.Settings{
		Language:             s.Language,
		DefaultTimeout:       s.DefaultTimeout(),
		Extend:               time.Duration(s.ExtendSeconds) * time.Second,
		SubmitDraftOnTimeout: s.SubmitDraftOnTimeout,
		QuickReplies:         s.QuickReplies,
		FocusShortcut:        s.FocusShortcut,
		Images: uiproto.ImageLimits{
			MaxCount:      s.Images.MaxCount,
			MaxEdge:       s.Images.MaxEdge,
			MaxImageBytes: s.Images.MaxMiB * mib,
			MaxTotalBytes: s.Images.MaxTotalMiB * mib,
		},
	}
}

// errUserQuit is the cause of the app's end when the user chose Quit.
var errUserQuit = errors.New("the user quit")

// Run runs the resident app until ctx ends or the user quits. If another
// instance already listens on the socket it returns nil at once.
func Run(ctx context.Context, cfg Config) error {
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if err := display.Check(); err != nil {
		return err // no display, the wrong protocol for this build, or a dead X server
	}
	path := cfg.Socket
	if path == "" {
		var err error
		if path, err = ipc.SocketPath(); err != nil {
			return err
		}
	}
	l, err := ipc.Listen(path)
	if errors.Is(err, ipc.ErrAlreadyRunning) {
		log.Info("feedback is already running; this instance exits", "socket", path)
		return nil
	}
	if err != nil {
		return fmt.Errorf("listening on %s: %w", path, err)
	}
	defer l.Close()
	// A client that filters the environment starts its shim without
	// XDG_RUNTIME_DIR or DISPLAY: the record tells it where the app
	// listens and which session to start one on (launch.SocketCandidates).
	if cfg.Socket == "" && os.Getenv(ipc.EnvSocket) == "" { // a socket set by hand is set for the clients too
		if err := launch.RecordSession(path); err != nil {
			log.Warn("where the app listens was not recorded: clients that filter the environment may not find it", "err", err)
		}
	}

	p := newParts(cfg, log)
	if p.ownNotifier != nil {
		defer p.ownNotifier.Close()
	}
	// The settings, before a window can open or the last run's questions
	// come back: the UI process's, the default countdown, the quiet hours…
	settingsTo := p.live(log)
	settingsTo.apply(cfg.Settings)
	// Do not disturb is set from the tray: without one it is off (a saved
	// "on" with no way to turn it off would hold every question back).
	// Loaded before the database opens: the questions of the last run come
	// back held back too.
	trayErr := trayHostReachable()
	if trayErr == nil {
		p.quiet.Use(dndStore(log))
	} else {
		p.quiet.Use(nil)
	}
	p.inbox.Start() // the database opens; the last run's questions come back

	ctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	go p.watcher.run(ctx)
	endTray := startTray(p, trayErr, func() { p.quit(stop, log) }, log)
	// The desktop session ends (its X server, its session bus): so does
	// the app, instead of living on with nothing to show windows on.
	endWatch := watchSession(log, stop)
	defer endWatch()

	onGreet := func() {
		if p.prewarm.Load() {
			p.ui.Prewarm()
		}
	}
	// A change of settings.json (the Settings window's Save, which the app
	// wrote: package windowreq, or a hand edit) applies at once: no restart.
	if spath := cfg.SettingsPath; spath != "" {
		settingsfile.Watch(ctx, spath, os.Getenv, func(s settings.Settings, err error) {
			if err != nil {
				log.Warn("settings.json changed but is not valid: the app keeps the settings it has", "err", err)
				return
			}
			settingsTo.apply(s)
			log.Info("settings applied", "ui_linger_seconds", s.UILingerSeconds, "sound", s.Sound, "ui_prewarm", s.UIPrewarm, "ui_sleep", s.UISleep,
				"retention_days", s.RetentionDays, "retention_image_mib", s.RetentionImageMiB, "dnd_schedule", s.DNDSchedule)
		})
	}
	msgs := messenger{messages: p.messages, dnd: p.quiet, questions: p.inbox, notes: p.alerts, openHistory: func() { p.ui.OpenWindow(uiproto.WindowHistory) }}
	srv := ipc.NewServer(p.inbox, ipc.ServerOptions{Version: cfg.Version, Logger: log, OnGreet: onGreet, Messenger: msgs,
		Quit: func() (ipc.Quitting, func()) { return p.quitNow(stop, log) }})
	served := make(chan error, 1)
	go func() { served <- srv.Serve(l) }()
	stopRelay := startRelay(ctx, p.inbox, log) // relay.go: remote agents through a broker (#33)
	defer stopRelay()
	log.Info("feedback is running", "socket", path, "version", cfg.Version)
	select {
	case <-ctx.Done():
		log.Info("stopping", "cause", context.Cause(ctx))
		endWatch() // the display's and the bus's closing from here on is ours
	case err = <-served:
		log.Error("the socket server stopped", "err", err)
	}

	// The windows close first: each reports its draft, so the database has
	// what the user typed up to the last key.
	p.ui.Close(3 * time.Second)
	endTray()
	shutdown, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if serr := srv.Shutdown(shutdown); err == nil {
		err = serr
	}
	p.quiet.Close()                // nothing held back opens any more
	p.retain.Stop()                // no pass runs into the closed store
	p.inbox.Close(3 * time.Second) // after the last caller left: its withdrawal is recorded
	p.alerts.wait()                // each bounded by the notifier's timeout
	return err
}

// parts are the resident app's parts, each made after what it uses: no
// part refers to one not made yet.
type parts struct {
	alerts *notices // desktop notifications
	// ownNotifier is the notifier made for the app (none given): it
	// closes with it.
	ownNotifier *notification.Notifier
	quiet       *dnd.Control    // do not disturb
	snoozes     *snooze.Control // "not now": when a snoozed question comes back
	away        *away.Control   // what a question gets while the user is away
	notes       *notes.Control  // the user's notes for agents
	messages    *messages.Control
	ui          *supervisor.UIProcess // the UI process that shows the windows
	inbox       *core.Inbox           // the questions and their windows
	watcher     *presence             // who is at the desk
	retain      store.Retainer        // prunes the database at start and daily
	prewarm     atomic.Bool           // the shims' greeting starts the UI process (ui_prewarm)
	quitting    atomic.Bool           // the user quit: each question ends
}

// newParts makes the app's parts, none started.
func newParts(cfg Config, log *slog.Logger) *parts {
	p := &parts{alerts: &notices{n: cfg.Notifier, log: log.With("part", "notify")}}
	if p.alerts.n == nil && notification.Supported() {
		if n := defaultNotifier(p.alerts.log); n != nil {
			p.alerts.n, p.ownNotifier = n, n
		}
	}
	p.quiet = dnd.New(log.With("part", "dnd"))
	p.snoozes = snooze.New(log.With("part", "snooze"))
	p.notes = notes.New(log.With("part", "notes"))
	p.messages = messages.New(log.With("part", "messages"))
	start := cfg.StartUI
	if start == nil {
		start = StartUIProcess
	}
	dbPath := databasePath(cfg.Database, log)
	p.ui = supervisor.New(supervisor.Options{
		Start: start,
		// Idle: give the memory the last burst of questions used back to
		// the system now, not when the runtime's scavenger gets to it.
		OnIdle: debug.FreeOSMemory,
		Log:    log.With("part", "ui"),
		OnNote: func(n uiproto.Note) { p.notes.Add(n) }, // from the note window: kept for its agent
		// The UI process must be this build: one of another (the binary
		// was replaced by an upgrade, where StartUIProcess cannot start
		// this build's) is ended and the user told to restart.
		Build:      cfg.Version,
		OnMismatch: func(error) { p.alerts.upgraded() },
		// The History and Settings windows ask the app (package windowreq):
		// the UI process opens neither the database nor the settings file.
		Requests: (&windowreq.Server{DB: dbPath, SettingsPath: cfg.SettingsPath, RelayStatusPath: relayStatusPath(), Log: log.With("part", "windows")}).Answer,
	})
	if p.alerts.n == nil && !notification.Supported() {
		p.alerts.n = uiNotifier{p.ui} // Fyne's SendNotification, in the UI process
	}
	// Away: back at the desk, the snoozes until then end and the user
	// hears what was asked meanwhile.
	p.away = away.New(away.Options{Log: log.With("part", "away"), Back: func(asked []away.Item) {
		p.snoozes.Back()
		if len(asked) > 0 {
			p.alerts.back(asked, func() { p.ui.OpenWindow(uiproto.WindowHistory) })
		}
	}})
	p.inbox = core.New(core.Options{
		Presenter: p.ui,
		Log:       log,
		// Do not disturb first: it holds a window back before a snooze
		// brings it, and opens one it holds when the tray raises it.
		Features: []core.Feature{p.quiet, p.snoozes, p.away, p.notes, p.messages},
		Open: func() (core.Store, error) {
			st, err := openDatabase(dbPath, log)
			if err != nil {
				return nil, err
			}
			p.retain.Start(st, log)
			return database{st}, nil
		},
		OnEnd:       p.alerts.ended, // a question's notification goes when it ends
		OnUnfocused: p.alerts.unfocused,
		// The user came to the window: its notification has done its work.
		OnFound: func(q wire.Question) { p.alerts.ended(q.ID) },
		// A window the user never saw ends: a notice, unless the user is
		// quitting (each question ends then) or do not disturb is on.
		OnUnseenEnd: func(q wire.Question, timedOut bool) {
			if p.quitting.Load() || p.quiet.Active() {
				return
			}
			if timedOut {
				p.alerts.timedOutUnseen(q)
			} else {
				p.alerts.withdrawnUnseen(q)
			}
		},
		// An answer given after its call ended went to the agent's next call
		// (a one-shot client): say where it went.
		OnHandedOver: func(q wire.Question) {
			if !p.quiet.Active() {
				p.alerts.handedOver(q)
			}
		},
	})
	p.alerts.setInbox(p.inbox) // a click on a notification raises the window, a button answers
	p.watcher = newPresence(p.away, p.snoozes, log.With("part", "presence"))
	return p
}

// live is where apply hands the settings: the parts.
func (p *parts) live(log *slog.Logger) live {
	return live{ui: p.ui, questions: p.inbox, dnd: p.quiet, away: p.watcher, sound: p.alerts, retain: &p.retain, prewarm: &p.prewarm, log: log}
}

// quitNow is feedback quit (ipc.PathQuit): the user's Quit from a
// terminal, the command itself the confirmation. Each question ends as
// dismissed by the user, as with quit.
func (p *parts) quitNow(stop context.CancelCauseFunc, log *slog.Logger) (ipc.Quitting, func()) {
	p.quitting.Store(true)
	ended := p.inbox.EndAll(wire.Answer{Status: wire.StatusDismissed, Reason: wire.ReasonQuit})
	log.Info("the user quit (feedback quit)", "questions", ended)
	return ipc.Quitting{PID: os.Getpid(), Questions: ended}, func() { stop(errUserQuit) }
}

// quit is Quit from the tray: with questions open the user is asked first
// (in the UI process); each then ends as dismissed by the user, so every
// waiting caller gets that answer — not a dropped connection, which a shim
// would take for a crash and restart the app for.
func (p *parts) quit(stop context.CancelCauseFunc, log *slog.Logger) {
	if n := len(p.inbox.Items()); n > 0 {
		yes, err := p.ui.ConfirmQuit(n)
		if err != nil {
			log.Warn("quitting without asking: the UI process cannot ask", "err", err)
			yes = true
		}
		if !yes {
			return
		}
		p.quitting.Store(true)
		ended := p.inbox.EndAll(wire.Answer{Status: wire.StatusDismissed, Reason: wire.ReasonQuit})
		log.Info("the user quit with questions open: each ended as dismissed", "questions", ended)
	}
	stop(errUserQuit)
}
