//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package ipc

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Listen listens on the Unix socket at path, for the current user only.
//
// The parent directory is created (0700) if missing. It must be dedicated to
// the socket: Listen refuses (with an *EndpointError) a directory that is a
// symbolic link, that is owned by another user, or that is shared with
// everyone (world-writable or sticky, like /tmp), and makes one of ours that
// is group- or other-accessible private (0700), through a descriptor opened
// with O_NOFOLLOW, so a link swapped in never makes it change another
// directory. A file already at path is dialled first: if something answers,
// Listen returns an error wrapping ErrAlreadyRunning; if not, the stale socket
// is removed. A file at path that is not a socket is never removed. The
// socket is made 0600.
//
// Concurrent Listens on one path (two apps started at once) are serialised by
// a lock file next to the socket, so exactly one wins and the others get
// ErrAlreadyRunning.
//
// Where the system tells a peer's credentials (SO_PEERCRED on Linux,
// LOCAL_PEERCRED on macOS and FreeBSD), Accept closes (and skips) connections
// from other users; a Server serving the listener logs them. Close removes
// the socket file if it is still the one this listener created.
func Listen(path string) (net.Listener, error) {
	if err := checkPathLen(path); err != nil {
		return nil, err
	}
	uid := os.Getuid()
	if err := privateDir(filepath.Dir(path), uid, filepath.Base(path)); err != nil {
		return nil, err
	}
	unlock, err := lockFor(path)
	if err != nil {
		return nil, err
	}
	defer unlock()

	if err := removeStale(path); err != nil {
		return nil, err
	}
	ul, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return nil, fmt.Errorf("ipc: listen on %s: %w", path, err)
	}
	ul.SetUnlinkOnClose(false) // Close unlinks only a socket that is still ours
	fail := func(err error) (net.Listener, error) {
		ul.Close()
		os.Remove(path)
		return nil, err
	}
	// The directory is private, so the socket is never reachable by others
	// before this chmod; it only documents the intent and survives a move.
	if err := os.Chmod(path, 0o600); err != nil {
		return fail(fmt.Errorf("ipc: %w", err))
	}
	fi, err := os.Lstat(path)
	if err != nil {
		return fail(fmt.Errorf("ipc: %w", err))
	}
	return &listener{ul: ul, path: path, file: fi, uid: uid}, nil
}

// privateDir makes sure dir exists, is a real directory owned by uid and not
// shared, and is private (see Listen). The checks and the chmod go through a
// descriptor opened with O_NOFOLLOW: a symbolic link is refused, never
// followed. A directory that others may read is made private only when it
// holds nothing but the socket named socket (and its lock): one that holds
// other files is someone's (FEEDBACK_SOCKET=$HOME/feedback.sock, or / as
// root), and changing its mode would change who may read them.
func privateDir(dir string, uid int, socket string) error {
	fi, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return fmt.Errorf("ipc: create socket directory: %w", err)
		}
	} else if err != nil {
		return fmt.Errorf("ipc: %w", err)
	} else if fi.Mode()&fs.ModeSymlink != 0 {
		return symlinkError(dir)
	}
	f, err := os.OpenFile(dir, os.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW, 0)
	if err != nil {
		if fi, lerr := os.Lstat(dir); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return symlinkError(dir) // swapped in since the Lstat above
		}
		return fmt.Errorf("ipc: open socket directory: %w", err)
	}
	defer f.Close()
	if fi, err = f.Stat(); err != nil {
		return fmt.Errorf("ipc: %w", err)
	}
	if err := trustedDir(dir, fi, uid); err != nil {
		return err
	}
	if fi.Mode().Perm()&0o077 != 0 {
		names, err := f.Readdirnames(-1)
		if err != nil {
			return fmt.Errorf("ipc: read socket directory: %w", err)
		}
		for _, n := range names {
			if n != socket && n != socket+".lock" {
				return &EndpointError{Path: dir, Owner: -1,
					Reason: fmt.Sprintf("the socket directory is readable by others (mode %v) and holds other files (%s): "+
						"give the socket a directory of its own, which feedback makes private (say %s in a new folder), or leave %s unset",
						fi.Mode().Perm(), n, filepath.Join(dir, "feedback", socket), EnvSocket)}
			}
		}
		if err := f.Chmod(0o700); err != nil { // fchmod: the directory checked above
			return fmt.Errorf("ipc: make socket directory private: %w", err)
		}
	}
	return nil
}

// trustedDir checks what both Listen and a client require of the socket
// directory dir, described by fi (from lstat or fstat): a real directory,
// owned by uid, not shared with everyone.
func trustedDir(dir string, fi fs.FileInfo, uid int) error {
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		return symlinkError(dir)
	case !fi.IsDir():
		return &EndpointError{Path: dir, Owner: -1,
			Reason: fmt.Sprintf("the socket directory is not a directory (mode %v)", fi.Mode())}
	}
	if owner := fileOwner(fi); owner != uid {
		return &EndpointError{Path: dir, Owner: owner,
			Reason: fmt.Sprintf("the socket directory is owned by uid %d, not by you (uid %d); %s", owner, uid, untrustedHint)}
	}
	if fi.Mode()&fs.ModeSticky != 0 || fi.Mode().Perm()&0o002 != 0 {
		return &EndpointError{Path: dir, Owner: -1,
			Reason: fmt.Sprintf("the socket directory is shared (mode %v); the socket needs a directory of its own: set XDG_RUNTIME_DIR or %s", fi.Mode(), EnvSocket)}
	}
	return nil
}

func symlinkError(dir string) error {
	return &EndpointError{Path: dir, Owner: -1,
		Reason: "the socket directory is a symbolic link, which is never followed; " + untrustedHint}
}

// fileOwner returns the uid that owns fi's file, or -1 if the system does
// not say.
func fileOwner(fi fs.FileInfo) int {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return int(st.Uid)
	}
	return -1
}

// verifyEndpoint checks, before a client dials path, that only uid can
// control what listens there: the directory as trustedDir requires; then, if
// a socket is there, the directory private (no group or other permission
// bits) and the socket a socket owned by uid. A missing directory or socket
// is returned as the lstat error (ENOENT: the app is not running; the app
// creates or fixes its own directory when it starts).
func verifyEndpoint(path string, uid int) error {
	dir := filepath.Dir(path)
	di, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("ipc: %w", err)
	}
	if err := trustedDir(dir, di, uid); err != nil {
		return err
	}
	si, err := os.Lstat(path)
	if err != nil {
		return fmt.Errorf("ipc: %w", err)
	}
	if di.Mode().Perm()&0o077 != 0 {
		return &EndpointError{Path: dir, Owner: -1,
			Reason: fmt.Sprintf("the socket directory is open to other users (mode %v); it must be private: chmod 700 %s", di.Mode(), dir)}
	}
	if si.Mode().Type() != fs.ModeSocket {
		return &EndpointError{Path: path, Owner: -1,
			Reason: fmt.Sprintf("it is not a socket (mode %v)", si.Mode())}
	}
	if owner := fileOwner(si); owner != uid {
		return &EndpointError{Path: path, Owner: owner,
			Reason: fmt.Sprintf("the socket is owned by uid %d, not by you (uid %d); %s", owner, uid, untrustedHint)}
	}
	return nil
}

// dialEndpoint connects to the socket at path.
func dialEndpoint(ctx context.Context, path string) (net.Conn, error) {
	var d net.Dialer
	return d.DialContext(ctx, "unix", path)
}

// lockFor takes an exclusive lock on path+".lock", which serialises the
// check-remove-bind of Listen and the check-remove of Close between
// processes. The lock file is never removed: removing it would reopen the race.
func lockFor(path string) (unlock func(), err error) {
	f, err := os.OpenFile(path+".lock", os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("ipc: %w", err)
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("ipc: lock %s: %w", f.Name(), err)
	}
	return func() { f.Close() }, nil // closing the only descriptor releases the lock
}

// removeStale removes a socket at path that nobody answers on.
func removeStale(path string) error {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("ipc: %w", err)
	}
	if fi.Mode().Type() != fs.ModeSocket {
		return fmt.Errorf("ipc: refusing to replace %s: it is not a socket (mode %v)", path, fi.Mode())
	}
	c, err := net.DialTimeout("unix", path, 2*time.Second)
	if err == nil {
		c.Close()
		return fmt.Errorf("%w (something answers on %s)", ErrAlreadyRunning, path)
	}
	if !errors.Is(err, syscall.ECONNREFUSED) && !errors.Is(err, syscall.ENOENT) {
		return fmt.Errorf("ipc: cannot tell whether %s is in use: %w", path, err)
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("ipc: remove stale socket: %w", err)
	}
	return nil
}

// listener is the net.Listener returned by Listen.
type listener struct {
	ul   *net.UnixListener
	path string
	file os.FileInfo // the socket file as created, to tell it from a successor's
	uid  int         // the only peer uid Accept lets through (a field, for tests)
	log  atomic.Pointer[slog.Logger]

	closeOnce sync.Once
	closeErr  error
}

// Accept returns the next connection from the listener's own user, closing
// any other on the way.
func (l *listener) Accept() (net.Conn, error) {
	for {
		c, err := l.ul.Accept()
		if err != nil {
			return nil, err
		}
		if err := checkPeer(c, l.uid); err != nil {
			if log := l.log.Load(); log != nil {
				log.Warn("ipc: refused a connection", "socket", l.path, "err", err)
			}
			c.Close()
			continue
		}
		return c, nil
	}
}

// Close stops listening and removes the socket file if it is still ours: an
// app that replaced it keeps its own.
func (l *listener) Close() error {
	l.closeOnce.Do(func() {
		l.closeErr = l.ul.Close()
		if _, err := os.Lstat(filepath.Dir(l.path)); errors.Is(err, fs.ErrNotExist) {
			return // the directory went, and the socket with it
		}
		unlock, err := lockFor(l.path)
		if err != nil {
			l.closeErr = errors.Join(l.closeErr, err)
			return
		}
		defer unlock()
		if fi, err := os.Lstat(l.path); err == nil && os.SameFile(fi, l.file) {
			if err := os.Remove(l.path); err != nil {
				l.closeErr = errors.Join(l.closeErr, err)
			}
		}
	})
	return l.closeErr
}

// Addr returns the socket's address.
func (l *listener) Addr() net.Addr { return l.ul.Addr() }

// setLogger sets where refused connections are logged.
func (l *listener) setLogger(log *slog.Logger) { l.log.Store(log) }
