package e2e

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"feedback/e2e/internal/fakeapp"
	"feedback/ipc"
	"feedback/ipc/wire"
)

// loadShims is how many `feedback mcp` processes ask at once: the app's
// cap on open questions (wire.MaxOpenQuestions, which the inbox enforces).
const loadShims = wire.MaxOpenQuestions

// TestSixtyFourShimsAtOnce starts 64 real shims against one app on a real
// socket — the app's server and inbox, with a double in place of the windows
// (fakeapp) — and has every shim ask at the same moment. Every question must
// be shown once, and every caller must get the answer to its own question:
// nothing crossed, nothing lost. It needs no display.
func TestSixtyFourShimsAtOnce(t *testing.T) {
	if bin == "" {
		t.Skip("needs the built binary in FEEDBACK_BIN (`make e2e` sets it); no display is needed")
	}
	seed := uint64(time.Now().UnixNano())
	t.Logf("random seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, seed>>1))

	dir, err := os.MkdirTemp("", "fbload") // short: socket paths are limited to 108 bytes
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	fa := &loadApp{dir: dir}
	// One shim more than the cap: the 65th asks while 64 are open.
	shims := startLoadShims(t, fa.socket(), loadShims+1)
	askers, extra := shims[:loadShims], shims[loadShims]

	t.Run("answered after a short delay", func(t *testing.T) {
		p := &fakeapp.Presenter{Delay: func(wire.Question) time.Duration { return 20 * time.Millisecond }}
		fa.start(t, p)
		checkBurst(t, fa, askers, fireBurst(askers, "short"))
	})

	t.Run("answered in random order after random delays", func(t *testing.T) {
		var mu sync.Mutex // guards rng: Delay runs on the server's goroutines
		p := &fakeapp.Presenter{Delay: func(wire.Question) time.Duration {
			mu.Lock()
			defer mu.Unlock()
			return time.Duration(rng.IntN(300)) * time.Millisecond
		}}
		fa.start(t, p)
		checkBurst(t, fa, askers, fireBurst(askers, "random"))
	})

	t.Run("all held open, a 65th refused, then answered in random order", func(t *testing.T) {
		p := &fakeapp.Presenter{Hold: true}
		fa.start(t, p)
		results := fireBurst(askers, "held")
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		ids, err := p.WaitShown(ctx, loadShims)
		if err != nil {
			t.Fatalf("waiting for the questions to be shown: %v", err)
		}

		// The cap: every slot is taken, so the 65th is refused at once, as
		// an isError result that names the code.
		res, err := extra.ask(ctx, "one question too many")
		switch {
		case err != nil:
			t.Errorf("the 65th question: %v", err)
		case !res.IsError || !strings.Contains(text(res), string(wire.CodeTooMany)):
			t.Errorf("the 65th question: want an isError result naming %s, got isError=%v %q", wire.CodeTooMany, res.IsError, text(res))
		}
		if st := p.Stats(); len(st.Shown) != loadShims {
			t.Errorf("the refused question reached the windows: %d shown", len(st.Shown))
		}

		rng.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
		for _, id := range ids {
			if !p.Answer(id) {
				t.Errorf("question %s was not open when answered", id)
			}
			time.Sleep(time.Duration(rng.IntN(3000)) * time.Microsecond)
		}
		checkBurst(t, fa, askers, results)

		// The slots are free again. A slot is released when the inbox
		// takes the answer, which may reach this caller's shim before the
		// last ones are taken: retry briefly.
		var tooMany int
		for {
			res, err = extra.askWithin(ctx, "a question after the others", p)
			if err != nil || !res.IsError || !strings.Contains(text(res), string(wire.CodeTooMany)) || ctx.Err() != nil {
				break
			}
			tooMany++
			time.Sleep(10 * time.Millisecond)
		}
		if tooMany > 0 {
			t.Logf("after the answers, the 65th was refused %d more time(s) before a slot was free", tooMany)
		}
		switch {
		case err != nil:
			t.Errorf("the 65th question, asked after the others were answered: %v", err)
		case res.IsError:
			t.Errorf("the 65th question, asked after the others were answered: %q", text(res))
		}
	})
}

// loadApp is the fake app of a load test, restarted on the same socket for
// each subtest so the shims (which dial it per call) need no restart.
type loadApp struct {
	dir  string
	app  *fakeapp.App
	logs loadBuffer // the server's and the inbox's warnings and errors
}

func (a *loadApp) socket() string { return a.dir + "/feedback.sock" }

// start serves a fresh inbox shown through p until t ends.
func (a *loadApp) start(t *testing.T, p *fakeapp.Presenter) {
	t.Helper()
	a.logs.Reset()
	log := slog.New(slog.NewTextHandler(&a.logs, &slog.HandlerOptions{Level: slog.LevelWarn}))
	app, err := fakeapp.Start(a.dir, p, ipc.ServerOptions{Version: "load", Logger: log})
	if err != nil {
		t.Fatalf("starting the fake app: %v", err)
	}
	if app.Socket != a.socket() {
		t.Fatalf("the fake app listens on %s, want %s", app.Socket, a.socket())
	}
	a.app = app
	t.Cleanup(func() {
		if err := app.Close(); err != nil {
			t.Errorf("closing the fake app: %v", err)
		}
	})
}

// loadShim is one `feedback mcp` under an MCP client.
type loadShim struct {
	name   string
	c      *client.Client
	stderr *loadBuffer
}

// startLoadShims starts and initializes n shims, a few at a time, all
// dialling socket.
func startLoadShims(t *testing.T, socket string, n int) []*loadShim {
	t.Helper()
	shimEnv := append(append([]string(nil), env...), "FEEDBACK_SOCKET="+socket) // the last one wins
	return startShimsBy(t, n, 8, func(i int) (*loadShim, error) {
		return startLoadShim(bin, fmt.Sprintf("load-%02d", i), shimEnv)
	})
}

// startShimsBy starts n shims with start(i), at most limit of them at a
// time, closes them when the test ends, and fails the test when one did
// not start.
func startShimsBy(t *testing.T, n, limit int, start func(i int) (*loadShim, error)) []*loadShim {
	t.Helper()
	shims := make([]*loadShim, n)
	errs := make([]error, n)
	sem := make(chan struct{}, limit)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			shims[i], errs[i] = start(i)
		})
	}
	wg.Wait()
	t.Cleanup(func() {
		var wg sync.WaitGroup
		for _, s := range shims {
			if s != nil {
				wg.Go(func() { s.c.Close() })
			}
		}
		wg.Wait()
	})
	for i, err := range errs {
		if err != nil {
			t.Fatalf("shim %d: %v", i, err)
		}
	}
	return shims
}

// startLoadShim starts command's `feedback mcp` (the binary under test, or
// the headless one) with shimEnv under an MCP client named name and
// initializes it.
func startLoadShim(command, name string, shimEnv []string) (*loadShim, error) {
	s := &loadShim{name: name, stderr: &loadBuffer{}}
	tr := transport.NewStdioWithOptions(command, shimEnv, []string{"mcp"}, transport.WithCommandStderrWriter(s.stderr))
	if err := tr.Start(context.Background()); err != nil { // lives until Close
		return nil, fmt.Errorf("starting feedback mcp: %w", err)
	}
	s.c = client.NewClient(tr, client.WithProtocolVersion("2025-11-25"))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = "2025-11-25"
	init.Params.ClientInfo = mcp.Implementation{Name: name, Version: "1.0"}
	if _, err := s.c.Initialize(ctx, init); err != nil {
		s.c.Close()
		return nil, fmt.Errorf("initialize: %w (stderr: %s)", err, s.stderr.String())
	}
	return s, nil
}

// ask calls interactive_feedback with message and waits for the result.
func (s *loadShim) ask(ctx context.Context, message string) (*mcp.CallToolResult, error) {
	req := mcp.CallToolRequest{}
	req.Params.Name = "interactive_feedback"
	req.Params.Arguments = map[string]any{"message": message}
	return s.c.CallTool(ctx, req)
}

// askWithin asks message and, since p holds its questions, answers it as
// soon as it is shown.
func (s *loadShim) askWithin(ctx context.Context, message string, p *fakeapp.Presenter) (*mcp.CallToolResult, error) {
	before := len(p.Stats().Shown)
	ch := make(chan callResult, 1)
	go func() {
		res, err := s.ask(ctx, message)
		ch <- callResult{res, err}
	}()
	for {
		select {
		case r := <-ch:
			return r.res, r.err
		case <-time.After(5 * time.Millisecond):
		}
		if st := p.Stats(); len(st.Shown) > before {
			for _, id := range st.Pending {
				p.Answer(id)
			}
		}
	}
}

// burst is the outcome of one call per shim, fired at once.
type burst struct {
	messages []string      // per shim
	results  []callResult  // per shim, once done is closed
	took     time.Duration // from the barrier to the last result
	done     chan struct{}
}

// fireBurst has every shim call interactive_feedback at the same moment,
// each with its own message, and returns without waiting for the results.
func fireBurst(shims []*loadShim, tag string) *burst {
	b := &burst{messages: make([]string, len(shims)), results: make([]callResult, len(shims)), done: make(chan struct{})}
	nonce := rand.Uint32()
	for i := range shims {
		// Fixed width, so that no message is part of another.
		b.messages[i] = fmt.Sprintf("Load %s question %02d of %d (%08x)?", tag, i, len(shims), nonce)
	}
	var ready, wg sync.WaitGroup
	start := make(chan struct{})
	for i, s := range shims {
		ready.Add(1)
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			ready.Done()
			<-start
			res, err := s.ask(ctx, b.messages[i])
			b.results[i] = callResult{res, err}
		})
	}
	ready.Wait()
	t0 := time.Now()
	close(start)
	go func() {
		wg.Wait()
		b.took = time.Since(t0)
		close(b.done)
	}()
	return b
}

// checkBurst waits for b's results and checks each against what the
// presenter saw: one window per question, each caller its own answer.
func checkBurst(t *testing.T, a *loadApp, shims []*loadShim, b *burst) {
	t.Helper()
	select {
	case <-b.done:
	case <-time.After(90 * time.Second):
		t.Fatalf("the %d calls did not all return within 90 s", len(shims))
	}
	accepted, open := a.app.Conns()
	t.Logf("%d calls answered %v after the barrier; the app accepted %d connections, %d still open",
		len(shims), b.took.Round(time.Millisecond), accepted, open)
	st := a.app.Presenter.Stats()
	byClient := make(map[string]wire.Question, len(st.Shown))
	for id, q := range st.Shown {
		if n := st.Shows[id]; n != 1 {
			t.Errorf("question %s was shown %d times", id, n)
		}
		byClient[q.Client] = q
	}
	if len(st.Shown) != len(shims) {
		t.Errorf("%d questions shown, want %d", len(st.Shown), len(shims))
	}
	if len(st.Pending) > 0 || len(st.Withdrawn) > 0 {
		t.Errorf("questions still open %v, withdrawn %v; want none", st.Pending, st.Withdrawn)
	}
	if items := a.app.Inbox.Items(); len(items) > 0 {
		t.Errorf("the inbox still lists %d open questions", len(items))
	}
	seen := make(map[string]string) // question id → shim
	for i, s := range shims {
		r := b.results[i]
		fail := func(format string, args ...any) {
			t.Helper()
			t.Errorf("%s: %s\n--- its stderr:\n%s", s.name, fmt.Sprintf(format, args...), s.stderr.String())
		}
		if r.err != nil {
			fail("tools/call: %v", r.err)
			continue
		}
		if r.res.IsError {
			fail("isError result: %s", text(r.res))
			continue
		}
		id := resultQuestionID(r.res)
		q, ok := st.Shown[id]
		switch {
		case id == "":
			fail("no question_id in the result: %+v", r.res.StructuredContent)
			continue
		case !ok:
			fail("answered question %s was never shown", id)
			continue
		case seen[id] != "":
			fail("got the answer to question %s, already delivered to %s", id, seen[id])
		}
		seen[id] = s.name
		if q.Client != s.name || q.Prompts[0].Markdown != b.messages[i] {
			fail("question %s came from %q asking %q; want %q asking %q", id, q.Client, q.Prompts[0].Markdown, s.name, b.messages[i])
		}
		got := text(r.res)
		if want := fakeapp.ReplyFor(b.messages[i], id); !strings.Contains(got, want) {
			fail("result %q does not contain its own reply %q", got, want)
		}
		for j, other := range shims {
			if j != i && strings.Contains(got, fakeapp.ReplyFor(b.messages[j], "")) {
				fail("result %q contains the reply to %s", got, other.name)
			}
		}
		if len(byClient) > 0 && byClient[s.name].ID != id {
			fail("its question in the windows is %s, its answer is for %s", byClient[s.name].ID, id)
		}
	}
	if logs := a.logs.String(); logs != "" {
		t.Errorf("the app logged warnings under load:\n%s", logs)
	}
}

// resultQuestionID is the question_id of an interactive_feedback result.
func resultQuestionID(res *mcp.CallToolResult) string {
	if m, ok := res.StructuredContent.(map[string]any); ok {
		id, _ := m["question_id"].(string)
		return id
	}
	return ""
}

// loadBuffer is a bytes.Buffer safe for concurrent use.
type loadBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *loadBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *loadBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func (l *loadBuffer) Reset() {
	l.mu.Lock()
	l.b.Reset()
	l.mu.Unlock()
}
