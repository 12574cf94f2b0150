// Command bench measures feedback under a real X display (run it through
// `make bench`, which provides Xvfb, a window manager and the built binary):
//
//   - warm popup: from the tools/call line written to the shim's stdin to
//     the question window being mapped on the X display (the app and its UI
//     process already running);
//   - popup after idle (idle.go): the same with no UI process running (the
//     app set to let it go with its last window), beside `zenity
//     --question` spawned the same way;
//   - shim start (shimstart.go): from starting the command `feedback setup`
//     writes to its initialize reply, beside `feedback mcp` in the same run;
//   - idle (idle.go): the resident app's CPU share and RSS once no window is
//     open and its UI process has exited, beside a bare Fyne tray app (what
//     the resident app cost before the split) measured the same way;
//   - Markdown (markdown.go): a question's window being mapped as its
//     Markdown grows (30 KB of mixed Markdown, one 10 KB paragraph, 1 MB),
//     as ratios to a one-line question, and one key typed into a reply
//     box holding a 10,000-character token;
//   - round-trip overhead (overhead.go, no display needed): from the
//     tools/call line written to the result read, with the window replaced
//     by a double that answers at once, through one shim and through 64
//     shims asking at the same moment.
//
// It prints medians (and p90) or p50 and p99, and their ratio to the
// targets. It is a benchmark, not a test: it fails only when it cannot
// measure. Without an X display it prints the overhead figures, then fails.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"feedback/e2e/internal/xmaps"
	"feedback/ipc"
)

const (
	targetLatency   = 100 * time.Millisecond // warm popup
	targetAfterIdle = 300 * time.Millisecond // popup with no UI process running
	targetStart     = 15 * time.Millisecond  // shim start → initialize reply
	targetBurst     = 50 * time.Millisecond  // p99 of 64 calls at once, windowless
	targetIdleCPU   = 0.2                    // % of one core, resident app after the linger
	targetIdleRSS   = 40                     // MiB, resident app after the linger
	targetBurstRSS  = 120                    // MiB, UI process a minute after the Markdown figures' last window
)

func main() {
	runs := flag.Int("runs", 25, "measurements per figure (at least 20)")
	idle := flag.Duration("idle", 60*time.Second, "how long to sample each idle process")
	calls := flag.Int("calls", 500, "sequential calls through one shim for the overhead")
	rounds := flag.Int("rounds", 10, "bursts of 64 simultaneous calls for the overhead")
	mdOnly := flag.Bool("markdown", false, "only the Markdown layout and typing figures")
	afterIdleOnly := flag.Bool("after-idle", false, "only the popup after idle, zenity, and (with -idle > 0) the idle figures")
	shimOnly := flag.Bool("shim-start", false, "only the shim start: the command feedback setup writes beside feedback mcp")
	firstOnly := flag.Bool("first", false, "only the first question with no app running, beside zenity")
	relayOnly := flag.Bool("relay", false, "only the popup through a local MQTT broker (FEEDBACK_RELAY) beside the socket (relay.go)")
	flag.Parse()
	var err error
	switch {
	case *relayOnly:
		err = alone(true, func(bin, dir string) error { return relayBench(bin, os.Getenv("FEEDBACK_HEADLESS_BIN"), dir, *runs) })
	case *firstOnly:
		err = alone(true, func(bin, dir string) error { return firstAlone(bin, dir, *runs) })
	case *shimOnly:
		err = alone(false, func(bin, dir string) error { return shimStartAlone(bin, dir, *runs) })
	case *afterIdleOnly:
		err = alone(true, func(bin, dir string) error { return afterIdle(bin, dir, *runs, *idle) })
	default:
		err = run(*runs, *idle, *calls, *rounds, *mdOnly)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// alone runs f, one group of figures run alone (-first, -shim-start,
// -after-idle), with the binary to measure and a directory of its own;
// display: f needs an X display.
func alone(display bool, f func(bin, dir string) error) error {
	bin := os.Getenv("FEEDBACK_BIN")
	if bin == "" || display && os.Getenv("DISPLAY") == "" {
		return errors.New("run through `make bench` (needs FEEDBACK_BIN and an X display)")
	}
	dir, err := os.MkdirTemp("", "fbbench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	return f(bin, dir)
}

// sessionEnv is the number of variables at the end of session.env that
// make the session private; the shims get them too.
const sessionEnv = 4

// session is a private app instance: its own socket, state, config and data.
type session struct {
	bin    string
	env    []string
	socket string
	app    *exec.Cmd
}

func run(runs int, idle time.Duration, calls, rounds int, mdOnly bool) error {
	bin := os.Getenv("FEEDBACK_BIN")
	if bin == "" {
		return errors.New("run through `make bench` (needs FEEDBACK_BIN and an X display)")
	}
	dir, err := os.MkdirTemp("", "fbbench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)

	fmt.Printf("feedback benchmarks — %d runs each, Xvfb + openbox, %s\n\n", runs, time.Now().Format(time.DateOnly))
	if !mdOnly {
		if err := overhead(bin, filepath.Join(dir, "fake"), calls, rounds); err != nil {
			return fmt.Errorf("round-trip overhead: %w", err)
		}
		fmt.Println()
	}
	if os.Getenv("DISPLAY") == "" {
		return errors.New("the window figures need an X display: run through `make bench`")
	}
	s := newSession(bin, dir)
	if err := s.startApp(); err != nil {
		return err
	}
	defer s.stopApp()

	if mdOnly {
		if err := s.markdownFigures(runs); err != nil {
			return err
		}
		return s.warmUICost(idle)
	}
	lat, err := s.windowLatency(runs, nil)
	if err != nil {
		return fmt.Errorf("window latency: %w", err)
	}
	report("tools/call → window mapped, warm", lat, targetLatency)
	if err := shimStartFigures(bin, dir, s.env, runs); err != nil {
		return fmt.Errorf("shim start: %w", err)
	}
	if err := s.markdownFigures(runs); err != nil {
		return fmt.Errorf("markdown: %w", err)
	}
	if err := s.warmUICost(idle); err != nil {
		return fmt.Errorf("the lingering UI process: %w", err)
	}
	s.stopApp()
	fmt.Println()
	return afterIdle(bin, dir, runs, idle)
}

func report(name string, d []time.Duration, target time.Duration) {
	slices.Sort(d)
	med, p90 := d[len(d)/2], d[len(d)*9/10]
	fmt.Printf("%-32s median %7.1f ms  p90 %7.1f ms  target %4.0f ms  median/target %.2f\n",
		name, ms(med), ms(p90), ms(target), float64(med)/float64(target))
}

// median is d's median (d is sorted).
func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// newSession is a session of bin whose socket, state, settings and data
// (the questions' database: none kept from another run) are under home.
func newSession(bin, home string) *session {
	s := &session{bin: bin, socket: filepath.Join(home, "s.sock")}
	s.env = append(os.Environ(), "FEEDBACK_SOCKET="+s.socket,
		"XDG_STATE_HOME="+filepath.Join(home, "state"), "XDG_CONFIG_HOME="+filepath.Join(home, "config"),
		"XDG_DATA_HOME="+filepath.Join(home, "data"))
	return s
}

func (s *session) startApp() error {
	s.app = exec.Command(s.bin)
	s.app.Env = s.env
	if path := os.Getenv("FEEDBACK_BENCH_APPLOG"); path != "" { // the app's log, for a failing figure
		if f, err := os.Create(path); err == nil {
			s.app.Stderr = f
		}
	}
	if err := s.app.Start(); err != nil {
		return err
	}
	go s.app.Wait()
	c := &ipc.Client{Path: s.socket}
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		_, err := c.Hello(ctx)
		cancel()
		if err == nil {
			time.Sleep(time.Second) // let start-up work settle before measuring
			return nil
		}
	}
	return errors.New("the app did not start")
}

func (s *session) stopApp() {
	if s.app != nil && s.app.Process != nil {
		s.app.Process.Signal(syscall.SIGTERM)
	}
}

// windowLatency asks runs questions through one shim of the session and
// times each from the call to the MapNotify of a new top-level window
// (latencyThrough). before, if not nil, runs before each call (and is not
// timed).
func (s *session) windowLatency(runs int, before func() error) ([]time.Duration, error) {
	return latencyThrough(s.shim, runs, "Bench", before)
}

// latencyThrough asks runs questions through one shim that start starts,
// titled prefix and their number, and times each from the call to the
// MapNotify of a new top-level window; the first two warm the caches and
// are not counted. before, if not nil, runs before each call (and is not
// timed).
func latencyThrough(start func() (*client.Client, error), runs int, prefix string, before func() error) ([]time.Duration, error) {
	mapped, stop, err := xmaps.Watch()
	if err != nil {
		return nil, err
	}
	defer stop()
	c, err := start()
	if err != nil {
		return nil, err
	}
	defer c.Close()
	ctx := context.Background()
	var out []time.Duration
	for i := range runs + 2 { // the first two warm the caches and are not counted
		if before != nil {
			if err := before(); err != nil {
				return nil, err
			}
		}
		title := prefix + strconv.Itoa(i)
		drain(mapped)
		done := make(chan error, 1)
		req := mcp.CallToolRequest{}
		req.Params.Name = "interactive_feedback"
		req.Params.Arguments = map[string]any{"message": "## Benchmark\n\nA question with **Markdown** and options.",
			"header_label": title, "predefined_options": []any{"one", "two"}}
		t0 := time.Now()
		go func() { _, err := c.CallTool(ctx, req); done <- err }()
		select {
		case t1 := <-mapped:
			if i >= 2 {
				out = append(out, t1.Sub(t0))
			}
		case err := <-done:
			return nil, fmt.Errorf("the call returned before a window was mapped: %v", err)
		case <-time.After(10 * time.Second):
			return nil, errors.New("no window was mapped within 10 s")
		}
		if err := dismiss(title + " — feedback"); err != nil {
			return nil, err
		}
		if err := <-done; err != nil {
			return nil, err
		}
		time.Sleep(100 * time.Millisecond)
	}
	return out, nil
}

// shim starts a shim of the session (`feedback mcp`) under a real MCP
// client and initializes it.
func (s *session) shim() (*client.Client, error) {
	return stdioShim(s.bin, s.env[len(s.env)-sessionEnv:])
}

// stdioShim starts command's `mcp` with env under a real MCP client and
// initializes it.
func stdioShim(command string, env []string) (*client.Client, error) {
	tr := transport.NewStdioWithOptions(command, env, []string{"mcp"})
	if err := tr.Start(context.Background()); err != nil {
		return nil, err
	}
	c := client.NewClient(tr, client.WithProtocolVersion("2025-11-25"))
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = "2025-11-25"
	init.Params.ClientInfo = mcp.Implementation{Name: "bench", Version: "1"}
	if _, err := c.Initialize(context.Background(), init); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

func drain(ch <-chan time.Time) {
	for {
		select {
		case <-ch:
		default:
			return
		}
	}
}

// dismiss presses Escape in the window titled title, once the input guard
// lets it act.
func dismiss(title string) error {
	search := exec.Command("xdotool", "search", "--sync", "--onlyvisible", "--name", "^"+title+"$",
		"windowactivate", "--sync")
	search.Env = append(os.Environ(), "LC_ALL=C.UTF-8") // titles match through the locale
	out, err := search.CombinedOutput()
	if err != nil {
		return fmt.Errorf("xdotool: %v: %s", err, out)
	}
	time.Sleep(time.Second) // the input guard ignores keys that act for a while after the focus
	if out, err := exec.Command("xdotool", "key", "Escape").CombinedOutput(); err != nil {
		return fmt.Errorf("xdotool: %v: %s", err, out)
	}
	return nil
}

// idleCost samples pid's CPU time and RSS over d.
func idleCost(pid int, d time.Duration) (cpuPercent, rss float64, err error) {
	t0, err := cpuTicks(pid)
	if err != nil {
		return 0, 0, err
	}
	start := time.Now()
	time.Sleep(d)
	t1, err := cpuTicks(pid)
	if err != nil {
		return 0, 0, err
	}
	const clkTck = 100 // USER_HZ on Linux
	cpuPercent = float64(t1-t0) / clkTck / time.Since(start).Seconds() * 100
	if _, err := os.Stat(fmt.Sprintf("/proc/%d", pid)); err != nil {
		return 0, 0, err
	}
	return cpuPercent, rssMiB(pid), nil
}

// rssMiB is pid's resident set in MiB (0 if it cannot be read).
func rssMiB(pid int) float64 {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(status), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, _ := strconv.ParseFloat(f[1], 64)
			return kb / 1024
		}
	}
	return 0
}

// cpuTicks is utime+stime of pid, in clock ticks.
func cpuTicks(pid int) (int64, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The command name may hold spaces: fields count from after its ")".
	f := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+1:]))
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return utime + stime, nil
}
