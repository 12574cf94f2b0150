package mcpshim

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"feedback/ipc/wire"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// The end-to-end tests run one at a time: mcp-go's stdio server keeps its
// session in a package variable.

const testProtocolVersion = "2025-11-25"

// askFunc is a fake ipc.Asker of the question alone.
type askFunc func(ctx context.Context, q wire.Question, onEvent func(wire.Event)) (wire.Answer, error)

func (f askFunc) Ask(ctx context.Context, a wire.Ask, onEvent func(wire.Event)) (wire.Answer, error) {
	return f(ctx, a.Question, onEvent)
}

// connectTo returns a Connect that always yields a.
func connectTo(a wire.Asker) func(context.Context) (wire.Asker, error) {
	return func(context.Context) (wire.Asker, error) { return a, nil }
}

// syncBuffer is a log sink shared by the server's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startShim runs ServeStdio on a pair of pipes and returns an initialised
// mcp-go client talking to it. Cleanup closes the client and checks that
// ServeStdio returns nil at EOF.
func startShim(t *testing.T, opts Options) *client.Client {
	c, _ := startShimLogged(t, opts)
	return c
}

// startShimLogged is startShim that also returns the server's log.
func startShimLogged(t *testing.T, opts Options, copts ...client.ClientOption) (*client.Client, *syncBuffer) {
	t.Helper()
	return startShimAt(t, opts, testProtocolVersion, "shim-test", copts...)
}

// startShimAt is startShimLogged for a client named name that speaks the
// protocol revision version (2026-07-28: no initialize, _meta on every
// request).
func startShimAt(t *testing.T, opts Options, version, name string, copts ...client.ClientOption) (*client.Client, *syncBuffer) {
	t.Helper()
	logs := &syncBuffer{}
	opts.Logger = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	if opts.Version == "" {
		opts.Version = "test"
	}
	toServer, clientOut := io.Pipe()
	clientIn, fromServer := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- ServeStdio(context.Background(), opts, toServer, fromServer)
		fromServer.Close()
	}()

	c := client.NewClient(transport.NewIO(clientIn, clientOut, nil), append([]client.ClientOption{client.WithProtocolVersion(version)}, copts...)...)
	t.Cleanup(func() {
		c.Close() // closes the server's input
		// A client process that exits closes its end of the shim's stdout
		// too: the shim's last writes then fail instead of blocking on a
		// pipe nobody reads (an io.Pipe would block them for good).
		clientIn.Close()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("ServeStdio at EOF: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Errorf("ServeStdio did not return after EOF")
		}
		if t.Failed() {
			t.Logf("server log:\n%s", logs.String())
		}
	})
	// The transport answers the server's requests (elicitation) under
	// Start's context: it must outlive the start.
	if err := c.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = version
	init.Params.ClientInfo = mcp.Implementation{Name: name, Version: "1.0"}
	res, err := c.Initialize(ctx, init)
	if err != nil {
		t.Fatalf("initialize: %v", err)
	}
	if got := c.ProtocolVersion(); got != version {
		t.Fatalf("the client speaks %s, want %s", got, version)
	}
	if res.ServerInfo.Name != "feedback" || res.ServerInfo.Version != opts.Version || res.Instructions == "" {
		t.Errorf("serverInfo = %+v, instructions = %q", res.ServerInfo, res.Instructions)
	}
	return c, logs
}

// callTool calls interactive_feedback with args.
func callTool(t *testing.T, c *client.Client, args any) *mcp.CallToolResult {
	t.Helper()
	return callNamed(t, c, "interactive_feedback", args)
}

func TestE2EListTools(t *testing.T) {
	c := startShim(t, Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(res.Tools, func(tool mcp.Tool) bool { return tool.Name == "interactive_feedback" })
	if len(res.Tools) != len(tools) || i < 0 {
		t.Fatalf("tools = %+v", res.Tools)
	}
	tool := res.Tools[i]
	if len(tool.InputSchema.Properties) != 23 || len(tool.InputSchema.Required) != 0 {
		t.Errorf("input schema has %d properties and requires %v", len(tool.InputSchema.Properties), tool.InputSchema.Required)
	}
	if tool.OutputSchema.Type != "object" || !slices.Contains(tool.OutputSchema.Required, "user_reply") {
		t.Errorf("outputSchema = %+v, want the object of its structuredContent", tool.OutputSchema)
	}
	a := tool.Annotations
	if a.Title != "Ask the user" || !*a.ReadOnlyHint || *a.DestructiveHint || *a.OpenWorldHint || *a.IdempotentHint {
		t.Errorf("annotations = %+v", a)
	}
}

func TestE2ECallAnswered(t *testing.T) {
	var got wire.Question
	asker := &closingAsker{Asker: askFunc(func(ctx context.Context, q wire.Question, onEvent func(wire.Event)) (wire.Answer, error) {
		got = q
		onEvent(wire.Event{Type: wire.EventShown})
		return wire.Answer{QuestionID: q.ID, Status: wire.StatusAnswered, ElapsedMS: 42,
			Replies: []wire.Reply{{Selected: []string{"Apply"}, Text: "and add a test"}}}, nil
	})}
	c, logs := startShimLogged(t, Options{Connect: connectTo(asker)})
	res := callTool(t, c, map[string]any{
		"summary": "Apply the patch?", "options": []any{map[string]any{"label": "Apply", "default": true}, "Skip"},
		"header_label": "Patch", "loop_id": "fix-1", "timeout": 60, "timeout_seconds": 60,
	})
	if res.IsError {
		t.Fatalf("isError: %s", resultText(t, res))
	}
	if text := resultText(t, res); text != "Selected options:\n- Apply\n\nUser reply:\nand add a test" {
		t.Errorf("text = %q", text)
	}
	sc, _ := res.StructuredContent.(map[string]any)
	if sc["status"] != "answered" || sc["question_id"] != got.ID || sc["user_reply"] != "and add a test" || sc["elapsed_ms"] != float64(42) {
		t.Errorf("structuredContent = %#v", res.StructuredContent)
	}
	p := got.Prompts[0]
	if got.Client != "shim-test" || got.Source != "interactive_feedback" || got.Title != "Patch" ||
		p.Markdown != "Apply the patch?" || len(p.Options) != 2 || !p.Options[0].Default ||
		len(got.Context) != 1 || got.Context[0] != (wire.Field{Label: "Loop", Value: "fix-1"}) {
		t.Errorf("question = %+v", got)
	}
	if !asker.closed.Load() {
		t.Error("the ipc.Asker was not closed after the call")
	}
	if log := logs.String(); !strings.Contains(log, "ignoring compatibility arguments") || !strings.Contains(log, "fields=\"[timeout timeout_seconds]\"") {
		t.Errorf("no debug line for the ignored timeout and timeout_seconds:\n%s", log)
	}
}

// closingAsker records that it was closed.
type closingAsker struct {
	wire.Asker
	closed atomic.Bool
}

func (c *closingAsker) Close() error {
	c.closed.Store(true)
	return nil
}

func TestE2ECallInvalid(t *testing.T) {
	var called atomic.Bool
	c := startShim(t, Options{Connect: func(context.Context) (wire.Asker, error) { called.Store(true); return nil, errors.New("unused") }})
	for _, tc := range []struct {
		name string
		args any
		want string
	}{
		{"no message", map[string]any{"options": []any{"A"}}, "message: required"},
		{"message is a number", map[string]any{"message": 3}, "message: must be a string, got number"},
		{"options is an object", map[string]any{"message": "m", "predefined_options": map[string]any{}}, "predefined_options: must be an array"},
		{"arguments are an array", []any{"m"}, "arguments: must be a JSON object, got array"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := callTool(t, c, tc.args)
			text := resultText(t, res)
			if !res.IsError || !strings.Contains(text, tc.want) || !strings.HasPrefix(text, "Invalid arguments for interactive_feedback: ") {
				t.Errorf("isError = %v, text = %q; want an error containing %q", res.IsError, text, tc.want)
			}
		})
	}
	if called.Load() {
		t.Error("Connect was called for an invalid call")
	}
}

// The app cannot be reached or started, and the client offers no form:
// the question and its options come back for the agent to ask in chat.
func TestE2EConnectFails(t *testing.T) {
	cause := "dial unix /run/user/1000/feedback/sock: connect: no such file or directory"
	c := startShim(t, Options{Connect: func(context.Context) (wire.Asker, error) { return nil, errors.New(cause) }})
	res := callTool(t, c, map[string]any{"message": "Ship it?", "predefined_options": []any{"Yes", "Not yet"}})
	text := resultText(t, res)
	want := "The feedback window cannot be shown (" + cause + "). Nothing was answered. Ask the user this in chat yourself and wait for their reply; do not guess:\n\n" +
		"Ship it?\nOptions (choose any number):\n- Yes\n- Not yet\nThe user may also reply in their own words."
	if res.IsError || text != want {
		t.Errorf("isError = %v, text = %q\nwant %q", res.IsError, text, want)
	}
	if sc := structuredMap(t, res); sc["status"] != "needs_user_input" {
		t.Errorf("structuredContent = %v", sc)
	}
}

func TestE2EAskFails(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"refused", fmt.Errorf("ask: %w", &wire.Error{Code: wire.CodeTooMany, Message: "8 questions are open"}), "The feedback window could not collect the user's answer (the feedback app refused the question (too_many): 8 questions are open). Nothing was answered."},
		{"no display", &wire.Error{Code: wire.CodeNoDisplay, Message: "DISPLAY is not set"}, "The feedback window cannot be shown (the feedback app refused the question (no_display): DISPLAY is not set; the app cannot show windows on this machine: ask the user in chat instead). Nothing was answered. Ask the user this in chat yourself"},
		// A revoked relay pairing: asked in chat, told why, never "cannot show windows".
		{"revoked", &wire.Error{Code: wire.CodeRevoked, Message: "this pairing was revoked on the desktop; pair again"}, "The feedback window cannot be shown (the feedback app refused the question (revoked): this pairing was revoked on the desktop; pair again; ask the user in chat instead, and tell them this machine's relay pairing was revoked on their desktop: they must pair it again). Nothing was answered. Ask the user this in chat yourself"},
		{"connection lost", io.ErrUnexpectedEOF, "The feedback window could not collect the user's answer (unexpected EOF). Nothing was answered. Call interactive_feedback again to ask the user."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			asker := askFunc(func(context.Context, wire.Question, func(wire.Event)) (wire.Answer, error) {
				return wire.Answer{}, tc.err
			})
			c := startShim(t, Options{Connect: connectTo(asker)})
			res := callTool(t, c, map[string]any{"message": "m"})
			wantErr := !errors.Is(tc.err, &wire.Error{Code: wire.CodeNoDisplay}) && !errors.Is(tc.err, &wire.Error{Code: wire.CodeRevoked}) // ask in chat
			text := resultText(t, res)
			if res.IsError != wantErr || !strings.Contains(text, tc.want) {
				t.Errorf("isError = %v, text = %q; want %q", res.IsError, text, tc.want)
			}
			if errors.Is(tc.err, &wire.Error{Code: wire.CodeRevoked}) && strings.Contains(text, "cannot show windows") {
				t.Errorf("a revoked pairing is told the app cannot show windows: %q", text)
			}
		})
	}
}

// TestE2EParallelCalls proves the worker pool is larger than mcp-go's
// default of 5: the fake app holds every question until 8 are open at once.
func TestE2EParallelCalls(t *testing.T) {
	const n = 8
	var mu sync.Mutex
	arrived := 0
	all := make(chan struct{})
	asker := askFunc(func(ctx context.Context, q wire.Question, _ func(wire.Event)) (wire.Answer, error) {
		mu.Lock()
		if arrived++; arrived == n {
			close(all)
		}
		mu.Unlock()
		select {
		case <-all:
			return wire.Answer{QuestionID: q.ID, Status: wire.StatusAnswered, Replies: []wire.Reply{{Text: q.Prompts[0].Markdown}}}, nil
		case <-time.After(3 * time.Second):
			mu.Lock()
			defer mu.Unlock()
			return wire.Answer{}, fmt.Errorf("only %d of %d questions arrived at once", arrived, n)
		case <-ctx.Done():
			return wire.Answer{}, ctx.Err()
		}
	})
	c := startShim(t, Options{Connect: connectTo(asker)})
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			msg := fmt.Sprintf("question %d", i)
			res := callTool(t, c, map[string]any{"message": msg})
			if text := resultText(t, res); res.IsError || text != "User reply:\n"+msg {
				t.Errorf("call %d: isError = %v, text = %q", i, res.IsError, text)
			}
		})
	}
	wg.Wait()
}

// TestE2ECancel checks that a client's cancellation reaches the Asker.
func TestE2ECancel(t *testing.T) {
	started := make(chan struct{})
	cancelled := make(chan error, 1)
	asker := askFunc(func(ctx context.Context, q wire.Question, _ func(wire.Event)) (wire.Answer, error) {
		close(started)
		select {
		case <-ctx.Done():
			cancelled <- ctx.Err()
			return wire.Answer{}, ctx.Err()
		case <-time.After(10 * time.Second):
			return wire.Answer{QuestionID: q.ID, Status: wire.StatusTimeout}, nil
		}
	})
	c := startShim(t, Options{Connect: connectTo(asker)})
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		req := mcp.CallToolRequest{}
		req.Params.Name = "interactive_feedback"
		req.Params.Arguments = map[string]any{"message": "m"}
		_, err := c.CallTool(ctx, req)
		errc <- err
	}()
	select {
	case <-started:
	case <-time.After(5 * time.Second):
		t.Fatal("the question never reached the ipc.Asker")
	}
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Errorf("CallTool after cancel: %v", err)
	}
	select {
	case err := <-cancelled:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("ipc.Asker's ctx ended with %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the ipc.Asker's context was not cancelled")
	}
}
