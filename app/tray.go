package app

import (
	"log/slog"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"fyne.io/systray"

	"feedback/app/core"
	"feedback/app/core/dnd"
	"feedback/app/traymenu"
	"feedback/assets"
	"feedback/internal/userdirs"
	"feedback/ipc/uiproto"
	"feedback/ipc/wire"
)

// startTray shows the tray icon and its menu of open questions through
// fyne.io/systray (StatusNotifierItem over the session D-Bus on Linux) — no
// GUI toolkit in the resident process. Without a session bus or a tray host
// (unreachable, trayHostReachable's error) the app runs without it. The
// returned function removes the icon.
func startTray(p *parts, unreachable error, quit func(), log *slog.Logger) (end func()) {
	if unreachable != nil {
		log.Warn("running without a tray icon", "reason", unreachable)
		return func() {}
	}
	inbox := p.inbox
	t := &tray{p: p, inbox: inbox, quit: quit, log: log, updates: make(chan struct{}, 1)}
	ready := make(chan struct{})
	start, stop := systray.RunWithExternalLoop(func() { close(ready) }, nil)
	start()
	<-ready
	systray.SetTitle(assets.AppName)
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
			t.mu.Lock()
			if t.refresh != nil {
				t.refresh.Stop()
			}
			t.mu.Unlock()
			stop()
		})
	}
}

// dndStore is where do not disturb is kept: $XDG_STATE_HOME/feedback/dnd.json
// (userdirs' State), or nil when that is unknown.
func dndStore(log *slog.Logger) dnd.Store {
	dirs, err := userdirs.Current()
	if err != nil {
		log.Warn("do not disturb is not kept across restarts", "err", err)
		return nil
	}
	return dndFile(filepath.Join(dirs.State, "dnd.json"))
}

// tray is the tray icon and menu. render runs on the follow goroutine only.
type tray struct {
	p       *parts // what it shows and acts on
	inbox   *core.Inbox
	quit    func()
	log     *slog.Logger
	mu      sync.Mutex    // guards pending and refresh
	pending func()        // the latest update, run by follow
	refresh *time.Timer   // rebuilds the view when a label changes by itself
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
				t.safely(f)
			}
		}
	}
}

// safely runs f, a change of the tray. fyne.io/systray panics when the
// session bus it draws on fails (prop.SetMust: "write: broken pipe" once
// the session's D-Bus is gone, as the app itself ends with its session):
// a tray that cannot be drawn must not take the app, and the answers it is
// delivering, down with it.
func (t *tray) safely(f func()) {
	defer func() {
		if r := recover(); r != nil {
			t.log.Warn("the tray could not be updated", "err", r)
		}
	}()
	f()
}

// render shows the tray's view of items and do not disturb (traymenu.Tray):
// the icon with their count, the tooltip and the menu; it rebuilds the view
// again when an age or the end of do not disturb changes a label.
func (t *tray) render(items []core.Item) {
	v := traymenu.Tray(traymenu.TrayInput{Items: items, Messages: t.p.messages.Recent(), Away: t.p.away.State(), DND: t.p.quiet.State(), Now: time.Now(), History: true, Settings: true, Note: true})
	if runtime.GOOS == "windows" {
		systray.SetIcon(assets.TrayIconICO(v.Count, v.DND))
	} else {
		systray.SetIcon(assets.TrayIcon(v.Count, v.DND))
	}
	systray.SetTooltip(v.Tooltip)
	systray.ResetMenu()
	t.add(nil, v.Menu)
	t.mu.Lock()
	if t.refresh != nil {
		t.refresh.Stop()
		t.refresh = nil
	}
	if v.Refresh > 0 {
		t.refresh = time.AfterFunc(v.Refresh, func() { t.post(func() { t.render(t.inbox.Items()) }) })
	}
	t.mu.Unlock()
}

// add adds es to the menu, under parent (nil: the top level).
func (t *tray) add(parent *systray.MenuItem, es []traymenu.MenuEntry) {
	for _, e := range es {
		if e.Separator {
			if parent == nil {
				systray.AddSeparator()
			} else {
				parent.AddSeparator()
			}
			continue
		}
		label := traymenu.MenuLabel(runtime.GOOS, e.Label)
		var it *systray.MenuItem
		switch {
		case parent == nil && e.Checkable:
			it = systray.AddMenuItemCheckbox(label, "", e.Checked)
		case parent == nil:
			it = systray.AddMenuItem(label, "")
		case e.Checkable:
			it = parent.AddSubMenuItemCheckbox(label, "", e.Checked)
		default:
			it = parent.AddSubMenuItem(label, "")
		}
		if !e.Enabled {
			it.Disable()
		}
		t.add(it, e.Children)
		act := t.action(e.Action)
		if act == nil {
			continue
		}
		go func() { // Remove (ResetMenu) closes the channel: the goroutine ends
			for range it.ClickedCh {
				act()
			}
		}()
	}
}

// action is what a click on an entry doing a does; nil for nothing.
func (t *tray) action(a traymenu.MenuAction) func() {
	switch a.Kind {
	case traymenu.ActionRaise:
		// A question held back by do not disturb opens; any other is raised.
		return func() { t.inbox.Raise(a.Question) }
	case traymenu.ActionDND:
		return func() {
			if err := t.p.quiet.Set(a.DND); err != nil {
				t.log.Warn("do not disturb", "err", err)
			}
		}
	case traymenu.ActionHistory:
		return func() { t.p.ui.OpenWindow(uiproto.WindowHistory) }
	case traymenu.ActionSettings:
		return func() { t.p.ui.OpenWindow(uiproto.WindowSettings) }
	case traymenu.ActionNote: // the choices come from the database: off the menu's goroutine
		return func() { go t.p.ui.OpenNoteWindow(t.p.notes.Choices()) }
	case traymenu.ActionSnooze:
		return func() {
			s := wire.Snooze{UntilBack: a.UntilBack}
			if !a.UntilBack {
				s.Until = time.Now().Add(time.Duration(a.SnoozeMinutes) * time.Minute)
			}
			go func() { // each window closes through the UI process: off the menu's goroutine
				if a.Question == "" {
					t.p.snoozes.SnoozeAll(s)
				} else {
					t.p.snoozes.Snooze(a.Question, s)
				}
			}()
		}
	case traymenu.ActionQuit:
		return func() { go t.quit() }
	}
	return nil
}
