package dialogs

import (
	"os/exec"
	"strings"
	"testing"
)

// stateFiles are the view's state types and their tests: the countdown,
// the draft's debouncer and the input guard.
var stateFiles = []string{"countdown.go", "countdown_test.go", "debounce.go", "debounce_test.go", "guard.go", "guard_test.go"}

// The view's state is kept apart from its widgets: the state types build
// and pass their tests on their own, without the rest of the package,
// without Fyne and without cgo.
func TestStateIsToolkitFree(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go tool")
	}
	out, err := exec.Command("go", append([]string{"list", "-deps"}, stateFiles...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.HasPrefix(dep, "fyne.io/") || strings.Contains(dep, "go-gl") {
			t.Errorf("the view's state depends on %s", dep)
		}
	}
	test := exec.Command("go", append([]string{"test", "-count=1"}, stateFiles...)...)
	test.Env = append(test.Environ(), "CGO_ENABLED=0")
	if out, err := test.CombinedOutput(); err != nil {
		t.Errorf("CGO_ENABLED=0 go test %s: %v\n%s", strings.Join(stateFiles, " "), err, out)
	}
}
