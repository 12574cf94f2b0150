package dialogs

import "time"

// The draft's debouncer, free of any toolkit: it decides when the edits of
// the user's answer are reported, and holds no draft itself. The View tells
// it of each edit and reports the draft that stands when it says so.

// debouncer coalesces edits into reports: report runs quiet after the last
// edit, or most after the first unreported edit if the edits never pause
// that long, and at once on Flush. An edit reported, flushed or cancelled
// is reported no more. It reads no clock (each edit is told the time) and
// starts its timers through after, whose functions must run on the
// goroutine that calls its methods (the View's: the Fyne goroutine).
type debouncer struct {
	quiet  time.Duration                                      // the pause after an edit before report
	most   time.Duration                                      // the longest an edit goes unreported while edits go on
	after  func(d time.Duration, f func()) (stop func() bool) // runs f once d has passed, unless stopped
	report func()                                             // reports the draft as it stands

	dirty bool        // an edit not yet reported
	from  time.Time   // the first unreported edit
	stop  func() bool // cancels the pending report; nil when none
	gen   int         // identifies the pending report, so that a stale timer does nothing
}

// Edited records an edit at now and (re)starts the wait for a pause.
func (d *debouncer) Edited(now time.Time) {
	if !d.dirty {
		d.from = now
	}
	d.Cancel()
	d.dirty = true
	gen := d.gen
	// Edits that never pause are still reported at most `most` after the
	// first unreported one.
	delay := min(d.quiet, max(d.from.Add(d.most).Sub(now), 0))
	d.stop = d.after(delay, func() {
		if gen == d.gen {
			d.stop = nil
			d.Flush()
		}
	})
}

// Dirty reports whether an edit is unreported.
func (d *debouncer) Dirty() bool { return d.dirty }

// Flush reports now if an edit is unreported, and says whether it did.
func (d *debouncer) Flush() bool {
	if !d.dirty {
		return false
	}
	d.Cancel()
	d.report()
	return true
}

// Cancel drops the pending report: what was edited is reported no more.
func (d *debouncer) Cancel() {
	if d.stop != nil {
		d.stop()
		d.stop = nil
	}
	d.gen++
	d.dirty = false
}
