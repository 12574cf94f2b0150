// Package app is the resident feedback process that `feedback` starts and
// the shims start when it is not running: it listens on the per-user
// socket, keeps the inbox and the database (package core), shows the tray
// icon through fyne.io/systray, and starts the UI process (package uiprocess,
// `feedback ui`) when a question needs a window. It links no GUI toolkit
// code it runs: while no window is open it has no driver ticking.
package app
