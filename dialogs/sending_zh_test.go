package dialogs

import (
	"testing"

	"feedback/internal/i18n"
	"feedback/ipc/wire"
)

// The Sending line lists the picks with Chinese punctuation in Chinese
// ("将发送：开始吧，保持一个文件"), never an ASCII ", ".
func TestSendingLineInChinese(t *testing.T) {
	i18n.Use(i18n.SimplifiedChinese)
	t.Cleanup(func() { i18n.Use(i18n.English) })
	v, _, _ := newTestView(t, question(wire.Prompt{Markdown: "怎么做？", Options: []wire.Option{
		{Label: "开始吧", Default: true}, {Label: "保持一个文件"}}}), Options{})
	v.ToggleOption(2)
	if got, want := v.sending.what.String(), "将发送：开始吧，保持一个文件"; got != want {
		t.Errorf("sending line %q, want %q", got, want)
	}
	if warn := v.sending.warn.String(); !v.sending.warn.Visible() || warn != "推荐选项仍处于勾选状态，也会一并发送：开始吧" {
		t.Errorf("warning %q", warn)
	}
}
