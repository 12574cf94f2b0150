package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"feedback/e2e/internal/fakeapp"
	"feedback/ipc"
	"feedback/ipc/wire"
)

// The round-trip overhead: what feedback adds to a question when the human
// takes no time. The window is replaced by a double that answers at once
// (fakeapp), so these figures need no display.
const (
	// targetOverhead bounds the p99 of one call through an idle shim and app.
	targetOverhead = 5 * time.Millisecond
	// A burst of 64 questions at once must still leave the window its
	// latency budget: its p99 is compared with targetBurst.
	burstShims = 64
)

// overhead measures the round trip through a fake app on a socket in dir:
// calls sequential tools/call through one shim, then rounds bursts of
// burstShims shims calling at the same moment, and, for comparison, the
// socket and inbox alone (ipc.Client, no shim).
func overhead(bin, dir string, calls, rounds int) error {
	fa, err := fakeapp.Start(dir, &fakeapp.Presenter{}, ipc.ServerOptions{Version: "bench"})
	if err != nil {
		return fmt.Errorf("starting the fake app: %w", err)
	}
	defer fa.Close()
	env := append(os.Environ(), "FEEDBACK_SOCKET="+fa.Socket,
		"XDG_STATE_HOME="+filepath.Join(dir, "state"), "XDG_CONFIG_HOME="+filepath.Join(dir, "config"))

	direct, err := askDirect(fa.Socket, calls)
	if err != nil {
		return fmt.Errorf("ipc alone: %w", err)
	}
	reportP99("Hello+Ask → answer, no shim", direct, 0)

	accepted0, open0 := fa.Conns()
	s, err := startRawShim(bin, env)
	if err != nil {
		return err
	}
	single, err := s.calls(calls, 10)
	accepted, open := fa.Conns()
	s.close()
	if err != nil {
		return fmt.Errorf("one shim: %w", err)
	}
	reportP99("tools/call → result, 1 shim", single, targetOverhead)
	fmt.Printf("%-32s %d calls: %d connections accepted, %d still open in the app after them\n",
		"", calls+10, accepted-accepted0, open-open0)

	burst, err := bursts(bin, env, rounds)
	if err != nil {
		return fmt.Errorf("%d shims: %w", burstShims, err)
	}
	reportP99(fmt.Sprintf("tools/call → result, %d at once", burstShims), burst, targetBurst)
	return nil
}

// reportP99 prints the p50 and p99 of d, and p99's ratio to target (none
// when target is 0).
func reportP99(name string, d []time.Duration, target time.Duration) {
	slices.Sort(d)
	p50, p99 := d[len(d)/2], d[len(d)*99/100]
	line := fmt.Sprintf("%-32s p50    %7.2f ms  p99 %7.2f ms", name, ms(p50), ms(p99))
	if target > 0 {
		line += fmt.Sprintf("  target %4.0f ms  p99/target %.2f", ms(target), float64(p99)/float64(target))
	}
	fmt.Printf("%s  (n=%d)\n", line, len(d))
}

// askDirect times calls questions asked straight over the socket the way
// the shim asks (a fresh client: Hello, then Ask), after 10 not counted.
func askDirect(socket string, calls int) ([]time.Duration, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var out []time.Duration
	for i := range calls + 10 {
		q := wire.Question{ID: fmt.Sprintf("direct-%d", i), Source: "bench",
			Prompts: []wire.Prompt{{Markdown: fmt.Sprintf("Direct question %d?", i)}}}
		t0 := time.Now()
		c := &ipc.Client{Path: socket}
		if _, err := c.Hello(ctx); err != nil {
			return nil, err
		}
		a, err := c.Ask(ctx, wire.Ask{Question: q}, nil)
		d := time.Since(t0)
		if err != nil {
			return nil, err
		}
		if len(a.Replies) != 1 || a.Replies[0].Text != fakeapp.Reply(q) {
			return nil, fmt.Errorf("question %s got the answer %+v", q.ID, a)
		}
		if i >= 10 {
			out = append(out, d)
		}
	}
	return out, nil
}

// bursts has burstShims shims call at the same moment, rounds times after a
// round not counted, and returns every call's round trip.
func bursts(bin string, env []string, rounds int) ([]time.Duration, error) {
	shims := make([]*rawShim, burstShims)
	defer func() {
		for _, s := range shims {
			if s != nil {
				s.close()
			}
		}
	}()
	for i := range shims {
		s, err := startRawShim(bin, env)
		if err != nil {
			return nil, err
		}
		shims[i] = s
	}
	var out []time.Duration
	for r := range rounds + 1 {
		d := make([]time.Duration, len(shims))
		errs := make([]error, len(shims))
		var ready, wg sync.WaitGroup
		start := make(chan struct{})
		for i, s := range shims {
			ready.Add(1)
			wg.Go(func() {
				ready.Done()
				<-start
				d[i], errs[i] = s.call()
			})
		}
		ready.Wait()
		close(start)
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			return nil, err
		}
		if r > 0 {
			out = append(out, d...)
		}
	}
	return out, nil
}

// rawShim is `feedback mcp` driven over its pipes, so that a round trip is
// timed from the tools/call line written to the result line read, with no
// MCP client library in between.
type rawShim struct {
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Reader
	next int // the next request id
}

func startRawShim(bin string, env []string) (*rawShim, error) {
	cmd := exec.Command(bin, "mcp")
	cmd.Env = env
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &rawShim{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 64<<10), next: 2}
	if _, err := s.roundTrip(1, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`); err != nil {
		s.close()
		return nil, fmt.Errorf("initialize: %w", err)
	}
	if _, err := io.WriteString(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"); err != nil {
		s.close()
		return nil, err
	}
	return s, nil
}

// calls times n calls after warm calls not counted.
func (s *rawShim) calls(n, warm int) ([]time.Duration, error) {
	var out []time.Duration
	for i := range n + warm {
		d, err := s.call()
		if err != nil {
			return nil, err
		}
		if i >= warm {
			out = append(out, d)
		}
	}
	return out, nil
}

// call asks one interactive_feedback question, times the round trip and
// checks that the answer is this question's own.
func (s *rawShim) call() (time.Duration, error) {
	id := s.next
	s.next++
	msg := fmt.Sprintf("Bench question %d from shim %d?", id, s.cmd.Process.Pid)
	args, _ := json.Marshal(map[string]any{"message": msg})
	line := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"interactive_feedback","arguments":%s}}`, id, args)
	t0 := time.Now()
	res, err := s.roundTrip(id, line)
	d := time.Since(t0)
	if err != nil {
		return 0, err
	}
	var r struct {
		Result struct {
			IsError           bool `json:"isError"`
			StructuredContent struct {
				QuestionID string `json:"question_id"`
				UserReply  string `json:"user_reply"`
			} `json:"structuredContent"`
		} `json:"result"`
	}
	if err := json.Unmarshal(res, &r); err != nil {
		return 0, fmt.Errorf("tools/call result: %w", err)
	}
	sc := r.Result.StructuredContent
	if r.Result.IsError || sc.UserReply != fakeapp.ReplyFor(msg, sc.QuestionID) {
		return 0, fmt.Errorf("tools/call %d: not its own answer: %s", id, res)
	}
	return d, nil
}

// roundTrip writes line and returns the response with id, skipping the
// notifications before it.
func (s *rawShim) roundTrip(id int, line string) ([]byte, error) {
	if _, err := io.WriteString(s.in, line+"\n"); err != nil {
		return nil, err
	}
	for {
		resp, err := s.out.ReadBytes('\n')
		if err != nil {
			return nil, fmt.Errorf("reading the shim's output: %w", err)
		}
		var head struct {
			ID    *int            `json:"id"`
			Error json.RawMessage `json:"error"`
		}
		if err := json.Unmarshal(resp, &head); err != nil {
			return nil, fmt.Errorf("the shim wrote %q: %w", resp, err)
		}
		if head.ID == nil || *head.ID != id {
			continue // a notification
		}
		if head.Error != nil {
			return nil, fmt.Errorf("JSON-RPC error: %s", head.Error)
		}
		return resp, nil
	}
}

func (s *rawShim) close() {
	s.in.Close()
	done := make(chan struct{})
	go func() { s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		s.cmd.Process.Kill()
		<-done
	}
}
