package mcpshim

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/iotest"
	"time"

	"feedback/ipc/wire"

	"github.com/mark3labs/mcp-go/mcp"
)

// The protocol to the letter, over real pipes and read raw, line by line:
// what an SDK client would hide (a response it drops, a notification it
// ignores) is seen here as the client's transport sees it.

// rawShim is ServeStdio on a pair of pipes, driven with raw JSON-RPC lines.
type rawShim struct {
	t    *testing.T
	in   io.WriteCloser
	mu   sync.Mutex
	seen []rawLine   // every line the server wrote, in order
	got  chan string // signalled with each line
	eof  chan struct{}
	logs *syncBuffer
	slow atomic.Bool // the client reads slowly
}

// rawLine is one line the server wrote, decoded.
type rawLine struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
	Params struct {
		ProgressToken any `json:"progressToken"`
	} `json:"params"`
	raw string
}

func startRawShim(t *testing.T, opts Options) *rawShim {
	t.Helper()
	r := &rawShim{t: t, got: make(chan string, 1<<20), eof: make(chan struct{}), logs: &syncBuffer{}}
	opts.Logger = slog.New(slog.NewTextHandler(r.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	opts.Version = "test"
	toServer, in := io.Pipe()
	out, fromServer := io.Pipe()
	r.in = in
	done := make(chan error, 1)
	go func() {
		done <- ServeStdio(context.Background(), opts, toServer, fromServer)
		fromServer.Close()
	}()
	go func() {
		defer close(r.eof)
		sc := bufio.NewScanner(out)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			var l rawLine
			if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
				t.Errorf("the server wrote a line that is not JSON: %q", sc.Text())
				continue
			}
			l.raw = sc.Text()
			r.mu.Lock()
			r.seen = append(r.seen, l)
			r.mu.Unlock()
			r.got <- l.raw
			if r.slow.Load() {
				time.Sleep(3 * time.Millisecond) // the workload of a slow client, not a synchronisation
			}
		}
	}()
	t.Cleanup(func() {
		r.in.Close()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Errorf("ServeStdio did not return after EOF")
		}
		if t.Failed() {
			t.Logf("server log:\n%s", r.logs.String())
		}
	})
	r.send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"` + testProtocolVersion + `","capabilities":{},"clientInfo":{"name":"raw-test","version":"1"}}}`)
	r.response(`"init"`)
	r.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return r
}

// send writes one line to the server.
func (r *rawShim) send(line string) {
	r.t.Helper()
	if _, err := io.WriteString(r.in, line+"\n"); err != nil {
		r.t.Fatalf("write: %v", err)
	}
}

// response waits for the response to the request with this JSON id.
func (r *rawShim) response(id string) rawLine {
	r.t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		r.mu.Lock()
		for _, l := range r.seen {
			if l.Method == "" && string(l.ID) == id {
				r.mu.Unlock()
				return l
			}
		}
		r.mu.Unlock()
		select {
		case <-r.got:
		case <-r.eof:
			r.t.Fatalf("no response to %s before the end of the output", id)
		case <-deadline:
			r.t.Fatalf("no response to %s", id)
		}
	}
}

// closeAndDrain ends the input and returns every line the server wrote,
// up to the end of its output: ServeStdio has returned, so nothing more
// can come.
func (r *rawShim) closeAndDrain() []rawLine {
	r.t.Helper()
	r.in.Close()
	select {
	case <-r.eof:
	case <-time.After(20 * time.Second):
		r.t.Fatal("the server's output did not end after its input did")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]rawLine(nil), r.seen...)
}

// callLine is a tools/call request line of interactive_feedback.
func callLine(id, message, token string) string {
	meta := ""
	if token != "" {
		meta = fmt.Sprintf(`,"_meta":{"progressToken":%q}`, token)
	}
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":"interactive_feedback","arguments":{"message":%q}%s}}`, id, message, meta)
}

// After notifications/cancelled for a request the server sends no response
// for it (MCP: "receivers of a cancellation notification SHOULD NOT send a
// response for the cancelled request"); other requests are answered as
// usual. Ids are numbers and strings, and a number may be spelt 2.0.
func TestCancelledRequestGetsNoResponse(t *testing.T) {
	asked := make(chan string, 4)
	withdrawn := make(chan string, 4)
	app := askFunc(func(ctx context.Context, q wire.Question, _ func(wire.Event)) (wire.Answer, error) {
		msg := q.Prompts[0].Markdown
		if msg == "answer me" {
			return wire.Answer{QuestionID: q.ID, Status: wire.StatusAnswered, Replies: []wire.Reply{{Text: "ok"}}}, nil
		}
		asked <- msg
		<-ctx.Done()
		withdrawn <- msg
		return wire.Answer{}, ctx.Err()
	})
	r := startRawShim(t, Options{Connect: connectTo(app)})
	r.send(callLine("2.0", "cancel me", ""))
	r.send(callLine(`"s-3"`, "cancel me too", ""))
	for range 2 {
		<-asked // both questions are open: the calls are in flight
	}
	r.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2,"reason":"the user pressed Escape"}}`)
	r.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"s-3"}}`)
	for range 2 {
		<-withdrawn // the handlers saw the cancel and returned
	}
	r.send(callLine("4", "answer me", ""))
	if l := r.response("4"); l.Result == nil {
		t.Errorf("the call after the cancels was not answered: %s", l.raw)
	}
	r.send(`{"jsonrpc":"2.0","id":5,"method":"ping"}`)
	r.response("5")
	for _, l := range r.closeAndDrain() {
		if l.Method == "" && (string(l.ID) == "2" || string(l.ID) == "2.0" || string(l.ID) == `"s-3"`) {
			t.Errorf("a response to a cancelled request: %s", l.raw)
		}
	}
}

// A cancel that comes after the response changes nothing, and a cancel for
// an id never seen is ignored.
func TestLateCancelIsIgnored(t *testing.T) {
	app := askFunc(func(ctx context.Context, q wire.Question, _ func(wire.Event)) (wire.Answer, error) {
		return wire.Answer{QuestionID: q.ID, Status: wire.StatusAnswered, Replies: []wire.Reply{{Text: "ok"}}}, nil
	})
	r := startRawShim(t, Options{Connect: connectTo(app)})
	r.send(callLine("7", "quick", ""))
	r.response("7")
	r.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}`)
	r.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}}`)
	r.send(callLine("8", "again", ""))
	r.send(callLine("7", "id 7 reused", ""))
	r.response("8")
	lines := r.closeAndDrain()
	n := 0
	for _, l := range lines {
		if l.Method == "" && string(l.ID) == "7" {
			n++
		}
	}
	if n != 2 {
		t.Errorf("%d responses with id 7, want 2 (the first call and the reused id)", n)
	}
}

// A request that reuses the id of one in flight is refused by mcp-go (an
// error under id null) and changes nothing: the first keeps its place, so
// the cancel it got before still drops its response.
func TestDuplicateIDKeepsTheFirst(t *testing.T) {
	asked := make(chan string, 4)
	release := make(chan struct{})
	app := askFunc(func(ctx context.Context, q wire.Question, _ func(wire.Event)) (wire.Answer, error) {
		asked <- q.Prompts[0].Markdown
		<-ctx.Done()
		<-release // the response comes after the duplicate
		return wire.Answer{}, ctx.Err()
	})
	r := startRawShim(t, Options{Connect: connectTo(app)})
	r.send(callLine("3", "first", ""))
	<-asked
	r.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}`)
	r.send(callLine("3", "second", ""))
	r.response("null") // refused: no handler runs for it
	close(release)
	r.send(`{"jsonrpc":"2.0","id":4,"method":"ping"}`)
	r.response("4")
	for _, l := range r.closeAndDrain() {
		if l.Method == "" && string(l.ID) == "3" {
			t.Errorf("a response to the cancelled request: %s", l.raw)
		}
	}
	select {
	case msg := <-asked:
		t.Errorf("the refused duplicate asked %q", msg)
	default:
	}
}

// No progress notification follows the result of its call, with many calls
// at once each sending progress every millisecond: the order is checked
// on the wire.
func TestNoProgressAfterResultUnderLoad(t *testing.T) {
	const calls = 40
	app := askFunc(func(ctx context.Context, q wire.Question, onEvent func(wire.Event)) (wire.Answer, error) {
		onEvent(wire.Event{Type: wire.EventShown})
		var n int
		fmt.Sscanf(q.Prompts[0].Markdown, "call %d", &n)
		// The user takes 100 ms to 1.3 s: the workload, not a synchronisation.
		t := time.NewTimer(time.Duration(100+30*n) * time.Millisecond)
		defer t.Stop()
		select {
		case <-t.C:
			return wire.Answer{QuestionID: q.ID, Status: wire.StatusAnswered, Replies: []wire.Reply{{Text: "ok"}}}, nil
		case <-ctx.Done():
			return wire.Answer{}, ctx.Err()
		}
	})
	r := startRawShim(t, Options{Connect: connectTo(app), ProgressInterval: time.Millisecond})
	r.slow.Store(true) // a client that reads more slowly than the server writes
	for i := range calls {
		r.send(callLine(fmt.Sprint(100+i), fmt.Sprintf("call %d", i), fmt.Sprintf("tok-%d", 100+i)))
	}
	for i := range calls {
		r.response(fmt.Sprint(100 + i))
	}
	lines := r.closeAndDrain()
	answered := map[string]int{} // token → index of its call's response
	progress := 0
	for i, l := range lines {
		if l.Method == "" && len(l.ID) > 0 && string(l.ID) != `"init"` {
			answered["tok-"+string(l.ID)] = i
		}
	}
	for i, l := range lines {
		if l.Method != "notifications/progress" {
			continue
		}
		progress++
		tok, _ := l.Params.ProgressToken.(string)
		at, ok := answered[tok]
		if !ok {
			t.Errorf("progress for an unknown token: %s", l.raw)
		} else if i > at {
			t.Errorf("progress for %s at line %d, after its result at line %d", tok, i, at)
		}
	}
	if progress < calls {
		t.Errorf("%d progress notifications for %d calls that each waited at least 100 ms", progress, calls)
	}
	if len(answered) != calls {
		t.Errorf("%d responses, want %d", len(answered), calls)
	}
	if testing.Verbose() {
		t.Logf("%d lines, %d progress notifications", len(lines), progress)
	}
}

// messageHead finds the id and method of requests, notifications and
// responses whatever the order of their members; idKey makes 2 and 2.0 the
// same id and keeps strings apart from numbers.
func TestMessageHead(t *testing.T) {
	for _, tc := range []struct {
		line, id, method string
		ok               bool
	}{
		{`{"jsonrpc":"2.0","id":2,"result":{}}`, "n:2", "", true},
		{`{"result":{"big":[1,2,3]},"jsonrpc":"2.0","id":2.0}`, "n:2", "", true},
		{`{"jsonrpc":"2.0","id":"2","error":{"code":1}}`, "s:2", "", true},
		{`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{}}`, "n:7", "tools/call", true},
		{`{"method":"ping","id":"a b"}`, "s:a b", "ping", true},
		{`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1}}`, "", "notifications/progress", true},
		{`{"jsonrpc":"2.0","id":null,"error":{}}`, "", "", true},
		{`{"id":{"x":1},"result":1}`, "", "", true},
		{`[1,2]`, "", "", false},
		{`not json`, "", "", false},
		{`{"id":`, "", "", false},
	} {
		id, method, ok := messageHead([]byte(tc.line))
		if id != tc.id || method != tc.method || ok != tc.ok {
			t.Errorf("%s: id %q, method %q, ok %v; want %q, %q, %v", tc.line, id, method, ok, tc.id, tc.method, tc.ok)
		}
	}
}

// The stream writes lines whole, whatever pieces it is given, and drops
// only the response to a cancelled request.
func TestStdioStreamLines(t *testing.T) {
	var out syncBuffer
	s := newStdioStream(&out, slog.New(slog.DiscardHandler))
	in := s.reader(strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call"}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"tools/call"}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}` + "\n"))
	if _, err := io.Copy(io.Discard, iotest.OneByteReader(in)); err != nil {
		t.Fatal(err)
	}
	for _, piece := range []string{`{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"context canceled"}}`, "\n{\"jsonrpc\":\"2.0\",", `"id":2,"result":{}}` + "\n"} {
		if n, err := s.Write([]byte(piece)); n != len(piece) || err != nil {
			t.Fatalf("Write = %d, %v", n, err)
		}
	}
	if got, want := out.String(), `{"jsonrpc":"2.0","id":2,"result":{}}`+"\n"; got != want {
		t.Errorf("written %q, want %q", got, want)
	}
}

// Once the client cancels a call, the progress of that call is dropped:
// the client has forgotten its token. Other calls' progress still goes out,
// and a token is forgotten with its call's response.
func TestNoProgressAfterCancel(t *testing.T) {
	var out syncBuffer
	s := newStdioStream(&out, slog.New(slog.DiscardHandler))
	in := s.reader(strings.NewReader(
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","_meta":{"progressToken":"a"}}}` + "\n" +
			`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"x","_meta":{"progressToken":7}}}` + "\n" +
			`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}` + "\n"))
	if _, err := io.Copy(io.Discard, in); err != nil {
		t.Fatal(err)
	}
	progress := func(token any) {
		if err := s.notify("notifications/progress", map[string]any{"progressToken": token, "progress": 1}); err != nil {
			t.Fatal(err)
		}
	}
	progress("a")
	progress(7)
	want := `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1,"progressToken":7}}` + "\n"
	if got := out.String(); got != want {
		t.Errorf("written %q, want %q", got, want)
	}
	s.Write([]byte(`{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"context canceled"}}` + "\n"))
	if got := out.String(); got != want {
		t.Errorf("the cancelled call's response was written: %q", got)
	}
	if len(s.calls) != 1 || len(s.tokens) != 1 {
		t.Errorf("calls %v, tokens %v: the cancelled call is not forgotten", s.calls, s.tokens)
	}
}

// A call cancelled while it waits for a worker (every one of the
// workerPoolSize is busy) never asks, and gets no response. mcp-go (from
// v1.6.0) ends the queued call's context when the cancel comes; v1.2.1 lost
// that cancel, and the shim had to mark the call itself.
func TestCancelWhileQueued(t *testing.T) {
	release := make(chan struct{})
	var mu sync.Mutex
	asked := map[string]int{}
	held := make(chan struct{}, workerPoolSize)
	app := askFunc(func(ctx context.Context, q wire.Question, _ func(wire.Event)) (wire.Answer, error) {
		msg := q.Prompts[0].Markdown
		mu.Lock()
		asked[msg]++
		mu.Unlock()
		if strings.HasPrefix(msg, "hold") {
			held <- struct{}{}
			select {
			case <-release:
			case <-ctx.Done():
				return wire.Answer{}, ctx.Err()
			}
		}
		return wire.Answer{QuestionID: q.ID, Status: wire.StatusAnswered, Replies: []wire.Reply{{Text: "ok"}}}, nil
	})
	r := startRawShim(t, Options{Connect: connectTo(app)})
	for i := range workerPoolSize {
		r.send(callLine(fmt.Sprint(1000+i), fmt.Sprintf("hold %d", i), ""))
	}
	for range workerPoolSize {
		<-held // every worker is busy
	}
	r.send(callLine("7", "queued", ""))
	r.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}`)
	r.send(`{"jsonrpc":"2.0","id":8,"method":"ping"}`)
	r.response("8") // the cancel, read before the ping, has been seen
	close(release)
	for i := range workerPoolSize {
		r.response(fmt.Sprint(1000 + i))
	}
	r.send(callLine("9", "after", ""))
	r.response("9") // a free worker has taken call 7 by now, or takes it before EOF
	for _, l := range r.closeAndDrain() {
		if l.Method == "" && string(l.ID) == "7" {
			t.Errorf("a response to the cancelled call: %s", l.raw)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if asked["queued"] != 0 {
		t.Errorf("the call cancelled in the queue asked the app %d times", asked["queued"])
	}
}

// bigLineReader yields one JSON-RPC line of about n bytes (id, then a
// params value of n 'x's) without holding it, then rest.
type bigLineReader struct {
	head, tail []byte
	n          int
	rest       io.Reader
}

func newBigLine(id string, n int, rest string) *bigLineReader {
	return &bigLineReader{
		head: []byte(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"ask_text","arguments":{"question":"`),
		n:    n, tail: []byte(`"}}}` + "\n"), rest: strings.NewReader(rest),
	}
}

func (b *bigLineReader) Read(p []byte) (int, error) {
	switch {
	case len(b.head) > 0:
		n := copy(p, b.head)
		b.head = b.head[n:]
		return n, nil
	case b.n > 0:
		n := min(len(p), b.n)
		for i := range p[:n] {
			p[i] = 'x'
		}
		b.n -= n
		return n, nil
	case len(b.tail) > 0:
		n := copy(p, b.tail)
		b.tail = b.tail[n:]
		return n, nil
	}
	return b.rest.Read(p)
}

// A line over the cap is not held, nor handed to mcp-go: what the reader
// holds stays under the cap plus one read, the stream answers it with an
// Invalid Request error under its id, and the next line passes as usual.
func TestInputLineCap(t *testing.T) {
	var out syncBuffer
	s := newStdioStream(&out, slog.New(slog.DiscardHandler))
	const lim = 1 << 20
	tr := &tapReader{r: newBigLine(`7`, 40<<20, `{"jsonrpc":"2.0","id":8,"method":"ping"}`+"\n"), s: s, max: lim}
	var got bytes.Buffer
	buf := make([]byte, 4096)
	peak := 0
	for {
		n, err := tr.Read(buf)
		got.Write(buf[:n])
		peak = max(peak, cap(tr.buf)+cap(tr.out))
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if peak > lim+2*(64<<10) {
		t.Errorf("the reader held %d bytes for a 40 MiB line, want at most about %d", peak, lim)
	}
	if got.String() != `{"jsonrpc":"2.0","id":8,"method":"ping"}`+"\n" {
		t.Errorf("handed on %d bytes: %.200q", got.Len(), got.String())
	}
	var resp struct {
		ID    json.RawMessage `json:"id"`
		Error struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(out.String()), &resp); err != nil {
		t.Fatalf("answer %q: %v", out.String(), err)
	}
	if string(resp.ID) != "7" || resp.Error.Code != mcp.INVALID_REQUEST || !strings.Contains(resp.Error.Message, "over the 1048576-byte limit") {
		t.Errorf("answer = %s", out.String())
	}
}

// Lines at the cap pass; a last line without a newline passes at EOF; an
// overlong line whose id comes after its params is answered with id null.
func TestInputLineCapEdges(t *testing.T) {
	var out syncBuffer
	s := newStdioStream(&out, slog.New(slog.DiscardHandler))
	atCap := `{"id":1,"p":"` + strings.Repeat("y", 100-len(`{"id":1,"p":""}`)) + `"}`
	over := `{"p":"` + strings.Repeat("z", 200) + `","id":2}`
	in := atCap + "\n" + over + "\n" + `{"id":3}`
	tr := &tapReader{r: iotest.OneByteReader(strings.NewReader(in)), s: s, max: 100}
	got, err := io.ReadAll(tr)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != atCap+"\n"+`{"id":3}` {
		t.Errorf("handed on %q", got)
	}
	if !strings.HasPrefix(out.String(), `{"error":{"code":-32600,`) || !strings.Contains(out.String(), `"id":null`) {
		t.Errorf("answer = %s", out.String())
	}
}

// Through ServeStdio: a 20 MiB request is refused with an error naming the
// limit, and the shim goes on answering.
func TestServeStdioRefusesAnOverlongLine(t *testing.T) {
	r := startRawShim(t, Options{Connect: connectTo(newFakeInbox())})
	if _, err := io.Copy(r.in, newBigLine(`"big"`, 20<<20, "")); err != nil {
		t.Fatal(err)
	}
	if l := r.response(`"big"`); !strings.Contains(string(l.Error), "-32600") || !strings.Contains(string(l.Error), "limit") {
		t.Errorf("response = %s", l.raw)
	}
	r.send(`{"jsonrpc":"2.0","id":"after","method":"ping"}`)
	if l := r.response(`"after"`); len(l.Error) != 0 {
		t.Errorf("ping after the long line: %s", l.raw)
	}
}
