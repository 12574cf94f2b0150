package dialogs

import (
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"feedback/internal/i18n"
	"feedback/ipc/wire"
)

// texts are the texts of the buttons, labels and entries' placeholders a
// window shows.
func texts(o fyne.CanvasObject) (buttons, labels, placeholders []string) {
	for _, obj := range test.LaidOutObjects(o) {
		switch w := obj.(type) {
		case *keyButton:
			buttons = append(buttons, w.Text)
		case *widget.Button:
			buttons = append(buttons, w.Text)
		case *widget.Label:
			labels = append(labels, w.Text)
		case *countdownLabel:
			labels = append(labels, w.Text)
		case *replyEntry:
			placeholders = append(placeholders, w.PlaceHolder)
		case *widget.Entry:
			placeholders = append(placeholders, w.PlaceHolder)
		}
	}
	return
}

// The question window in Simplified Chinese: its buttons, countdown, hint
// line, placeholder and context bar; a plural-free count of minutes.
func TestWindowInSimplifiedChinese(t *testing.T) {
	i18n.Use(i18n.SimplifiedChinese)
	t.Cleanup(func() { i18n.Use(i18n.English) })
	a := test.NewTempApp(t)
	c := &clock{now: t0}
	q := wire.Question{ID: "1", Client: "codex", Project: "shop", Prompts: []wire.Prompt{{
		Markdown: "Refactor the auth module?",
		Options:  []wire.Option{{Label: "Refactor"}, {Label: "Add tests first"}},
	}}}
	w := NewWindow(a, q, Options{DefaultTimeout: 10 * time.Minute, Extend: 5 * time.Minute, Now: c.Now}, func(wire.Answer) {})
	w.Fyne().Resize(fyne.NewSize(560, 420))
	w.Show()
	defer w.Close()
	buttons, labels, placeholders := texts(w.Fyne().Content())
	for _, want := range []string{"提交", "不回答", "固定", "+5 分钟"} {
		if !slices.Contains(buttons, want) {
			t.Errorf("no %q button among %q", want, buttons)
		}
	}
	if !slices.Contains(labels, "剩余 10:00") {
		t.Errorf("countdown not in Chinese: labels %q", labels)
	}
	if !slices.Contains(placeholders, "在此输入你的回复") {
		t.Errorf("placeholder not in Chinese: %q", placeholders)
	}
	v := w.View()
	if want := "Ctrl+Enter 提交 · Esc 不回答"; v.hint.keys != want {
		t.Errorf("hint line %q, want %q", v.hint.keys, want)
	}
	if v.clock.extend.tip != "倒计时增加 5 分钟（Alt+T）" {
		t.Errorf("+ time's tip %q", v.clock.extend.tip)
	}
	var bar []string
	for _, f := range v.whoFields() {
		bar = append(bar, f.Label+" "+f.Value)
	}
	if got := strings.Join(bar, "|"); got != "来自 codex|项目 shop" {
		t.Errorf("context bar %q", got)
	}
	v.TogglePin()
	if v.clock.pin.Text != "取消固定" {
		t.Errorf("pinned: the pin reads %q", v.clock.pin.Text)
	}
}

// A yes/no window in Traditional Chinese; English plurals stay right.
func TestYesNoInTraditionalChinese(t *testing.T) {
	i18n.Use(i18n.TraditionalChinese)
	t.Cleanup(func() { i18n.Use(i18n.English) })
	a := test.NewTempApp(t)
	q := wire.Question{ID: "2", Context: []wire.Field{{Label: "Recommended", Value: "No"}},
		Prompts: []wire.Prompt{{Kind: wire.KindYesNo, Markdown: "Deploy?"}}}
	w := NewWindow(a, q, Options{}, func(wire.Answer) {})
	w.Show()
	defer w.Close()
	buttons, _, _ := texts(w.Fyne().Content())
	for _, want := range []string{"是", "否", "不回答"} {
		if !slices.Contains(buttons, want) {
			t.Errorf("no %q button among %q", want, buttons)
		}
	}
	if want := "Enter 否 · Alt+Y 是 · Alt+N 否 · Esc 不回答"; w.View().hint.keys != want {
		t.Errorf("hint line %q, want %q", w.View().hint.keys, want)
	}
	i18n.Use(i18n.English)
	if describeExtend(time.Minute) != "1 minute" || describeExtend(3*time.Minute) != "3 minutes" || describeExtend(90*time.Second) != "90 seconds" {
		t.Errorf("English durations: %q %q %q", describeExtend(time.Minute), describeExtend(3*time.Minute), describeExtend(90*time.Second))
	}
	i18n.Use(i18n.TraditionalChinese)
	if describeExtend(time.Minute) != "1 分鐘" || formatExtend(90*time.Second) != "+90 秒" || formatLeft(3725) != "剩餘 1:02:05" {
		t.Errorf("Chinese durations: %q %q %q", describeExtend(time.Minute), formatExtend(90*time.Second), formatLeft(3725))
	}
}
