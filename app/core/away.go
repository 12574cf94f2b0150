package core

import (
	"time"

	"feedback/internal/settings"
	"feedback/ipc/wire"
)

// Away: while the user is away (their session locked, the screen saver on,
// or no input for a while: the app's presence watcher calls SetAway), a
// new question gets what the away setting chose — it waits as usual
// (settings.AwayWait), or its agent is told at once to proceed with its
// best judgment (settings.AwayProceed: wire.StatusAway, no window). Either
// way it is noted, and when the user is back OnBack hears what was asked
// meanwhile and what each agent was told; the tray lists it too.

// AwayItem is a question asked while the user was away.
type AwayItem struct {
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

// maxAwayCallRunes bounds AwayItem.Call.
const maxAwayCallRunes = 60

// AwayState is the away mode and state, for the tray.
type AwayState struct {
	Mode  string    // settings.Away*
	On    bool      // the user is away now
	Since time.Time // when they went away (On)
	// Asked is what was asked during the current or last time away,
	// oldest first.
	Asked []AwayItem
}

// maxAwayItems bounds the questions noted while away.
const maxAwayItems = 100

// awayControl is the inbox's part for away; guarded by Inbox.mu.
type awayControl struct {
	mode   string
	on     bool
	since  time.Time
	asked  []AwayItem
	onBack func([]AwayItem)
}

// SetAwayMode sets the away setting (settings.Away*).
func (in *Inbox) SetAwayMode(mode string) {
	in.mu.Lock()
	in.away.mode = mode
	in.mu.Unlock()
	in.notify()
}

// OnBack sets what hears, when the user is back, the questions asked while
// they were away (none: not called). Set before the first SetAway.
func (in *Inbox) OnBack(f func([]AwayItem)) {
	in.mu.Lock()
	in.away.onBack = f
	in.mu.Unlock()
}

// SetAway records whether the user is away now. Coming back ends the
// snoozes that last until then (Back) and tells OnBack what was asked.
func (in *Inbox) SetAway(on bool) {
	in.mu.Lock()
	a := &in.away
	if a.on == on {
		in.mu.Unlock()
		return
	}
	a.on = on
	var asked []AwayItem
	var onBack func([]AwayItem)
	if on {
		a.since, a.asked = in.clock.Now(), nil
	} else {
		asked, onBack = append([]AwayItem(nil), a.asked...), a.onBack // empty unless the away setting noted some
	}
	in.mu.Unlock()
	in.log.Info("presence", "away", on)
	if !on {
		in.Back()
		if onBack != nil && len(asked) > 0 {
			onBack(asked)
		}
	}
	in.notify()
}

// Away returns the away mode and state.
func (in *Inbox) Away() AwayState {
	in.mu.Lock()
	defer in.mu.Unlock()
	a := in.away
	return AwayState{Mode: a.mode, On: a.on, Since: a.since, Asked: append([]AwayItem(nil), a.asked...)}
}

// awayAsk is what an ask gets while the user is away: with
// settings.AwayProceed the StatusAway outcome at once (ok true), recorded
// in History; with settings.AwayWait nothing (it waits), but it is noted.
func (in *Inbox) awayAsk(r wire.Ask) (wire.Answer, bool) {
	if r.AttachOnly {
		return wire.Answer{}, false
	}
	in.mu.Lock()
	a := &in.away
	if !a.on || (a.mode != settings.AwayWait && a.mode != settings.AwayProceed) {
		in.mu.Unlock()
		return wire.Answer{}, false
	}
	if _, open := in.open[r.Question.ID]; open {
		in.mu.Unlock()
		return wire.Answer{}, false // asked again: it waits as it did
	}
	proceed := a.mode == settings.AwayProceed
	q := r.Question
	ans := wire.Answer{QuestionID: q.ID, Status: wire.StatusAway, CallerData: q.CallerData}
	if len(a.asked) < maxAwayItems {
		item := AwayItem{ID: q.ID, Client: q.Client, Project: q.Project, Title: q.Summary(60), At: in.clock.Now(), Proceeded: proceed}
		if q.IsApproval() {
			item.Call = q.Summary(maxAwayCallRunes)
			if q.Call != nil {
				item.Call = q.Call.Brief(maxAwayCallRunes)
			}
			if v, ok := q.Verdict(ans); ok && proceed {
				item.Verdict = v.Kind
			}
		}
		a.asked = append(a.asked, item)
	}
	in.mu.Unlock()
	in.notify()
	if !proceed {
		return wire.Answer{}, false
	}
	now := in.clock.Now()
	id := q.ID
	in.rec.do("save question", id, func(p Store) error { return p.SaveQuestionAs(q, id, now, false) })
	in.rec.do("save answer", id, func(p Store) error { return p.SaveAnswer(ans, now, true) })
	in.log.Info("question answered for the away user: proceed", "id", id, "client", q.Client)
	return ans, true
}
