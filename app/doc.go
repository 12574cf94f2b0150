// Package app is the tray-resident feedback application: the inbox of open
// questions, the window for each, the tray menu, settings and the socket
// server that callers ask through.
//
// The inbox (inbox.go) is independent of Fyne: it talks to the UI through the
// Presenter interface, so the resident core can be tested, and later run,
// without the GUI driver. ui.go is the Fyne side.
package app
