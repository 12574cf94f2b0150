//go:build windows

package ipc

import (
	"net"
	"testing"

	"github.com/Microsoft/go-winio"
)

// testEndpoint returns a pipe name no other test or process uses.
func testEndpoint(*testing.T) string { return testPipe() }

// listenPlain listens at path without Listen's checks (fakes and raw peers).
func listenPlain(path string) (net.Listener, error) { return winio.ListenPipe(path, nil) }

// dialPlain connects to path without the client's checks.
func dialPlain(path string) (net.Conn, error) { return winio.DialPipe(path, nil) }
