package core

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// One clock: nothing in the core reads the time or arms a timer but
// through its clock (Options.Clock, UIProcessOptions.Clock): holds,
// snoozes, do not disturb, kept answers, away, notes, messages, deadlines
// and the supervisor alike, so that one fake clock, or synctest's bubble,
// moves them all and no test has to sleep.
func TestOneClock(t *testing.T) {
	clockFuncs := map[string]bool{"Now": true, "Since": true, "Until": true, "After": true, "AfterFunc": true,
		"NewTimer": true, "NewTicker": true, "Tick": true, "Sleep": true}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "time" && clockFuncs[sel.Sel.Name] {
				t.Errorf("%s: time.%s: take the time from the clock", fset.Position(sel.Pos()), sel.Sel.Name)
			}
			return true
		})
	}
}
