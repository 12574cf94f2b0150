package core

import (
	"fmt"
	"math"
	"time"

	"golang.org/x/time/rate"

	"feedback/wire"
)

// Messages from agents (wire.Message): each is recorded in History, kept
// among the recent ones the tray lists, and limited per client so that one
// agent cannot flood the desktop.
const (
	// MessageBurst messages a client may send at once; then one every
	// MessageEvery.
	MessageBurst = 5
	MessageEvery = 12 * time.Second
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
	clients []string // limits' keys, oldest first
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
// (MessageBurst, then one every MessageEvery) is refused with
// wire.CodeRateLimited, which says when it may send again.
func (in *Inbox) Message(m wire.Message) (wire.Message, error) {
	now := time.Now()
	if m.ID == "" {
		m.ID = wire.NewID()
	}
	in.mu.Lock()
	l := in.msgs.limiter(m.Client)
	if r := l.ReserveN(now, 1); r.DelayFrom(now) > 0 {
		wait := r.DelayFrom(now)
		r.CancelAt(now)
		in.mu.Unlock()
		in.log.Info("message refused: its client sends too many", "client", m.Client, "retry_in", wait.Round(time.Second))
		return wire.Message{}, &wire.Error{Code: wire.CodeRateLimited, Message: fmt.Sprintf(
			"not shown: %s sent more than %d messages in a row (the most the app shows, then one every %v); the next one is shown in %d s",
			clientOr(m.Client), MessageBurst, MessageEvery, int(math.Ceil(wait.Seconds())))}
	}
	in.msgs.recent = append([]MessageItem{{Message: m, At: now}}, in.msgs.recent...)
	if len(in.msgs.recent) > MaxRecentMessages {
		in.msgs.recent = in.msgs.recent[:MaxRecentMessages]
	}
	in.mu.Unlock()
	in.rec.do("save message", m.ID, func(p Persister) error { return p.SaveMessage(m, now) })
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
