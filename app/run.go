package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
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
	if !launch.HasDisplay() {
		return launch.ErrNoDisplay
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
	ui := newWindows(a, windowOptions(cfg.Settings))
	dbPath := databasePath(cfg.Database, log)
	inbox := NewPersistentInbox(ui, log, func() (Persister, error) { return openStore(dbPath, log) })
	// Quitting first has every window report its draft, so the database
	// has what the user typed up to the last key.
	quit := func() {
		ui.flushDrafts()
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
