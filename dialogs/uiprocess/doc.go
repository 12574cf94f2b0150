// Package uiprocess is the UI process (`feedback ui`), the one process that links
// Fyne: the resident app starts it (core.UIProcess) over a private channel
// it inherits (channel_unix.go, channel_windows.go) and speaks package
// uiproto to it. Serve greets the app with its build, takes the settings,
// then shows the question windows the app asks for (package dialogs, a pool
// kept warm between questions) and the app's own windows — History, Settings
// and the note to an agent (appwindows.go, dialogs/historywin,
// dialogs/settingswin) — and reports every draft, countdown and outcome
// back. It opens none of the app's files: History's pages and the settings
// to edit come from the app, and the settings' save goes to it (uiproto's
// requests: requests.go); its dependency closure holds neither the store,
// SQLite nor the settings file's code (TestUIProcessLinksNoAppState). It
// keeps no state of its own: the app owns each question and shows them
// again after this process restarts.
package uiprocess
