// Package atomicfile replaces a file whole or not at all: a temporary file
// synced to the disk, renamed over the old one, the folder synced after.
// Every file feedback writes goes through it (a test keeps other writers
// out); it reads nothing, so every process may link it — the UI process
// its own Fyne preferences too (internal/safefile, which reads the app's
// files safely, is the app's and the commands').
package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
)

// Options says how WriteFile writes.
type Options struct {
	// Perm is the file's mode (on Windows, only its read-only bit means
	// anything): set on the temporary file's descriptor before any byte.
	Perm fs.FileMode
	// DirPerm is the mode of the directory when WriteFile makes it; 0
	// means 0700.
	DirPerm fs.FileMode
	// Check, when set, runs last before the file takes path's place: an
	// error leaves path as it was (setup: the file still holds what was
	// read).
	Check func() error
	// Exclusive makes path only when nothing is there: an existing file
	// is kept (two processes making one key at once: one wins, and both
	// read its key back), and WriteFile returns nil.
	Exclusive bool
}

// syncFile flushes a file (or a directory) to the disk; tests replace it.
var syncFile = (*os.File).Sync

// WriteFile replaces the file at path with data so that, crash or not,
// path holds either its old content or all of data: data goes to a new
// temporary file beside path (O_EXCL, mode o.Perm set on its descriptor:
// never through a link, never readable by others meanwhile), which is
// synced to the disk before it is renamed over path, and the directory
// is synced after (where the system can). Without the first sync a crash
// soon after the rename can leave an empty file at path on ext4 and
// others: a lost key, a blank setting. Any failure removes the temporary
// file and leaves path as it was.
func WriteFile(path string, data []byte, o Options) (err error) {
	dir := filepath.Dir(path)
	dirPerm := o.DirPerm
	if dirPerm == 0 {
		dirPerm = 0o700
	}
	if err := os.MkdirAll(dir, dirPerm); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err := tmp.Chmod(o.Perm); err != nil && runtime.GOOS != "windows" {
		return err // Windows has no permission bits beyond read-only
	}
	if _, err := tmp.Write(data); err != nil {
		return err
	}
	if err := syncFile(tmp); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if o.Check != nil {
		if err := o.Check(); err != nil {
			return err
		}
	}
	if o.Exclusive {
		err = os.Link(tmp.Name(), path)
		switch {
		case err == nil, errors.Is(err, fs.ErrExist):
			os.Remove(tmp.Name())
			syncDir(dir)
			return nil
		}
		// No hard links here (some Windows file systems): a rename,
		// which replaces a file made meanwhile.
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	syncDir(dir)
	return nil
}

// syncDir makes a rename in dir durable where a directory can be synced
// (not on Windows). Its failure is not WriteFile's: the file is whole
// either way, and some file systems refuse to sync a directory.
func syncDir(dir string) {
	if runtime.GOOS == "windows" {
		return
	}
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	syncFile(d)
	d.Close()
}
