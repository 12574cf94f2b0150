package core

import (
	"fmt"
	"math"
	"time"

	"golang.org/x/time/rate"

	"feedback/ipc/wire"
)

// Messages from agents (wire.Message): each is recorded in History, kept
// among the recent ones the tray lists, and limited per client so that one
// agent cannot flood the desktop, and across clients so that many names
// (one agent changing its client name each time, or many agents) cannot
// either.
const (
	// MessageBurst messages a client may send at once; then one every
	// MessageEvery.
	MessageBurst = 5
	MessageEvery = 12 * time.Second
	// AllMessagesBurst messages all clients together may send at once;
	// then one every AllMessagesEvery.
	AllMessagesBurst = 10
	AllMessagesEvery = 3 * time.Second
	// MaxRecentMessages are kept for the tray, the newest first.
	MaxRecentMessages = 10
	// maxLimitedClients bounds the clients whose rate is tracked; beyond
	// it the oldest are forgotten (they start with a full burst again).
	maxLimitedClients = 256
)

// MessageItem is a recent message as the tray lists it.
type MessageItem struct {
	Message wire.Message
	At      time.Time
}

// messages is the inbox's part for messages; guarded by Inbox.mu.
type messages struct {
	recent  []MessageItem // newest first
	limits  map[string]*rate.Limiter
	clients []string      // limits' keys, oldest first
	all     *rate.Limiter // every client's messages together
}

// allLimiter is the rate of all clients together, made when first used.
func (ms *messages) allLimiter() *rate.Limiter {
	if ms.all == nil {
		ms.all = rate.NewLimiter(rate.Every(AllMessagesEvery), AllMessagesBurst)
	}
	return ms.all
}

// limiter is the rate of client, made when first seen.
func (ms *messages) limiter(client string) *rate.Limiter {
	if l := ms.limits[client]; l != nil {
		return l
	}
	if ms.limits == nil {
		ms.limits = map[string]*rate.Limiter{}
	}
	l := rate.NewLimiter(rate.Every(MessageEvery), MessageBurst)
	ms.limits[client] = l
	ms.clients = append(ms.clients, client)
	for len(ms.clients) > maxLimitedClients {
		delete(ms.limits, ms.clients[0])
		ms.clients = ms.clients[1:]
	}
	return l
}

// Message takes a message from an agent: it gets an id when it has none,
// is recorded in History and listed in the tray. A client beyond its rate
// (MessageBurst, then one every MessageEvery), or any client while all of
// them together are beyond theirs (AllMessagesBurst, then one every
// AllMessagesEvery), is refused with wire.CodeRateLimited, which says when
// it may send again. A refused message takes nothing from either rate.
func (in *Inbox) Message(m wire.Message) (wire.Message, error) {
	now := in.clock.Now()
	if m.ID == "" {
		m.ID = wire.NewID()
	}
	in.mu.Lock()
	// A client's hooks and its agent are rated apart: the hooks' "needs
	// your attention" and "finished" of a few runs left no room for the
	// agent's own notify.
	key := m.Client
	if m.Hook {
		key += "\x00hooks"
	}
	mine := in.msgs.limiter(key).ReserveN(now, 1)
	if wait := mine.DelayFrom(now); wait > 0 {
		mine.CancelAt(now)
		in.mu.Unlock()
		in.log.Info("message refused: its client sends too many", "client", m.Client, "retry_in", wait.Round(time.Second))
		return wire.Message{}, &wire.Error{Code: wire.CodeRateLimited, Message: fmt.Sprintf(
			"%s sent more than %d messages in a row (the most the app shows, then one every %v); the next one is shown in %d s",
			clientOr(m.Client), MessageBurst, MessageEvery, int(math.Ceil(wait.Seconds())))}
	}
	if all := in.msgs.allLimiter().ReserveN(now, 1); all.DelayFrom(now) > 0 {
		wait := all.DelayFrom(now)
		all.CancelAt(now)
		mine.CancelAt(now) // nothing was shown: the client's rate is as it was
		in.mu.Unlock()
		in.log.Info("message refused: agents together send too many", "client", m.Client, "retry_in", wait.Round(time.Second))
		return wire.Message{}, &wire.Error{Code: wire.CodeRateLimited, Message: fmt.Sprintf(
			"agents together sent more than %d messages in a row (the most the app shows from all of them, then one every %v); the next one is shown in %d s",
			AllMessagesBurst, AllMessagesEvery, int(math.Ceil(wait.Seconds())))}
	}
	in.msgs.recent = append([]MessageItem{{Message: m, At: now}}, in.msgs.recent...)
	if len(in.msgs.recent) > MaxRecentMessages {
		in.msgs.recent = in.msgs.recent[:MaxRecentMessages]
	}
	in.mu.Unlock()
	in.rec.do("save message", m.ID, func(p Store) error { return p.SaveMessage(m, now) })
	in.log.Info("message from an agent", "id", m.ID, "client", m.Client, "urgent", m.Urgent)
	in.notify()
	return m, nil
}

// RecentMessages are the messages the tray lists, the newest first.
func (in *Inbox) RecentMessages() []MessageItem {
	in.mu.Lock()
	defer in.mu.Unlock()
	return append([]MessageItem(nil), in.msgs.recent...)
}

// clientOr names client in a sentence.
func clientOr(client string) string {
	if client == "" {
		return "this client"
	}
	return client
}
