//go:build !windows

package setup

import "errors"

// errNoRegistry: the Run key exists only on Windows (reached when Env.GOOS
// says windows on another system, as in tests).
var errNoRegistry = errors.New("the Windows Run key can only be changed on Windows")

func runKeyGet(string) (string, bool, error) { return "", false, errNoRegistry }
func runKeySet(string, string) error         { return errNoRegistry }
func runKeyDelete(string) error              { return errNoRegistry }
