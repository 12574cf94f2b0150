package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"feedback/e2e/internal/xmaps"
	"feedback/ipc/wire"
)

// The targets of the layout figures: how long a question takes to reach the
// screen as its Markdown grows, as ratios to a one-line question asked in
// the same run, and how long a key takes in a reply box holding a
// 10,000-character token.
const (
	targetRatio  = 3.0
	targetLarge  = 2 * time.Second
	targetPerKey = 50 * time.Millisecond
)

// mdClient is an MCP client through one shim, and the X connection that
// sees windows being mapped.
type mdClient struct {
	s      *session
	c      *client.Client
	mapped <-chan time.Time
	stop   func() // stops mapped
	n      int
}

func (s *session) newMDClient() (*mdClient, error) {
	mapped, stop, err := xmaps.Watch()
	if err != nil {
		return nil, err
	}
	c, err := s.shim()
	if err != nil {
		stop()
		return nil, err
	}
	return &mdClient{s: s, c: c, mapped: mapped, stop: stop}, nil
}

func (m *mdClient) close() {
	m.c.Close()
	m.stop()
}

// asked is a question on screen: its title and the call's outcome.
type asked struct {
	title  string
	mapped time.Duration // from the call to the window being mapped
	done   chan callResult
}

type callResult struct {
	text string
	err  error
}

// ask asks message and waits for its window to be mapped.
func (m *mdClient) ask(message string) (*asked, error) {
	m.n++
	a := &asked{title: "MdBench" + strconv.Itoa(m.n), done: make(chan callResult, 1)}
	drain(m.mapped)
	req := mcp.CallToolRequest{}
	req.Params.Name = "interactive_feedback"
	req.Params.Arguments = map[string]any{"message": message, "header_label": a.title}
	t0 := time.Now()
	go func() {
		res, err := m.c.CallTool(context.Background(), req)
		var text strings.Builder
		if res != nil {
			for _, c := range res.Content {
				if t, ok := c.(mcp.TextContent); ok {
					text.WriteString(t.Text)
				}
			}
		}
		a.done <- callResult{text.String(), err}
	}()
	select {
	case t1 := <-m.mapped:
		a.mapped = t1.Sub(t0)
		return a, nil
	case r := <-a.done:
		return nil, fmt.Errorf("%s: the call returned after %v, before a window was mapped: %v %q", a.title, time.Since(t0), r.err, r.text)
	case <-time.After(60 * time.Second):
		return nil, errors.New("no window was mapped within 60 s")
	}
}

// dismiss presses Escape in the window and waits for the call to end.
func (a *asked) dismiss() error {
	if err := dismiss(a.title + " — feedback"); err != nil {
		return err
	}
	select {
	case r := <-a.done:
		return r.err
	case <-time.After(60 * time.Second):
		return errors.New("the dismissed question did not end within 60 s")
	}
}

// benchMixed returns about n bytes of ordinary Markdown: paragraphs of
// ~350 characters, headings, lists, code and quotes (as the
// dialogs/markdown package's Go benchmark).
func benchMixed(n int) string {
	var b strings.Builder
	b.WriteString("# Review\n\n")
	for i := 0; b.Len() < n; i++ {
		switch i % 6 {
		case 2:
			fmt.Fprintf(&b, "## Section %d\n\n", i)
		case 3:
			fmt.Fprintf(&b, "- %s\n- %s\n- %s\n\n", prose(80, i), prose(120, i+1), prose(60, i+2))
		case 4:
			fmt.Fprintf(&b, "```go\nfunc f%d() error { return nil }\n```\n\n", i)
		case 5:
			fmt.Fprintf(&b, "> %s\n\n", prose(200, i))
		default:
			fmt.Fprintf(&b, "%s **bold** and `code`.\n\n", prose(330, i))
		}
	}
	return b.String()
}

// prose returns n bytes of ordinary words; seed varies them.
func prose(n, seed int) string {
	w := []string{"lorem", "ipsum", "dolor", "sit", "amet,", "consectetur", "adipiscing", "elit", "sed", "do", "eiusmod."}
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(w[(i*7+seed)%len(w)])
	}
	return b.String()[:n]
}

// markdownFigures prints the layout figures.
func (s *session) markdownFigures(runs int) error {
	m, err := s.newMDClient()
	if err != nil {
		return err
	}
	defer m.close()
	var big strings.Builder
	for big.Len() < wire.MaxMarkdownBytes-1000 {
		big.WriteString(prose(350, big.Len()) + "\n\n")
	}
	inputs := []struct {
		name, src string
		runs      int
	}{
		{"one line", "Deploy to production now?", runs},
		{"30 KB mixed Markdown", benchMixed(30 << 10), runs},
		{"one 10 KB paragraph", prose(10<<10, 0), runs},
		{"1 MB (the maximum)", big.String(), max(3, runs/4)},
	}
	medians := make([]time.Duration, len(inputs))
	for i, in := range inputs {
		var d []time.Duration
		for r := range in.runs + 1 { // the first warms the caches
			a, err := m.ask(in.src)
			if err != nil {
				return fmt.Errorf("%s: %w", in.name, err)
			}
			if r > 0 {
				d = append(d, a.mapped)
			}
			if err := a.dismiss(); err != nil {
				return fmt.Errorf("%s: %w", in.name, err)
			}
			time.Sleep(100 * time.Millisecond)
		}
		slices.Sort(d)
		medians[i] = d[len(d)/2]
		switch {
		case i == 0:
			fmt.Printf("%-32s median %7.1f ms  p90 %7.1f ms  (the reference)\n", in.name+" → mapped", ms(medians[0]), ms(d[len(d)*9/10]))
		case in.src == big.String():
			fmt.Printf("%-32s median %7.1f ms  p90 %7.1f ms  target %4.0f ms  median/target %.2f\n",
				in.name+" → mapped", ms(medians[i]), ms(d[len(d)*9/10]), ms(targetLarge), float64(medians[i])/float64(targetLarge))
		default:
			fmt.Printf("%-32s median %7.1f ms  p90 %7.1f ms  ratio %.2f  target ratio %.0f\n",
				in.name+" → mapped", ms(medians[i]), ms(d[len(d)*9/10]), float64(medians[i])/float64(medians[0]), targetRatio)
		}
	}
	perKey, err := m.typingLatency(max(3, runs/5))
	if err != nil {
		return fmt.Errorf("typing: %w", err)
	}
	fmt.Printf("%-32s median %7.1f ms  target %4.0f ms  median/target %.2f\n",
		"key after a 10,000-char token", ms(perKey), ms(targetPerKey), float64(perKey)/float64(targetPerKey))
	return nil
}

// typingLatency pastes a 10,000-character token into the reply box, then
// times keys typed after it: from the first key sent to the answer holding
// them, with k keys and with none, (T(k) − T(0)) / k. X queues the keys, so
// the difference is the app's work for k keys.
func (m *mdClient) typingLatency(runs int) (time.Duration, error) {
	token := strings.Repeat("x", 10000)
	const k = 20
	typed := strings.Repeat("ab", k/2)
	var with, without []time.Duration
	for r := range runs {
		for _, keys := range []string{"", typed} {
			d, err := m.typeAfterToken(token, keys)
			if err != nil {
				return 0, err
			}
			if r == 0 {
				continue // warm-up
			}
			if keys == "" {
				without = append(without, d)
			} else {
				with = append(with, d)
			}
		}
	}
	slices.Sort(with)
	slices.Sort(without)
	return max(0, (with[len(with)/2]-without[len(without)/2])/k), nil
}

func (m *mdClient) typeAfterToken(token, keys string) (time.Duration, error) {
	a, err := m.ask("Paste the token")
	if err != nil {
		return 0, err
	}
	clip := exec.Command("xclip", "-quiet", "-selection", "clipboard", "-i")
	clip.Stdin = strings.NewReader(token)
	if err := clip.Start(); err != nil {
		return 0, err
	}
	defer func() { clip.Process.Kill(); clip.Wait() }()
	time.Sleep(300 * time.Millisecond) // xclip owns the selection
	if err := xdo("search", "--sync", "--onlyvisible", "--name", "^"+a.title+" — feedback$", "windowactivate", "--sync"); err != nil {
		return 0, err
	}
	time.Sleep(time.Second) // past the input guard
	if err := xdo("key", "ctrl+v"); err != nil {
		return 0, err
	}
	time.Sleep(2 * time.Second) // the paste lands (its layout is not timed)
	t0 := time.Now()
	args := []string{"type", "--delay", "0", keys}
	if keys == "" {
		args = nil
	}
	if args != nil {
		if err := xdo(args...); err != nil {
			return 0, err
		}
	}
	if err := xdo("key", "ctrl+Return"); err != nil {
		return 0, err
	}
	select {
	case r := <-a.done:
		if r.err != nil {
			return 0, r.err
		}
		if !strings.Contains(r.text, token+keys) {
			return 0, fmt.Errorf("the answer does not hold the token and the keys (%d characters)", len(r.text))
		}
	case <-time.After(120 * time.Second):
		return 0, errors.New("no answer within 120 s of Ctrl+Enter")
	}
	return time.Since(t0), nil
}

func xdo(args ...string) error {
	cmd := exec.Command("xdotool", args...)
	cmd.Env = append(os.Environ(), "LC_ALL=C.UTF-8") // titles match through the locale
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("xdotool %s: %v: %s", strings.Join(args, " "), err, out)
	}
	return nil
}
