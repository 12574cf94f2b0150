package notification

import (
	"strings"

	"feedback/internal/i18n"
)

// The notifications the resident process sends. Each takes the asking
// client's name (wire.Question.Client; empty when unknown), the project's
// name (wire.Question.Project; may be empty) and the question's title (its
// first non-blank line is shown). The words are the process's language
// (i18n.Use).

// Arrived is the notification for a question whose window could not take
// the focus: "<client> asks" (or "feedback" without a client) over
// "<project> — <first line>" (the first line alone without a project).
// The caller sets OnClick to raise the window.
func Arrived(client, project, title string) Notification {
	summary := DefaultAppName
	if c := clientName(client); c != "" {
		summary = i18n.T("notify.asks", map[string]any{"Client": c})
	}
	body := firstLine(title)
	if p := oneLine(project); p != "" {
		body = p + " — " + body
	}
	return Notification{Summary: summary, Body: body}
}

// TimedOut is the notification left by a question whose countdown ran out
// before the user saw it: "Not answered in time — <client>: <first line>",
// the project as its body. (The countdown is the user's: the agent did not
// stop waiting, and is told the question was not answered.)
func TimedOut(client, project, title string) Notification {
	return Notification{
		Summary: i18n.T("notify.timed_out", map[string]any{"Who": who(client), "Title": firstLine(title)}),
		Body:    oneLine(project),
	}
}

// Withdrawn is the notification left by a question its agent withdrew
// before the user saw it: "<client> withdrew its question: <first line>",
// the project as its body.
func Withdrawn(client, project, title string) Notification {
	return Notification{
		Summary: i18n.T("notify.withdrew", map[string]any{"Who": who(client), "Title": firstLine(title)}),
		Body:    oneLine(project),
	}
}

// HandedOver is the notification of an answer that went to a later call
// than the one that asked: the call that asked had ended (a one-shot
// client), and the agent's next call of the same question took it.
// "Your answer went to <client>'s next call: <first line>", the project as
// its body.
func HandedOver(client, project, title string) Notification {
	return Notification{
		Summary: i18n.T("notify.handed_over", map[string]any{"Who": who(client), "Title": firstLine(title)}),
		Body:    oneLine(project),
	}
}

// FromAgent is the notification of a message an agent sent (no answer
// needed): "<client>: <title>" (or "<client> says" without a title) over
// "<project> — <text>"; an urgent one is critical, which most servers keep
// on screen until it is seen.
func FromAgent(client, project, title, text string, urgent bool) Notification {
	summary := oneLine(title)
	if c := clientName(client); c != "" && summary != "" {
		summary = c + ": " + summary
	} else if summary == "" {
		summary = i18n.T("notify.says", map[string]any{"Who": who(client)})
	}
	body := text
	if p := oneLine(project); p != "" {
		body = p + " — " + body
	}
	n := Notification{Summary: summary, Body: body}
	if urgent {
		n.Urgency = Critical
	}
	return n
}

// WhileAway is the notification that greets the user back: "While you were
// away: N questions" over one line each (core.AwayItem.Line), as many as
// fit.
func WhileAway(n int, lines []string) Notification {
	return Notification{Summary: i18n.N("notify.while_away", n), Body: strings.Join(lines, "\n"), Urgency: Normal}
}

// Upgraded is the notification shown when the app's binary was replaced
// under the running app (a package upgrade) and its windows cannot open
// until the user restarts it.
func Upgraded() Notification {
	return Notification{Summary: i18n.T("notify.upgraded"), Body: i18n.T("notify.upgraded_body")}
}

// who names the client in a sentence; "An agent" when unknown.
func who(client string) string {
	if c := clientName(client); c != "" {
		return c
	}
	return i18n.T("notify.an_agent")
}

// clientName is the client's name cleaned to one line of at most
// MaxClientRunes ("…" ends a cut name).
func clientName(client string) string { return clean(client, MaxClientRunes, 1) }

// firstLine is title's first non-blank line, cleaned; "a question" when it
// has none.
func firstLine(title string) string {
	for line := range strings.SplitSeq(title, "\n") {
		if l := oneLine(line); l != "" {
			return l
		}
	}
	return i18n.T("notify.a_question")
}

// oneLine is s cleaned to one line of at most MaxSummaryRunes.
func oneLine(s string) string { return clean(s, MaxSummaryRunes, 1) }
