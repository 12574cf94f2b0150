package uiprocess

import (
	"encoding/json"

	"fyne.io/fyne/v2"

	"feedback/dialogs"
	"feedback/dialogs/historywin"
	"feedback/dialogs/settingswin"
	"feedback/internal/settings"
	"feedback/ipc/uiproto"
	"feedback/ipc/wire"
)

// appWindowMakers make the app's own windows that the core opens by name
// (uiproto.OpenWindow). Each is called on the Fyne goroutine and calls
// show on the Fyne goroutine with its window (nil: none could be made):
// at once, or once the app answered what the window shows. Each window
// reports when it closes through closed, so the UI process knows it may
// linger and exit. None opens a file of the app's: what they show and
// save goes through the app (requests.go).
var appWindowMakers = map[uiproto.WindowName]func(s *server, m uiproto.OpenWindow, closed func(), show func(fyne.Window)){
	// The settings file's values come from the app, off the Fyne
	// goroutine; a save goes to the app, which alone writes the file.
	uiproto.WindowSettings: func(s *server, _ uiproto.OpenWindow, closed func(), show func(fyne.Window)) {
		go func() {
			values, readErr, relay, err := readSettings(s)
			s.win.do(func() {
				if err != nil {
					s.log.Error("the app did not send the settings to edit", "err", err)
					show(nil)
					return
				}
				save := func(v settings.Settings, changes map[string]json.RawMessage) (settings.Settings, string, error) {
					return saveSettings(s, v, changes)
				}
				show(settingswin.New(s.app, settingswin.Options{Values: values, ReadError: readErr, Save: save,
					Tools: wire.ToolNames(), OnClosed: closed, Relay: relay}).Fyne())
			})
		}()
	},
	// The window pages and searches the app's database through the app.
	uiproto.WindowHistory: func(s *server, _ uiproto.OpenWindow, closed func(), show func(fyne.Window)) {
		show(historywin.New(s.app, historywin.Options{Source: historySource{s}, OnClosed: closed}).Fyne())
	},
	uiproto.WindowNote: func(s *server, m uiproto.OpenWindow, closed func(), show func(fyne.Window)) { // note.go
		show(noteWindow(s.app, m.Note, func(n uiproto.Note) { s.send(n) }, closed))
	},
}

// openAppWindow shows the app window m names, or raises it if it is open
// already, and reports how many app windows are open (one being made
// counts: the process must not linger out meanwhile).
func (s *server) openAppWindow(m uiproto.OpenWindow) {
	s.keepAlive() // first: closing the window must not close the process's last one
	s.win.do(func() {
		if w, ok := s.appWins[m.Window]; ok {
			if w != nil { // nil: being made
				w.Show()
				w.RequestFocus()
			}
			return
		}
		makeWin, ok := appWindowMakers[m.Window]
		if !ok {
			s.log.Warn("the core asked for an unknown window", "window", m.Window)
			s.reportAppWindows()
			return
		}
		name := m.Window
		s.appWins[name] = nil
		makeWin(s, m, func() {
			delete(s.appWins, name)
			s.reportAppWindows()
		}, func(w fyne.Window) {
			if w == nil {
				delete(s.appWins, name)
				s.reportAppWindows()
				return
			}
			s.appWins[name] = w
			w.Show()
			dialogs.CentreOnUsersMonitor(w) // where the user works, as questions open
			w.RequestFocus()
			s.reportAppWindows()
		})
		if w, ok := s.appWins[name]; ok && w == nil {
			s.reportAppWindows() // being made
		}
	})
}

// reportAppWindows tells the core how many app windows are open; on the
// Fyne goroutine.
func (s *server) reportAppWindows() {
	s.send(uiproto.AppWindows{Open: len(s.appWins)})
}
