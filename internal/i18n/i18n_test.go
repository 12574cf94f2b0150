package i18n

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"feedback/assets"
)

// Every language has every word, and nothing more: a word missing in one
// file would show in English there.
func TestEveryLanguageHasEveryKey(t *testing.T) {
	if err := Check(); err != nil {
		t.Fatalf("a translation file does not parse: %v", err)
	}
	files, err := fs.Glob(assets.Translations, Dir+"/*.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != len(Languages) {
		t.Errorf("translation files %v, want one per language %v", files, Languages)
	}
	want, err := Keys(English)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range Languages[1:] {
		got, err := Keys(l)
		if err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		for _, k := range want {
			if !slices.Contains(got, k) {
				t.Errorf("%s.json lacks %q", l, k)
			}
		}
		for _, k := range got {
			if !slices.Contains(want, k) {
				t.Errorf("%s.json has %q, which en.json lacks", l, k)
			}
		}
	}
}

// Every id the code asks for is in the files: a typo would show the id,
// and Fyne's lang logs every id it misses. Ids are the string literals (or
// constants) passed to T and N (this package's or a Localizer's), to Fyne's
// lang.L, X, N and XN, and the names and hints given to the History and
// Settings windows' helpers (count, newField, intField, …) that pass them
// on to lang.L.
func TestEveryIDInTheCodeExists(t *testing.T) {
	keys, err := Keys(English)
	if err != nil {
		t.Fatal(err)
	}
	root, err := filepath.Abs("../..") // the module's root
	if err != nil {
		t.Fatal(err)
	}
	// The helpers whose arguments 1 and 2 are ids (text and hint, or the
	// singular and plural form).
	helpers := map[string]bool{"count": true, "newField": true, "intField": true, "textField": true, "boolField": true, "lineField": true}
	used := 0
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "tools") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		ours, fyneLang := strings.Contains(string(src), `"feedback/internal/i18n"`), strings.Contains(string(src), `"fyne.io/fyne/v2/lang"`)
		if !ours && !fyneLang {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, src, 0)
		if err != nil {
			return err
		}
		rel := strings.TrimPrefix(p, root+"/")
		check := func(arg ast.Expr) {
			if id, ok := literal(arg); ok {
				used++
				if !slices.Contains(keys, id) {
					t.Errorf("%s: id %q is in no translation file", rel, id)
				}
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			var fn, pkg string
			switch f := call.Fun.(type) {
			case *ast.SelectorExpr:
				fn = f.Sel.Name
				if x, ok := f.X.(*ast.Ident); ok {
					pkg = x.Name
				}
			case *ast.Ident:
				fn = f.Name
			}
			switch {
			case ours && (fn == "T" || fn == "N") && pkg != "lang":
				check(call.Args[0])
			case fyneLang && pkg == "lang" && (fn == "L" || fn == "X" || fn == "N" || fn == "XN"):
				check(call.Args[0])
			case fyneLang && helpers[fn] && len(call.Args) > 2:
				check(call.Args[1])
				check(call.Args[2])
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if used == 0 {
		t.Error("found no i18n calls in the code")
	}
}

// literal is the value of a string literal (or a sum of them), or of a
// constant declared with one in the same file.
func literal(e ast.Expr) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind == token.STRING {
			s, err := strconv.Unquote(e.Value)
			return s, err == nil && s != ""
		}
	case *ast.BinaryExpr: // "…" + "…"
		if e.Op == token.ADD {
			x, ok1 := literal(e.X)
			y, ok2 := literal(e.Y)
			return x + y, ok1 && ok2
		}
	case *ast.Ident:
		if e.Obj != nil && e.Obj.Kind == ast.Con {
			if spec, ok := e.Obj.Decl.(*ast.ValueSpec); ok {
				for i, n := range spec.Names {
					if n.Name == e.Name && i < len(spec.Values) {
						return literal(spec.Values[i])
					}
				}
			}
		}
	}
	return "", false
}

func TestChoose(t *testing.T) {
	for _, tc := range []struct {
		setting string
		locales []string
		want    string
	}{
		{"", nil, English},
		{Auto, nil, English},
		{Auto, []string{"en_US.UTF-8"}, English},
		{Auto, []string{"zh_CN.UTF-8"}, SimplifiedChinese},
		{Auto, []string{"zh_SG.UTF-8"}, SimplifiedChinese},
		{Auto, []string{"zh"}, SimplifiedChinese},
		{Auto, []string{"zh-Hans"}, SimplifiedChinese},
		{Auto, []string{"zh_TW.UTF-8"}, TraditionalChinese},
		{Auto, []string{"zh_HK.UTF-8"}, TraditionalChinese},
		{Auto, []string{"zh_MO"}, TraditionalChinese},
		{Auto, []string{"zh-Hant"}, TraditionalChinese},
		{Auto, []string{"zh-Hant-TW"}, TraditionalChinese},
		{Auto, []string{"zh_TW.Big5@stroke"}, TraditionalChinese},
		{Auto, []string{"fr_FR.UTF-8"}, English},
		{Auto, []string{"fr_FR", "zh_TW"}, TraditionalChinese}, // LANGUAGE=fr_FR:zh_TW: the first we have
		{Auto, []string{"en_GB", "zh_CN"}, English},
		{Auto, []string{"C.UTF-8", "no such!"}, English},
		{"zh-Hant", []string{"zh_CN.UTF-8"}, TraditionalChinese}, // the setting overrides
		{"zh-Hans", nil, SimplifiedChinese},
		{"en", []string{"zh_TW.UTF-8"}, English},
		{"klingon", []string{"zh_TW.UTF-8"}, TraditionalChinese}, // not a language: the OS's
	} {
		if got := Choose(tc.setting, tc.locales); got != tc.want {
			t.Errorf("Choose(%q, %q) = %q, want %q", tc.setting, tc.locales, got, tc.want)
		}
	}
}

func TestFromEnv(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want []string
	}{
		{nil, nil},
		{map[string]string{"LANG": "C"}, nil},
		{map[string]string{"LANG": "C.UTF-8", "LANGUAGE": "zh_CN"}, nil}, // gettext ignores LANGUAGE under C
		{map[string]string{"LANGUAGE": "zh_CN"}, nil},                    // …and without a locale
		{map[string]string{"LANG": "zh_TW.UTF-8"}, []string{"zh_TW.UTF-8"}},
		{map[string]string{"LANG": "en_US.UTF-8", "LC_MESSAGES": "zh_HK.UTF-8"}, []string{"zh_HK.UTF-8"}},
		{map[string]string{"LANG": "en_US.UTF-8", "LC_MESSAGES": "zh_HK.UTF-8", "LC_ALL": "zh_CN.UTF-8"}, []string{"zh_CN.UTF-8"}},
		{map[string]string{"LANG": "en_US.UTF-8", "LANGUAGE": "fr::zh_TW"}, []string{"fr", "zh_TW"}},
		{map[string]string{"LC_ALL": "POSIX", "LANG": "zh_CN.UTF-8"}, nil},
	} {
		got := FromEnv(func(k string) string { return tc.env[k] })
		if !slices.Equal(got, tc.want) {
			t.Errorf("FromEnv(%v) = %q, want %q", tc.env, got, tc.want)
		}
	}
}

func TestPluralsAndTemplates(t *testing.T) {
	for _, tc := range []struct {
		lang, id string
		n        int
		want     string
	}{
		{English, "tray.waiting", 1, "1 question waiting"},
		{English, "tray.waiting", 2, "2 questions waiting"},
		{SimplifiedChinese, "tray.waiting", 1, "1 个问题等待中"},
		{SimplifiedChinese, "tray.waiting", 2, "2 个问题等待中"},
		{TraditionalChinese, "tray.waiting", 2, "2 個問題等待中"},
		{English, "duration.minutes", 1, "1 minute"},
		{English, "duration.minutes", 5, "5 minutes"},
		{SimplifiedChinese, "duration.minutes", 5, "5 分钟"},
		{TraditionalChinese, "duration.seconds", 90, "90 秒"},
	} {
		if got := For(tc.lang).N(tc.id, tc.n); got != tc.want {
			t.Errorf("For(%s).N(%q, %d) = %q, want %q", tc.lang, tc.id, tc.n, got, tc.want)
		}
	}
	if got := For(SimplifiedChinese).T("countdown.left", map[string]any{"Time": "4:59"}); got != "剩余 4:59" {
		t.Errorf("a template: %q", got)
	}
	// Data is never a template: a client named "{{.Count}}" stays so.
	if got := For(English).T("notify.asks", map[string]any{"Client": "{{.Count}}"}); got != "{{.Count}} asks" {
		t.Errorf("data read as a template: %q", got)
	}
	if got := For("fr").T("question.submit"); got != "Submit" {
		t.Errorf("an unknown language: %q, want English", got)
	}
	if got := For(English).T("no.such.id"); got != "no.such.id" {
		t.Errorf("an unknown id: %q, want the id", got)
	}
}

func TestUse(t *testing.T) {
	t.Cleanup(func() { Use(English) })
	if Lang() != English || T("question.submit") != "Submit" {
		t.Fatalf("the process starts in English: %s %q", Lang(), T("question.submit"))
	}
	Use(TraditionalChinese)
	if Lang() != TraditionalChinese || T("question.submit") != "送出" || N("tray.waiting", 3) != "3 個問題等待中" {
		t.Errorf("after Use(zh-Hant): %s %q %q", Lang(), T("question.submit"), N("tray.waiting", 3))
	}
}
