package core

import (
	"time"

	"feedback/wire"
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
// It is bounded by count and age (see maxKept, keptTTL). The zero value
// uses those bounds and the real clock. It is not safe for concurrent use:
// the inbox's mutex guards it.
type keptAnswers struct {
	max  int              // 0: maxKept
	ttl  time.Duration    // 0: keptTTL
	now  func() time.Time // nil: time.Now
	list []keptAnswer     // oldest first
}

type keptAnswer struct {
	askID string
	a     wire.Answer
	at    time.Time
}

func (k *keptAnswers) clock() time.Time {
	if k.now != nil {
		return k.now()
	}
	return time.Now()
}

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
	dropped = k.expire()
	m, _ := k.bounds()
	for len(k.list) >= m {
		dropped = append(dropped, k.list[0].a)
		k.list = k.list[1:]
	}
	k.list = append(k.list, keptAnswer{askID: askID, a: a, at: k.clock()})
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

// len is how many answers are kept (expired ones included until the next
// put or take).
func (k *keptAnswers) len() int { return len(k.list) }

// expire drops the answers older than the TTL.
func (k *keptAnswers) expire() (dropped []wire.Answer) {
	_, ttl := k.bounds()
	now := k.clock()
	n := 0
	for n < len(k.list) && now.Sub(k.list[n].at) >= ttl {
		dropped = append(dropped, k.list[n].a)
		n++
	}
	k.list = k.list[n:]
	return dropped
}
