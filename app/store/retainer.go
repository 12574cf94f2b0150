package store

import (
	"log/slog"
	"sync"
	"time"
)

// retainEvery is how often the Retainer prunes after its first pass.
const retainEvery = 24 * time.Hour

// Retainer keeps the database bounded by a Retention (the settings
// retention_days and retention_image_mib, in the app): one pass when the
// store opens, then one a day, in a goroutine of its own — never a UI's,
// since a pass can hold the database for a moment. Stop ends it and waits,
// so no pass runs into a closed store.
type Retainer struct {
	mu      sync.Mutex // guards quit, done, kick, set and stopped
	stopped bool       // stop was called: a later start does nothing
	quit    chan struct{}
	done    chan struct{}
	kick    chan struct{}       // a pass now: the bounds changed
	set     Retention           // the bounds
	onPass  func(Pruned, error) // tests: called after each pass
}

// Start begins pruning st by the bounds Update gave (none: nothing is
// pruned); a second Start, or one after Stop (the store opened while the
// app was quitting), does nothing.
func (r *Retainer) Start(st *Store, log *slog.Logger) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.quit != nil || r.stopped {
		return
	}
	r.quit, r.done, r.kick = make(chan struct{}), make(chan struct{}), make(chan struct{}, 1)
	quit, done, kick, onPass := r.quit, r.done, r.kick, r.onPass
	go func() {
		defer close(done)
		tick := time.NewTicker(retainEvery)
		defer tick.Stop()
		for {
			r.mu.Lock()
			set := r.set
			r.mu.Unlock()
			p, err := st.Retain(set, time.Now())
			if err != nil {
				log.Warn("retention: pruning the database failed; it is tried again in a day", "err", err)
			} else if p.ByAge+p.ByImages > 0 {
				log.Info("retention: pruned ended questions", "older_than_days", int(set.MaxAge/(24*time.Hour)),
					"by_age", p.ByAge, "over_image_mib", set.MaxImageBytes>>20, "by_images", p.ByImages)
			}
			if onPass != nil {
				onPass(p, err)
			}
			select {
			case <-quit:
				return
			case <-tick.C:
			case <-kick:
			}
		}
	}()
}

// Update sets the bounds: before Start, those of its first pass; after, a
// pass runs with them now (the settings changed), then daily as before.
func (r *Retainer) Update(set Retention) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if set == r.set {
		return
	}
	r.set = set
	if r.kick != nil {
		select {
		case r.kick <- struct{}{}:
		default:
		}
	}
}

// Stop ends the pruning goroutine, if any, and waits for it.
func (r *Retainer) Stop() {
	r.mu.Lock()
	quit, done := r.quit, r.done
	r.quit, r.stopped = nil, true
	r.mu.Unlock()
	if quit != nil {
		close(quit)
		<-done
	}
}
