// Package safefiletest helps the tests that put a FIFO, a device or a link
// where feedback keeps a file: making one, and failing a test that blocks
// on it instead of hanging the test binary. Its helpers are Unix-only; on
// other systems the package is empty.
package safefiletest
