package app

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"

	"feedback/assets"
	"feedback/core"
	"feedback/notify"
	"feedback/wire"
)

// Notifier shows desktop notifications: a *notify.Notifier, or a test's
// fake.
type Notifier interface {
	Show(ctx context.Context, n notify.Notification) (notify.ID, error)
	Dismiss(ctx context.Context, id notify.ID) error
}

// desktopEntry is the packaged .desktop file's name (FyneApp.toml's ID),
// which lets the notification server show the app's name and icon.
const desktopEntry = assets.AppID

// defaultNotifier is the system's notifier with the app's icon, or nil
// (logged) if it cannot be made.
func defaultNotifier(log *slog.Logger) *notify.Notifier {
	n, err := notify.New(notify.Config{Icon: assets.IconPNG, DesktopEntry: desktopEntry})
	if err != nil {
		log.Warn("no desktop notifications", "err", err)
		return nil
	}
	return n
}

// uiNotifier shows notifications through the UI process's toolkit (Fyne's
// SendNotification): the app's notifier where package notify has none of
// its own (Windows, macOS). A click does not raise the window there, and
// a notification cannot be taken back.
type uiNotifier struct{ ui *core.UIProcess }

func (n uiNotifier) Show(_ context.Context, note notify.Notification) (notify.ID, error) {
	n.ui.Notify(note.Summary, note.Body)
	return 0, nil
}

func (uiNotifier) Dismiss(context.Context, notify.ID) error { return nil }

// notices sends the resident app's desktop notifications, each on a
// goroutine of its own: the caller (the UI protocol's reader, the inbox)
// never waits on D-Bus. Failures are logged, the first one of a run as a
// warning and the rest at debug level until one succeeds.
type notices struct {
	n     Notifier    // nil: no notifications
	sound atomic.Bool // the sound setting
	log   *slog.Logger

	raise atomic.Pointer[func(id string)] // raises a question's window; set by setRaise

	failing atomic.Bool
	wg      sync.WaitGroup // the notifications under way
}

// unfocused notifies that the window of q opened without the focus;
// clicking the notification raises the window.
func (s *notices) unfocused(q wire.Question) {
	note := notify.Arrived(q.Client, q.Project, q.Summary(notify.MaxSummaryRunes))
	id := q.ID
	note.OnClick = func() {
		if raise := s.raise.Load(); raise != nil {
			(*raise)(id)
		}
	}
	s.send(q.ID, note)
}

// setRaise sets what a click on a notification calls: the inbox exists
// only after the UI process that calls unfocused.
func (s *notices) setRaise(raise func(id string)) { s.raise.Store(&raise) }

// timedOutUnseen leaves a notification for question q, which timed out
// before the user saw it.
func (s *notices) timedOutUnseen(q wire.Question) {
	s.send(q.ID, notify.TimedOut(q.Client, q.Project, q.Summary(notify.MaxSummaryRunes)))
}

// withdrawnUnseen leaves a notification for question q, which its agent
// withdrew before the user saw it.
func (s *notices) withdrawnUnseen(q wire.Question) {
	s.send(q.ID, notify.Withdrawn(q.Client, q.Project, q.Summary(notify.MaxSummaryRunes)))
}

// upgraded tells the user that the app's binary was replaced under it and
// its windows cannot open until they restart it.
func (s *notices) upgraded() { s.send("", notify.Upgraded()) }

func (s *notices) send(id string, note notify.Notification) {
	if s.n == nil {
		return
	}
	note.Sound = s.sound.Load()
	s.wg.Go(func() {
		_, err := s.n.Show(context.Background(), note)
		switch {
		case err == nil:
			s.failing.Store(false)
		case errors.Is(err, errors.ErrUnsupported):
			s.log.Debug("desktop notification not shown", "window", id, "err", err)
		case !s.failing.Swap(true):
			s.log.Warn("desktop notification not shown (further failures are logged at debug level)", "window", id, "err", err)
		default:
			s.log.Debug("desktop notification not shown", "window", id, "err", err)
		}
	})
}

// wait waits for the notifications under way (each bounded by the
// notifier's timeout).
func (s *notices) wait() { s.wg.Wait() }
