package approval

import (
	"encoding/json"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"feedback/internal/i18n"
)

// Claude Code's permission rules are Tool or Tool(content). In a Bash
// rule's content "prefix:*" at the end matches every command that starts
// with prefix, and any other * is a wildcard; Edit's content is a gitignore
// pattern (*, ?, […], a leading !); WebFetch's is domain:host; an MCP
// rule is mcp__server (every tool of the server) or mcp__server__tool.
// exactRule writes a rule only when its content holds none of that syntax,
// so the rule matches what the window names and nothing more: this exact
// command; this one file; this web site; this one MCP tool.

// Rule is the exact rule that allows calls like r in the project from now
// on, in Claude Code's syntax, or "" when none can be written.
func Rule(r Request) string {
	rule, _ := exactRule(r, i18n.For(English))
	return rule
}

// English is the language Rule's reasons are in.
const English = i18n.English

// mcpTool is an MCP tool's name that names one tool: mcp__server__tool,
// with no other "__" and nothing but letters, digits, - and _.
var mcpTool = regexp.MustCompile(`^mcp__[A-Za-z0-9-]+(_[A-Za-z0-9-]+)*__[A-Za-z0-9-]+(_[A-Za-z0-9-]+)*$`)

// host is a host name a domain rule holds exactly.
var host = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$`)

// exactRule is Rule's rule, or "" and why none can be written (in l's
// language, for the window).
func exactRule(r Request, l *i18n.Localizer) (rule, why string) {
	if hasWrongType(r) {
		return "", l.T("approval.norule.wrong_type")
	}
	if callHasLookalike(r) {
		return "", l.T("approval.norule.lookalike")
	}
	if anyText(r, imitatesMark) {
		return "", l.T("approval.norule.mark")
	}
	switch r.Tool {
	case "Bash":
		cmd := r.str("command")
		if why := unsafeContent(cmd, "*()\\", l); why != "" {
			return "", why
		}
		if key := bashUnhonoured(cmd); key != "" { // honoured.go
			return "", l.T("approval.norule.honour", map[string]any{"What": l.T(key)})
		}
		return "Bash(" + cmd + ")", ""
	case "Edit", "MultiEdit", "Write":
		p := r.str("file_path")
		if why := unsafeContent(p, "*?[]\\!#{}()", l); why != "" {
			return "", why
		}
		if clean := filepath.ToSlash(filepath.Clean(p)); clean != filepath.ToSlash(p) || clean == ".." || strings.HasPrefix(clean, "../") || strings.HasPrefix(p, "~") {
			return "", l.T("approval.norule.path")
		}
		// Anchored: a relative rule (./a.go) is read from wherever a
		// session starts, and Claude Code keeps local rules at the
		// repository's root, so it could name another file.
		if !filepath.IsAbs(p) {
			if !filepath.IsAbs(r.Dir) {
				return "", l.T("approval.norule.path")
			}
			p = filepath.Join(r.Dir, p)
		}
		// A rule is a gitignore pattern: on a directory it covers all
		// inside; in .claude it would let the agent write its own
		// permissions, in .git its repository's hooks.
		for _, part := range strings.Split(filepath.ToSlash(p), "/") {
			if part == ".claude" || part == ".git" {
				return "", l.T("approval.norule.file")
			}
		}
		// Through a link, the rule would name one path and the edit
		// reach another: .claude or .git perhaps (the checks above
		// would not see it), or a folder out of the project.
		if real, unknown := r.leads(p); unknown {
			return "", l.T("approval.norule.path")
		} else if real != "" {
			return "", l.T("approval.norule.link")
		}
		if r.Lstat != nil {
			if fi, err := r.Lstat(p); err == nil && !fi.Mode().IsRegular() {
				return "", l.T("approval.norule.file")
			}
		}
		return "Edit(/" + filepath.ToSlash(p) + ")", "" // an absolute path is written //path
	case "WebFetch":
		u, err := url.Parse(r.str("url"))
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || !host.MatchString(strings.ToLower(u.Hostname())) {
			return "", l.T("approval.norule.url")
		}
		return "WebFetch(domain:" + strings.ToLower(u.Hostname()) + ")", ""
	}
	if strings.HasPrefix(r.Tool, "mcp__") {
		if !mcpTool.MatchString(r.Tool) || strings.Count(r.Tool, "__") != 2 {
			return "", l.T("approval.norule.mcp")
		}
		return r.Tool, ""
	}
	return "", l.T("approval.norule.tool", map[string]any{"Tool": oneLine(r.Tool)})
}

// unsafeContent is why s cannot be a rule's content as it is ("" when it
// can): empty, on several lines, with an invisible character, a space at
// an end, or one of special.
func unsafeContent(s, special string, l *i18n.Localizer) string {
	switch {
	case s == "":
		return l.T("approval.norule.empty")
	case strings.ContainsAny(s, "\n\r"):
		return l.T("approval.norule.newline")
	case strings.TrimSpace(s) != s:
		return l.T("approval.norule.space")
	}
	for _, r := range s {
		if invisible(r) || !unicode.IsPrint(r) && r != ' ' {
			return l.T("approval.norule.invisible")
		}
	}
	if i := strings.IndexAny(s, special); i >= 0 {
		c := s[i : i+1]
		if c == "(" || c == ")" {
			c = "( )"
		}
		return l.T("approval.norule.char", map[string]any{"Char": c})
	}
	return ""
}

// maxRuleShown is the longest rule an option's description repeats; a
// longer one is the call shown above, and the description says so rather
// than be cut.
const maxRuleShown = 120

// alwaysDescription says what the Always option's rule allows.
func alwaysDescription(r Request, rule string, l *i18n.Localizer) string {
	if utf8.RuneCountInString(rule) > maxRuleShown {
		return l.T("approval.always.long")
	}
	data := map[string]any{"Rule": rule}
	switch r.Tool {
	case "Bash":
		return l.T("approval.always.bash", data)
	case "Edit", "MultiEdit", "Write":
		return l.T("approval.always.edit", data)
	case "WebFetch":
		return l.T("approval.always.fetch", data)
	}
	return l.T("approval.always.mcp", data)
}

// Update is a permission update of Claude Code's (a PermissionRequest
// hook's updatedPermissions entry): rules to add, with their behaviour and
// where they are written.
type Update struct {
	Type        string       `json:"type"` // "addRules"
	Rules       []UpdateRule `json:"rules"`
	Behavior    string       `json:"behavior"`    // "allow"
	Destination string       `json:"destination"` // "localSettings", "userSettings", …
}

// UpdateRule is one rule of an Update.
type UpdateRule struct {
	ToolName    string `json:"toolName"`
	RuleContent string `json:"ruleContent,omitempty"`
}

// String is the rule as Claude Code writes it: Tool or Tool(content).
func (u UpdateRule) String() string {
	if u.RuleContent == "" {
		return u.ToolName
	}
	return u.ToolName + "(" + u.RuleContent + ")"
}

// ruleUpdate is the Update that writes rule to the project's local
// settings.
func ruleUpdate(rule string) Update {
	ur := UpdateRule{ToolName: rule}
	if tool, content, ok := strings.Cut(rule, "("); ok && strings.HasSuffix(content, ")") {
		ur = UpdateRule{ToolName: tool, RuleContent: strings.TrimSuffix(content, ")")}
	}
	return Update{Type: "addRules", Rules: []UpdateRule{ur}, Behavior: "allow", Destination: "localSettings"}
}

// Where a suggestion may write, and the words that say where.
var destinations = map[string]string{
	"localSettings":   "approval.suggestion.local",
	"projectSettings": "approval.suggestion.project",
	"userSettings":    "approval.suggestion.user",
	"session":         "approval.suggestion.session",
}

// maxSuggestions is how many of Claude Code's suggestions become options.
const maxSuggestions = 3

// suggestions are the rule suggestions of r that the window offers:
// Claude Code's "allow" rules for a known destination, each rule short,
// on one line and visible, and not the same as exact (the rule of the
// Always option) in the local settings.
func suggestions(r Request, exact string) []*Update {
	if misleading(r) {
		return nil // a rule would name what the window showed as something else
	}
	var out []*Update
	for _, raw := range r.Suggestions {
		var u Update
		if json.Unmarshal(raw, &u) != nil || u.Type != "addRules" || u.Behavior != "allow" || len(u.Rules) == 0 || len(u.Rules) > 3 {
			continue
		}
		if _, ok := destinations[u.Destination]; !ok {
			continue
		}
		ok := true
		for _, ru := range u.Rules {
			s := ru.String()
			if ru.ToolName == "" || len(s) > 200 || oneLine(s) != s {
				ok = false
			}
		}
		if !ok || (len(u.Rules) == 1 && u.Destination == "localSettings" && u.Rules[0].String() == exact) {
			continue
		}
		out = append(out, &u)
		if len(out) == maxSuggestions {
			break
		}
	}
	return out
}

// misleading reports whether r is a call whose text reads as something
// else than it is: lookalikes, imitated marks, a field of the wrong type,
// a file path through a link (or one whose links cannot be told).
func misleading(r Request) bool {
	if callHasLookalike(r) || anyText(r, imitatesMark) || hasWrongType(r) {
		return true
	}
	for _, k := range subjectKeys[r.Tool] {
		if strings.HasSuffix(k, "_path") {
			if real, unknown := r.leads(r.str(k)); real != "" || unknown {
				return true
			}
		}
	}
	return false
}

// rules are u's rules as Claude Code writes them, separated by ", ".
func (u *Update) rules() string {
	rules := make([]string, len(u.Rules))
	for i, ru := range u.Rules {
		rules[i] = ru.String()
	}
	return strings.Join(rules, ", ")
}

// label is the option of a suggestion: its rules verbatim and where they
// apply.
func (u *Update) label(l *i18n.Localizer) string {
	return l.T(destinations[u.Destination], map[string]any{"Rules": u.rules()})
}
