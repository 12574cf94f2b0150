package atomicfile

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// WriteFile syncs the new content before the rename that makes it the
// file at path (a crash after the rename must not leave an empty key or
// setting), and the directory after it; a failed sync leaves path as it
// was and no temporary file behind.
func TestWriteFileSyncsBeforeRename(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "key")
	var synced []string
	saved := syncFile
	t.Cleanup(func() { syncFile = saved })
	syncFile = func(f *os.File) error {
		fi, err := f.Stat()
		if err != nil {
			t.Fatal(err)
		}
		if fi.IsDir() {
			synced = append(synced, "dir")
			return nil
		}
		// Not renamed yet: path does not hold the new content.
		if b, _ := os.ReadFile(path); string(b) == "secret" {
			t.Error("synced after the rename")
		}
		synced = append(synced, "file")
		return nil
	}
	if err := WriteFile(path, []byte("secret"), Options{Perm: 0o600}); err != nil {
		t.Fatal(err)
	}
	if strings.Join(synced, ",") != "file,dir" && !(runtime.GOOS == "windows" && strings.Join(synced, ",") == "file") {
		t.Errorf("synced %v, want the file, then its directory", synced)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "secret" {
		t.Errorf("path holds %q", b)
	}
	if runtime.GOOS != "windows" {
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("mode %v, want 0600", fi.Mode().Perm())
		}
		if di, _ := os.Stat(filepath.Dir(path)); di.Mode().Perm() != 0o700 {
			t.Errorf("made directory mode %v, want 0700", di.Mode().Perm())
		}
	}

	errDisk := errors.New("disk full")
	syncFile = func(*os.File) error { return errDisk }
	if err := WriteFile(path, []byte("other"), Options{Perm: 0o600}); !errors.Is(err, errDisk) {
		t.Fatalf("WriteFile with a failing sync = %v, want it", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "secret" {
		t.Errorf("after a failed sync path holds %q", b)
	}
	if ents, _ := os.ReadDir(filepath.Dir(path)); len(ents) != 1 {
		t.Errorf("left behind: %v", ents)
	}
}

// Check runs last, before the rename: its error leaves path as it was.
func TestWriteFileCheck(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	os.WriteFile(path, []byte("theirs"), 0o600)
	errChanged := errors.New("changed meanwhile")
	err := WriteFile(path, []byte("ours"), Options{Perm: 0o600, Check: func() error { return errChanged }})
	if !errors.Is(err, errChanged) {
		t.Fatalf("WriteFile = %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "theirs" {
		t.Errorf("path holds %q", b)
	}
}

// Every file feedback replaces goes through WriteFile: no other code
// makes a temporary file and renames it into place (whose fsync would be
// its own to forget). Moving a file aside (a corrupt database, settings
// that do not parse) is a rename of another kind, listed here.
func TestEveryAtomicWriteUsesWriteFile(t *testing.T) {
	root := filepath.Join("..", "..")
	moves := map[string]bool{ // file: renames that move a file aside, not replace it
		"app/store/store.go":                     true,
		"internal/settings/settingsfile/save.go": true,
	}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == "e2e" || rel == "tools" || (rel != "." && strings.HasPrefix(d.Name(), ".")) || rel == "internal/atomicfile" || d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); ok && x.Name == "os" && (sel.Sel.Name == "CreateTemp" || sel.Sel.Name == "Rename" && !moves[rel]) {
				t.Errorf("%s: os.%s: replace files with atomicfile.WriteFile (it syncs before the rename)", fset.Position(sel.Pos()), sel.Sel.Name)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
