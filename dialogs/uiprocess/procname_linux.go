package uiprocess

import (
	"os"
	"path/filepath"
	"unsafe"

	"golang.org/x/sys/unix"
)

// nameProcess gives this process its binary's name (argv[0]'s) in ps, top
// and pgrep: the app starts it from /proc/self/exe, which would name it
// "exe".
func nameProcess() {
	if len(os.Args) == 0 {
		return
	}
	name, err := unix.BytePtrFromString(filepath.Base(os.Args[0]))
	if err == nil {
		unix.Prctl(unix.PR_SET_NAME, uintptr(unsafe.Pointer(name)), 0, 0, 0)
	}
}
