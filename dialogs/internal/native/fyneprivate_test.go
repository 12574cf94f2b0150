package native

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// This package touches what Fyne and its GLFW binding do not promise:
// warm_glfw.go calls two unexported functions of Fyne's GLFW driver by
// their linker names; screen.go calls GLFW directly on the driver's behalf
// (the work area, no focus on show); x11grab.go and x11errors.go use the
// X11 display GLFW opened and install Xlib's process-wide error handler on
// it; symbolfont.go gives the symbol font Fyne falls back to a space. Each
// was checked against exactly these versions. An upgrade that
// renames or changes them may still build and misbehave at run time, so it
// cannot land unseen: this test fails until someone has read those files
// against the new versions (and docs/upstream/, the requests that would
// make them unneeded) and updated verified.
var verified = map[string]string{
	"fyne.io/fyne/v2":                 "v2.8.1",
	"github.com/go-gl/glfw/v3.4/glfw": "v0.1.0-pre.1.0.20260707082822-2a407d02d01a",
}

func TestFynePrivateTouchesVerified(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(moduleRoot, "go.mod")) // what every build links
	if err != nil {
		t.Fatal(err)
	}
	required := map[string]string{}
	for _, m := range requireLine.FindAllStringSubmatch(string(data), -1) {
		required[m[1]] = m[2]
	}
	for mod, want := range verified {
		got, ok := required[mod]
		if !ok {
			t.Errorf("go.mod does not name %s: read it as a change of version", mod)
			continue
		}
		if got != want {
			t.Errorf("go.mod has %s %s, but dialogs/internal/native (warm_glfw.go, screen.go, x11grab.go, x11errors.go, symbolfont.go) was verified against %s: "+
				"re-read it (and docs/upstream/) against %s, then update verified", mod, got, want, got)
		}
	}
	if strings.Contains(string(data), "\nreplace") {
		t.Error("go.mod replaces a module: check that Fyne and GLFW are not among them, then teach this test")
	}
}

// requireLine is a module and its version in go.mod's require block.
var requireLine = regexp.MustCompile(`(?m)^\s*([a-z0-9./\-]+)\s+(v\S+)`)

// moduleRoot is the module's directory, from this package's.
const moduleRoot = "../../.."

// The touches stay behind this one door: no Go file elsewhere in the
// module imports GLFW or Fyne's internal packages, or reaches another
// package's functions by linker name.
func TestPrivateTouchesOnlyHere(t *testing.T) {
	here, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	err = filepath.WalkDir(moduleRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if abs, _ := filepath.Abs(path); abs == here || path != moduleRoot && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		seen++
		f, err := parser.ParseFile(token.NewFileSet(), path, src, parser.ImportsOnly|parser.ParseComments)
		if err != nil {
			return nil // not ours to judge: the build reports it
		}
		for _, imp := range f.Imports {
			p := strings.Trim(imp.Path.Value, `"`)
			if strings.HasPrefix(p, "github.com/go-gl/glfw/") || strings.HasPrefix(p, "fyne.io/fyne/v2/internal/") {
				t.Errorf("%s imports %s: Fyne's and GLFW's private parts are reached through dialogs/internal/native only", path, p)
			}
		}
		if strings.Contains(string(src), "//go:linkname ") {
			t.Errorf("%s uses //go:linkname: Fyne's private parts are reached through dialogs/internal/native only", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen < 100 {
		t.Fatalf("read %d Go files under %s: not the module", seen, moduleRoot)
	}
}
