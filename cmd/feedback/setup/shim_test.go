package setup

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const testShim = "/opt/feedback/bin/feedback-headless"

// With a shim installed beside the app, every client's entry runs the
// shim (it answers initialize in about half the time), autostart still
// runs the app, and an entry that ran the app itself is migrated by the
// next feedback setup CLIENT — and said to be, until then.
func TestClientsRunTheShimBesideTheApp(t *testing.T) {
	for _, c := range Clients {
		t.Run(c.Name, func(t *testing.T) {
			te := newEnv(t)
			te.Shim = testShim
			if code := Run([]string{c.Name}, te.Env); code != 0 {
				t.Fatalf("exit %d: %s", code, te.stderr)
			}
			path, err := c.File(te.Env, ScopeUser)
			if err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if e := entry(t, c, decode(t, c, data)); e["command"] != testShim {
				t.Errorf("command %v, want %s", e["command"], testShim)
			}
		})
	}
	te := newEnv(t)
	if a := AutostartEntry(Env{Exe: testExe, Shim: testShim, Home: te.Home, GOOS: "linux", Getenv: te.Getenv}); !strings.Contains(string(a.Content), testExe) || strings.Contains(string(a.Content), testShim) {
		t.Errorf("autostart runs %q, want the app %s", a.Content, testExe)
	}
}

func TestSetupMigratesAnEntryThatRanTheApp(t *testing.T) {
	te := newEnv(t)
	if code := Run([]string{"claude-code"}, te.Env); code != 0 { // no shim: the app itself, as before
		t.Fatalf("exit %d: %s", code, te.stderr)
	}
	file := filepath.Join(te.Home, ".claude.json")
	if data, _ := os.ReadFile(file); !strings.Contains(string(data), `"`+testExe+`"`) {
		t.Fatalf("without a shim the entry runs %s:\n%s", testExe, data)
	}
	te.Shim = testShim
	te.stdout.Reset()
	Run(nil, te.Env)
	if want := "set up, runs " + testExe + " (feedback setup claude-code points it at " + testShim + ")"; !strings.Contains(te.stdout.String(), want) {
		t.Errorf("list: want %q in\n%s", want, te.stdout)
	}
	if code := Run([]string{"claude-code"}, te.Env); code != 0 {
		t.Fatalf("exit %d: %s", code, te.stderr)
	}
	if data, _ := os.ReadFile(file); !strings.Contains(string(data), `"`+testShim+`"`) || strings.Contains(string(data), `"`+testExe+`"`) {
		t.Errorf("not migrated to the shim:\n%s", data)
	}
	te.stdout.Reset()
	if Run([]string{"claude-code"}, te.Env); !strings.Contains(te.stdout.String(), "nothing changed") {
		t.Errorf("a second run changed something:\n%s", te.stdout)
	}
}
