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
// It is all the two processes share: the UI process opens neither the
// app's database nor the settings file, and links neither the store nor
// the settings file's code (dialogs/uiprocess's TestUIProcessLinksNoAppState
// checks its whole dependency closure). The History window pages and
// searches the database through HistoryQuery and HistoryImagesQuery, the
// Settings window reads the settings through SettingsQuery and saves its
// edits through SaveSettings, which the app checks, writes and applies
// (requests.go): each a Request the app answers with the Response of its
// number.
package uiproto
