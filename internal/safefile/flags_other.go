//go:build !unix

package safefile

// Windows has neither O_NOFOLLOW nor FIFOs in the file system: Check's
// Lstat before the open is the guard against a link there.
const (
	openFlags = 0
	readFlags = 0
)

func isLoop(error) bool { return false }
