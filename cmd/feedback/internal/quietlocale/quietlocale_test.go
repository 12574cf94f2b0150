package quietlocale

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestFix(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  map[string]string
		want string // LANGUAGE afterwards; "-" = untouched
	}{
		{"LANG=C.UTF-8", map[string]string{"LANG": "C.UTF-8"}, "en"},
		{"LANG=C.utf8", map[string]string{"LANG": "C.utf8"}, "en"},
		{"LC_ALL=C.UTF-8 wins over LANG", map[string]string{"LC_ALL": "C.UTF-8", "LANG": "de_DE.UTF-8"}, "en"},
		{"LANG=POSIX.UTF-8", map[string]string{"LANG": "POSIX.UTF-8"}, "en"},
		{"LANG=C", map[string]string{"LANG": "C"}, "-"},
		{"LANG=POSIX", map[string]string{"LANG": "POSIX"}, "-"},
		{"nothing set", map[string]string{}, "-"},
		{"LANG=en_US.UTF-8", map[string]string{"LANG": "en_US.UTF-8"}, "-"},
		{"LANG=zh_CN.UTF-8", map[string]string{"LANG": "zh_CN.UTF-8"}, "-"},
		{"LANGUAGE with a good list", map[string]string{"LANG": "C.UTF-8", "LANGUAGE": "fr_FR:en"}, "-"},
		{"LANGUAGE with a bad entry", map[string]string{"LANG": "de_DE.UTF-8", "LANGUAGE": "de::C.UTF-8:en"}, "de:en"},
		{"LANGUAGE all bad", map[string]string{"LANG": "en_US.UTF-8", "LANGUAGE": "C.UTF-8"}, "en"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := map[string]string{}
			for k, v := range tc.env {
				env[k] = v
			}
			getenv := func(k string) string { return env[k] }
			setenv := func(k, v string) error { env[k] = v; return nil }
			Fix(getenv, setenv)
			got, ok := env["LANGUAGE"]
			if !ok || got == tc.env["LANGUAGE"] {
				got = "-"
			}
			if got != tc.want {
				t.Fatalf("LANGUAGE = %q, want %q", got, tc.want)
			}
			for _, e := range Languages(getenv) {
				if !Parses(e) {
					t.Errorf("after Fix, %q still does not parse (list %q)", e, strings.Join(Languages(getenv), ":"))
				}
			}
		})
	}
}

// The whole effect, in a real program: Fyne's lang package logs the locale
// error at init under LANG=C.UTF-8 unless quietlocale is linked, whatever
// the import order in main (Go initialises "feedback/…" before "fyne.io/…").
func TestFyneInitIsQuiet(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two programs")
	}
	dir := t.TempDir()
	for _, prog := range []string{"without", "withfix"} {
		exe := filepath.Join(dir, prog)
		if out, err := exec.Command("go", "build", "-o", exe, "./testdata/"+prog).CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", prog, err, out)
		}
		for _, locale := range []string{"LANG=C.UTF-8", "LC_ALL=C.utf8", "LANG=C", "LANG=en_US.UTF-8", ""} {
			cmd := exec.Command(exe)
			cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
			if locale != "" {
				cmd.Env = append(cmd.Env, locale)
			}
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("%s: %v", prog, err)
			}
			noisy := strings.Contains(stderr.String(), "Error parsing user locale")
			wantNoisy := prog == "without" && strings.Contains(strings.ToLower(locale), "c.utf")
			if noisy != wantNoisy {
				t.Errorf("%s with %q: stderr %q; want the locale error: %v", prog, locale, stderr.String(), wantNoisy)
			}
			if prog == "withfix" && stderr.Len() != 0 {
				t.Errorf("withfix with %q: stderr %q, want nothing", locale, stderr.String())
			}
		}
	}
}
