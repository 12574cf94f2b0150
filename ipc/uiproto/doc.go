// Package uiproto is the protocol between the resident app and its UI
// process: typed commands (app → UI process) and typed events (UI process →
// app), one JSON object a line, each an envelope {"type": …, "body": …},
// over a private channel the UI process inherits at its start (a socketpair
// on Unix, its standard input and output on Windows).
//
// The UI process's first event is Hello, carrying the protocol Version and
// the build it is; the app checks it (CheckHello) before it sends a
// command, and ends a UI process of another build. It imports only wire
// and the standard library, and does no I/O beyond the channel it is given.
// It is all the two processes say to each other; besides it they share two
// files: the UI process reads the app's database for the History window
// (at the path the app sends, uiproto.OpenWindow) and the Settings window
// reads and saves the settings file, which the app watches and applies.
package uiproto
