package notification

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"strings"
	"testing"
)

func TestMessages(t *testing.T) {
	for _, tc := range []struct {
		name                   string
		make                   func(client, project, title string) Notification
		client, project, title string
		summary, body          string
	}{
		{"arrived", Arrived, "claude-code", "shop", "Plan\nShall I refactor?", "claude-code asks", "shop — Plan"},
		{"arrived, no client", Arrived, "", "shop", "Plan", "feedback", "shop — Plan"},
		{"arrived, no project", Arrived, "codex", "", "  \n  Deploy now?  \n", "codex asks", "Deploy now?"},
		{"arrived, no title", Arrived, "codex", "", "", "codex asks", "a question"},
		{"timed out", TimedOut, "Claude Code", "shop", "Plan\nmore", "Not answered in time — Claude Code: Plan", "shop"},
		{"timed out, nothing known", TimedOut, "", "", "", "Not answered in time — An agent: a question", ""},
		{"withdrawn", Withdrawn, "cursor", "web", "Which DB?", "cursor withdrew its question: Which DB?", "web"},
		{"arrived, long client name", Arrived, strings.Repeat("c", 100), "shop", "Deploy?", strings.Repeat("c", MaxClientRunes-1) + "… asks", "shop — Deploy?"},
		{"timed out, long client name", TimedOut, strings.Repeat("界", 100), "", "Deploy?", "Not answered in time — " + strings.Repeat("界", MaxClientRunes-1) + "…: Deploy?", ""},
		{"withdrawn, long client name", Withdrawn, strings.Repeat("w", 33), "", "Deploy?", strings.Repeat("w", MaxClientRunes-1) + "… withdrew its question: Deploy?", ""},
		{"arrived, client name at the bound", Arrived, strings.Repeat("c", MaxClientRunes), "", "Deploy?", strings.Repeat("c", MaxClientRunes) + " asks", "Deploy?"},
		{"withdrawn, hostile", Withdrawn, "evil\u202e\x1b[31m", "p\nq", "t\tab", "evil[31m withdrew its question: t ab", "p q"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := tc.make(tc.client, tc.project, tc.title)
			if n.Summary != tc.summary || n.Body != tc.body {
				t.Errorf("got %q / %q, want %q / %q", n.Summary, n.Body, tc.summary, tc.body)
			}
		})
	}
}

func TestClean(t *testing.T) {
	for _, tc := range []struct {
		name, in      string
		max, maxLines int
		want          string
	}{
		{"plain", "hello", 10, 1, "hello"},
		{"trimmed and collapsed", "  a \t\r b  ", 10, 1, "a b"},
		{"one line", "a\nb\n\nc", 10, 1, "a b c"},
		{"lines kept, blank ones dropped", "a\n\n\nb\nc\nd", 10, 3, "a\nb\nc d"},
		{"cut", "abcdefghij", 5, 1, "abcd…"},
		{"exactly max", "abcde", 5, 1, "abcde"},
		{"runes, not bytes", "éééééé", 3, 1, "éé…"},
		{"controls and bidi dropped", "a\x00\x1b\u202eb\u2066c\u200fd\u0085", 10, 1, "abcd"},
		{"invalid UTF-8", "a\xffb", 10, 1, "a\uFFFDb"},
		{"markup untouched", "<b>&</b>", 10, 1, "<b>&</b>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := clean(tc.in, tc.max, tc.maxLines); got != tc.want {
				t.Errorf("clean(%q, %d, %d) = %q, want %q", tc.in, tc.max, tc.maxLines, got, tc.want)
			}
		})
	}
	if got := escapeMarkup(`<a href="x">&amp;</a>`); got != `&lt;a href="x"&gt;&amp;amp;&lt;/a&gt;` {
		t.Errorf("escapeMarkup = %q", got)
	}
}

// An icon larger than IconMaxSize is scaled to fit; a broken one is
// refused with an error naming Config.Icon.
func TestIcon(t *testing.T) {
	for _, tc := range []struct{ w, h, ww, wh int }{{256, 256, 64, 64}, {32, 16, 32, 16}, {200, 50, 64, 16}, {10, 640, 1, 64}} {
		d, err := decodeIcon(pngOf(t, tc.w, tc.h))
		if err != nil {
			t.Fatal(err)
		}
		if d.Width != int32(tc.ww) || d.Height != int32(tc.wh) || d.Rowstride != int32(tc.ww*4) || len(d.Data) != tc.ww*tc.wh*4 || !d.HasAlpha || d.Channels != 4 || d.BitsPerSample != 8 {
			t.Errorf("%d×%d → %+v (data %d bytes), want %d×%d", tc.w, tc.h, *d, len(d.Data), tc.ww, tc.wh)
		}
	}
	if _, err := New(Config{Icon: []byte("not a png")}); err == nil || !strings.Contains(err.Error(), "Config.Icon") {
		t.Errorf("New with a broken icon = %v, want an error naming Config.Icon", err)
	}
}

// The package links no toolkit: the resident process that sends the
// notifications links no GL.
func TestNoToolkitDeps(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH")
	}
	for _, goos := range []string{"linux", "darwin", "windows", "freebsd"} {
		cmd := exec.Command(goTool, "list", "-deps", "-f", "{{.ImportPath}} {{.Standard}} {{len .CgoFiles}}", ".")
		cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH=amd64", "CGO_ENABLED=1")
		out, err := cmd.Output()
		if err != nil {
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				t.Fatalf("go list (%s): %v\n%s", goos, err, ee.Stderr)
			}
			t.Fatal(err)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			f := strings.Fields(line)
			if len(f) != 3 {
				t.Fatalf("unexpected go list line %q", line)
			}
			switch {
			case strings.HasPrefix(f[0], "fyne.io/"), strings.HasPrefix(f[0], "github.com/go-gl/"):
				t.Errorf("%s: forbidden dependency %s", goos, f[0])
			case f[2] != "0" && f[1] != "true":
				t.Errorf("%s: cgo dependency %s", goos, f[0])
			}
		}
	}
}

// pngOf is a w×h opaque PNG.
func pngOf(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = 0xff
	}
	img.Set(0, 0, color.NRGBA{R: 0x10, G: 0x20, B: 0x30, A: 0xff})
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
