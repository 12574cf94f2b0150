// Package supervisor runs the UI process for the resident app: UIProcess
// is the inbox's Presenter (package core) and owns only the process
// — `feedback ui`, the Fyne app that draws the windows (package
// uiprocess). It starts it when a window needs it (outside its lock),
// speaks the UI protocol (package uiproto) to it over a private channel
// (an inherited socket), checks that its Hello is of the app's build and
// protocol (one of another build, as after an upgrade replaced the binary,
// is ended and not restarted), pings it, lets it linger, sleep or exit
// after its last window, and restarts it if it dies, asking the inbox
// what to show again (core.WindowOwner.Reshow: every shown window with its
// latest draft and its countdown). It keeps no window, draft or deadline:
// those are the inbox's. Its timers run on one clock (Options.Clock).
package supervisor
