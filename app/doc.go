// Package app is the tray-resident feedback application: the inbox of open
// questions, the window for each, the tray menu, settings and the socket
// server that callers ask through.
//
// The inbox (inbox.go) is independent of Fyne: it talks to the UI through the
// Presenter interface, so the resident core can be tested, and later run,
// without the GUI driver. ui.go is the Fyne side.
//
// Persistence (persist.go): questions, drafts and answers are kept in a
// SQLite database (package store) at $FEEDBACK_DB, else
// $XDG_DATA_HOME/feedback/feedback.db (~/.local/share/feedback/feedback.db);
// FEEDBACK_DB=off keeps them in memory only. A database that cannot be
// opened (locked by another process, unreadable) is logged once and the app
// runs without it; a corrupt one is moved aside by the store. The inbox
// reaches the database only through a recorder goroutine, so a slow or
// locked database never holds up a window or the Fyne goroutine.
package app
