package i18n

import (
	"io/fs"
	"regexp"
	"testing"

	"feedback/assets"
)

// Traditional Chinese is written as Taiwan writes it, not as mainland
// Chinese in traditional characters: an agent is an AI 代理 (智能體 is
// mainland usage), a user a 使用者, settings 設定, information 資訊.
func TestTraditionalChineseUsesTaiwanTerms(t *testing.T) {
	data, err := fs.ReadFile(assets.Translations, File(TraditionalChinese))
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []struct{ re, instead string }{
		{`智能[體体]`, "AI 代理"},
		{`用戶[^端]`, "使用者"},
		{`信息`, "資訊 or 訊息"},
		{`默認`, "預設"},
		{`設置`, "設定"},
		{`軟件`, "軟體"},
		{`視頻`, "影片"},
		{`屏幕`, "螢幕"},
		{`鼠標`, "滑鼠"},
		{`網絡`, "網路"},
		{`視窗程序`, "視窗處理程序 (a process)"},
	} {
		for _, m := range regexp.MustCompile(bad.re).FindAllString(string(data), -1) {
			t.Errorf("%s has %q: Taiwan writes %s", File(TraditionalChinese), m, bad.instead)
		}
	}
}
