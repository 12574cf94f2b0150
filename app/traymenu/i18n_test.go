package traymenu

import (
	"strings"
	"testing"
	"time"

	"feedback/app/core"
	"feedback/app/core/dnd"
	"feedback/internal/i18n"
)

// The tray speaks the chosen language: tooltip, headings, ages, the do
// not disturb choices and their end times, the fixed entries.
func TestTrayInTraditionalChinese(t *testing.T) {
	in := TrayInput{Now: noon, Lang: i18n.TraditionalChinese, History: true, Settings: true,
		DND: dnd.State{Mode: dnd.Hour, Until: noon.Add(time.Hour)},
		Items: []core.Item{
			item("q1", "Deploy now?", "claude-code", "shop", 3*time.Minute),
			item("q2", "", "codex", "", 2*time.Hour),
		}}
	v := Tray(in)
	if want := "feedback — 2 個問題等待中；勿擾至 13:00"; v.Tooltip != want {
		t.Errorf("tooltip %q, want %q", v.Tooltip, want)
	}
	var labels []string
	var walk func([]MenuEntry)
	walk = func(es []MenuEntry) {
		for _, e := range es {
			if !e.Separator {
				labels = append(labels, e.Label)
			}
			walk(e.Children)
		}
	}
	walk(v.Menu)
	got := strings.Join(labels, "|")
	want := "codex|問題 — 2 小時|claude-code · shop|Deploy now? — 3 分鐘|稍後提醒|全部問題|10 分鐘後|1 小時後|等我回來|問題|10 分鐘後|1 小時後|等我回來|Deploy now?|10 分鐘後|1 小時後|等我回來|勿擾（至 13:00）|開啟，直到我關閉|1 小時（至 13:00）|至明天 08:00|關閉|歷史記錄…|設定…|結束"
	if got != want {
		t.Errorf("menu\n got %s\nwant %s", got, want)
	}
	one := Tray(TrayInput{Now: noon, Lang: i18n.TraditionalChinese, Items: in.Items[:1]})
	if want := "feedback — 1 個問題等待中"; one.Tooltip != want {
		t.Errorf("one question: %q, want %q", one.Tooltip, want)
	}
	if none := Tray(TrayInput{Now: noon, Lang: i18n.SimplifiedChinese}); none.Tooltip != "feedback — 没有等待中的问题" || none.Menu[0].Label != "没有打开的问题" {
		t.Errorf("no questions, zh-Hans: %q, %q", none.Tooltip, none.Menu[0].Label)
	}
	if got := endTime(i18n.For(i18n.SimplifiedChinese), noon.Add(44*time.Hour), noon); got != "3月12日（周四）08:00" {
		t.Errorf("a later day in zh-Hans: %q", got)
	}
	if got := Tray(TrayInput{Now: noon, Items: in.Items[:1]}).Tooltip; got != "feedback — 1 question waiting" {
		t.Errorf("no Lang is the process's, English: %q", got)
	}
}
