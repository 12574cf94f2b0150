package ipc

import (
	"fmt"
	"strings"
)

// The Windows endpoint is a named pipe (endpoint_windows.go). Its name and
// its security descriptor are plain strings computed here, so that they are
// unit-tested on every system.

// pipePrefix is the namespace of named pipes on the local machine.
const pipePrefix = `\\.\pipe\`

// pipePath returns the pipe the app of the user with the security
// identifier sid (as "S-1-5-21-…") listens on: one name per user, not per
// process or session, like the Unix socket in the user's runtime directory.
func pipePath(sid string) (string, error) {
	if err := checkSID(sid); err != nil {
		return "", err
	}
	return pipePrefix + "feedback-" + sid, nil
}

// pipeSDDL is the security descriptor of the pipe, in SDDL: owned by sid, and
// a protected DACL (no inherited entries) with one entry, full access for
// sid. Nobody else, not even SYSTEM or Administrators, is granted anything;
// the owner is named explicitly because an elevated process would otherwise
// make the Administrators group the owner, and clients check the owner
// (dialEndpoint).
func pipeSDDL(sid string) (string, error) {
	if err := checkSID(sid); err != nil {
		return "", err
	}
	return "O:" + sid + "D:P(A;;GA;;;" + sid + ")", nil
}

// checkSID accepts the string form of a security identifier: "S-1-", then
// numbers separated by dashes. It is what goes into a pipe name and an SDDL
// string, so nothing else may get through.
func checkSID(sid string) error {
	rest, ok := strings.CutPrefix(sid, "S-1-")
	if !ok || len(sid) > 184 || rest == "" {
		return fmt.Errorf("ipc: %q is not a security identifier (S-1-…)", sid)
	}
	for _, part := range strings.Split(rest, "-") {
		if part == "" || strings.Trim(part, "0123456789") != "" {
			return fmt.Errorf("ipc: %q is not a security identifier (S-1-…)", sid)
		}
	}
	return nil
}

// isPipePath reports whether path names a local named pipe.
func isPipePath(path string) bool {
	return len(path) > len(pipePrefix) && strings.EqualFold(path[:len(pipePrefix)], pipePrefix)
}
