//go:build !unix

package markdown

import "os"

// openNoFollow opens a file for reading. Windows has no FIFOs to block on
// open; readImageFile checks the open file again.
func openNoFollow(path string) (*os.File, error) {
	return os.Open(path)
}
