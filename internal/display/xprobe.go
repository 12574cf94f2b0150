package display

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// xProbeWait bounds the look at the X server: a live one accepts at once.
const xProbeWait = 2 * time.Second

// ErrDead: DISPLAY names an X server that does not answer (it
// exited, or the variable is stale). It matches ErrNone, so callers
// fall back at once instead of starting an app that cannot show anything.
var ErrDead = errors.New("no X server answers at DISPLAY")

// Check is EnvError plus, for the X11 build, a connection to the
// X server that DISPLAY names, in pure Go and before any GUI code runs
// (GLFW would panic: "the GLFW library is not initialized"). It returns an
// error matching ErrNone (and ErrDead for a dead server) that
// names DISPLAY and what failed.
func Check() error {
	if err := EnvError(); err != nil {
		return err
	}
	switch runtime.GOOS {
	case "linux", "freebsd", "openbsd", "netbsd":
	default:
		return nil
	}
	if NativeWayland {
		return nil
	}
	return probeX11(os.Getenv("DISPLAY"), xProbeWait)
}

// probeX11 connects to the X server of display (a DISPLAY value:
// [host]:number[.screen], unix:number, or a socket path ending in
// :number) and hangs up.
func probeX11(display string, wait time.Duration) error {
	network, addrs, err := xAddrs(display)
	if err != nil {
		return &deadDisplay{display: display, err: err}
	}
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	var d net.Dialer
	var last error
	for _, a := range addrs {
		c, err := d.DialContext(ctx, network, a)
		if err == nil {
			c.Close()
			return nil
		}
		last = err
	}
	return &deadDisplay{display: display, err: last}
}

// xAddrs returns where the X server of display listens, in the order Xlib
// tries them.
func xAddrs(display string) (network string, addrs []string, err error) {
	i := strings.LastIndex(display, ":")
	if i < 0 {
		return "", nil, errors.New("DISPLAY has no :number")
	}
	host, num := display[:i], display[i+1:]
	if dot := strings.IndexByte(num, '.'); dot >= 0 {
		num = num[:dot]
	}
	n, err := strconv.Atoi(num)
	if err != nil || n < 0 {
		return "", nil, fmt.Errorf("display number %q is not a number", num)
	}
	switch {
	case strings.HasPrefix(host, "/"): // a socket path (XQuartz's launchd)
		return "unix", []string{display}, nil
	case host == "" || host == "unix":
		path := "/tmp/.X11-unix/X" + num
		addrs = []string{path}
		if runtime.GOOS == "linux" {
			addrs = append([]string{"@" + path}, addrs...) // the abstract socket first, as Xlib does
		}
		return "unix", addrs, nil
	default:
		host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
		return "tcp", []string{net.JoinHostPort(host, strconv.Itoa(6000+n))}, nil
	}
}

// deadDisplay is ErrDead with DISPLAY and the reason.
type deadDisplay struct {
	display string
	err     error
}

func (e *deadDisplay) Error() string {
	return fmt.Sprintf("%v (DISPLAY=%q: %v): is the X session still running? Set DISPLAY to a live one", ErrDead, e.display, e.err)
}

func (e *deadDisplay) Is(target error) bool {
	return target == ErrNone || target == ErrDead
}

func (e *deadDisplay) Unwrap() error { return e.err }

// Probe connects to the X server that display (a DISPLAY value)
// names and hangs up, within 2 s: nil when one answers, or for the Wayland
// build (which does not use X); else an error matching ErrDead that
// names DISPLAY and what failed. feedback doctor uses it.
func Probe(display string) error {
	if NativeWayland {
		return nil
	}
	return probeX11(display, xProbeWait)
}
