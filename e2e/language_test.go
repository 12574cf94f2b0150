package e2e

import (
	"strings"
	"testing"
)

// The language setting reaches every process the user reads: the tray
// (read over D-Bus as a tray host reads it), the question window and
// `feedback ask`'s own lines, here in Traditional Chinese.
func TestLanguageTraditionalChinese(t *testing.T) {
	requireSession(t)
	scr := openScreen(t)
	scr.waitForWindowManager(t)
	t.Setenv("FEEDBACK_LANGUAGE", "zh-Hant") // the app's, and feedback ask's below
	startApp(t)
	tray := openTray(t)
	waitTray(t, tray, "no questions, in zh-Hant", all(tooltipIs("feedback — 沒有等待中的問題"), hasEntry("沒有開啟的問題"), hasEntry("勿擾"), hasEntry("結束")))

	a := startAsk(t, "--title", "Lang", "--option", "A", "--option", "B", "--project", "shop", "重構認證模組？")
	win := findWindow(t, "Lang — feedback")
	waitTray(t, tray, "one question, in zh-Hant", all(tooltipIs("feedback — 1 個問題等待中"), hasEntry("Lang — 剛剛")))
	activate(t, win)
	screenshot(t, "language-zh-Hant")
	key(t, "Escape")
	if code := a.wait(t); code != 1 {
		t.Errorf("feedback ask exit %d, want 1 (dismissed)", code)
	}
	if got := a.stderr.String(); !strings.Contains(got, "feedback ask：已略過") {
		t.Errorf("feedback ask's stderr %q, want its dismissed line in Traditional Chinese", got)
	}
	waitTray(t, tray, "no questions again", tooltipIs("feedback — 沒有等待中的問題"))
}
