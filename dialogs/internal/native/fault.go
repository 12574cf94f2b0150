package native

// Fault is an X protocol error that was not fatal (a request on a resource
// — a window, a drawable… — that no longer exists), or, with Code 0, the
// news that a window of ours was destroyed (WatchXErrors).
type Fault struct {
	Resource uint32 // the resource id the error names, or the window destroyed
	Code     uint8  // the error code (BadWindow 3, BadDrawable 9…); 0: destroyed
	Request  uint8  // the major opcode of the failed request
	Minor    uint8  // its minor opcode (extension requests)
}
