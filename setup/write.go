package setup

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// readConfig reads a configuration file; a missing one is empty.
func readConfig(path string) ([]byte, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxConfigSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxConfigSize {
		return nil, fmt.Errorf("%s is larger than %d MiB; setup does not edit it", path, maxConfigSize>>20)
	}
	return data, nil
}

// writeConfig replaces the file at path with data: a symbolic link is
// followed to the real file; an existing file is first copied to
// <file>.<time>.bak (returned) and keeps its permissions; a new file gets
// perm, and its missing directories 0700 (0755 when perm lets others
// read). The file is replaced atomically.
func writeConfig(path string, data []byte, perm fs.FileMode, now time.Time) (backup string, err error) {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	old, err := os.ReadFile(path)
	switch {
	case err == nil:
		fi, err := os.Stat(path)
		if err != nil {
			return "", err
		}
		perm = fi.Mode().Perm()
		backup = path + "." + now.Format("20060102-150405") + ".bak"
		if err := os.WriteFile(backup, old, perm); err != nil {
			return "", fmt.Errorf("backing up %s: %w", path, err)
		}
	case errors.Is(err, fs.ErrNotExist):
		dirPerm := fs.FileMode(0o700)
		if perm&0o044 != 0 {
			dirPerm = 0o755 // a shared (project) file in a shared directory
		}
		if err := os.MkdirAll(filepath.Dir(path), dirPerm); err != nil {
			return "", err
		}
	default:
		return "", err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp.Name()) // after a successful rename there is nothing to remove
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return "", err
	}
	if err := tmp.Chmod(perm); err != nil {
		tmp.Close()
		return "", err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return "", err
	}
	if err := tmp.Close(); err != nil {
		return "", err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return "", err
	}
	return backup, nil
}
