package mcpshim

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"feedback/internal/safefile"
)

// The first shim that needs the key makes it: 32 random bytes, mode 0600,
// in a directory it makes 0700; every later shim (another keyFile) reads
// the same key; shims that make it at the same moment agree on one.
func TestFormKeyMadeOnceAndShared(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data", "feedback")
	path := filepath.Join(dir, formKeyFile)
	keys := make([][]byte, 8)
	var wg sync.WaitGroup
	for i := range keys {
		wg.Go(func() {
			k, err := (&keyFile{path: path}).get()
			if err != nil {
				t.Error(err)
			}
			keys[i] = k
		})
	}
	wg.Wait()
	for i, k := range keys {
		if len(k) != formKeySize || !bytes.Equal(k, keys[0]) {
			t.Fatalf("shim %d has key %x, shim 0 %x", i, k, keys[0])
		}
	}
	if bytes.Equal(keys[0], make([]byte, formKeySize)) {
		t.Error("the key is all zeros")
	}
	if runtime.GOOS != "windows" {
		for p, want := range map[string]os.FileMode{path: 0o600, dir: 0o700} {
			if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != want {
				t.Errorf("%s: %v, %v, want mode %v", p, fi.Mode(), err, want)
			}
		}
	}
	again, err := (&keyFile{path: path}).get()
	if err != nil || !bytes.Equal(again, keys[0]) {
		t.Errorf("a later shim read %x, %v", again, err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, formKeyFile+".*")); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// A key file that is not one the shim made is refused, never used: one
// other users can read, one of another size, a link, a directory.
func TestFormKeyRefusesAStrangeFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, mode); err != nil {
			t.Fatal(err)
		}
		os.Chmod(p, mode)
		return p
	}
	good := write("good", bytes.Repeat([]byte{7}, formKeySize), 0o600)
	link := filepath.Join(dir, "link")
	if err := os.Symlink(good, link); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "sub")
	os.Mkdir(sub, 0o700)
	cases := map[string]struct {
		path string
		want error
	}{
		"short":     {write("short", []byte("abc"), 0o600), errBadFormKey},
		"long":      {write("long", bytes.Repeat([]byte{1}, formKeySize+1), 0o600), safefile.ErrTooLarge},
		"a link":    {link, safefile.ErrSymlink},
		"directory": {sub, safefile.ErrNotRegular},
	}
	if runtime.GOOS != "windows" {
		cases["readable by others"] = struct {
			path string
			want error
		}{write("open", bytes.Repeat([]byte{7}, formKeySize), 0o644), errBadFormKey}
	}
	for name, tc := range cases {
		if k, err := (&keyFile{path: tc.path}).get(); !errors.Is(err, tc.want) || k != nil {
			t.Errorf("%s: %x, %v, want %v", name, k, err, tc.want)
		}
	}
	if k, err := (&keyFile{path: good}).get(); err != nil || len(k) != formKeySize {
		t.Errorf("the good file: %x, %v", k, err)
	}
}
