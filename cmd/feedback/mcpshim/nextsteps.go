package mcpshim

import (
	"fmt"
	"strings"
	"time"

	"feedback/ipc/wire"
)

// What an agent is told to do next when a call ends without an answer the
// user gave. They are results, never errors (an error invites a retry
// loop), in words a model follows: what happened, that it is not an
// answer, and what to do now. Every dialect takes its sentence from this
// one table (nextsteps_test.go holds them to it).

type outcomeKind int

const (
	// kindTimeout: the window's countdown ran out.
	kindTimeout outcomeKind = iota
	// kindSnoozed: the user snoozed the question until a time.
	kindSnoozed
	// kindSnoozedUntilBack: the user snoozed it until they are back.
	kindSnoozedUntilBack
	// kindAway: the user is away and chose that agents proceed.
	kindAway
)

// nextSteps holds each kind's sentence; {tool} is the tool's name, {until}
// the snooze's end ("14:35 UTC") and {in} how long until then ("10 min").
var nextSteps = map[outcomeKind]string{
	kindTimeout: "This is not an answer and not a default: do not act as if the user agreed. " +
		"Call {tool} again with the same arguments if you still need the answer, or continue with work that does not depend on it.",
	kindSnoozed: "The user snoozed this question until {until} ({in} from now): it is not answered and not declined. " +
		"Continue with work that does not depend on it, and do not ask the same thing another way meanwhile; " +
		"after {until}, call {tool} again with the same arguments to get the answer.",
	kindSnoozedUntilBack: "The user snoozed this question until they are back at their desk: it is not answered and not declined. " +
		"Continue with work that does not depend on it, and do not ask the same thing another way meanwhile; " +
		"then call {tool} again with the same arguments: the call waits for the answer.",
	kindAway: "The user is away and asked that agents proceed without them: use your best judgment. " +
		"Choose the safest reasonable option, do nothing destructive or irreversible, and record what you decided and why so the user can review it when back.",
}

// nextStep is kind's sentence for tool; s is the snooze, for the snoozed
// kinds.
func nextStep(kind outcomeKind, tool string, s *wire.Snooze, now time.Time) string {
	r := []string{"{tool}", tool}
	if s != nil && !s.Until.IsZero() {
		r = append(r, "{until}", s.Until.UTC().Format("15:04 UTC"), "{in}", roughly(s.Until.Sub(now)))
	}
	return strings.NewReplacer(r...).Replace(nextSteps[kind])
}

// snoozeKind is the kind of a snooze.
func snoozeKind(s *wire.Snooze) outcomeKind {
	if s.UntilBack {
		return kindSnoozedUntilBack
	}
	return kindSnoozed
}

// roughly is d for people: "45 s", "10 min", "2 h 5 min".
func roughly(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%d s", max(int(d.Seconds()), 0))
	case d < time.Hour:
		return fmt.Sprintf("%d min", int(d.Round(time.Minute).Minutes()))
	}
	h, m := int(d/time.Hour), int((d % time.Hour).Round(time.Minute).Minutes())
	if m == 0 {
		return fmt.Sprintf("%d h", h)
	}
	return fmt.Sprintf("%d h %d min", h, m)
}

// callAgain is what a dialect's "call again" result tells the agent to do:
// usual (call again now, the window is open) unless the user snoozed the
// question (a.Snooze), when it is the snooze's one instruction instead —
// call again after its end, not now.
func callAgain(a wire.Answer, tool, usual string) string {
	if a.Snooze == nil {
		return usual
	}
	return nextStep(snoozeKind(a.Snooze), tool, a.Snooze, time.Now())
}
