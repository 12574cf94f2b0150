// Package approval turns a coding agent's tool call that needs the user's
// permission into a question for the window, and the user's answer into
// the decision the client expects: Claude Code's permission prompt tool
// (--permission-prompt-tool) and its PermissionRequest hook. It is pure:
// no I/O.
//
// A decision is "allow" only when the user chose Allow (or Always allow);
// anything else — Deny, no choice, a dismissed window, a timeout, a failure
// — denies. A timeout never allows.
package approval

import (
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"feedback/wire"
)

// Request is a tool call awaiting the user's permission.
type Request struct {
	Client  string         // who asks ("claude-code")
	Project string         // the project's name, for the window's context bar
	Dir     string         // the project's directory: file paths are shown relative to it
	Tool    string         // the tool's name ("Bash", "Edit", "mcp__github__create_issue")
	Input   map[string]any // the tool's input, as the agent wrote it
}

// Decision is the user's answer to a Request.
type Decision struct {
	Allow bool
	// Always is the rule the user allowed for the project from now on
	// ("Bash(npm test)"), or "" (this call only).
	Always string
	// Message, for a denial, tells the agent why; it reads it.
	Message string
}

// The options of the approval window.
const (
	OptionAllow  = "Allow"
	OptionAlways = "Always allow in this project"
	OptionDeny   = "Deny"
)

// Limits of what the window shows of a tool's input.
const (
	maxShownLines = 200
	maxShownBytes = 64 << 10
)

// Source is wire.Question.Source of an approval.
const Source = wire.SourceApproval

// Question is the window for r, with id and the countdown timeout (0: the
// app's default). Nothing is pre-selected: allowing is always a choice.
func Question(r Request, id string, timeout int) wire.Question {
	var b strings.Builder
	what := describe(&b, r)
	md := b.String()
	if len(md) > maxShownBytes {
		md = cutUTF8(md, maxShownBytes) + "\n\n*(cut: the input is longer than the window shows)*"
	}
	opts := []wire.Option{{Label: OptionAllow, Description: "this call only", Allows: true}}
	if rule := Rule(r); rule != "" {
		opts = append(opts, wire.Option{Label: OptionAlways, Description: rule, Allows: true})
	}
	opts = append(opts, wire.Option{Label: OptionDeny, Description: "the agent is told your reason, if you give one"})
	return wire.Question{
		ID: id, Source: Source, Client: r.Client, Project: r.Project,
		Title:          what,
		Prompts:        []wire.Prompt{{Markdown: md, Options: opts, Single: true, Placeholder: "Why you deny it, or what to do instead (the agent reads it)"}},
		TimeoutSeconds: timeout,
	}
}

// describe writes the Markdown that shows r and returns the window's title.
func describe(b *strings.Builder, r Request) string {
	who := r.Client
	if who == "" {
		who = "The agent"
	}
	str := func(k string) string { s, _ := r.Input[k].(string); return s }
	switch r.Tool {
	case "Bash":
		fmt.Fprintf(b, "**%s** asks to run a command:\n\n", escape(who))
		fence(b, "sh", str("command"))
		if d := str("description"); d != "" {
			fmt.Fprintf(b, "\n%s\n", escape(d))
		}
		return "Run a command?"
	case "Edit", "MultiEdit":
		path := r.rel(str("file_path"))
		fmt.Fprintf(b, "**%s** asks to edit `%s`:\n\n", escape(who), code(path))
		edits := []map[string]any{r.Input}
		if list, ok := r.Input["edits"].([]any); ok {
			edits = nil
			for _, e := range list {
				if m, ok := e.(map[string]any); ok {
					edits = append(edits, m)
				}
			}
		}
		var d strings.Builder
		for i, e := range edits {
			if i > 0 {
				d.WriteString("@@\n")
			}
			old, _ := e["old_string"].(string)
			nu, _ := e["new_string"].(string)
			for _, l := range lines(old) {
				d.WriteString("-" + l + "\n")
			}
			for _, l := range lines(nu) {
				d.WriteString("+" + l + "\n")
			}
		}
		fence(b, "diff", d.String())
		return "Edit " + filepath.Base(path) + "?"
	case "Write":
		path := r.rel(str("file_path"))
		fmt.Fprintf(b, "**%s** asks to write `%s`:\n\n", escape(who), code(path))
		fence(b, "", str("content"))
		return "Write " + filepath.Base(path) + "?"
	case "WebFetch":
		fmt.Fprintf(b, "**%s** asks to fetch <%s>", escape(who), str("url"))
		if p := str("prompt"); p != "" {
			fmt.Fprintf(b, " to find:\n\n> %s\n", escape(p))
		}
		return "Fetch a web page?"
	}
	fmt.Fprintf(b, "**%s** asks to use `%s` with:\n\n", escape(who), code(r.Tool))
	in, err := json.MarshalIndent(r.Input, "", "  ")
	if err != nil || len(r.Input) == 0 {
		in = []byte("{}")
	}
	fence(b, "json", string(in))
	return "Use " + r.Tool + "?"
}

// rel is path relative to the project's directory when it is inside it.
func (r Request) rel(path string) string {
	if r.Dir == "" || !filepath.IsAbs(path) {
		return path
	}
	if rel, err := filepath.Rel(r.Dir, path); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return path
}

// Rule is the permission rule that allows calls like r in the project from
// now on, in Claude Code's syntax, or "" when none is narrow enough to
// offer: the exact command, the file, the web site, the MCP tool.
func Rule(r Request) string {
	str := func(k string) string { s, _ := r.Input[k].(string); return s }
	switch r.Tool {
	case "Bash":
		cmd := strings.TrimSpace(str("command"))
		if cmd == "" || strings.ContainsAny(cmd, "\n()") {
			return "" // a rule cannot hold it exactly
		}
		return "Bash(" + cmd + ")"
	case "Edit", "MultiEdit", "Write":
		p := r.rel(str("file_path"))
		if p == "" || strings.ContainsAny(p, "()\n") {
			return ""
		}
		if !filepath.IsAbs(p) {
			p = "./" + p
		} else {
			p = "/" + p // an absolute path is written //path
		}
		return "Edit(" + p + ")"
	case "WebFetch":
		u, err := url.Parse(str("url"))
		if err != nil || u.Hostname() == "" {
			return ""
		}
		return "WebFetch(domain:" + u.Hostname() + ")"
	}
	if strings.HasPrefix(r.Tool, "mcp__") && !strings.ContainsAny(r.Tool, "()* ") {
		return r.Tool
	}
	return ""
}

// Decide reads the user's answer to Question(r, …).
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
	var chose string
	if len(reply.Selected) == 1 {
		chose = reply.Selected[0]
	}
	switch chose {
	case OptionAllow:
		return Decision{Allow: true}
	case OptionAlways:
		return Decision{Allow: true, Always: Rule(r)}
	}
	msg := "The user denied this tool call."
	if chose != OptionDeny {
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

// lines splits s into lines, without a last empty one; at most
// maxShownLines.
func lines(s string) []string {
	if s == "" {
		return nil
	}
	ls := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	if len(ls) > maxShownLines {
		ls = append(ls[:maxShownLines], fmt.Sprintf("… %d more lines", len(ls)-maxShownLines))
	}
	return ls
}

// fence writes s as a fenced code block, its fence longer than any run of
// backticks in it.
func fence(b *strings.Builder, lang, s string) {
	ls := lines(s)
	ticks := "```"
	for strings.Contains(s, ticks) {
		ticks += "`"
	}
	b.WriteString(ticks + lang + "\n")
	for _, l := range ls {
		b.WriteString(l + "\n")
	}
	b.WriteString(ticks + "\n")
}

// escape keeps Markdown in s from being read as Markdown.
func escape(s string) string {
	r := strings.NewReplacer(`\`, `\\`, "*", `\*`, "_", `\_`, "`", "\\`", "[", `\[`, "]", `\]`, "<", `\<`, ">", `\>`, "#", `\#`)
	return r.Replace(strings.Join(strings.Fields(s), " "))
}

// code makes s safe inside `…`.
func code(s string) string { return strings.ReplaceAll(strings.Join(strings.Fields(s), " "), "`", "'") }

func cutUTF8(s string, max int) string {
	s = s[:max]
	for !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s
}
