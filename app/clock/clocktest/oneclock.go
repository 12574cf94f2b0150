package clocktest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// wallClock are package time's functions that read the wall clock or arm a
// timer on it.
var wallClock = map[string]bool{"Now": true, "Since": true, "Until": true, "After": true, "AfterFunc": true,
	"NewTimer": true, "NewTicker": true, "Tick": true, "Sleep": true}

// OneClock fails t for each call of package time's clock (time.Now,
// time.AfterFunc, time.NewTimer…) in the Go files, tests aside, of the
// directory the test runs in: its package's. A package that keeps to one
// clock (clock.Clock) reads the time and arms its timers through it, so
// that one fake clock, or synctest's bubble, moves them all.
func OneClock(t testing.TB) {
	t.Helper()
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
			if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "time" && wallClock[sel.Sel.Name] {
				t.Errorf("%s: time.%s: take the time from the clock", fset.Position(sel.Pos()), sel.Sel.Name)
			}
			return true
		})
	}
}
