package mcpshim

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// The shim works around what mcp-go does not do, each workaround checked
// against exactly this version of mcp-go: stdio.go (no response to a
// cancelled request, progress in order with results, a bounded input
// line), tasks.go (a bounded TTL, no task for a 2026-07-28 client),
// taskhandoff.go (tasks lost with the shim). An upgrade that fixes one
// leaves the workaround in place and one that changes the behaviour around
// it may break it unseen, so it cannot land unread: this test fails until
// someone has read those files against the new version, run the probes
// below against it (each says what to drop when mcp-go now does it), read
// docs/upstream/mcp-go-*.md (the requests that would make them unneeded),
// and updated verifiedMCPGo.
const verifiedMCPGo = "v1.6.0"

func TestMCPGoWorkaroundsVerified(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "go.mod")) // what every build links
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^\s*github\.com/mark3labs/mcp-go\s+(v\S+)`).FindStringSubmatch(string(data))
	if m == nil {
		t.Fatal("go.mod does not name github.com/mark3labs/mcp-go: read it as a change of version")
	}
	if m[1] != verifiedMCPGo {
		t.Errorf("go.mod has github.com/mark3labs/mcp-go %s, but the shim's workarounds (stdio.go, tasks.go, taskhandoff.go) "+
			"were verified against %s: re-read them and docs/upstream/mcp-go-*.md against %s, run this file's probes, then update verifiedMCPGo",
			m[1], verifiedMCPGo, m[1])
	}
	if strings.Contains(string(data), "\nreplace") {
		t.Error("go.mod replaces a module: check that mcp-go is not among them, then teach this test")
	}
}

// The probes: mcp-go alone (its StdioServer over pipes, without the shim's
// stream), doing what the workarounds are for. Each fails when mcp-go no
// longer does it, saying what can go.

// bareMCPGo is mcp-go's stdio server over pipes, read raw.
type bareMCPGo struct {
	t    *testing.T
	in   io.WriteCloser
	mu   sync.Mutex
	seen []rawLine
	got  chan struct{}
	eof  chan struct{}
	done chan error
}

// startBareMCPGo serves s over pipes; out, when not nil, wraps the
// server's output writer (it must pass every byte on).
func startBareMCPGo(t *testing.T, s *server.MCPServer, out func(io.Writer) io.Writer) *bareMCPGo {
	t.Helper()
	b := &bareMCPGo{t: t, got: make(chan struct{}, 1), eof: make(chan struct{}), done: make(chan error, 1)}
	toServer, in := io.Pipe()
	fromServer, w := io.Pipe()
	b.in = in
	var serverOut io.Writer = w
	if out != nil {
		serverOut = out(w)
	}
	stdio := server.NewStdioServer(s)
	stdio.SetErrorLogger(log.New(io.Discard, "", 0))
	go func() {
		b.done <- stdio.Listen(context.Background(), toServer, serverOut)
		w.Close()
	}()
	go func() {
		defer close(b.eof)
		sc := bufio.NewScanner(fromServer)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var l rawLine
			if json.Unmarshal(sc.Bytes(), &l) != nil {
				continue
			}
			l.raw = sc.Text()
			b.mu.Lock()
			b.seen = append(b.seen, l)
			b.mu.Unlock()
			select {
			case b.got <- struct{}{}:
			default:
			}
		}
	}()
	t.Cleanup(func() {
		in.Close()
		select {
		case <-b.done:
		case <-time.After(10 * time.Second):
			t.Error("mcp-go's Listen did not return after EOF")
		}
	})
	return b
}

func (b *bareMCPGo) send(line string) {
	b.t.Helper()
	if _, err := io.WriteString(b.in, line+"\n"); err != nil {
		b.t.Fatalf("write: %v", err)
	}
}

// response waits for the response with this JSON id.
func (b *bareMCPGo) response(id string) rawLine {
	b.t.Helper()
	deadline := time.After(time.Minute) // bounds a hang: a 17 MiB line takes its time under -race
	for {
		b.mu.Lock()
		for _, l := range b.seen {
			if l.Method == "" && string(l.ID) == id {
				b.mu.Unlock()
				return l
			}
		}
		b.mu.Unlock()
		select {
		case <-b.got:
		case <-b.eof:
			b.t.Fatalf("no response to %s before the end of the output", id)
		case <-deadline:
			b.t.Fatalf("no response to %s", id)
		}
	}
}

// initialize opens the session as an older (2025-11-25) client does.
func (b *bareMCPGo) initialize() {
	b.t.Helper()
	b.send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"` + testProtocolVersion + `","capabilities":{},"clientInfo":{"name":"probe","version":"1"}}}`)
	b.response(`"init"`)
	b.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

// closeAndDrain ends the input and returns every line written once Listen
// has returned.
func (b *bareMCPGo) closeAndDrain() []rawLine {
	b.t.Helper()
	b.in.Close()
	select {
	case <-b.eof:
	case <-time.After(10 * time.Second):
		b.t.Fatal("mcp-go's output did not end after its input did")
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]rawLine(nil), b.seen...)
}

// probeServer is an MCPServer with one tool, "probe", served by handler.
func probeServer(handler server.ToolHandlerFunc, opts ...server.ServerOption) *server.MCPServer {
	s := server.NewMCPServer("probe", "1", append([]server.ServerOption{server.WithToolCapabilities(false)}, opts...)...)
	s.AddTool(mcp.NewTool("probe"), handler)
	return s
}

// mcp-go writes the handler's error as the response to a request the
// client cancelled. When it no longer does, stdioStream's dropResponse
// (and the tracking of requests in observe) can go; the progress of a
// cancelled call still needs the tracking (TestMCPGoWritesNotificationsLater).
func TestMCPGoAnswersACancelledRequest(t *testing.T) {
	started, returned := make(chan struct{}), make(chan struct{})
	b := startBareMCPGo(t, probeServer(func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		close(started)
		<-ctx.Done()
		defer close(returned)
		return nil, ctx.Err()
	}), nil)
	b.initialize()
	b.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"probe"}}`)
	<-started
	b.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`)
	<-returned
	for _, l := range b.closeAndDrain() { // Listen waits for its workers: every response is written
		if l.Method == "" && string(l.ID) == "1" {
			return // still so: the stream's drop is needed
		}
	}
	t.Errorf("mcp-go %s no longer answers a request the client cancelled: drop stdioStream's dropResponse (stdio.go) "+
		"and docs/upstream/mcp-go-cancelled-response.md", verifiedMCPGo)
}

// gatedWriter holds every write while closed is set, until open.
type gatedWriter struct {
	w      io.Writer
	mu     sync.Mutex
	closed bool
	open   chan struct{}
}

func (g *gatedWriter) Write(p []byte) (int, error) {
	g.mu.Lock()
	closed := g.closed
	g.mu.Unlock()
	if closed {
		<-g.open
	}
	return g.w.Write(p)
}

// SendNotificationToClient returns before the notification is written
// (mcp-go queues it for another goroutine), so a progress sent before a
// result may be written after it. When it waits for the write instead,
// stdioStream's notify (progress.go's progressSender) can go, and the
// heartbeat can send through mcp-go.
func TestMCPGoWritesNotificationsLater(t *testing.T) {
	gate := &gatedWriter{open: make(chan struct{})}
	sent := make(chan error, 1)
	b := startBareMCPGo(t, probeServer(func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		gate.mu.Lock()
		gate.closed = true // nothing can be written from now on
		gate.mu.Unlock()
		sent <- server.ServerFromContext(ctx).SendNotificationToClient(ctx, string(mcp.MethodNotificationProgress),
			map[string]any{"progressToken": "p", "progress": 1})
		return mcp.NewToolResultText("done"), nil
	}), func(w io.Writer) io.Writer { gate.w = w; return gate })
	b.initialize()
	b.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"probe","_meta":{"progressToken":"p"}}}`)
	select {
	case err := <-sent:
		if err != nil {
			t.Fatalf("SendNotificationToClient: %v", err)
		}
		// returned with nothing written: still so
	case <-time.After(3 * time.Second):
		t.Errorf("mcp-go %s's SendNotificationToClient now waits for the write: the stream's own notify (stdio.go, progress.go) "+
			"may go; see docs/upstream/mcp-go-notification-order.md", verifiedMCPGo)
	}
	close(gate.open)
	b.response("1")
}

// mcp-go reads an input line whole, however long: a request padded past
// the shim's cap (maxInputLineBytes) is read and answered. When mcp-go
// bounds a line itself, tapReader's cap can go. (About 100 MB of memory:
// not in -short.)
func TestMCPGoReadsAnyLongLine(t *testing.T) {
	if testing.Short() {
		t.Skip("reads a line over 16 MiB")
	}
	b := startBareMCPGo(t, probeServer(func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("done"), nil
	}), nil)
	b.initialize()
	pad := maxInputLineBytes + 1<<20
	go func() {
		io.WriteString(b.in, `{"jsonrpc":"2.0","id":2,"method":"ping","params":{"_meta":{"pad":"`)
		chunk := strings.Repeat("x", 64<<10)
		for n := 0; n < pad; n += len(chunk) {
			if _, err := io.WriteString(b.in, chunk); err != nil {
				return
			}
		}
		io.WriteString(b.in, `"}}}`+"\n")
	}()
	if l := b.response("2"); l.Result == nil {
		t.Errorf("mcp-go %s refused a line of %d bytes (%s): if it bounds a line itself now, tapReader's cap (stdio.go) may go; "+
			"see docs/upstream/mcp-go-line-limit.md", verifiedMCPGo, pad, l.raw)
	}
}

// A task's TTL beyond a time.Duration's range becomes a negative sleep:
// mcp-go forgets the task at once. When it no longer does, the bound of
// boundTaskCall (tasks.go) for long TTLs can go (a task without TTL, kept
// forever, still needs one).
func TestMCPGoForgetsATaskOfHugeTTL(t *testing.T) {
	tool := withTaskSupport(mcp.NewTool("probe"))
	s := server.NewMCPServer("probe", "1", server.WithToolCapabilities(false), server.WithTaskCapabilities(true, true, true))
	stop := make(chan struct{})
	t.Cleanup(func() { close(stop) })
	s.AddTool(tool, func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		select {
		case <-ctx.Done():
		case <-stop:
		}
		return nil, context.Canceled
	})
	b := startBareMCPGo(t, s, nil)
	b.initialize()
	b.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"probe","task":{"ttl":9223372036854775807}}}`)
	var created struct {
		Task struct {
			TaskID string `json:"taskId"`
		} `json:"task"`
	}
	if l := b.response("1"); json.Unmarshal(l.Result, &created) != nil || created.Task.TaskID == "" {
		t.Fatalf("no task: %s", l.raw)
	}
	for i := 0; i < 50; i++ {
		id := 100 + i
		b.send(`{"jsonrpc":"2.0","id":` + itoa(id) + `,"method":"tasks/get","params":{"taskId":"` + created.Task.TaskID + `"}}`)
		if l := b.response(itoa(id)); l.Error != nil {
			return // forgotten: still so
		}
		time.Sleep(40 * time.Millisecond)
	}
	t.Errorf("mcp-go %s keeps a task whose TTL is 2^63-1 ms: boundTaskCall (tasks.go) need only give a task without TTL one; "+
		"see docs/upstream/mcp-go-task-ttl.md", verifiedMCPGo)
}

// mcp-go refuses tasks/result to a 2026-07-28 client. When it serves the
// revision's tasks (the tasks extension), a stateless client's params.task
// need not be dropped (boundTaskCall, tasks.go).
func TestMCPGoRefusesTaskResultToStatelessClients(t *testing.T) {
	s := server.NewMCPServer("probe", "1", server.WithToolCapabilities(false), server.WithTaskCapabilities(true, true, true))
	b := startBareMCPGo(t, s, nil)
	meta, _ := json.Marshal(modernMeta)
	b.send(`{"jsonrpc":"2.0","id":1,"method":"tasks/result","params":{"taskId":"x","_meta":` + string(meta) + `}}`)
	var e struct {
		Code int `json:"code"`
	}
	if l := b.response("1"); json.Unmarshal(l.Error, &e) != nil || e.Code != mcp.METHOD_NOT_FOUND {
		t.Errorf("mcp-go %s no longer refuses tasks/result to a 2026-07-28 client (%s): boundTaskCall (tasks.go) may keep its params.task",
			verifiedMCPGo, l.raw)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
