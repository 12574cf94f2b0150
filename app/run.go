package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"time"

	"fyne.io/fyne/v2"
	fyneapp "fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/driver/desktop"

	"feedback/assets"
	"feedback/clipimage"
	"feedback/dialogs"
	"feedback/imagepipe"
	"feedback/ipc"
	"feedback/launch"
	"feedback/settings"
	"feedback/store"
)

// ID is the application's unique identifier (also in FyneApp.toml).
const ID = "io.feedback.app"

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
}

// Run runs the resident app until ctx ends or the user quits. If another
// instance already listens on the socket it returns nil at once.
func Run(ctx context.Context, cfg Config) error {
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if err := launch.CheckDisplay(); err != nil {
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

	a := fyneapp.NewWithID(ID)
	a.SetIcon(assets.Icon)
	a.Settings().SetTheme(dialogs.Theme()) // contrast of outlines and placeholders (dialogs/theme.go)
	opts := windowOptions(cfg.Settings)
	opts.InputGuard = inputGuard(log)
	ui := newWindows(a, opts)
	dbPath := databasePath(cfg.Database, log)
	var retain retainer // prunes the database at start and daily (retention.go)
	inbox := NewPersistentInbox(ui, log, func() (Persister, error) {
		p, err := openStore(dbPath, log)
		if st, ok := p.(*store.Store); ok && err == nil {
			retain.start(st, cfg.Settings, log)
		}
		return p, err
	})
	// Quitting first closes every window: each reports its draft, so the
	// database has what the user typed up to the last key, and nothing of
	// the windows calls into Fyne after its loop has ended.
	quit := func() {
		ui.stop()
		a.Quit()
	}
	if !startTray(a, inbox, ui, quit, log) {
		// Fyne quits when its last window closes; without the tray's hidden
		// monitor window, a hidden window of our own keeps the app resident.
		a.NewWindow("feedback")
	}

	srv := ipc.NewServer(inbox, ipc.ServerOptions{Version: cfg.Version, Logger: log})
	served := make(chan error, 1)
	go func() { served <- srv.Serve(l) }()
	go func() {
		select {
		case <-ctx.Done():
			log.Info("stopping", "cause", context.Cause(ctx))
		case err := <-served:
			log.Error("the socket server stopped", "err", err)
		case <-ui.ended: // the user quit: no Fyne loop left to call into
			return
		}
		ui.do(quit)
	}()
	log.Info("feedback is running", "socket", path, "version", cfg.Version)
	a.Run()
	ui.loopEnded()

	shutdown, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	err = srv.Shutdown(shutdown)
	retain.stop()                // no pass runs into the closed store
	inbox.Close(3 * time.Second) // after the last caller left: its withdrawal is recorded
	return err
}

// startTray shows the tray icon and its menu of open questions, and reports
// whether there is a tray.
func startTray(a fyne.App, inbox *Inbox, ui *windows, quit func(), log *slog.Logger) bool {
	desk, ok := a.(desktop.App)
	if !ok {
		return false
	}
	if err := trayHostReachable(); err != nil {
		log.Warn("running without a tray icon", "reason", err)
		return false
	}
	desk.SetSystemTrayIcon(assets.Icon)
	desk.SetSystemTrayMenu(trayMenu(nil, ui.Focus, quit))
	// The menu is built from the inbox's state when the update runs.
	inbox.OnChange(ui.do, func(items []Item) { desk.SetSystemTrayMenu(trayMenu(items, ui.Focus, quit)) })
	return true
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
