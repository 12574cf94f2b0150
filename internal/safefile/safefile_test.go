//go:build unix

package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"feedback/internal/safefile/safefiletest"
)

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	safefiletest.Mkfifo(t, fifo)
	file := filepath.Join(dir, "file")
	os.WriteFile(file, []byte("12345"), 0o600)
	link := filepath.Join(dir, "link")
	os.Symlink(file, link)
	zero := filepath.Join(dir, "zero")
	safefiletest.LinkDevZero(t, zero)
	for _, tc := range []struct {
		name, path string
		max        int64
		want       error
	}{
		{"fifo", fifo, 100, ErrNotRegular},
		{"dev zero through a link", zero, 100, ErrNotRegular},
		{"directory", dir, 100, ErrNotRegular},
		{"too large", file, 4, ErrTooLarge},
		{"missing", filepath.Join(dir, "none"), 100, fs.ErrNotExist},
		{"file", file, 5, nil},
		{"link to a file", link, 5, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var data []byte
			err := safefiletest.Returns(t, time.Second, func() (err error) { data, err = ReadFile(tc.path, tc.max); return })
			if !errors.Is(err, tc.want) || (tc.want == nil) != (err == nil) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
			if err == nil && string(data) != "12345" {
				t.Fatalf("data = %q", data)
			}
			if err != nil && tc.want != fs.ErrNotExist && !strings.Contains(err.Error(), tc.path) {
				t.Fatalf("error %q does not name %s", err, tc.path)
			}
		})
	}
}

func TestOpenFileRefusesLinksAndSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	os.WriteFile(target, nil, 0o644)
	link := filepath.Join(dir, "link")
	os.Symlink(target, link)
	fifo := filepath.Join(dir, "fifo")
	safefiletest.Mkfifo(t, fifo)
	for path, want := range map[string]error{link: ErrSymlink, fifo: ErrNotRegular} {
		err := safefiletest.Returns(t, time.Second, func() error {
			f, err := OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
			if err == nil {
				f.Chmod(0o600)
				f.Close()
			}
			return err
		})
		if !errors.Is(err, want) {
			t.Errorf("%s: err = %v, want %v", path, err, want)
		}
	}
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o644 {
		t.Errorf("the link's target became %v", fi.Mode().Perm())
	}
	f, err := OpenFile(filepath.Join(dir, "new"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := Check(filepath.Join(dir, "new")); err != nil {
		t.Fatal(err)
	}
}
