package approval

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// What Claude Code honours. Each kind of rule "Always allow in this
// project" writes was run against the real Claude Code (2.1.197; e2e
// TestClaudeCodeHonoursRules), in a project the user trusts: an exact Bash
// rule allows that command, with ;, &&, ||, $( ) or a variable before it;
// an Edit rule of an absolute path allows writing that file; a domain
// rule fetching from that site. Claude Code asks again, whatever exact
// Bash rule is saved, for a command that redirects its output into a file
// (it checks the file written apart: "Output redirection to … was
// blocked"), a pipeline with a part it would ask for ("The following part
// requires approval"), a command run in the background (&), and one that
// changes directory (cd): no Always is offered for those.

// bashUnhonoured is why Claude Code would not honour the exact rule of the
// shell command cmd, as the key of its words ("" when it would): a
// command the shell parser (mvdan.cc/sh) cannot read counts as one, for
// Claude Code's reading of it cannot be told.
func bashUnhonoured(cmd string) string {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(cmd), "")
	if err != nil {
		return "approval.honour.unparsed"
	}
	why := ""
	syntax.Walk(f, func(n syntax.Node) bool {
		if why != "" {
			return false
		}
		switch n := n.(type) {
		case *syntax.Redirect:
			switch n.Op {
			case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.RdrAll, syntax.AppAll:
				if n.Word == nil || n.Word.Lit() != "/dev/null" {
					why = "approval.honour.redirect"
				}
			}
		case *syntax.BinaryCmd:
			if n.Op == syntax.Pipe || n.Op == syntax.PipeAll {
				why = "approval.honour.pipe"
			}
		case *syntax.Stmt:
			if n.Background {
				why = "approval.honour.background"
			}
		case *syntax.CallExpr:
			if len(n.Args) > 0 {
				switch n.Args[0].Lit() {
				case "cd", "pushd", "popd":
					why = "approval.honour.cd"
				}
			}
		}
		return why == ""
	})
	return why
}
