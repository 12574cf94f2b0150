package uiprocess

import (
	"fyne.io/fyne/v2"

	"feedback/dialogs/historywin"
	"feedback/dialogs/settingswin"
	"feedback/internal/settings"
	"feedback/ipc/uiproto"
	"feedback/ipc/wire"
)

// appWindowMakers make the app's own windows that the core opens by name
// (uiproto.OpenWindow), on the Fyne goroutine. Each window reports when it
// closes through closed, so the UI process knows it may linger and exit.
var appWindowMakers = map[uiproto.WindowName]func(s *server, m uiproto.OpenWindow, closed func()) fyne.Window{
	uiproto.WindowSettings: func(s *server, _ uiproto.OpenWindow, closed func()) fyne.Window {
		path, err := settings.Path()
		if err != nil {
			s.log.Error("no settings file to edit", "err", err)
			return nil
		}
		return settingswin.New(s.app, settingswin.Options{Path: path, Tools: wire.ToolNames(), OnClosed: closed}).Fyne()
	},
	// The app sends the path of its database (only it computes it); the
	// window opens it read-only.
	uiproto.WindowHistory: func(s *server, m uiproto.OpenWindow, closed func()) fyne.Window {
		return historywin.New(s.app, historywin.Options{DBPath: m.Database, OnClosed: closed}).Fyne()
	},
	uiproto.WindowNote: func(s *server, m uiproto.OpenWindow, closed func()) fyne.Window { // note.go
		return noteWindow(s.app, m.Note, func(n uiproto.Note) { s.send(n) }, closed)
	},
}

// openAppWindow shows the app window m names, or raises it if it is open
// already, and reports how many app windows are open.
func (s *server) openAppWindow(m uiproto.OpenWindow) {
	s.keepAlive() // first: closing the window must not close the process's last one
	s.win.do(func() {
		if w, ok := s.appWins[m.Window]; ok {
			w.Show()
			w.RequestFocus()
			return
		}
		makeWin, ok := appWindowMakers[m.Window]
		if !ok {
			s.log.Warn("the core asked for an unknown window", "window", m.Window)
			s.reportAppWindows()
			return
		}
		name := m.Window
		w := makeWin(s, m, func() {
			delete(s.appWins, name)
			s.reportAppWindows()
		})
		if w == nil {
			s.reportAppWindows()
			return
		}
		s.appWins[name] = w
		w.Show()
		w.RequestFocus()
		s.reportAppWindows()
	})
}

// reportAppWindows tells the core how many app windows are open; on the
// Fyne goroutine.
func (s *server) reportAppWindows() {
	s.send(uiproto.AppWindows{Open: len(s.appWins)})
}
