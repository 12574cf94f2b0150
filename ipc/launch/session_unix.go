//go:build unix

package launch

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"

	"feedback/internal/atomicfile"
)

func sessionPath(getenv func(string) string) string {
	home := getenv("HOME")
	if !filepath.IsAbs(home) {
		return ""
	}
	return filepath.Join(home, ".cache", "feedback", "run", sessionName)
}

// systemRuntimeDir is /run/user/UID when it is a directory of the user's
// that nobody else may enter (what systemd-logind makes), else "".
func systemRuntimeDir() string {
	d := filepath.Join("/run/user", strconv.Itoa(os.Getuid()))
	fi, err := os.Lstat(d)
	if err != nil || !fi.IsDir() || fi.Mode().Perm()&0o077 != 0 || owner(fi) != os.Getuid() {
		return ""
	}
	return d
}

func owner(fi fs.FileInfo) int {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return int(st.Uid)
	}
	return -1
}

// private checks that fi (from lstat or fstat) is no link, is owned by the
// user and is writable by nobody else.
func private(path string, fi fs.FileInfo) error {
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("%s is a symbolic link, which is never followed", path)
	case owner(fi) != os.Getuid():
		return fmt.Errorf("%s is owned by uid %d, not by you (uid %d)", path, owner(fi), os.Getuid())
	case fi.Mode().Perm()&0o022 != 0:
		return fmt.Errorf("%s may be written by others (mode %v)", path, fi.Mode().Perm())
	}
	return nil
}

// readSession reads the record at path, trusting it only when it and its
// directory are the user's own and nobody else's to write: the record says
// where to send questions and which display and session bus a started app
// uses.
func readSession(path string) (Session, error) {
	if path == "" {
		return Session{}, errors.New("no home directory")
	}
	dir := filepath.Dir(path)
	dfi, err := os.Lstat(dir)
	if err != nil {
		return Session{}, err
	}
	if err := private(dir, dfi); err != nil {
		return Session{}, err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK, 0)
	if err != nil {
		return Session{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return Session{}, err
	}
	if !fi.Mode().IsRegular() {
		return Session{}, fmt.Errorf("%s is not a regular file (mode %v)", path, fi.Mode())
	}
	if err := private(path, fi); err != nil {
		return Session{}, err
	}
	data, err := io.ReadAll(io.LimitReader(f, maxSessionBytes+1))
	if err != nil {
		return Session{}, err
	}
	if len(data) > maxSessionBytes {
		return Session{}, fmt.Errorf("%s is larger than %d bytes", path, maxSessionBytes)
	}
	var s Session
	if err := json.Unmarshal(data, &s); err != nil {
		return Session{}, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// writeSession replaces the record at path with data (atomicfile.WriteFile),
// in a directory made private (0700) and checked.
func writeSession(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if err := private(dir, fi); err != nil {
		return err
	}
	return atomicfile.WriteFile(path, data, atomicfile.Options{Perm: 0o600})
}
