package notification

import (
	"testing"

	"feedback/internal/i18n"
)

// The notifications speak the process's language.
func TestMessagesInChinese(t *testing.T) {
	t.Cleanup(func() { i18n.Use(i18n.English) })
	i18n.Use(i18n.SimplifiedChinese)
	if n := Arrived("codex", "shop", "Deploy now?\nmore"); n.Summary != "codex 提问" || n.Body != "shop — Deploy now?" {
		t.Errorf("Arrived: %+v", n)
	}
	if n := TimedOut("", "", ""); n.Summary != "未及时回答 — 某个智能体：一个问题" {
		t.Errorf("TimedOut: %q", n.Summary)
	}
	i18n.Use(i18n.TraditionalChinese)
	if n := Withdrawn("codex", "shop", "Deploy now?"); n.Summary != "codex 撤回了問題：Deploy now?" || n.Body != "shop" {
		t.Errorf("Withdrawn: %+v", n)
	}
}
