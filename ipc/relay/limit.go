package relay

import (
	"context"
	"log/slog"
	"sync"
	"time"
)

// A broker user without keys can publish on a pairing's question topic as
// fast as the broker lets it (the topic is visible to every user of the
// broker), and every frame it sends would cost the desktop a publish (a
// refusal to a reply topic of its choosing) and a line in the app's log.
// limiter bounds both: token buckets per key (the reply topic a refusal
// goes to) within one bucket for everything, and a bound on the keys
// remembered.

// bucket is a token bucket: at most burst tokens, one more every every.
type bucket struct {
	tokens float64
	at     time.Time
}

// limiter allows an action per key at most burst times at once and then
// once every every, and all keys together at most allBurst times at once
// and then once every allEvery. It remembers at most maxKeys keys: while
// that many are remembered and none is idle, a new key is refused (keys
// cost nothing to whoever floods; the table must not grow with them).
type limiter struct {
	mu       sync.Mutex // guards everything below
	burst    float64
	every    time.Duration
	allBurst float64
	allEvery time.Duration
	maxKeys  int
	keys     map[string]*bucket
	all      bucket
	denied   int // refused since the last one allowed
}

func newLimiter(burst int, every time.Duration, allBurst int, allEvery time.Duration, maxKeys int) *limiter {
	return &limiter{burst: float64(burst), every: every, allBurst: float64(allBurst), allEvery: allEvery, maxKeys: maxKeys,
		keys: map[string]*bucket{}, all: bucket{tokens: float64(allBurst)}}
}

// take refills b (at most max tokens, one every every) and takes a token
// when there is one.
func (b *bucket) take(now time.Time, max float64, every time.Duration) bool {
	if !b.at.IsZero() {
		b.tokens = min(max, b.tokens+float64(now.Sub(b.at))/float64(every))
	}
	b.at = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// allow reports whether the action for key may happen now, and how many
// were refused (for any key) since the last one allowed: a caller that
// logs says so once instead of once each.
func (l *limiter) allow(key string, now time.Time) (ok bool, deniedBefore int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.keys[key]
	if b == nil {
		if len(l.keys) >= l.maxKeys {
			l.prune(now)
		}
		if len(l.keys) >= l.maxKeys {
			l.denied++
			return false, 0
		}
		b = &bucket{tokens: l.burst}
		l.keys[key] = b
	}
	// The key's own bucket first: a key out of tokens spends none of the
	// overall ones.
	if !b.take(now, l.burst, l.every) || !l.all.take(now, l.allBurst, l.allEvery) {
		l.denied++
		return false, 0
	}
	n := l.denied
	l.denied = 0
	return true, n
}

// prune forgets the keys whose bucket is full again: they are as new.
func (l *limiter) prune(now time.Time) {
	for k, b := range l.keys {
		if b.tokens+float64(now.Sub(b.at))/float64(l.every) >= l.burst {
			delete(l.keys, k)
		}
	}
}

// logLimit logs through log at most burst lines at once, then one every
// every; a line logged after some were held back says how many
// ("held_back").
type logLimit struct {
	log *slog.Logger
	l   *limiter
}

func newLogLimit(log *slog.Logger, burst int, every time.Duration) *logLimit {
	return &logLimit{log: log, l: newLimiter(burst, every, burst, every, 1)}
}

// logAt logs msg with args at level, or holds it back.
func (ll *logLimit) logAt(level slog.Level, msg string, args ...any) {
	ok, held := ll.l.allow("", time.Now())
	if !ok {
		return
	}
	if held > 0 {
		args = append(args, "held_back", held)
	}
	ll.log.Log(context.Background(), level, msg, args...)
}
