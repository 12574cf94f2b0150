// Package messages takes the agents' one-way messages (wire.Message) for
// the app: each is recorded in History, kept among the recent ones the
// tray lists, and limited per client so that one agent cannot flood the
// desktop, and across clients so that many names (one agent changing its
// client name each time, or many agents) cannot either. It is a feature of
// the inbox (core.Feature): it records through the inbox's Store and tells
// the inbox's views, on the inbox's clock, and takes no part in the
// questions.
package messages

import (
	"fmt"
	"log/slog"
	"math"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"feedback/app/core"
	"feedback/ipc/wire"
)

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

// Item is a recent message as the tray lists it.
type Item struct {
	Message wire.Message
	At      time.Time
}

// Control is the agents' messages: their rates and the recent ones.
type Control struct {
	log  *slog.Logger
	host core.Host // Attach

	mu      sync.Mutex // guards the fields below
	recent  []Item     // newest first
	limits  map[string]*rate.Limiter
	clients []string      // limits' keys, oldest first
	all     *rate.Limiter // every client's messages together
}

var _ core.Feature = (*Control)(nil)

// New returns the messages' control; it works once attached to an inbox
// (core.Options.Features).
func New(log *slog.Logger) *Control {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Control{log: log}
}

// Attach implements core.Feature: messages take no part in the questions.
func (ms *Control) Attach(h core.Host) core.Hooks {
	ms.host = h
	return core.Hooks{}
}

// allLimiter is the rate of all clients together, made when first used.
func (ms *Control) allLimiter() *rate.Limiter {
	if ms.all == nil {
		ms.all = rate.NewLimiter(rate.Every(AllMessagesEvery), AllMessagesBurst)
	}
	return ms.all
}

// limiter is the rate of client, made when first seen.
func (ms *Control) limiter(client string) *rate.Limiter {
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
func (ms *Control) Message(m wire.Message) (wire.Message, error) {
	now := ms.host.Clock().Now()
	if m.ID == "" {
		m.ID = wire.NewID()
	}
	ms.mu.Lock()
	// A client's hooks and its agent are rated apart: the hooks' "needs
	// your attention" and "finished" of a few runs left no room for the
	// agent's own notify.
	key := m.Client
	if m.Hook {
		key += "\x00hooks"
	}
	mine := ms.limiter(key).ReserveN(now, 1)
	if wait := mine.DelayFrom(now); wait > 0 {
		mine.CancelAt(now)
		ms.mu.Unlock()
		ms.log.Info("message refused: its client sends too many", "client", m.Client, "retry_in", wait.Round(time.Second))
		return wire.Message{}, &wire.Error{Code: wire.CodeRateLimited, Message: fmt.Sprintf(
			"%s sent more than %d messages in a row (the most the app shows, then one every %v); the next one is shown in %d s",
			clientOr(m.Client), MessageBurst, MessageEvery, int(math.Ceil(wait.Seconds())))}
	}
	if all := ms.allLimiter().ReserveN(now, 1); all.DelayFrom(now) > 0 {
		wait := all.DelayFrom(now)
		all.CancelAt(now)
		mine.CancelAt(now) // nothing was shown: the client's rate is as it was
		ms.mu.Unlock()
		ms.log.Info("message refused: agents together send too many", "client", m.Client, "retry_in", wait.Round(time.Second))
		return wire.Message{}, &wire.Error{Code: wire.CodeRateLimited, Message: fmt.Sprintf(
			"agents together sent more than %d messages in a row (the most the app shows from all of them, then one every %v); the next one is shown in %d s",
			AllMessagesBurst, AllMessagesEvery, int(math.Ceil(wait.Seconds())))}
	}
	ms.recent = append([]Item{{Message: m, At: now}}, ms.recent...)
	if len(ms.recent) > MaxRecentMessages {
		ms.recent = ms.recent[:MaxRecentMessages]
	}
	ms.mu.Unlock()
	ms.host.Record("save message", m.ID, func(p core.Store) error { return p.SaveMessage(m, now) })
	ms.log.Info("message from an agent", "id", m.ID, "client", m.Client, "urgent", m.Urgent)
	ms.host.Changed()
	return m, nil
}

// Recent are the messages the tray lists, the newest first.
func (ms *Control) Recent() []Item {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	return append([]Item(nil), ms.recent...)
}

// clientOr names client in a sentence.
func clientOr(client string) string {
	if client == "" {
		return "this client"
	}
	return client
}
