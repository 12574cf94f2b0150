// Package away is what a question gets while the user is away from the
// desk, a feature of the inbox (core.Feature): while the user is away
// (their session locked, the screen saver on, or no input for a while: the
// app's presence watcher calls SetAway), a new question gets what the away
// setting chose — it waits as usual (settings.AwayWait), or its agent is
// told at once to proceed with its best judgment (settings.AwayProceed:
// wire.StatusAway, no window; the inbox records it). Either way it is
// noted, and when the user is back Options.Back hears what was asked
// meanwhile and what each agent was told; the tray lists it too.
package away

import (
	"log/slog"
	"sync"
	"time"

	"feedback/app/core"
	"feedback/internal/settings"
	"feedback/ipc/wire"
)

// Item is a question asked while the user was away.
type Item struct {
	ID, Client, Project, Title string
	At                         time.Time
	// Proceeded: its agent was told to proceed; else it waited.
	Proceeded bool
	// Call, for a tool-call approval, names the call in brief
	// (wire.ToolCall.Brief: "Bash `rm -rf build`"), or its title when it
	// names none; "" for any other question.
	Call string
	// Verdict, for an approval that the away setting answered, is what
	// that decided (wire.Question.Verdict: denied while away); "" when it
	// waited.
	Verdict wire.VerdictKind
}

// MaxCallRunes bounds Item.Call.
const MaxCallRunes = 60

// State is the away mode and state, for the tray.
type State struct {
	Mode  string    // settings.Away*
	On    bool      // the user is away now
	Since time.Time // when they went away (On)
	// Asked is what was asked during the current or last time away,
	// oldest first.
	Asked []Item
}

// maxItems bounds the questions noted while away.
const maxItems = 100

// Options make a Control.
type Options struct {
	Log *slog.Logger
	// Back, if set, is called each time the user comes back, with what was
	// asked meanwhile (none, unless the away setting noted some), on the
	// goroutine that called SetAway.
	Back func(asked []Item)
}

// Control is away: the mode, whether the user is away, what was asked.
type Control struct {
	opts Options
	host core.Host // Attach

	mu    sync.Mutex // guards the fields below
	mode  string
	on    bool
	since time.Time
	asked []Item
}

var _ core.Feature = (*Control)(nil)

// New returns away's control; it works once attached to an inbox
// (core.Options.Features).
func New(o Options) *Control {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	return &Control{opts: o}
}

// Attach implements core.Feature: away may answer a new question at once.
func (c *Control) Attach(h core.Host) core.Hooks {
	c.host = h
	return core.Hooks{Gate: c.gate}
}

// SetMode sets the away setting (settings.Away*).
func (c *Control) SetMode(mode string) {
	c.mu.Lock()
	c.mode = mode
	c.mu.Unlock()
	c.host.Changed()
}

// SetAway records whether the user is away now. Coming back tells
// Options.Back what was asked meanwhile.
func (c *Control) SetAway(on bool) {
	c.mu.Lock()
	if c.on == on {
		c.mu.Unlock()
		return
	}
	c.on = on
	var asked []Item
	if on {
		c.since, c.asked = c.host.Clock().Now(), nil
	} else {
		asked = append([]Item(nil), c.asked...) // empty unless the away setting noted some
	}
	c.mu.Unlock()
	c.opts.Log.Info("presence", "away", on)
	if !on && c.opts.Back != nil {
		c.opts.Back(asked)
	}
	c.host.Changed()
}

// State returns the away mode and state.
func (c *Control) State() State {
	c.mu.Lock()
	defer c.mu.Unlock()
	return State{Mode: c.mode, On: c.on, Since: c.since, Asked: append([]Item(nil), c.asked...)}
}

// gate is what a new question gets while the user is away (core.Hooks.Gate):
// with settings.AwayProceed the StatusAway outcome at once (ok true; the
// inbox records it in History); with settings.AwayWait nothing (it waits),
// but it is noted.
func (c *Control) gate(r wire.Ask) (wire.Answer, bool) {
	c.mu.Lock()
	if !c.on || (c.mode != settings.AwayWait && c.mode != settings.AwayProceed) {
		c.mu.Unlock()
		return wire.Answer{}, false
	}
	proceed := c.mode == settings.AwayProceed
	q := r.Question
	ans := wire.Answer{QuestionID: q.ID, Status: wire.StatusAway, CallerData: q.CallerData}
	if len(c.asked) < maxItems {
		item := Item{ID: q.ID, Client: q.Client, Project: q.Project, Title: q.Summary(60), At: c.host.Clock().Now(), Proceeded: proceed}
		if q.IsApproval() {
			item.Call = q.Summary(MaxCallRunes)
			if q.Call != nil {
				item.Call = q.Call.Brief(MaxCallRunes)
			}
			if v, ok := q.Verdict(ans); ok && proceed {
				item.Verdict = v.Kind
			}
		}
		c.asked = append(c.asked, item)
	}
	c.mu.Unlock()
	c.host.Changed()
	if !proceed {
		return wire.Answer{}, false
	}
	c.opts.Log.Info("question answered for the away user: proceed", "id", q.ID, "client", q.Client)
	return ans, true
}
