//go:build linux && cgo && !ci

package dialogs

// #include <malloc.h>
import "C"

func init() { trimCHeap = func() { C.malloc_trim(0) } }
