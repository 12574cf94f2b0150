package display

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestXAddrs(t *testing.T) {
	abstract := []string{}
	if runtime.GOOS == "linux" {
		abstract = []string{"@/tmp/.X11-unix/X7"}
	}
	for _, tc := range []struct {
		display, network string
		addrs            []string
		bad              bool
	}{
		{display: ":7", network: "unix", addrs: append(abstract, "/tmp/.X11-unix/X7")},
		{display: "unix:7.0", network: "unix", addrs: append(abstract, "/tmp/.X11-unix/X7")},
		{display: "localhost:10.0", network: "tcp", addrs: []string{"localhost:6010"}},
		{display: "[::1]:1", network: "tcp", addrs: []string{"[::1]:6001"}},
		{display: "/private/tmp/launch-x/org.xquartz:0", network: "unix", addrs: []string{"/private/tmp/launch-x/org.xquartz:0"}},
		{display: "nonsense", bad: true},
		{display: ":x", bad: true},
	} {
		network, addrs, err := xAddrs(tc.display)
		if tc.bad {
			if err == nil {
				t.Errorf("%q: no error", tc.display)
			}
			continue
		}
		if err != nil || network != tc.network || !reflect.DeepEqual(addrs, tc.addrs) {
			t.Errorf("%q: %s %q %v; want %s %q", tc.display, network, addrs, err, tc.network, tc.addrs)
		}
	}
}

// A DISPLAY whose X server is gone is reported at once, as ErrDead
// matching ErrNone, naming DISPLAY; a live one passes.
func TestProbeX11(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("Linux only")
	}
	start := time.Now()
	err := probeX11(":4093", time.Second) // nobody runs display 4093
	if !errors.Is(err, ErrDead) || !errors.Is(err, ErrNone) || !strings.Contains(err.Error(), `DISPLAY=":4093"`) {
		t.Fatalf("probe of a dead display = %v", err)
	}
	if d := time.Since(start); d > 500*time.Millisecond {
		t.Errorf("took %v", d)
	}
	// A listening socket at a path-style DISPLAY stands in for a live server.
	dir, err := os.MkdirTemp("", "x") // short: socket paths are limited
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	sock := filepath.Join(dir, "s:3")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if err := probeX11(sock, time.Second); err != nil {
		t.Errorf("probe of a live socket = %v", err)
	}
}
