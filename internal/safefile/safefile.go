// Package safefile opens feedback's own files — the settings, the state
// files, the database, the log, the MCP clients' configurations — so that
// a hostile or mistaken file at one of their paths cannot hang a command,
// exhaust its memory, or make it change a file it does not own.
//
//   - ReadFile reads a regular file only (a link to one is followed: reading
//     changes nothing), at most max bytes: a FIFO, a device such as
//     /dev/zero or a directory is refused at once, without blocking (the
//     file is opened non-blocking and checked with fstat before any read).
//   - Check and OpenFile never follow a symbolic link at the path itself:
//     what feedback creates, chmods, appends to or moves must be the file at
//     that path, not what a link points to. OpenFile opens with O_NOFOLLOW
//     (where the system has it) and O_NONBLOCK, then checks the descriptor
//     it opened, so a chmod through it (File.Chmod, fchmod) reaches that
//     file and no other.
//
// A file is replaced whole or not at all by package atomicfile.
//
// Every refusal is an *Error naming the path, matched with errors.Is against
// ErrSymlink, ErrNotRegular or ErrTooLarge.
package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

var (
	// ErrSymlink: the path is a symbolic link where feedback writes.
	ErrSymlink = errors.New("is a symbolic link")
	// ErrNotRegular: the path is a FIFO, a device, a socket or a directory.
	ErrNotRegular = errors.New("is not a regular file")
	// ErrTooLarge: the file holds more than its kind of file ever does.
	ErrTooLarge = errors.New("is too large")
)

// Error is a refused file: Path, what is wrong with it (Err: one of the
// sentinels above) and, in Detail, what it is or how big.
type Error struct {
	Path   string
	Err    error
	Detail string // "a FIFO", "a link to /etc/passwd", "more than 1048576 bytes"
}

func (e *Error) Error() string {
	msg := fmt.Sprintf("%s %v", e.Path, e.Err)
	if e.Detail != "" {
		msg += " (" + e.Detail + ")"
	}
	switch {
	case errors.Is(e.Err, ErrSymlink):
		return msg + ": feedback does not write through links; replace the link with the file itself"
	case errors.Is(e.Err, ErrNotRegular):
		return msg + ": remove it (feedback creates the file when it needs one)"
	}
	return msg + ": move it away"
}

func (e *Error) Unwrap() error { return e.Err }

// kind names a file type for a message.
func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeDir != 0:
		return "a directory"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "a special file"
}

// regular returns nil for a regular file's info, else the *Error for path.
func regular(path string, fi fs.FileInfo) error {
	if fi.Mode().IsRegular() {
		return nil
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		detail := "a link"
		if to, err := os.Readlink(path); err == nil {
			detail = "a link to " + to
		}
		return &Error{Path: path, Err: ErrSymlink, Detail: detail}
	}
	return &Error{Path: path, Err: ErrNotRegular, Detail: kind(fi.Mode())}
}

// Check looks at path without following a link there: nil for a regular
// file, the os error (fs.ErrNotExist…) when there is nothing, an *Error for
// a link or anything else. It opens nothing, so it never blocks.
func Check(path string) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return err
	}
	return regular(path, fi)
}

// OpenFile is os.OpenFile (flag as there, O_CREATE with perm included) on
// a regular file only, never through a symbolic link at path: a link, a
// FIFO, a device or a directory is refused with an *Error before any byte
// is read or written, without blocking. The returned file is the one
// checked, so File.Chmod on it changes that file only.
func OpenFile(path string, flag int, perm fs.FileMode) (*os.File, error) {
	if err := Check(path); err != nil && !(errors.Is(err, fs.ErrNotExist) && flag&os.O_CREATE != 0) {
		return nil, err
	}
	f, err := os.OpenFile(path, flag|openFlags, perm)
	if err != nil {
		if isLoop(err) { // O_NOFOLLOW met a link made since Check
			return nil, &Error{Path: path, Err: ErrSymlink}
		}
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil {
		err = regular(path, fi)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// ReadFile returns the content of the regular file at path (a link to one
// is followed), at most max bytes: anything else, or a bigger file, is an
// *Error, found without blocking and without reading more than max+1
// bytes. A missing file is the os error (errors.Is fs.ErrNotExist).
func ReadFile(path string, max int64) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|readFlags, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &Error{Path: path, Err: ErrNotRegular, Detail: kind(fi.Mode())}
	}
	if fi.Size() > max {
		return nil, tooLarge(path, max)
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, tooLarge(path, max)
	}
	return data, nil
}

func tooLarge(path string, max int64) error {
	return &Error{Path: path, Err: ErrTooLarge, Detail: fmt.Sprintf("more than %d bytes", max)}
}
