package ask

import (
	"testing"

	"feedback/internal/i18n"
	"feedback/ipc/wire"
)

// ask's own lines are in the process's language.
func TestMessagesInChinese(t *testing.T) {
	t.Cleanup(func() { i18n.Use(i18n.English) })
	i18n.Use(i18n.SimplifiedChinese)
	code, _, errOut := runAsk(t, &fakeApp{answer: wire.Answer{Status: wire.StatusDismissed}}, "", "Q")
	if code != ExitDismissed || errOut != "feedback ask：已忽略\n" {
		t.Errorf("dismissed in zh-Hans: exit %d, stderr %q", code, errOut)
	}
	i18n.Use(i18n.TraditionalChinese)
	code, _, errOut = runAsk(t, &fakeApp{answer: wire.Answer{Status: wire.StatusTimeout}}, "", "Q")
	if code != ExitFailed || errOut != "feedback ask：倒數結束前沒有回答\n" {
		t.Errorf("timed out in zh-Hant: exit %d, stderr %q", code, errOut)
	}
}
