package dialogs

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// The window code touches what Fyne and its GLFW binding do not promise:
// warm_glfw.go calls two unexported functions of Fyne's GLFW driver by
// their linker names; screen.go calls GLFW directly on the driver's behalf
// (the work area, no focus on show); x11grab.go and x11errors.go use the
// X11 display GLFW opened and install Xlib's process-wide error handler on
// it. Each was checked against exactly these versions. An upgrade that
// renames or changes them may still build and misbehave at run time, so it
// cannot land unseen: this test fails until someone has read those files
// against the new versions (and docs/upstream/, the requests that would
// make them unneeded) and updated verified.
var verified = map[string]string{
	"fyne.io/fyne/v2":                 "v2.7.1",
	"github.com/go-gl/glfw/v3.3/glfw": "v0.0.0-20240506104042-037f3cc74f2a",
}

func TestFynePrivateTouchesVerified(t *testing.T) {
	data, err := os.ReadFile("../go.mod") // what every build links
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
			t.Errorf("go.mod has %s %s, but warm_glfw.go, screen.go, x11grab.go and x11errors.go were verified against %s: "+
				"re-read them (and docs/upstream/) against %s, then update verified", mod, got, want, got)
		}
	}
	if strings.Contains(string(data), "\nreplace") {
		t.Error("go.mod replaces a module: check that Fyne and GLFW are not among them, then teach this test")
	}
}

// requireLine is a module and its version in go.mod's require block.
var requireLine = regexp.MustCompile(`(?m)^\s*([a-z0-9./\-]+)\s+(v\S+)`)
