package app

import (
	"log/slog"
	"sync/atomic"
	"time"

	"feedback/app/store"
	"feedback/internal/settings"
	"feedback/ipc/uiproto"
)

// live is what the running app's settings go to: each part takes its own
// (through an interface, so that a test sees what each was handed).
type live struct {
	ui interface {
		SetLinger(time.Duration)
		SetSleep(bool)
		SetSettings(uiproto.Settings)
	}
	questions interface{ SetDefaultTimeout(time.Duration) }
	dnd       interface{ SetSchedule(string) error }
	away      interface {
		setAway(mode string, after time.Duration)
	}
	sound   interface{ setSound(bool) }
	retain  interface{ Update(store.Retention) }
	prewarm *atomic.Bool // the shims' greeting starts the UI process (ui_prewarm)
	log     *slog.Logger
}

// apply hands s to every part of the running app: once at start, before a
// window can open or the last run's questions come back, and again on each
// change of settings.json. It is the one place a setting of the app is
// applied: TestApplyHandsOnEverySetting fails on a field of
// settings.Settings that it hands to no part and that is not another
// process's (notTheApps).
func (l live) apply(s settings.Settings) {
	l.ui.SetLinger(lingerOf(s))
	l.ui.SetSleep(s.UISleep)
	l.ui.SetSettings(*uiSettings(s))
	// The inbox owns every window's deadline (app/core/windows.go): the
	// countdown of a question that sets none.
	l.questions.SetDefaultTimeout(s.DefaultTimeout())
	if err := l.dnd.SetSchedule(s.DNDSchedule); err != nil {
		l.log.Warn("do not disturb schedule ignored", "err", err)
	}
	l.away.setAway(s.Away, time.Duration(s.AwayAfterMinutes)*time.Minute)
	l.sound.setSound(s.Sound)
	l.retain.Update(retention(s))
	l.prewarm.Store(s.UIPrewarm)
}

// notTheApps are the settings the running app has nothing to do with, and
// who takes each instead.
var notTheApps = map[string]string{
	"PromptSuffix":       "the shim (feedback mcp)",
	"ResubmitPrompt":     "the shim",
	"PendingWaitSeconds": "the shim",
	"Tools":              "the shim",
	"WaitSeconds":        "the shim",
	"MaxWaitSeconds":     "the shim",
	"StartAtLogin":       "cmd/feedback, as the app starts (applyStartAtLogin)",
}
