package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"feedback/e2e/internal/xmaps"
	"feedback/ipc"
)

// firstQuestion times an agent's first question when no app runs (after
// login without autostart, or after Quit): each run starts a real MCP
// client whose shim starts the app, which starts its UI process; the call
// is made delay after the client initialized (0: at once, the worst case;
// a model's first turn takes seconds). Each run has a private home with
// the default settings, and no window may be mapped before the call.
// rss is, for delay > 0, the median RSS of the UI process the app
// prepared, just before the call (MiB).
func firstQuestion(bin, dir string, runs int, delay time.Duration) (out []time.Duration, rss float64, err error) {
	mapped, stop, err := xmaps.Watch()
	if err != nil {
		return nil, 0, err
	}
	defer stop()
	var rsses []float64
	for i := range runs + 1 { // the first warms the caches and is not counted
		s := newSession(bin, filepath.Join(dir, "first", strconv.Itoa(int(delay/time.Millisecond)), strconv.Itoa(i)))
		d, r, err := s.firstCall(mapped, delay, "First"+strconv.Itoa(i))
		if qerr := s.quitApp(); err == nil {
			err = qerr
		}
		if err != nil {
			return nil, 0, err
		}
		if i >= 1 {
			out = append(out, d)
			rsses = append(rsses, r)
		}
	}
	slices.Sort(rsses)
	return out, rsses[len(rsses)/2], nil
}

// firstCall starts a shim with no app running, initializes, waits delay,
// and times a question from the call to its window mapped; rss is the UI
// process's just before the call (0: none ran).
func (s *session) firstCall(mapped <-chan time.Time, delay time.Duration, title string) (d time.Duration, rss float64, err error) {
	drain(mapped)
	c, err := s.shim()
	if err != nil {
		return 0, 0, err
	}
	defer c.Close()
	ctx := context.Background()
	time.Sleep(delay)
	select {
	case <-mapped:
		return 0, 0, errors.New("a window was mapped before the first question")
	default:
	}
	if delay > 0 { // at once, the call is made before anything runs
		hctx, cancel := context.WithTimeout(ctx, time.Second)
		if h, err := (&ipc.Client{Path: s.socket}).Hello(hctx); err == nil {
			if pids := uiProcesses(h.PID); len(pids) == 1 {
				rss = rssMiB(pids[0])
			}
		}
		cancel()
	}
	req := mcp.CallToolRequest{}
	req.Params.Name = "interactive_feedback"
	req.Params.Arguments = map[string]any{"message": "## Benchmark\n\nA question with **Markdown** and options.",
		"header_label": title, "predefined_options": []any{"one", "two"}}
	done := make(chan error, 1)
	t0 := time.Now()
	go func() { _, err := c.CallTool(ctx, req); done <- err }()
	select {
	case t1 := <-mapped:
		d = t1.Sub(t0)
	case err := <-done:
		return 0, 0, fmt.Errorf("the call returned before a window was mapped: %v", err)
	case <-time.After(20 * time.Second):
		return 0, 0, errors.New("no window was mapped within 20 s")
	}
	if err := dismiss(title + " — feedback"); err != nil {
		return 0, 0, err
	}
	return d, rss, <-done
}

// quitApp ends the app the session's shim started (SIGTERM, as at log
// out) and waits until it and its UI process are gone.
func (s *session) quitApp() error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	h, err := (&ipc.Client{Path: s.socket}).Hello(ctx)
	cancel()
	if err != nil {
		return nil // none runs
	}
	uis := uiProcesses(h.PID)
	syscall.Kill(h.PID, syscall.SIGTERM)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		alive := syscall.Kill(h.PID, 0) == nil
		for _, p := range uis {
			alive = alive || syscall.Kill(p, 0) == nil
		}
		if !alive {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the app (pid %d) did not quit", h.PID)
		}
	}
}

// firstQuestionFigures reports the first question at once and a second
// after the client initialized, beside zenity's median z.
func firstQuestionFigures(bin, dir string, runs int, z time.Duration) error {
	for _, delay := range []time.Duration{0, time.Second} {
		d, rss, err := firstQuestion(bin, dir, runs, delay)
		if err != nil {
			return fmt.Errorf("first question, %v after initialize: %w", delay, err)
		}
		report(fmt.Sprintf("first question, no app, +%v", delay), d, targetAfterIdle)
		if z > 0 {
			fmt.Printf("%-32s %.2f (median / median zenity)\n", "", float64(median(d))/float64(z))
		}
		if rss > 0 {
			fmt.Printf("%-32s RSS %.0f MiB (the UI process prepared by ui_prewarm, before the call)\n", "", rss)
		}
	}
	return nil
}

// firstAlone is `bench -first`: the first question figures beside zenity.
func firstAlone(bin, dir string, runs int) error {
	var zm time.Duration
	if z, err := zenityLatency(runs); err == nil {
		report("zenity --question → mapped", z, targetAfterIdle)
		zm = median(z)
	}
	return firstQuestionFigures(bin, dir, runs, zm)
}
