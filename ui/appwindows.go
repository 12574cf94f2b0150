package ui

import (
	"log/slog"

	"fyne.io/fyne/v2"

	"feedback/core"
	"feedback/mcpshim"
	"feedback/settings"
	"feedback/ui/historywin"
	"feedback/ui/settingswin"
)

// appWindowMakers make the app's own windows that the core opens by name
// (core.UIOpenWindow), on the Fyne goroutine. Each window reports when it
// closes through closed, so the UI process knows it may linger and exit.
var appWindowMakers = map[string]func(s *server, m core.UIMsg, closed func()) fyne.Window{
	"settings": func(s *server, _ core.UIMsg, closed func()) fyne.Window {
		path, err := settings.Path()
		if err != nil {
			s.log.Error("no settings file to edit", "err", err)
			return nil
		}
		return settingswin.New(s.app, settingswin.Options{Path: path, Tools: mcpshim.ToolNames(), OnClosed: closed}).Fyne()
	},
	"history": func(s *server, _ core.UIMsg, closed func()) fyne.Window {
		return historywin.New(s.app, historywin.Options{DBPath: core.DatabasePath("", slog.New(slog.DiscardHandler)), OnClosed: closed}).Fyne()
	},
	core.UIWindowNote: func(s *server, m core.UIMsg, closed func()) fyne.Window { // note.go
		return noteWindow(s.app, m.NoteChoices, func(n core.UINote) { s.send(core.UIMsg{Type: core.UIEventNote, Note: &n}) }, closed)
	},
}

// openAppWindow shows the app window m names, or raises it if it is open
// already, and reports how many app windows are open.
func (s *server) openAppWindow(m core.UIMsg) {
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
	s.send(core.UIMsg{Type: core.UIEventAppWindows, Open: len(s.appWins)})
}
