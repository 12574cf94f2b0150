package dialogs

import (
	"image"
	"image/draw"
	"image/png"
	"os"
	"path/filepath"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"feedback/internal/i18n"
	"feedback/ipc/wire"
)

// TestDocsLanguagesShot draws docs/languages.png, one question window in
// English, Simplified and Traditional Chinese, stacked, in the dark theme
// at the app's fonts: `FEEDBACK_DOCS_SHOTS=docs go test -run
// TestDocsLanguagesShot ./dialogs/` (skipped without it). What it draws is
// the windows' code as it is, so the picture follows the code.
func TestDocsLanguagesShot(t *testing.T) {
	dir := os.Getenv("FEEDBACK_DOCS_SHOTS")
	if dir == "" {
		t.Skip("FEEDBACK_DOCS_SHOTS not set: the docs' pictures are drawn on request")
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join("..", dir) // from the package's directory to the repository's
	}
	questions := map[string]wire.Prompt{
		i18n.English: {Markdown: "## Refactor the auth module?\n\nI would move `session.go` to **PyJWT 2.x** and drop the custom token cache.",
			Options: []wire.Option{{Label: "Refactor now"}, {Label: "Add tests first", Default: true}}},
		i18n.SimplifiedChinese: {Markdown: "## 重构认证模块？\n\n我打算把 `session.go` 迁移到 **PyJWT 2.x**，并去掉自定义的令牌缓存。",
			Options: []wire.Option{{Label: "现在重构"}, {Label: "先补测试", Default: true}}},
		i18n.TraditionalChinese: {Markdown: "## 重構認證模組？\n\n我打算把 `session.go` 遷移到 **PyJWT 2.x**，並去掉自訂的權杖快取。",
			Options: []wire.Option{{Label: "現在重構"}, {Label: "先補測試", Default: true}}},
	}
	var shots []image.Image
	for _, lang := range []string{i18n.English, i18n.SimplifiedChinese, i18n.TraditionalChinese} {
		i18n.Use(lang)
		a := test.NewTempApp(t)
		a.Settings().SetTheme(&variantTheme{Theme(), theme.VariantDark})
		q := wire.Question{ID: lang, Client: "claude-code", Project: "shop", Prompts: []wire.Prompt{questions[lang]}}
		w := NewWindow(a, q, Options{DefaultTimeout: 10 * time.Minute, Extend: 5 * time.Minute, Now: (&clock{now: t0}).Now, InputGuard: -1}, func(wire.Answer) {})
		w.Fyne().Resize(fyne.NewSize(680, 360))
		w.Show()
		shots = append(shots, w.Fyne().Canvas().Capture())
		w.Close()
	}
	i18n.Use(i18n.English)
	width, height := 0, 0
	for _, s := range shots {
		width, height = max(width, s.Bounds().Dx()), height+s.Bounds().Dy()
	}
	out := image.NewRGBA(image.Rect(0, 0, width, height))
	y := 0
	for _, s := range shots {
		draw.Draw(out, image.Rect(0, y, s.Bounds().Dx(), y+s.Bounds().Dy()), s, s.Bounds().Min, draw.Src)
		y += s.Bounds().Dy()
	}
	f, err := os.Create(filepath.Join(dir, "languages.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, out); err != nil {
		t.Fatal(err)
	}
}
