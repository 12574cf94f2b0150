package doctor

import (
	"context"
	"errors"
	"fmt"

	"feedback/internal/display"
	"feedback/internal/hotkey"
	"feedback/internal/hotkey/xgrab"
	"feedback/internal/settings"
	"feedback/internal/settings/settingsfile"
)

// checkShortcut says whether the global shortcut that brings a waiting
// question (focus_shortcut) works on this desktop: a question window never
// takes the keyboard by itself, so without it the user comes to a question
// by a click, the notification or the tray.
func checkShortcut(_ context.Context, e Env) []Result {
	r := Result{Check: "shortcut"}
	const without = "come to a question by clicking its window, its notification's Open or the tray's entry"
	sc, ok, err := shortcutSetting(e)
	switch {
	case e.Headless, desktopOS(e.GOOS) && e.Getenv("DISPLAY") == "" && e.Getenv("WAYLAND_DISPLAY") == "":
		return nil // no windows here (the display check says why)
	case err != nil:
		r.Level, r.Msg, r.Fix = Warn, err.Error(), "fix focus_shortcut in the settings (e.g. "+hotkey.Default+"), or set it to \"\" to go without"
	case !ok:
		r.Msg = "none (focus_shortcut is empty): " + without
	case !desktopOS(e.GOOS):
		r.Level, r.Msg, r.Fix = Warn, "feedback has no global shortcut on "+e.GOOS+" yet", without
	case display.NativeWayland || e.Getenv("DISPLAY") == "":
		// Nothing to fix: the platform's way; it is said all the same.
		r.Msg = "Wayland gives applications no global shortcuts (" + sc.String() + " does nothing there): " + without
	case e.ProbeShortcut == nil:
		r.Msg = fmt.Sprintf("%s brings the waiting question (not probed)", sc)
	default:
		switch err := e.ProbeShortcut(sc); {
		case err == nil:
			r.Msg = fmt.Sprintf("%s brings the waiting question, from any application, while one is open", sc)
		case errors.Is(err, xgrab.ErrTaken):
			r.Level = Warn
			r.Msg = fmt.Sprintf("%s is held by another application or the desktop (or by feedback itself while a question is open)", sc)
			r.Fix = "pick another in Settings (focus_shortcut), e.g. Super+Alt+F; meanwhile " + without
		default:
			r.Level, r.Msg, r.Fix = Warn, fmt.Sprintf("%s cannot be held: %v", sc, err), without
		}
	}
	return []Result{r}
}

// shortcutSetting is the settings' focus_shortcut, parsed; the default
// when the settings cannot be read (checkSettings says why).
func shortcutSetting(e Env) (hotkey.Shortcut, bool, error) {
	v := settings.Default().FocusShortcut
	if path, err := settingsfile.Path(); err == nil {
		if s, err := settingsfile.Load(path, e.Getenv); err == nil {
			v = s.FocusShortcut
		}
	}
	return hotkey.Parse(v)
}
