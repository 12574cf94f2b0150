package app

import (
	"fmt"
	"log/slog"
	"runtime"
	"sync"

	"fyne.io/systray"

	"feedback/assets"
	"feedback/core"
)

// startTray shows the tray icon and its menu of open questions through
// fyne.io/systray (StatusNotifierItem over the session D-Bus on Linux) — no
// GUI toolkit in the resident process. Without a session bus or a tray host
// the app runs without it. The returned function removes the icon.
func startTray(inbox *core.Inbox, ui *core.UIProcess, quit func(), log *slog.Logger) (end func()) {
	if err := trayHostReachable(); err != nil {
		log.Warn("running without a tray icon", "reason", err)
		return func() {}
	}
	t := &tray{ui: ui, quit: quit, log: log, updates: make(chan struct{}, 1)}
	ready := make(chan struct{})
	start, stop := systray.RunWithExternalLoop(func() { close(ready) }, nil)
	start()
	<-ready
	systray.SetTitle("feedback")
	t.render(nil)
	done := make(chan struct{})
	go t.follow(inbox, done)
	// The menu is built from the inbox's state when the update runs: a
	// burst of changes coalesces into one rebuild of the latest state.
	inbox.OnChange(func(f func()) { t.post(f) }, func(items []core.Item) { t.render(items) })
	var once sync.Once
	return func() {
		once.Do(func() {
			close(done)
			stop()
		})
	}
}

// tray is the tray icon and menu. render runs on the follow goroutine only.
type tray struct {
	ui      *core.UIProcess
	quit    func()
	log     *slog.Logger
	mu      sync.Mutex
	pending func()        // the latest update, run by follow
	updates chan struct{} // wakes follow
}

// post queues f as the update to run, replacing one not yet run.
func (t *tray) post(f func()) {
	t.mu.Lock()
	t.pending = f
	t.mu.Unlock()
	select {
	case t.updates <- struct{}{}:
	default:
	}
}

// follow runs the posted updates, one at a time, until done.
func (t *tray) follow(inbox *core.Inbox, done chan struct{}) {
	for {
		select {
		case <-done:
			return
		case <-t.updates:
			t.mu.Lock()
			f := t.pending
			t.pending = nil
			t.mu.Unlock()
			if f != nil {
				f()
			}
		}
	}
}

// render shows items: the icon with their count, the tooltip and the menu.
func (t *tray) render(items []core.Item) {
	n := len(items)
	if runtime.GOOS == "windows" {
		systray.SetIcon(assets.TrayIconICO(n, false))
	} else {
		systray.SetIcon(assets.TrayIcon(n, false))
	}
	systray.SetTooltip(trayTooltip(n))
	systray.ResetMenu()
	for _, e := range trayEntries(items) {
		if e.separator {
			systray.AddSeparator()
			continue
		}
		it := systray.AddMenuItem(e.label, "")
		if e.action == nil {
			it.Disable()
			continue
		}
		act := e.action(t)
		go func() { // Remove (ResetMenu) closes the channel: the goroutine ends
			for range it.ClickedCh {
				act()
			}
		}()
	}
}

// trayTooltip is the icon's tooltip for n waiting questions.
func trayTooltip(n int) string {
	switch n {
	case 0:
		return "feedback — no questions waiting"
	case 1:
		return "feedback — 1 question waiting"
	}
	return fmt.Sprintf("feedback — %d questions waiting", n)
}

// trayEntry is one line of the tray menu.
type trayEntry struct {
	label     string
	separator bool
	action    func(*tray) func() // nil: disabled
}

// trayEntries is the tray menu for the open questions: each raises its
// window; then Quit.
func trayEntries(items []core.Item) []trayEntry {
	var es []trayEntry
	if len(items) == 0 {
		es = append(es, trayEntry{label: "No open questions"})
	}
	for _, it := range items {
		id := it.ID
		label := it.Title
		if it.Client != "" {
			label = fmt.Sprintf("%s (%s)", label, it.Client)
		}
		es = append(es, trayEntry{label: label, action: func(t *tray) func() { return func() { t.ui.Focus(id) } }})
	}
	es = append(es, trayEntry{separator: true},
		trayEntry{label: "Quit", action: func(t *tray) func() { return func() { go t.quit() } }})
	return es
}
