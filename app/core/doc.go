// Package core is the toolkit-free heart of the resident app: the inbox of
// open questions and their windows, and the recorder that keeps them in a
// Store. It imports neither Fyne nor GL, no transport and no database, so
// the resident process (package app) costs nothing while no question is
// open: the windows live in a separate UI process (package uiprocess,
// `feedback ui`) that package supervisor starts when a question needs a
// window and lets go after a linger time.
//
// The inbox (inbox.go) talks to the windows through its Presenter (one
// path, with deadlines: package supervisor's UIProcess), and owns
// each question: whether its window is shown, its latest draft, its
// deadline (timed by the inbox: a window still open a grace after it is
// timed out) and whether the user saw it (windows.go). The presenter
// reports the windows' events to it (WindowOwner) and, after a restart of
// the UI process, asks it what to show again (Reshow).
//
// Persistence (persist.go): the inbox records each event of its questions
// — asked, kept open, snoozed, drafted, answered, withdrawn, delivered —
// and the agents' messages and notes in a Store, an interface it defines
// and is handed (package app adapts the SQLite database of package store
// to it; NewMemoryStore is the app without one). It reaches the Store only
// through a recorder goroutine, so a slow or locked database never holds
// up a window or a caller; one that cannot be opened leaves the app
// running in memory.
//
// One clock (Options.Clock, package clock) times everything the inbox
// times: holds, deadlines, snoozes, do not disturb, kept answers.
//
// Features (feature.go): do not disturb, snooze, away, the notes for
// agents and the agents' messages are not the inbox's; each is a type of a
// package of its own (app/core/dnd, snooze, away, notes, messages), which
// New attaches: it takes part through the Hooks it returns (hold a window
// back, answer a question at once, bring one forward, add to an outcome…)
// and acts through the narrow Host it is given, as tailscale's ipnext
// extensions extend its LocalBackend. The inbox keeps to questions and
// their windows — what a snooze does to one (it is set aside: aside.go)
// included, but not when it comes back.
//
// The tray's view (package traymenu) is a plain value built from the open
// questions and the features' states, which package app draws with
// fyne.io/systray.
package core
