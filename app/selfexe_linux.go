package app

import "os"

// selfExecutable is the file to start this very build from: on Linux
// /proc/self/exe, which names the running binary even after a package
// upgrade replaced (renamed over or deleted) the file at exe, so the UI
// process is always of the app's build. exe if /proc is not mounted.
func selfExecutable(exe string) string {
	const self = "/proc/self/exe"
	if _, err := os.Stat(self); err != nil {
		return exe
	}
	return self
}
