package setup

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"feedback/internal/atomicfile"
	"feedback/internal/safefile"
)

// ErrChangedMeanwhile: the configuration file changed between setup's
// reading it and its replacing it (another program wrote it); nothing was
// written.
var ErrChangedMeanwhile = errors.New("changed while setup was editing it")

// readConfig reads a configuration file; a missing one is empty. Only a
// regular file (a link to one is followed) of at most maxConfigSize is
// read: a FIFO or a device there is an error at once (safefile).
func readConfig(path string) ([]byte, error) {
	data, err := safefile.ReadFile(path, maxConfigSize)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if errors.Is(err, safefile.ErrTooLarge) {
		return nil, fmt.Errorf("%s is larger than %d MiB; setup does not edit it", path, maxConfigSize>>20)
	}
	return data, err
}

// writeConfig replaces the file at path, whose content setup read as old
// (nil: there was none), with data: a symbolic link is followed to the
// real file (a configuration kept in a dotfiles repository stays there);
// an existing file is first copied to a new <file>.<time>.bak (returned)
// and keeps its permissions; a new file gets perm, and its missing
// directories 0700 (0755 when perm lets others read). The file is replaced
// atomically, and only if it still holds old just before the rename:
// otherwise ErrChangedMeanwhile, and nothing is written.
func writeConfig(path string, old, data []byte, perm fs.FileMode, now time.Time) (backup string, err error) {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	if old != nil {
		fi, err := os.Stat(path)
		if err != nil {
			return "", err
		}
		perm = fi.Mode().Perm()
		if backup, err = writeBackup(path, old, perm, now); err != nil {
			return "", fmt.Errorf("backing up %s: %w", path, err)
		}
	} else {
		dirPerm := fs.FileMode(0o700)
		if perm&0o044 != 0 {
			dirPerm = 0o755 // a shared (project) file in a shared directory
		}
		if err := os.MkdirAll(filepath.Dir(path), dirPerm); err != nil {
			return "", err
		}
	}
	// A file changed meanwhile is not replaced, and the backup of what
	// it held before goes.
	changed := false
	check := func() error {
		err := unchanged(path, old)
		changed = err != nil
		return err
	}
	if err := atomicfile.WriteFile(path, data, atomicfile.Options{Perm: perm, Check: check}); err != nil {
		if changed && backup != "" {
			os.Remove(backup)
		}
		return "", err
	}
	return backup, nil
}

// unchanged checks that path still holds old (nil: that it still does not
// exist), just before setup replaces it.
func unchanged(path string, old []byte) error {
	now, err := readConfig(path)
	switch {
	case err != nil:
		return err
	case old == nil && now == nil:
		if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
			return nil
		}
	case bytes.Equal(now, old):
		return nil
	}
	return fmt.Errorf("%s %w", path, ErrChangedMeanwhile)
}

// writeBackup copies old to a new file beside path, never over an existing
// file or through a link (O_EXCL), and returns its name.
func writeBackup(path string, old []byte, perm fs.FileMode, now time.Time) (string, error) {
	base := path + "." + now.Format("20060102-150405")
	for n := 1; n <= 100; n++ {
		name := base + ".bak"
		if n > 1 {
			name = fmt.Sprintf("%s-%d.bak", base, n)
		}
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		_, err = f.Write(old)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(name)
			return "", err
		}
		return name, nil
	}
	return "", fmt.Errorf("%s.bak and 99 others exist already", base)
}
