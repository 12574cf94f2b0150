package markdown

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"

	"feedback/ipc/wire"
)

// The inputs of the layout benchmarks; e2e/bench asks the running app the
// same questions (the generators are kept alike).

// benchMixed returns about n bytes of ordinary Markdown: paragraphs of
// ~350 characters, headings, lists, code and quotes.
func benchMixed(n int) string {
	var b strings.Builder
	b.WriteString("# Review\n\n")
	for i := 0; b.Len() < n; i++ {
		switch i % 6 {
		case 2:
			fmt.Fprintf(&b, "## Section %d\n\n", i)
		case 3:
			fmt.Fprintf(&b, "- %s\n- %s\n- %s\n\n", prose(80), prose(120), prose(60))
		case 4:
			fmt.Fprintf(&b, "```go\nfunc f%d() error { return nil }\n```\n\n", i)
		case 5:
			fmt.Fprintf(&b, "> %s\n\n", prose(200))
		default:
			fmt.Fprintf(&b, "%s **bold** and `code`.\n\n", prose(330))
		}
	}
	return b.String()
}

// benchCJK returns about n bytes of Chinese Markdown with the styles drawn
// in pieces (bold CJK, struck text), headings, task lists and tables.
func benchCJK(n int) string {
	const para = "我正在重构**配置模块**，有两个方案：~~第一个方案改动较小~~，第二个方案更彻底，需要迁移脚本和更多的测试。"
	var b strings.Builder
	b.WriteString("# 需要你的决定\n\n")
	for i := 0; b.Len() < n; i++ {
		switch i % 5 {
		case 1:
			fmt.Fprintf(&b, "### 方案 %d\n\n", i)
		case 2:
			b.WriteString("- [x] 已完成测试\n- [ ] 等待**确认**\n\n")
		case 3:
			b.WriteString("| 方案 | **风险** |\n|---|---|\n| 一 | ~~低~~ 中 |\n\n")
		default:
			b.WriteString(strings.Repeat(para, 3) + "\n\n")
		}
	}
	return b.String()
}

// BenchmarkMarkdownLayout renders and lays out a question's Markdown in a
// 560 px wide window of the test driver (fyne's text measurement, no GL).
func BenchmarkMarkdownLayout(b *testing.B) {
	var big strings.Builder
	for big.Len() < wire.MaxMarkdownBytes-1000 {
		big.WriteString(prose(350) + "\n\n")
	}
	for _, in := range []struct{ name, src string }{
		{"one line", "Deploy to production now?"},
		{"30 KB mixed", benchMixed(30 << 10)},
		{"10 KB paragraph", prose(10 << 10)},
		{"50 KB paragraph", prose(50 << 10)},
		{"1 MB", big.String()},
		{"30 KB CJK", benchCJK(30 << 10)},
	} {
		b.Run(in.name, func(b *testing.B) {
			test.NewTempApp(b)
			for b.Loop() {
				md := newWidget(in.src, Options{Pictures: &Pictures{}})
				w := test.NewTempWindow(b, container.NewVScroll(md))
				w.Resize(fyne.NewSize(560, 600))
				w.Content().Refresh()
			}
		})
	}
}
