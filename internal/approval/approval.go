// Package approval turns a coding agent's tool call that needs the user's
// permission into a question for the window, and the user's answer into
// the decision the client expects: Claude Code's permission prompt tool
// (--permission-prompt-tool) and its PermissionRequest hook. It is pure:
// no I/O.
//
// A decision is "allow" only when the user chose an option that allows
// (Allow, Always allow, a rule Claude Code suggested); anything else —
// Deny, no choice, a dismissed window, a timeout, a failure — denies. A
// timeout never allows.
//
// What the window shows is the call itself: every field the decision
// depends on, whole and literally (show.go) — invisible characters and
// long runs of whitespace are made visible by markers, never dropped. A
// call too big to be shown whole can only be denied. "Always allow"
// writes a rule that matches nothing more than what the window names
// (rules.go), and is not offered when no such rule can be written.
package approval

import (
	"encoding/json"
	"io/fs"
	"path/filepath"
	"strings"

	"feedback/internal/i18n"
	"feedback/ipc/wire"
)

// Request is a tool call awaiting the user's permission.
type Request struct {
	Client  string         // who asks ("claude-code")
	Project string         // the project's name, for the window's context bar
	Dir     string         // the project's directory: file paths are shown relative to it
	Tool    string         // the tool's name ("Bash", "Edit", "mcp__github__create_issue")
	Input   map[string]any // the tool's input, as the agent wrote it
	// Lstat, if set, tells what a file path names now (os.Lstat): an
	// Always rule is offered for one regular file (or one not there yet),
	// never a directory or a link, whose rule would cover more.
	Lstat func(path string) (fs.FileInfo, error)
	// Resolve, if set, is where an absolute path leads once every link
	// along it is followed (pathlinks.Resolve): a path that passes
	// through a link is shown with where it leads, and no rule is
	// offered for it. It is file I/O, done where the approval is
	// prepared (the hook, the shim), never in the window.
	Resolve func(path string) (string, error)
	// Suggestions are Claude Code's permission_suggestions (the hook's
	// event): each rule suggestion that can be shown exactly becomes an
	// option of its own, naming the rule and where it applies.
	Suggestions []json.RawMessage
	// Lang is the language of the window's words (i18n.Languages); ""
	// is the process's (i18n.Use).
	Lang string
}

// Decision is the user's answer to a Request.
// OwnTool reports whether tool is one of feedback's own MCP tools, as
// Claude Code names them ("mcp__feedback__ask_choice", feedback setup
// naming the server feedback): they are the questions to the user, and
// an approval before each would ask the user whether the agent may ask
// the user. Such a call is allowed at once, never shown as an approval.
func OwnTool(tool string) bool { return strings.HasPrefix(tool, "mcp__feedback__") }

type Decision struct {
	Allow bool
	// Always is the exact rule the user allowed in the project from now
	// on ("Bash(npm test)"), for the project's local settings, or "".
	Always string
	// Update is the rule suggestion of Claude Code's the user chose,
	// as the window showed it (hook only), or nil.
	Update *Update
	// Message, for a denial, tells the agent why; it reads it.
	Message string
}

// The kinds of option of the approval window, in their order.
type kind int

const (
	kindAllow kind = iota
	kindAlways
	kindSuggestion
	kindDeny
)

// choice is one option of the window and what choosing it decides.
type choice struct {
	kind   kind
	opt    wire.Option
	rule   string  // kindAlways
	update *Update // kindSuggestion
}

// Limits of a call the window shows whole. A bigger call is shown in part
// and can only be denied.
const (
	// maxCallBytes bounds the tool's input (its JSON) shown whole.
	maxCallBytes = 64 << 10
	// maxShownLines bounds the lines of the window's Markdown, once runs
	// of blank lines are collapsed.
	maxShownLines = 4000
	// previewBytes is how much of each text a call too big to show whole
	// shows, for context.
	previewBytes = 2 << 10
)

// Source is wire.Question.Source of an approval.
const Source = wire.SourceApproval

// window is what Question shows for a Request and what its options decide.
type window struct {
	title    string
	markdown string
	choices  []choice
}

// build is the window for r. Question and Decide both use it, so that an
// answer maps back to the option the window showed.
func build(r Request) window {
	l := i18n.For(r.Lang)
	size := callSize(r.Input)
	var w window
	var b strings.Builder
	s := shower{l: l}
	w.title = describe(&b, &s, r)
	md := b.String()
	lines := strings.Count(md, "\n")
	if bad := wrongTypes(r); len(bad) > 0 && size <= maxCallBytes {
		// Shown as it came, and Deny only.
		var p strings.Builder
		s = shower{l: l}
		describeWrongTypes(&p, &s, r, bad)
		if s.forged {
			p.WriteString("\n" + l.T("approval.marker_in_text") + "\n")
		}
		s.noteLookalikes(&p)
		w.markdown = p.String()
		w.choices = []choice{denyChoice(l)}
		return w
	}
	if size > maxCallBytes || lines > maxShownLines {
		// Not shown whole: a preview, the reason, and Deny only.
		var p strings.Builder
		if size > maxCallBytes {
			p.WriteString(l.T("approval.too_big", map[string]any{"KB": (size + 1023) >> 10}))
		} else {
			p.WriteString(l.T("approval.too_long", map[string]any{"Lines": lines}))
		}
		p.WriteString("\n\n")
		s = shower{l: l, preview: previewBytes}
		describe(&p, &s, r)
		w.markdown = p.String()
		w.choices = []choice{denyChoice(l)}
		return w
	}
	w.choices = []choice{{kind: kindAllow, opt: wire.Option{Label: l.T("approval.allow"), Description: l.T("approval.allow.description"), Allows: true}}}
	rule, why := exactRule(r, l)
	if rule != "" {
		w.choices = append(w.choices, choice{kind: kindAlways, rule: rule,
			opt: wire.Option{Label: l.T("approval.always"), Description: alwaysDescription(r, rule, l), Allows: true, Rule: rule}})
	} else {
		b.WriteString("\n" + l.T("approval.no_rule", map[string]any{"Why": why}) + "\n")
	}
	for _, u := range suggestions(r, rule) {
		w.choices = append(w.choices, choice{kind: kindSuggestion, update: u,
			opt: wire.Option{Label: u.label(l), Description: l.T("approval.suggestion.description"), Allows: true, Rule: u.rules()}})
	}
	if s.forged {
		b.WriteString("\n" + l.T("approval.marker_in_text") + "\n")
	}
	s.noteLookalikes(&b)
	w.markdown = b.String()
	w.choices = append(w.choices, denyChoice(l))
	return w
}

func denyChoice(l *i18n.Localizer) choice {
	return choice{kind: kindDeny, opt: wire.Option{Label: l.T("approval.deny"), Description: l.T("approval.deny.description")}}
}

// callSize is the size of the tool's input as JSON.
func callSize(in map[string]any) int {
	data, err := json.Marshal(in)
	if err != nil {
		return 0
	}
	return len(data)
}

// Question is the window for r, with id and the countdown timeout (0: the
// app's default). Nothing is pre-selected: allowing is always a choice.
// The options that allow are marked (wire.Option.Allows); a call too big
// to be shown whole has none.
func Question(r Request, id string, timeout int) wire.Question {
	w := build(r)
	opts := make([]wire.Option, len(w.choices))
	for i, c := range w.choices {
		opts[i] = c.opt
	}
	return wire.Question{
		ID: id, Source: Source, Client: r.Client, Project: r.Project,
		Title:          w.title,
		Prompts:        []wire.Prompt{{Markdown: w.markdown, Options: opts, Single: true, Placeholder: i18n.For(r.Lang).T("approval.placeholder")}},
		TimeoutSeconds: timeout,
		Call:           toolCall(r),
	}
}

// rel is path relative to the project's directory when it is inside it.
func (r Request) rel(path string) string {
	if r.Dir == "" || !filepath.IsAbs(path) {
		return path
	}
	if rel, err := filepath.Rel(r.Dir, path); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
		return rel
	}
	return path
}

func (r Request) str(k string) string { s, _ := r.Input[k].(string); return s }

// Decide reads the user's answer to Question(r, …): the option chosen is
// found among the options the window showed (in the same language), so
// only an option that allows can allow, whatever its words.
func Decide(a wire.Answer, r Request) Decision {
	switch a.Status {
	case wire.StatusAnswered:
	case wire.StatusTimeout:
		return Decision{Message: "The user did not answer in time, so this tool call was not approved. Do not retry it at once; continue without it or ask the user what to do."}
	case wire.StatusAway:
		return Decision{Message: "The user is away, so this tool call was not approved. Continue with what needs no approval, and record what is waiting for them."}
	default:
		return Decision{Message: "The user closed the approval without allowing this tool call. Do not retry it at once; ask the user what they want instead."}
	}
	var reply wire.Reply
	if len(a.Replies) > 0 {
		reply = a.Replies[0]
	}
	reason := strings.TrimSpace(reply.Text)
	chose := kind(-1)
	var picked choice
	if len(reply.Selected) == 1 {
		for _, c := range build(r).choices {
			if c.opt.Label == reply.Selected[0] {
				chose, picked = c.kind, c
				break
			}
		}
	}
	switch chose {
	case kindAllow:
		return Decision{Allow: true}
	case kindAlways:
		return Decision{Allow: true, Always: picked.rule}
	case kindSuggestion:
		return Decision{Allow: true, Update: picked.update}
	}
	msg := "The user denied this tool call."
	if chose != kindDeny {
		msg = "The user did not allow this tool call."
	}
	if reason != "" {
		msg += " They said: " + reason
	}
	return Decision{Message: msg}
}

// ToolResult is the permission prompt tool's answer: the JSON text Claude
// Code reads, {"behavior": "allow", "updatedInput": …} or {"behavior":
// "deny", "message": …}. The input goes back unchanged.
func (d Decision) ToolResult(input map[string]any) string {
	var v any
	if d.Allow {
		if input == nil {
			input = map[string]any{}
		}
		v = map[string]any{"behavior": "allow", "updatedInput": input}
	} else {
		v = map[string]any{"behavior": "deny", "message": d.Message}
	}
	out, _ := json.Marshal(v)
	return string(out)
}
