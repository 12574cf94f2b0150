package e2e

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"feedback/app/store"
	"feedback/ipc/wire"
)

// shotsDir is where TestHistorySettingsScreens saves its window shots:
// $FEEDBACK_SHOTS, else the artifacts directory.
func shotsDir(t *testing.T) string {
	if d := os.Getenv("FEEDBACK_SHOTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	return artifacts
}

// fillHistory writes a small history (every outcome, a question asked
// twice, a confirm, an attached image) into a new database.
func fillHistory(t *testing.T) string {
	t.Helper()
	db := filepath.Join(t.TempDir(), "feedback.db")
	s, err := store.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	now := time.Now().Add(-3 * time.Hour)
	at := func(m int) time.Time { return now.Add(time.Duration(m) * time.Minute) }
	q := func(id, client, project, loop, text string, opts ...string) wire.Question {
		qq := wire.Question{ID: id, Source: "interactive_feedback", Client: client, Project: project,
			Prompts: []wire.Prompt{{Markdown: text}}}
		for _, o := range opts {
			qq.Prompts[0].Options = append(qq.Prompts[0].Options, wire.Option{Label: o})
		}
		if loop != "" {
			qq.Context = []wire.Field{{Label: "Loop", Value: loop}, {Label: "Phase", Value: "review"}, {Label: "Objective", Value: "Ship the checkout"}}
		}
		return qq
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	plan := q("plan", "claude-code", "shop", "L7", "## Which steps should I take?\n\nThe migration touches **three** services.", "Step one: schema", "Step two: backfill", "Step three: switch reads")
	must(s.SaveQuestion(plan, at(0)))
	must(s.SaveAnswer(wire.Answer{QuestionID: "plan", Status: wire.StatusAnswered, Replies: []wire.Reply{{Selected: []string{"Step one: schema", "Step two: backfill"}, Text: "Stop after the backfill; I want to check the numbers."}},
		Images: []wire.Image{{MIME: "image/png", Data: pngOf(t)}}}, at(2), true))
	must(s.SaveQuestion(plan, at(40)))
	must(s.SaveAnswer(wire.Answer{QuestionID: "plan", Status: wire.StatusAnswered, Replies: []wire.Reply{{Selected: []string{"Step three: switch reads"}, Text: "Numbers look right: go on."}}}, at(45), true))
	confirm := wire.Question{ID: "push", Source: "ask_confirm", Client: "cursor", Project: "infra", Context: []wire.Field{{Label: "Recommended", Value: "No"}},
		Prompts: []wire.Prompt{{Kind: wire.KindYesNo, Markdown: "Force-push to `main`?"}}}
	must(s.SaveQuestion(confirm, at(60)))
	must(s.SaveAnswer(wire.Answer{QuestionID: "push", Status: wire.StatusAnswered, Replies: []wire.Reply{{}}}, at(61), true))
	must(s.SaveQuestion(q("name", "codex", "blog", "", "Which name for the new package?", "render", "view"), at(90)))
	must(s.SaveAnswer(wire.Answer{QuestionID: "name", Status: wire.StatusTimeout}, at(100), true))
	must(s.SaveQuestion(q("deploy", "claude-code", "shop", "L7", "Deploy to staging now?"), at(120)))
	must(s.SaveAnswer(wire.Answer{QuestionID: "deploy", Status: wire.StatusDismissed}, at(121), true))
	must(s.SaveQuestion(q("tests", "cursor", "infra", "", "Run the slow tests too?"), at(150)))
	must(s.MarkWithdrawn("tests", at(151)))
	must(s.SaveQuestion(q("open", "claude-code", "shop", "L7", "Is the evidence enough?"), at(170)))
	return db
}

// The History and Settings windows as a user sees them, in each language
// and theme (FEEDBACK_SHOT_SCALE picks the scale): shots saved for a
// person to look at (FEEDBACK_SHOTS). The History window lists the asks
// newest first with the first one opened.
func TestHistorySettingsScreens(t *testing.T) {
	requireSession(t)
	scale := os.Getenv("FEEDBACK_SHOT_SCALE")
	if scale == "" {
		scale = "1"
	}
	sc, _ := strconv.ParseFloat(scale, 64)
	openScreen(t).waitForWindowManager(t)
	db := fillHistory(t)
	dir := shotsDir(t)
	words := map[string][2]string{ // the tray's History… and Settings…
		"en":      {"History…", "Settings…"},
		"zh-Hans": {"历史记录…", "设置…"},
		"zh-Hant": {"歷史記錄…", "設定…"},
	}
	for _, lang := range []string{"en", "zh-Hans", "zh-Hant"} {
		for _, theme := range []string{"dark", "light"} {
			name := fmt.Sprintf("%s-%s-scale%s", lang, theme, scale)
			t.Run(name, func(t *testing.T) {
				// In English the file holds a value out of range: the Settings
				// window shows its problem, its page marked and the summary
				// by Save. (The app then runs on the defaults, the language
				// included: the Chinese runs keep a valid file.)
				bad := ""
				if lang == "en" {
					bad = `"retention_days": 0, `
				}
				startApp(t, "FEEDBACK_DB="+db, "FYNE_THEME="+theme, "FEEDBACK_LANGUAGE="+lang, "FYNE_SCALE="+scale,
					writeSettings(t, `{`+bad+`"ui_linger_seconds": 30, "language": "`+lang+`"}`))
				tray := openTray(t)
				ids := tray.labels(t)
				tray.click(t, ids[words[lang][0]])
				hw := anyNewWindow(t, "feedback")
				activate(t, hw)
				waitListed(t, hw)
				// Open the second ask of "Which steps…" (row 6: two choices
				// and a reply), then wait for the window to change (the
				// detail drawn).
				before := windowPNG(hw)
				xdotool(t, "mousemove", "--window", hw, strconv.Itoa(int(160*sc)), strconv.Itoa(int(385*sc)), "click", "1")
				for deadline := time.Now().Add(5 * time.Second); bytes.Equal(before, windowPNG(hw)) && time.Now().Before(deadline); {
					time.Sleep(100 * time.Millisecond)
				}
				shotTo(t, hw, filepath.Join(dir, "history-"+name+".png"))
				title := xdotool(t, "getwindowname", hw)
				key(t, "alt+F4")
				windowGone(t, title, 5*time.Second) // else a new window's first frame can show its pixels
				tray.click(t, ids[words[lang][1]])
				sw := anyNewWindow(t, "feedback", hw)
				activate(t, sw)
				shotTo(t, sw, filepath.Join(dir, "settings-"+name+".png"))
			})
		}
	}
}

// anyNewWindow waits for a visible window whose title starts with prefix
// and that is none of old, and returns its id.
func anyNewWindow(t *testing.T, prefix string, old ...string) string {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		out, _ := xdo("search", "--onlyvisible", "--name", "^"+prefix+" ").Output()
	next:
		for _, id := range strings.Fields(string(out)) {
			for _, o := range old {
				if id == o {
					continue next
				}
			}
			return id
		}
	}
	t.Fatalf("no window titled %q… appeared", prefix)
	return ""
}

// shotTo saves window win, once painted, at path.
func shotTo(t *testing.T, win, path string) {
	t.Helper()
	name := filepath.Base(path)
	windowShot(t, win, name[:len(name)-len(".png")])
	src := filepath.Join(artifacts, name)
	if filepath.Dir(path) != artifacts {
		if err := exec.Command("cp", src, path).Run(); err != nil {
			t.Error(err)
		}
	}
}

// windowPNG is window win as PNG bytes (nil when it cannot be captured).
func windowPNG(win string) []byte {
	out, _ := exec.Command("import", "-window", win, "png:-").Output()
	return out
}

// pngOf is a small picture for an attachment.
func pngOf(t *testing.T) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 160, 100))
	for y := 0; y < 100; y++ {
		for x := 0; x < 160; x++ {
			img.Set(x, y, color.RGBA{R: uint8(x), G: 120, B: uint8(200 - y), A: 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
