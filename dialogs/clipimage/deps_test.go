package clipimage

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestNoNativeDeps proves the package cannot load libX11 or any other native
// library on its own: among its dependencies (for each target OS, with cgo
// enabled so cgo files would show) there is no cgo package outside the
// standard library, and neither golang.design/x/clipboard (which dlopens
// libX11.so on Linux) nor Fyne/GLFW.
func TestNoNativeDeps(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH")
	}
	for _, goos := range []string{"linux", "freebsd", "darwin", "windows"} {
		t.Run(goos, func(t *testing.T) {
			cmd := exec.Command(goTool, "list", "-deps", "-f", "{{.ImportPath}} {{.Standard}} {{len .CgoFiles}}", ".")
			cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH=amd64", "CGO_ENABLED=1")
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("go list: %v\n%s", err, stderrOf(err))
			}
			sawXGB := false
			for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
				var path, standard, cgoFiles string
				fields := strings.Fields(line)
				if len(fields) != 3 {
					t.Fatalf("unexpected go list line %q", line)
				}
				path, standard, cgoFiles = fields[0], fields[1], fields[2]
				switch {
				case strings.HasPrefix(path, "golang.design/x/clipboard"),
					strings.HasPrefix(path, "fyne.io/"),
					strings.HasPrefix(path, "github.com/go-gl/"):
					t.Errorf("forbidden dependency %s", path)
				case cgoFiles != "0" && standard != "true":
					t.Errorf("cgo dependency %s", path)
				case cgoFiles != "0":
					t.Logf("standard-library package with cgo files (libc only): %s", path)
				}
				sawXGB = sawXGB || path == "github.com/jezek/xgb"
			}
			if wantXGB := goos == "linux" || goos == "freebsd"; sawXGB != wantXGB {
				t.Errorf("github.com/jezek/xgb among deps = %v, want %v", sawXGB, wantXGB)
			}
		})
	}
}

func stderrOf(err error) string {
	if ee, ok := err.(*exec.ExitError); ok {
		return string(ee.Stderr)
	}
	return ""
}
