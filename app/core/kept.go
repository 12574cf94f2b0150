package core

import (
	"time"

	"feedback/app/clock"

	"feedback/ipc/wire"
)

// Bounds of the answers kept for callers that come back: at most maxKept,
// each for at most keptTTL; the oldest goes first. The database keeps them
// across restarts (and past these bounds, until it is pruned).
const (
	maxKept = 256
	keptTTL = 24 * time.Hour
)

// keptAnswers holds the answers that no caller was waiting for (a caller
// whose wait ran out, one that went away as the user answered, a question
// kept open), each under the id its callers ask with, until a caller comes
// back for it. It is the one place the app keeps them in memory; the shim
// keeps none. Several answers may wait under one id (second windows of an
// identical question): they are handed out oldest first, each once.
//
// An answer kept with an origin (the ask's Key and Session) may also go,
// once, to an ask of another session under the same key once the asking
// session has ended (takeEnded): a one-shot client's next call.
//
// It is bounded by count and age (see maxKept, keptTTL), on clock. The
// zero value uses those bounds and the wall clock. It is not safe for concurrent use:
// the inbox's mutex guards it.
type keptAnswers struct {
	max   int           // 0: maxKept
	ttl   time.Duration // 0: keptTTL
	clock clock.Clock   // nil: clock.Wall
	list  []keptAnswer  // oldest first
}

type keptAnswer struct {
	askID string
	from  origin
	a     wire.Answer
	at    time.Time
}

// origin is who asked a question: its session-independent key and the
// asking session (wire.Ask.Key and Session), each empty when unknown. A
// session is kept only when the app could tell it was alive when it asked
// (Inbox.originOf): only such a session can later be told ended.
type origin struct {
	key, session string
}

func (k *keptAnswers) now() time.Time { return clock.Or(k.clock).Now() }

func (k *keptAnswers) bounds() (int, time.Duration) {
	m, ttl := k.max, k.ttl
	if m <= 0 {
		m = maxKept
	}
	if ttl <= 0 {
		ttl = keptTTL
	}
	return m, ttl
}

// put keeps a for the next caller asking as askID and returns the answers
// it dropped to stay within its bounds (expired first, then the oldest).
func (k *keptAnswers) put(askID string, a wire.Answer) (dropped []wire.Answer) {
	return k.putFrom(askID, origin{}, a)
}

// putFrom is put of an answer to a question asked from o.
func (k *keptAnswers) putFrom(askID string, o origin, a wire.Answer) (dropped []wire.Answer) {
	dropped = k.expire()
	m, _ := k.bounds()
	for len(k.list) >= m {
		dropped = append(dropped, k.list[0].a)
		k.list = k.list[1:]
	}
	k.list = append(k.list, keptAnswer{askID: askID, from: o, a: a, at: k.now()})
	return dropped
}

// take hands out, once, the oldest answer kept for askID.
func (k *keptAnswers) take(askID string) (wire.Answer, bool) {
	k.expire()
	for i, e := range k.list {
		if e.askID == askID {
			k.list = append(k.list[:i:i], k.list[i+1:]...)
			return e.a, true
		}
	}
	return wire.Answer{}, false
}

// takeEnded hands out, once, the oldest answer kept under key whose
// asking session is known and has ended (ended), with the id it was asked
// as. An empty key finds nothing. A timeout is no answer to hand over: a
// one-shot client (the Inspector, claude -p) asking the same question
// again after its window timed out got that timeout at once, with no
// window, for as long as answers are kept; its question opens again.
func (k *keptAnswers) takeEnded(key string, ended func(session string) bool) (askID string, a wire.Answer, ok bool) {
	k.expire()
	if key == "" {
		return "", wire.Answer{}, false
	}
	for i, e := range k.list {
		if e.from.key == key && e.from.session != "" && e.a.Status != wire.StatusTimeout && ended(e.from.session) {
			k.list = append(k.list[:i:i], k.list[i+1:]...)
			return e.askID, e.a, true
		}
	}
	return "", wire.Answer{}, false
}

// len is how many answers are kept (expired ones included until the next
// put or take).
func (k *keptAnswers) len() int { return len(k.list) }

// expire drops the answers older than the TTL.
func (k *keptAnswers) expire() (dropped []wire.Answer) {
	_, ttl := k.bounds()
	now := k.now()
	n := 0
	for n < len(k.list) && now.Sub(k.list[n].at) >= ttl {
		dropped = append(dropped, k.list[n].a)
		n++
	}
	k.list = k.list[n:]
	return dropped
}
