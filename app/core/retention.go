package core

import (
	"log/slog"
	"sync"
	"time"

	"feedback/app/store"
	"feedback/internal/settings"
)

// retainEvery is how often the Retainer prunes after its first pass.
const retainEvery = 24 * time.Hour

// Retainer keeps the database bounded (settings retention_days and
// retention_image_mib): one pass when the store opens, then one a day, in a
// goroutine of its own — never the Fyne goroutine, since a pass can hold
// the database for a moment. Stop ends it and waits, so no pass runs into a
// closed store.
type Retainer struct {
	mu      sync.Mutex // guards quit, done, kick, set and stopped
	stopped bool       // stop was called: a later start does nothing
	quit    chan struct{}
	done    chan struct{}
	kick    chan struct{}             // a pass now: the bounds changed
	set     settings.Settings         // the bounds: retention_days, retention_image_mib
	onPass  func(store.Pruned, error) // tests: called after each pass
}

func retention(s settings.Settings) store.Retention {
	return store.Retention{
		MaxAge:        time.Duration(s.RetentionDays) * 24 * time.Hour,
		MaxImageBytes: int64(s.RetentionImageMiB) << 20,
	}
}

// Start begins pruning st by set's bounds; a second Start, or one after
// Stop (the store opened while the app was quitting), does nothing.
func (r *Retainer) Start(st *store.Store, set settings.Settings, log *slog.Logger) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.quit != nil || r.stopped {
		return
	}
	r.quit, r.done, r.kick = make(chan struct{}), make(chan struct{}), make(chan struct{}, 1)
	r.set = set
	quit, done, kick, onPass := r.quit, r.done, r.kick, r.onPass
	go func() {
		defer close(done)
		tick := time.NewTicker(retainEvery)
		defer tick.Stop()
		for {
			r.mu.Lock()
			set := r.set
			r.mu.Unlock()
			p, err := st.Retain(retention(set), time.Now())
			if err != nil {
				log.Warn("retention: pruning the database failed; it is tried again in a day", "err", err)
			} else if p.ByAge+p.ByImages > 0 {
				log.Info("retention: pruned ended questions", "older_than_days", set.RetentionDays,
					"by_age", p.ByAge, "over_image_mib", set.RetentionImageMiB, "by_images", p.ByImages)
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

// Update applies new bounds (the settings changed): a pass runs with them
// now, then daily as before.
func (r *Retainer) Update(set settings.Settings) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if retention(set) == retention(r.set) {
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
