package wire

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Limits of a ToolCall.
const (
	MaxCallToolBytes    = 256
	MaxCallSubjectBytes = 4 << 10
)

// ToolCall names, in brief, the tool call an approval asks about: the tool
// and what it acts on. The away summary and History name the call by it
// ("Bash `rm -rf build`"); the window shows the whole call, in the
// prompt's Markdown, which History keeps too.
type ToolCall struct {
	// Tool is the tool's name ("Bash", "Edit", "mcp__github__create_issue").
	Tool string `json:"tool"`
	// Subject is what the call acts on: the command, the file's path, the
	// URL; "" when the tool has none. At most MaxCallSubjectBytes (cut).
	Subject string `json:"subject,omitempty"`
}

// validate reports what makes c unusable, naming the field.
func (c *ToolCall) validate() error {
	switch {
	case strings.TrimSpace(c.Tool) == "":
		return invalid("call.tool: must not be empty")
	case len(c.Tool) > MaxCallToolBytes:
		return invalid("call.tool: at most %d bytes", MaxCallToolBytes)
	case len(c.Subject) > MaxCallSubjectBytes:
		return invalid("call.subject: at most %d bytes", MaxCallSubjectBytes)
	case !utf8.ValidString(c.Tool) || !utf8.ValidString(c.Subject):
		return invalid("call: must be valid UTF-8")
	}
	return nil
}

// Brief is c on one line of at most about limit runes, for a tray entry or a
// notification: the tool, then the subject's first line quoted as code
// ("Bash `rm -rf build`"). Control and format characters are dropped and
// white space runs become one space; a subject cut short, or one of
// several lines, ends with "…" inside its quotes, so the closing quote is
// never lost. A subject holding a backtick is quoted as Markdown quotes
// it: two backticks and a space on each side.
func (c ToolCall) Brief(limit int) string {
	tool := oneLineText(c.Tool)
	if r := []rune(tool); len(r) > 40 {
		tool = string(r[:39]) + "…"
	}
	lines := strings.Split(strings.TrimSpace(c.Subject), "\n")
	subject := oneLineText(lines[0])
	more := len(lines) > 1
	if subject == "" {
		return tool
	}
	open, close := "`", "`"
	if strings.Contains(subject, "`") {
		open, close = "`` ", " ``"
	}
	room := max(limit-utf8.RuneCountInString(tool)-1-utf8.RuneCountInString(open+close), 12)
	if r := []rune(subject); len(r) > room {
		subject = strings.TrimRight(string(r[:room-1]), " ") + "…"
	} else if more {
		subject += " …"
	}
	return tool + " " + open + subject + close
}

// oneLineText is s with control and format characters dropped and its
// white space runs made one space.
func oneLineText(s string) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case unicode.IsSpace(r):
			return ' '
		case r == utf8.RuneError, unicode.IsControl(r), unicode.Is(unicode.Cf, r) && r != '\u200d':
			return -1
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}

// VerdictKind is what became of a tool call the user was asked to approve.
type VerdictKind string

const (
	// VerdictAllowed: the user allowed this call.
	VerdictAllowed VerdictKind = "allowed"
	// VerdictAlways: the user allowed calls like it from now on
	// (Verdict.Rule).
	VerdictAlways VerdictKind = "always allowed"
	// VerdictDenied: the user chose Deny (Verdict.Reason: why), submitted
	// without allowing, or closed the window (Verdict.Closed).
	VerdictDenied VerdictKind = "denied"
	// VerdictTimedOut: nobody answered in time; not allowed.
	VerdictTimedOut VerdictKind = "timed out"
	// VerdictAway: the user was away and the away setting let agents
	// proceed: no window, not allowed.
	VerdictAway VerdictKind = "denied while away"
	// VerdictElsewhere: the client stopped waiting for the window before
	// anyone chose in it — the user answered in the client's own prompt,
	// or the client was interrupted or quit. The window decided nothing.
	VerdictElsewhere VerdictKind = "answered elsewhere"
)

// Verdict is the decision an approval's answer made, as its agent was
// told it.
type Verdict struct {
	Kind VerdictKind `json:"verdict"`
	// Rule, for VerdictAlways, is the permission rule now allowed
	// ("Bash(npm test)").
	Rule string `json:"rule,omitempty"`
	// Reason, for VerdictDenied, is what the user wrote: the agent reads it.
	Reason string `json:"reason,omitempty"`
	// Closed, for VerdictDenied: the window was closed (or the app quit)
	// without a choice.
	Closed bool `json:"closed,omitempty"`
}

// Allowed reports whether the call was allowed.
func (v Verdict) Allowed() bool { return v.Kind == VerdictAllowed || v.Kind == VerdictAlways }

// Verdict is what answer a decided for the approval q (q.IsApproval): the
// one reading of an approval's answer that History, `feedback history` and
// the away summary share. ok is false when q is no approval or a has no
// decision (a pending outcome).
//
// An answer allows only when exactly one option is selected and that
// option Allows. An approval (package approval) offers first the option
// that allows this call only; any allowing option after it, or one with a
// Rule, allows calls like it from now on: VerdictAlways with the option's
// Rule. Options are matched by their flags and place, never by their
// words. Anything else answered denies, with the reply's
// text as the reason; a dismissed window denies (Closed); a timeout and the
// away outcome never allow.
func (q Question) Verdict(a Answer) (v Verdict, ok bool) {
	if !q.IsApproval() {
		return Verdict{}, false
	}
	switch a.Status {
	case StatusAnswered:
	case StatusTimeout:
		return Verdict{Kind: VerdictTimedOut}, true
	case StatusAway:
		return Verdict{Kind: VerdictAway}, true
	case StatusDismissed:
		return Verdict{Kind: VerdictDenied, Closed: true}, true
	default:
		return Verdict{}, false
	}
	var reply Reply
	if len(a.Replies) > 0 {
		reply = a.Replies[0]
	}
	if len(reply.Selected) == 1 && len(q.Prompts) > 0 {
		allowing := 0
		for _, o := range q.Prompts[0].Options {
			if !o.Allows {
				continue
			}
			allowing++
			if o.Label != reply.Selected[0] {
				continue
			}
			if allowing == 1 && o.Rule == "" {
				return Verdict{Kind: VerdictAllowed}, true
			}
			return Verdict{Kind: VerdictAlways, Rule: strings.TrimSpace(o.Rule)}, true
		}
	}
	return Verdict{Kind: VerdictDenied, Reason: strings.TrimSpace(reply.Text)}, true
}
