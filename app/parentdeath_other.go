//go:build unix && !linux

package app

import "os/exec"

// dieWithParent reports false: without Linux's parent-death signal a
// stopped UI process would stay behind a killed app, so it never sleeps.
func dieWithParent(*exec.Cmd) bool { return false }
