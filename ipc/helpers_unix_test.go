//go:build !windows

package ipc

import (
	"net"
	"os"
	"path/filepath"
	"testing"
)

// testEndpoint returns a socket path in a fresh private directory, short
// enough for sun_path (t.TempDir() paths can exceed it).
func testEndpoint(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "fb")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return filepath.Join(dir, "feedback.sock")
}

// listenPlain listens at path without Listen's checks (fakes and raw peers).
func listenPlain(path string) (net.Listener, error) { return net.Listen("unix", path) }

// dialPlain connects to path without the client's checks.
func dialPlain(path string) (net.Conn, error) { return net.Dial("unix", path) }
