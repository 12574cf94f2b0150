package i18n

import "testing"

// Chinese carries no space between two words of its own ("至 明天 08:00",
// "粘贴的图片 未附加" were shown); a space next to a Latin word or a digit
// stays, as does every space of a value put in, and English keeps its
// spaces.
func TestNoStraySpacesInChinese(t *testing.T) {
	zh, hant, en := For(SimplifiedChinese), For(TraditionalChinese), For(English)
	tomorrow := func(l *Localizer) string { return l.T("time.tomorrow", map[string]any{"Time": "08:00"}) }
	for _, tc := range []struct{ got, want string }{
		{zh.T("tray.dnd.until", map[string]any{"Time": tomorrow(zh)}), "至明天 08:00"},
		{zh.T("tray.dnd.until", map[string]any{"Time": "08:00"}), "至 08:00"},
		{hant.T("tray.dnd.heading_until", map[string]any{"Time": tomorrow(hant)}), "勿擾（至明天 08:00）"},
		{zh.N("attach.too_many", 8, map[string]any{"Name": zh.T("attach.pasted"), "Count": 8}), "粘贴的图片未附加：每个回答最多 8 张图片。"},
		{zh.T("notify.asks", map[string]any{"Client": "claude code 助手"}), "claude code 助手提问"},
		{zh.T("notify.asks", map[string]any{"Client": "codex"}), "codex 提问"},
		{en.T("tray.dnd.until", map[string]any{"Time": tomorrow(en)}), "Until tomorrow 08:00"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

// The parts of a line join with a space in English and without one
// between two CJK words.
func TestJoinWords(t *testing.T) {
	for _, tc := range []struct {
		parts []string
		want  string
	}{
		{[]string{"21 个问题", "分属 1 个循环。"}, "21 个问题分属 1 个循环。"},
		{[]string{"21 questions", "in 1 loop."}, "21 questions in 1 loop."},
		{[]string{"3 个问题", "", "in 2 loops."}, "3 个问题 in 2 loops."},
		{[]string{"", "一"}, "一"},
	} {
		if got := JoinWords(tc.parts...); got != tc.want {
			t.Errorf("JoinWords(%q) = %q, want %q", tc.parts, got, tc.want)
		}
	}
}
