package pathlinks

import (
	"os"
	"path/filepath"
	"testing"
)

func TestResolve(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(root, "p", ".claude"), 0o755))
	must(os.MkdirAll(filepath.Join(root, "home", ".ssh"), 0o755))
	must(os.Symlink(".claude", filepath.Join(root, "p", "cfg")))
	must(os.Symlink(filepath.Join(root, "home", ".ssh"), filepath.Join(root, "p", "keys")))
	must(os.Symlink("../home/.ssh/new", filepath.Join(root, "p", "dangling")))
	must(os.Symlink("loop", filepath.Join(root, "p", "loop")))
	for _, tc := range []struct{ in, want string }{
		{"p/cfg/settings.local.json", "p/.claude/settings.local.json"},
		{"p/keys/authorized_keys", "home/.ssh/authorized_keys"},
		{"p/keys/a/b", "home/.ssh/a/b"},
		{"p/dangling", "home/.ssh/new"},
		{"p/plain.go", "p/plain.go"},
		{"p/new/dir/x", "p/new/dir/x"},
	} {
		got, err := Resolve(filepath.Join(root, tc.in))
		if err != nil || got != filepath.Join(root, tc.want) {
			t.Errorf("%s: %q, %v; want %s", tc.in, got, err, tc.want)
		}
	}
	if _, err := Resolve(filepath.Join(root, "p", "loop")); err == nil {
		t.Error("a loop resolved")
	}
}
