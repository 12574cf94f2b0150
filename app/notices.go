package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"

	"feedback/app/core"
	"feedback/app/core/away"
	"feedback/app/notification"
	"feedback/app/supervisor"
	"feedback/app/traymenu"
	"feedback/assets"
	"feedback/internal/i18n"
	"feedback/ipc/wire"
)

// Notifier shows desktop notifications: a *notification.Notifier, or a test's
// fake.
type Notifier interface {
	Show(ctx context.Context, n notification.Notification) (notification.ID, error)
	Dismiss(ctx context.Context, id notification.ID) error
}

// desktopEntry is the packaged .desktop file's name (FyneApp.toml's ID),
// which lets the notification server show the app's name and icon.
const desktopEntry = assets.AppID

// defaultNotifier is the system's notifier with the app's icon, or nil
// (logged) if it cannot be made.
func defaultNotifier(log *slog.Logger) *notification.Notifier {
	n, err := notification.New(notification.Config{Icon: assets.IconPNG, DesktopEntry: desktopEntry})
	if err != nil {
		log.Warn("no desktop notifications", "err", err)
		return nil
	}
	return n
}

// uiNotifier shows notifications through the UI process's toolkit (Fyne's
// SendNotification): the app's notifier where package notification has none of
// its own (Windows, macOS). A click does not raise the window there, and
// a notification cannot be taken back.
type uiNotifier struct{ ui *supervisor.UIProcess }

func (n uiNotifier) Show(_ context.Context, note notification.Notification) (notification.ID, error) {
	n.ui.Notify(note.Summary, note.Body)
	return 0, nil
}

func (uiNotifier) Dismiss(context.Context, notification.ID) error { return nil }

// notices sends the resident app's desktop notifications, each on a
// goroutine of its own: the caller (the UI protocol's reader, the inbox)
// never waits on D-Bus. Failures are logged, the first one of a run as a
// warning and the rest at debug level until one succeeds.
type notices struct {
	n     Notifier    // nil: no notifications
	sound atomic.Bool // the sound setting
	log   *slog.Logger

	inbox atomic.Pointer[questions] // set by setInbox

	failing atomic.Bool
	wg      sync.WaitGroup // the notifications under way

	mu      sync.Mutex                 // guards arrived and gone
	arrived map[string]notification.ID // the "asks" notification of each open question, by window id
	// gone are the questions whose "asks" notification was still being
	// sent when it had to go (the question ended, the user came to it):
	// it goes as soon as the server names it.
	gone map[string]bool
}

// questions is what a notification does to the questions: a click raises
// a window, a quick answer answers it (a *core.Inbox).
type questions interface {
	Raise(id string)
	AnswerFrom(id string, a wire.Answer) bool
}

// setSound applies the sound setting.
func (s *notices) setSound(on bool) { s.sound.Store(on) }

// keyOpen is the action that shows the question's window.
const keyOpen = "open"

// unfocused notifies that the window of q opened without the focus;
// clicking the notification raises the window. A question answered in one
// click (core.QuickAnswers) offers its answers as buttons, and "Open"; a
// question with a reply box offers an inline reply where the server has
// them. Either answers the question (wire.ViaNotification) and closes its
// window. Nothing in a notification allows a tool call: an approval's
// offers Deny and "Open", never Allow and no inline reply, since its
// line of text is not the call the user would allow.
func (s *notices) unfocused(q wire.Question) {
	note := notification.Arrived(q.Client, q.Project, q.Summary(notification.MaxSummaryRunes))
	id := q.ID
	raise := func() {
		if in := s.inbox.Load(); in != nil {
			(*in).Raise(id)
		}
	}
	note.OnClick = raise
	answer := func(r wire.Reply) {
		in := s.inbox.Load()
		if in == nil {
			return
		}
		a := wire.Answer{Status: wire.StatusAnswered, Via: wire.ViaNotification, Replies: []wire.Reply{r}}
		if !(*in).AnswerFrom(id, a) {
			s.log.Info("answer from a notification dropped: the question had ended", "window", id)
		}
	}
	if quick := core.QuickAnswers(q); len(quick) > 0 {
		replies := make(map[string]wire.Reply, len(quick)) // by action key
		for i, a := range quick {
			key := fmt.Sprint("answer-", i)
			replies[key] = a.Reply
			note.Actions = append(note.Actions, notification.Action{Key: key, Label: a.Label})
		}
		note.Actions = append(note.Actions, notification.Action{Key: keyOpen, Label: i18n.T("notify.open")})
		note.OnAction = func(key string) {
			if key == keyOpen {
				raise()
			} else if r, ok := replies[key]; ok {
				answer(r)
			}
		}
	}
	if core.TakesInlineReply(q) {
		note.ReplyLabel, note.ReplyPlaceholder = i18n.T("notify.reply"), i18n.T("notify.reply_placeholder")
		note.OnReply = func(text string) {
			if strings.TrimSpace(text) != "" {
				answer(wire.Reply{Text: text})
			}
		}
	}
	note.OnClosed = func(notification.CloseReason) { s.forget(id) }
	s.mu.Lock()
	if s.gone == nil {
		s.gone = map[string]bool{}
	}
	s.gone[id] = false // being sent
	s.mu.Unlock()
	s.sendThen(q.ID, note, func(n notification.ID) {
		s.mu.Lock()
		ended := s.gone[id]
		delete(s.gone, id)
		if !ended {
			if s.arrived == nil {
				s.arrived = map[string]notification.ID{}
			}
			s.arrived[id] = n
		}
		s.mu.Unlock()
		if ended { // it had to go while it was being sent
			s.dismiss(id, n)
		}
	})
}

// ended withdraws the "asks" notification of question id, which ended
// (in its window, from the notification, or withdrawn by its agent): its
// buttons no longer apply.
func (s *notices) ended(id string) {
	s.mu.Lock()
	n, ok := s.arrived[id]
	delete(s.arrived, id)
	if _, sending := s.gone[id]; sending {
		s.gone[id] = true
	}
	s.mu.Unlock()
	if ok {
		s.dismiss(id, n)
	}
}

// dismiss withdraws the "asks" notification n of question id.
func (s *notices) dismiss(id string, n notification.ID) {
	if n == 0 || s.n == nil {
		return
	}
	s.wg.Go(func() {
		if err := s.n.Dismiss(context.Background(), n); err != nil {
			s.log.Debug("notification not withdrawn", "window", id, "err", err)
			return
		}
		s.log.Debug("notification withdrawn: its question ended", "window", id)
	})
}

// forget drops the record of question id's notification, which the
// server closed.
func (s *notices) forget(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.arrived, id)
}

// setInbox sets the questions a notification acts on: the inbox exists
// only after the UI process that calls unfocused.
func (s *notices) setInbox(in questions) { s.inbox.Store(&in) }

// timedOutUnseen leaves a notification for question q, which timed out
// before the user saw it.
func (s *notices) timedOutUnseen(q wire.Question) {
	s.send(q.ID, notification.TimedOut(q.Client, q.Project, q.Summary(notification.MaxSummaryRunes)))
}

// handedOver says that the answer to q went to a later call of its agent
// than the one that asked (which had ended).
func (s *notices) handedOver(q wire.Question) {
	s.send(q.ID, notification.HandedOver(q.Client, q.Project, q.Summary(notification.MaxSummaryRunes)))
}

// withdrawnUnseen leaves a notification for question q, which its agent
// withdrew before the user saw it.
func (s *notices) withdrawnUnseen(q wire.Question) {
	s.send(q.ID, notification.Withdrawn(q.Client, q.Project, q.Summary(notification.MaxSummaryRunes)))
}

// message shows an agent's message; clicking it opens History.
func (s *notices) message(m wire.Message, openHistory func()) {
	note := notification.FromAgent(m.Client, m.Project, m.Title, m.Text, m.Urgent)
	note.OnClick = openHistory
	s.send(m.ID, note)
}

// back tells the user, back at the desk, what was asked while they were
// away and what each agent was told; a click opens History.
func (s *notices) back(asked []away.Item, openHistory func()) {
	var lines []string
	for _, it := range asked {
		lines = append(lines, traymenu.AwayLine(i18n.For(""), it))
	}
	note := notification.WhileAway(len(asked), lines)
	note.OnClick = openHistory
	s.send("", note)
}

// upgraded tells the user that the app's binary was replaced under it and
// its windows cannot open until they restart it.
func (s *notices) upgraded() { s.send("", notification.Upgraded()) }

func (s *notices) send(id string, note notification.Notification) { s.sendThen(id, note, nil) }

// sendThen sends note and then calls shown, if not nil, with its ID: 0
// when it was not shown.
func (s *notices) sendThen(id string, note notification.Notification, shown func(notification.ID)) {
	if s.n == nil {
		if shown != nil {
			shown(0)
		}
		return
	}
	note.Sound = s.sound.Load()
	s.wg.Go(func() {
		n, err := s.n.Show(context.Background(), note)
		if shown != nil {
			defer shown(n) // 0 when not shown
		}
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
