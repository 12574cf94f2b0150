package mcpshim

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"feedback/internal/settings"
	"feedback/ipc"
	"feedback/ipc/launch"
	"feedback/ipc/wire"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// structuredMap decodes a result's structuredContent as JSON.
func structuredMap(t testing.TB, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	data, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("structuredContent %s: %v", data, err)
	}
	return m
}

func TestClientWait(t *testing.T) {
	withMax := func(n int) settings.Settings { s := settings.Default(); s.MaxWaitSeconds = n; return s }
	per := func(m map[string]int) settings.Settings { s := settings.Default(); s.WaitSeconds = m; return s }
	for _, tc := range []struct {
		name, client string
		s            settings.Settings
		want         time.Duration
	}{
		{"claude code", "claude-code", settings.Default(), 30 * time.Minute},
		{"case-insensitive", "Claude-Code", settings.Default(), 30 * time.Minute},
		{"claude desktop", "claude-ai", settings.Default(), defaultWait},
		{"cursor is not vs code", "cursor-vscode", settings.Default(), defaultWait},
		{"vs code", "Visual Studio Code", settings.Default(), 4 * time.Minute},
		{"vs code insiders", "Visual Studio Code - Insiders", settings.Default(), 4 * time.Minute},
		{"vscode", "vscode", settings.Default(), 4 * time.Minute},
		{"codex", "codex-mcp-client", settings.Default(), defaultWait},
		{"gemini", "gemini-cli-mcp-client", settings.Default(), 9 * time.Minute},
		{"windsurf", "windsurf-client", settings.Default(), defaultWait},
		{"cline", "Cline", settings.Default(), defaultWait},
		{"unknown", "my-agent", settings.Default(), defaultWait},
		{"no name", "", settings.Default(), defaultWait},
		{"global cap", "claude-code", withMax(3), 3 * time.Second},
		{"global cap above the profile", "codex", withMax(3600), defaultWait},
		{"per client", "codex-mcp-client", per(map[string]int{"codex": 600}), 10 * time.Minute},
		{"per client, exact name wins", "codex", per(map[string]int{"codex": 600, "cod": 10}), 10 * time.Minute},
		{"per client, longest key wins", "codex-mcp-client", per(map[string]int{"codex": 600, "codex-mcp": 20}), 20 * time.Second},
		{"per client, case-insensitive", "Claude-Code", per(map[string]int{"CLAUDE-CODE": 7}), 7 * time.Second},
		{"per client, another client", "cursor", per(map[string]int{"codex": 600}), defaultWait},
		{"every client (--wait)", "codex-mcp-client", per(map[string]int{"*": 540}), 9 * time.Minute},
		{"every client, below a named one", "codex-mcp-client", per(map[string]int{"*": 540, "codex": 20}), 20 * time.Second},
		{"every client, even unnamed", "", per(map[string]int{"*": 540}), 9 * time.Minute},
		{"per client, then the global cap", "codex", func() settings.Settings { s := per(map[string]int{"codex": 600}); s.MaxWaitSeconds = 30; return s }(), 30 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := clientWait(tc.client, tc.s); got != tc.want {
				t.Errorf("clientWait(%q) = %v, want %v", tc.client, got, tc.want)
			}
		})
	}
}

func TestStableQuestionID(t *testing.T) {
	q := wire.Question{Source: "interactive_feedback", Title: "Plan", Prompts: []wire.Prompt{{Markdown: "Refactor?", Options: []wire.Option{{Label: "Yes"}}}}}
	other := func(f func(*wire.Question)) wire.Question {
		c := q
		c.Prompts = slices.Clone(q.Prompts)
		f(&c)
		return c
	}
	base := stableQuestionID("interactive_feedback", "claude-code", "s1", q)
	if len(base) != 32 || strings.Trim(base, "0123456789abcdef") != "" {
		t.Fatalf("id %q is not 32 hex digits", base)
	}
	for _, tc := range []struct {
		name                  string
		tool, client, session string
		q                     wire.Question
		same                  bool
	}{
		{"same call", "interactive_feedback", "claude-code", "s1", q, true},
		{"ID and Client do not count", "interactive_feedback", "claude-code", "s1", other(func(c *wire.Question) { c.ID, c.Client = "x", "y" }), true},
		{"another tool", "ask_text", "claude-code", "s1", q, false},
		{"another client", "interactive_feedback", "cursor", "s1", q, false},
		{"another session", "interactive_feedback", "claude-code", "s2", q, false},
		{"another question", "interactive_feedback", "claude-code", "s1", other(func(c *wire.Question) { c.Prompts[0].Markdown = "Refactor now?" }), false},
		{"another title", "interactive_feedback", "claude-code", "s1", other(func(c *wire.Question) { c.Title = "Plan B" }), false},
		{"another countdown", "interactive_feedback", "claude-code", "s1", other(func(c *wire.Question) { c.TimeoutSeconds = 5 }), false},
		{"no field boundary confusion", "interactive_feedbackclaude-code", "", "s1", q, false},
		{"no field boundary confusion with the session", "interactive_feedback", "claude-codes1", "", q, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := stableQuestionID(tc.tool, tc.client, tc.session, tc.q); (got == base) != tc.same {
				t.Errorf("id %s vs %s: same = %v, want %v", got, base, got == base, tc.same)
			}
		})
	}
	// Through the dialects: the same arguments give the same ID, other
	// arguments another.
	env := callEnv{settings: settings.Default(), client: "claude-code"}
	args := map[string]any{"message": "Ship it?"}
	p1, _ := prepareInteractiveFeedback(args, env)
	p2, _ := prepareInteractiveFeedback(map[string]any{"message": "Ship it?"}, env)
	p3, _ := prepareInteractiveFeedback(map[string]any{"message": "Ship it now?"}, env)
	if p1.question.ID != p2.question.ID || p1.question.ID == p3.question.ID {
		t.Errorf("interactive_feedback ids: %s %s %s", p1.question.ID, p2.question.ID, p3.question.ID)
	}
}

// callCtx calls tool with args under ctx.
func callCtx(ctx context.Context, c *client.Client, tool string, args map[string]any) (*mcp.CallToolResult, error) {
	req := mcp.CallToolRequest{}
	req.Params.Name = tool
	req.Params.Arguments = args
	res, err := c.CallTool(ctx, req)
	if err == nil {
		err = checkOutput(tool, res) // outputschema_test.go
	}
	return res, err
}

// The client's wait runs out: "call again", the window stays (the app
// keeps it); the call made again joins it (no second window) and gets the
// answer.
func TestCallAgainReattaches(t *testing.T) {
	app := newFakeInbox()
	s := settings.Default()
	s.MaxWaitSeconds = 1
	c := startShim(t, Options{Connect: connectTo(app), Settings: s})
	args := map[string]any{"message": "Ship it?"}
	start := time.Now()
	res := callTool(t, c, args)
	if d := time.Since(start); d < 900*time.Millisecond || d > 3*time.Second {
		t.Errorf("the first call returned after %v, want about 1 s", d)
	}
	if text := resultText(t, res); res.IsError || text != textPending {
		t.Fatalf("first call: isError = %v, %q", res.IsError, text)
	}
	sc := structuredMap(t, res)
	if sc["status"] != "pending" {
		t.Errorf("structuredContent = %v", sc)
	}
	q := <-app.asked
	if w := app.askOf(q.ID).Wait; w != time.Second {
		t.Errorf("the app was asked to wait %v, want the client's 1s", w)
	}
	select {
	case id := <-app.withdrawn:
		t.Fatalf("question %s withdrawn after a call-again result", id)
	default:
	}
	done := make(chan *mcp.CallToolResult, 1)
	go func() { done <- callTool(t, c, args) }()
	app.waitWaiters(t, q.ID, 1)
	app.answer(t, q.ID, wire.Answer{Status: wire.StatusAnswered, Replies: []wire.Reply{{Text: "go"}}})
	res = <-done
	if text := resultText(t, res); res.IsError || text != "User reply:\ngo" {
		t.Errorf("second call: %q", text)
	}
	if id := structuredMap(t, res)["question_id"]; id != sc["question_id"] {
		t.Errorf("question ids %v and %v differ", id, sc["question_id"])
	}
	if _, windows := app.counts(); windows != 1 {
		t.Errorf("%d windows; want 1", windows)
	}
}

// An answer given while nobody waits is kept by the app and handed to the
// next call with the same arguments, at once and once; the shim keeps no
// copy, so a restarted shim (a new server) collects it just the same.
func TestKeptAnswerReachesARestartedShim(t *testing.T) {
	app := newFakeInbox()
	s := settings.Default()
	s.MaxWaitSeconds = 1
	first := startShim(t, Options{Connect: connectTo(app), Settings: s})
	args := map[string]any{"message": "Keep me"}
	if res := callTool(t, first, args); resultText(t, res) != textPending {
		t.Fatalf("first call: %q", resultText(t, res))
	}
	q := <-app.asked
	first.Close() // the client restarts the shim
	app.answer(t, q.ID, wire.Answer{Status: wire.StatusAnswered, Replies: []wire.Reply{{Text: "later"}}})
	second := startShim(t, Options{Connect: connectTo(app), Settings: s})
	start := time.Now()
	res := callTool(t, second, args)
	if text := resultText(t, res); text != "User reply:\nlater" || time.Since(start) > 900*time.Millisecond {
		t.Errorf("second call after %v: %q", time.Since(start), text)
	}
	// Once: the next identical call asks afresh (a new window).
	res = callTool(t, second, args)
	if resultText(t, res) != textPending {
		t.Errorf("third call: %q", resultText(t, res))
	}
	if _, windows := app.counts(); windows != 2 {
		t.Errorf("windows = %d; want 2", windows)
	}
}

// An answer kept for one session is not handed to another session of the
// same client asking the identical question (issue 19): the other gets a
// window of its own, and the first session collects its answer — across a
// restart of its shim, as before.
func TestKeptAnswerStaysWithItsSession(t *testing.T) {
	app := newFakeInbox()
	s := settings.Default()
	s.MaxWaitSeconds = 1
	a := startShim(t, Options{Connect: connectTo(app), Settings: s, Session: "1234@55"})
	args := map[string]any{"question": "Token name?"}
	if res := callNamed(t, a, askTextName, args); structuredMap(t, res)["status"] != "timeout" {
		t.Fatalf("session A's first call: %v", structuredMap(t, res))
	}
	qa := <-app.asked
	app.answer(t, qa.ID, wire.Answer{Status: wire.StatusAnswered, Replies: []wire.Reply{{Text: "A's secret"}}})

	b := startShim(t, Options{Connect: connectTo(app), Settings: s, Session: "4321@66"})
	res := callNamed(t, b, askTextName, args)
	if sc := structuredMap(t, res); sc["status"] != "timeout" || sc["answer"] != "" {
		t.Errorf("session B got %v, want a window of its own (not answered yet)", sc)
	}
	select {
	case qb := <-app.asked:
		if qb.ID == qa.ID {
			t.Errorf("session B asked with session A's id %s", qa.ID)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("session B opened no window of its own")
	}

	a.Close() // session A's client restarts its shim: same session
	a2 := startShim(t, Options{Connect: connectTo(app), Settings: s, Session: "1234@55"})
	if sc := structuredMap(t, callNamed(t, a2, askTextName, args)); sc["status"] != "answered" || sc["answer"] != "A's secret" {
		t.Errorf("session A after its shim restarted: %v", sc)
	}
}

// ParentSession names the process that started this one, with its start
// time where /proc has it; it is the same on every call.
func TestParentSession(t *testing.T) {
	got := ParentSession()
	if got == "" || got != ParentSession() {
		t.Fatalf("ParentSession() = %q, not stable", got)
	}
	if !strings.HasPrefix(got, fmt.Sprint(os.Getppid())) {
		t.Errorf("ParentSession() = %q, want it to start with the parent pid %d", got, os.Getppid())
	}
	if _, err := os.Stat("/proc/self/stat"); err == nil && !strings.Contains(got, "@") {
		t.Errorf("ParentSession() = %q has no start time although /proc exists", got)
	}
	if procStartTime(-1) != "" {
		t.Error("a start time for no process")
	}
}

// Two sessions (two shims) asking the identical question at once get a
// window each, and each its own answer.
func TestTwoSessionsGetTwoWindows(t *testing.T) {
	app := newFakeInbox()
	a := startShim(t, Options{Connect: connectTo(app)})
	b := startShim(t, Options{Connect: connectTo(app)})
	args := map[string]any{"message": "Deploy?"}
	ra, rb := make(chan *mcp.CallToolResult, 1), make(chan *mcp.CallToolResult, 1)
	go func() { ra <- callTool(t, a, args) }()
	qa := <-app.asked
	go func() { rb <- callTool(t, b, args) }()
	qb := <-app.asked
	if qa.ID == qb.ID {
		t.Fatalf("one window %s for two sessions", qa.ID)
	}
	app.answer(t, qa.ID, wire.Answer{Status: wire.StatusAnswered, Replies: []wire.Reply{{Text: "yes"}}})
	app.answer(t, qb.ID, wire.Answer{Status: wire.StatusAnswered, Replies: []wire.Reply{{Text: "no"}}})
	if got := resultText(t, <-ra); got != "User reply:\nyes" {
		t.Errorf("first session: %q", got)
	}
	if got := resultText(t, <-rb); got != "User reply:\nno" {
		t.Errorf("second session: %q", got)
	}
}

// A cancelled call withdraws its window at once, even when an earlier call
// of the same question had returned "call again".
func TestCancelWithdraws(t *testing.T) {
	app := newFakeInbox()
	s := settings.Default()
	s.MaxWaitSeconds = 1
	c := startShim(t, Options{Connect: connectTo(app), Settings: s})
	args := map[string]any{"question": "Name?"}
	if res := callNamed(t, c, "ask_text", args); res.IsError {
		t.Fatalf("first call: %q", resultText(t, res))
	}
	q := <-app.asked
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := callCtx(ctx, c, "ask_text", args)
		errc <- err
	}()
	app.waitWaiters(t, q.ID, 1)
	cancel()
	select {
	case id := <-app.withdrawn:
		if id != q.ID {
			t.Errorf("withdrawn %s, want %s", id, q.ID)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the question was not withdrawn after the cancel")
	}
	if err := <-errc; err == nil {
		t.Error("the cancelled call returned no error")
	}
}

// The client exits while a call waits: the question is withdrawn.
func TestExitWithdrawsWaiting(t *testing.T) {
	app := newFakeInbox()
	c := startShim(t, Options{Connect: connectTo(app)})
	go callCtx(context.Background(), c, "interactive_feedback", map[string]any{"message": "waiting"})
	q := <-app.asked
	app.waitWaiters(t, q.ID, 1)
	c.Close()
	select {
	case <-app.withdrawn:
	case <-time.After(5 * time.Second):
		t.Fatal("the waiting question was not withdrawn when the client went away")
	}
}

// goneApp fails the first n asks with ipc.ErrAppGone, then answers.
type goneApp struct {
	n        int
	asks     atomic.Int32
	ids      chan string
	connects atomic.Int32
}

func (g *goneApp) connect(context.Context) (wire.Asker, error) {
	g.connects.Add(1)
	return g, nil
}

func (g *goneApp) Ask(ctx context.Context, a wire.Ask, _ func(wire.Event)) (wire.Answer, error) {
	q := a.Question
	g.ids <- q.ID
	if int(g.asks.Add(1)) <= g.n {
		return wire.Answer{}, fmt.Errorf("%w: unexpected EOF", ipc.ErrAppGone)
	}
	return wire.Answer{QuestionID: q.ID, Status: wire.StatusAnswered, Replies: []wire.Reply{{Text: "after restart"}}}, nil
}

func fastRestarts(t *testing.T) {
	old := launch.RestartBackoff
	launch.RestartBackoff = []time.Duration{time.Millisecond}
	t.Cleanup(func() { launch.RestartBackoff = old })
}

// The app dies mid-question: the shim reconnects (which restarts it) and
// asks the same question, same ID, up to launch.MaxRestarts times.
func TestRestartAfterAppGone(t *testing.T) {
	fastRestarts(t)
	for _, tc := range []struct {
		name   string
		gone   int
		answer bool
	}{
		{"once", 1, true},
		{"up to the limit", launch.MaxRestarts, true},
		{"beyond the limit", launch.MaxRestarts + 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := &goneApp{n: tc.gone, ids: make(chan string, 10)}
			c := startShim(t, Options{Connect: g.connect})
			res := callTool(t, c, map[string]any{"message": "survive"})
			text := resultText(t, res)
			if tc.answer && (res.IsError || text != "User reply:\nafter restart") {
				t.Errorf("isError = %v, %q", res.IsError, text)
			}
			if !tc.answer && (!res.IsError || !strings.Contains(text, "closed the connection")) {
				t.Errorf("want the failure result, got isError = %v, %q", res.IsError, text)
			}
			close(g.ids)
			var ids []string
			for id := range g.ids {
				ids = append(ids, id)
			}
			want := min(tc.gone+1, launch.MaxRestarts+1)
			if len(ids) != want || int(g.connects.Load()) != want {
				t.Errorf("asked %d times with %d connects, want %d", len(ids), g.connects.Load(), want)
			}
			for _, id := range ids {
				if id != ids[0] {
					t.Errorf("ids differ: %v", ids)
				}
			}
		})
	}
}

// progressShim starts the shim with a client that records progress
// notifications, each stamped with whether the result had arrived.
type progressLog struct {
	mu       sync.Mutex
	progress []float64
	messages []string
	late     int // notifications after the result
	result   bool
}

func TestProgressHeartbeat(t *testing.T) {
	old := progressInterval
	progressInterval = 100 * time.Millisecond
	t.Cleanup(func() { progressInterval = old })
	// The user answers once two heartbeats have reached the client.
	twoBeats := make(chan struct{})
	app := askFunc(func(ctx context.Context, q wire.Question, onEvent func(wire.Event)) (wire.Answer, error) {
		onEvent(wire.Event{Type: wire.EventShown})
		select {
		case <-twoBeats:
			return wire.Answer{QuestionID: q.ID, Status: wire.StatusAnswered, Replies: []wire.Reply{{Text: "ok"}}}, nil
		case <-ctx.Done():
			return wire.Answer{}, ctx.Err()
		}
	})
	c := startShim(t, Options{Connect: connectTo(app)})
	var pl progressLog
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method != "notifications/progress" {
			return
		}
		pl.mu.Lock()
		defer pl.mu.Unlock()
		if pl.result {
			pl.late++
		}
		if p, ok := n.Params.AdditionalFields["progress"].(float64); ok {
			pl.progress = append(pl.progress, p)
			if len(pl.progress) == 2 {
				close(twoBeats)
			}
		}
		if m, ok := n.Params.AdditionalFields["message"].(string); ok {
			pl.messages = append(pl.messages, m)
		}
		if tok := n.Params.AdditionalFields["progressToken"]; tok != "tok-1" {
			t.Errorf("progressToken = %v", tok)
		}
	})
	req := mcp.CallToolRequest{}
	req.Params.Name = "interactive_feedback"
	req.Params.Arguments = map[string]any{"message": "progress?"}
	req.Params.Meta = &mcp.Meta{ProgressToken: "tok-1"}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := c.CallTool(ctx, req)
	pl.mu.Lock()
	pl.result = true
	pl.mu.Unlock()
	if err != nil || resultText(t, res) != "User reply:\nok" {
		t.Fatalf("call: %v %v", res, err)
	}
	// This sleep proves a negative: a progress sent after the result would
	// arrive within it (three heartbeat intervals).
	time.Sleep(300 * time.Millisecond)
	pl.mu.Lock()
	defer pl.mu.Unlock()
	if len(pl.progress) < 2 {
		t.Fatalf("%d progress notifications, want at least 2", len(pl.progress))
	}
	for i := 1; i < len(pl.progress); i++ {
		if pl.progress[i] <= pl.progress[i-1] {
			t.Errorf("progress not increasing: %v", pl.progress)
		}
	}
	if pl.late > 0 {
		t.Errorf("%d progress notifications arrived after the result", pl.late)
	}
	if !strings.HasPrefix(pl.messages[0], "waiting for the user — window open ") {
		t.Errorf("message = %q", pl.messages[0])
	}
}

// A call without a progress token gets no progress.
func TestNoProgressWithoutToken(t *testing.T) {
	old := progressInterval
	progressInterval = 50 * time.Millisecond
	t.Cleanup(func() { progressInterval = old })
	app := askFunc(func(ctx context.Context, q wire.Question, _ func(wire.Event)) (wire.Answer, error) {
		// Not synchronisation: the user takes six heartbeat intervals, in
		// which no progress may be sent.
		time.Sleep(300 * time.Millisecond)
		return wire.Answer{QuestionID: q.ID, Status: wire.StatusAnswered}, nil
	})
	c := startShim(t, Options{Connect: connectTo(app)})
	var n atomic.Int32
	c.OnNotification(func(m mcp.JSONRPCNotification) {
		if m.Method == "notifications/progress" {
			n.Add(1)
		}
	})
	callTool(t, c, map[string]any{"message": "quiet"})
	if n.Load() != 0 {
		t.Errorf("%d progress notifications without a token", n.Load())
	}
}

// elicitor is a client-side elicitation handler.
type elicitor func(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error)

func (e elicitor) Elicit(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	return e(ctx, req)
}

// startShimWith is startShim with client options (an elicitation handler).
func startShimWith(t *testing.T, opts Options, copts ...client.ClientOption) *client.Client {
	t.Helper()
	c, _ := startShimLogged(t, opts, copts...)
	return c
}

var noDisplay = func(context.Context) (wire.Asker, error) {
	return nil, errors.New("no graphical display: neither DISPLAY nor WAYLAND_DISPLAY is set")
}

func TestElicitationFallback(t *testing.T) {
	var got mcp.ElicitationRequest
	accept := elicitor(func(_ context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
		got = req
		content := map[string]any{"answer": "Postgres", "answer_text": "with pgvector"}
		if req.Params.Message == "Ship it?" {
			content = map[string]any{"answer": []any{"Yes"}, "answer_text": "today"}
		}
		return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionAccept, Content: content}}, nil
	})
	c := startShimWith(t, Options{Connect: noDisplay}, client.WithElicitationHandler(accept))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	res, err := callCtx(ctx, c, "interactive_feedback", map[string]any{"message": "Ship it?", "predefined_options": []any{"Yes", "No"}})
	if err != nil {
		t.Fatal(err)
	}
	if text := resultText(t, res); text != "Selected options:\n- Yes\n\nUser reply:\ntoday" {
		t.Errorf("interactive_feedback: %q", text)
	}
	schema, _ := json.Marshal(got.Params.RequestedSchema)
	if want := `{"properties":{"answer":{"items":{"enum":["Yes","No"],"type":"string"},"title":"Your answer","type":"array"},"answer_text":{"title":"Your reply (optional)","type":"string"}},"type":"object"}`; string(schema) != want {
		t.Errorf("schema:\n%s\nwant\n%s", schema, want)
	}

	res, err = callCtx(ctx, c, "ask_choice", map[string]any{"question": "Which database?", "options": []any{"Postgres", "SQLite"}, "allow_free_text": true})
	if err != nil {
		t.Fatal(err)
	}
	sc := structuredMap(t, res)
	if sc["status"] != "answered" || sc["answer"] != "Postgres" || sc["free_text"] != "with pgvector" || sc["via"] != "elicitation" || sc["client_elicitation"] != true {
		t.Errorf("ask_choice: %v", sc)
	}
}

func TestElicitationDeclinedAtOnce(t *testing.T) {
	decline := elicitor(func(context.Context, mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
		return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionDecline}}, nil
	})
	c := startShimWith(t, Options{Connect: noDisplay}, client.WithElicitationHandler(decline))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := callCtx(ctx, c, "ask_choice", map[string]any{"question": "Which?", "options": []any{"A", "B"}})
	if err != nil {
		t.Fatal(err)
	}
	sc := structuredMap(t, res)
	// As the original: a decline this fast is no person's: ask in chat.
	msg, _ := sc["message"].(string)
	if sc["status"] != "needs_user_input" || sc["auto_reject_suspected"] != true || sc["via"] != "elicitation" || !strings.Contains(msg, "- A\n- B") {
		t.Errorf("ask_choice: %v", sc)
	}
}

func TestNoGUIWithoutElicitation(t *testing.T) {
	c := startShim(t, Options{Connect: noDisplay})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	start := time.Now()
	res, err := callCtx(ctx, c, "ask_choice", map[string]any{"question": "Which?", "options": []any{"A", "B"}, "default": "B"})
	if err != nil {
		t.Fatal(err)
	}
	sc := structuredMap(t, res)
	msg, _ := sc["message"].(string)
	if sc["status"] != "needs_user_input" || sc["via"] != "chat" || !strings.Contains(msg, "- A\n- B (recommended)") || !strings.Contains(msg, "DISPLAY") {
		t.Errorf("ask_choice: %v", sc)
	}
	if time.Since(start) > 2*time.Second {
		t.Errorf("took %v", time.Since(start))
	}
	res, err = callCtx(ctx, c, "ask_user_question", map[string]any{"questions": []any{
		map[string]any{"question": "Which DB?", "header": "DB", "options": []any{map[string]any{"label": "Postgres"}, map[string]any{"label": "Other"}}},
		map[string]any{"question": "Name?"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	want := "The question window cannot be shown (no graphical display: neither DISPLAY nor WAYLAND_DISPLAY is set). Nothing was answered. Ask the user these questions in chat yourself and wait for the answers; do not guess:\n\n" +
		"\nQuestion 1: Which DB?\nOptions (choose one):\n- Postgres\n- Other\n\nQuestion 2: Name?"
	if text := resultText(t, res); text != want {
		t.Errorf("ask_user_question:\n%q\nwant\n%q", text, want)
	}
	res, err = callCtx(ctx, c, "ask_human", map[string]any{"agent_name": "a", "title": "Pick", "content": "Which?",
		"choices": []any{map[string]any{"id": "x", "label": "X"}, map[string]any{"id": "y", "label": "Y"}}, "recommended_option": "y"})
	if err != nil {
		t.Fatal(err)
	}
	if sc := structuredMap(t, res); sc["status"] != "needs_user_input" || !strings.Contains(sc["message"].(string), "- Y (id y) (recommended)") {
		t.Errorf("ask_human: %v", sc)
	}
}

func TestElicitationForm(t *testing.T) {
	q := wire.Question{ID: "q", Prompts: []wire.Prompt{
		{Kind: wire.KindYesNo, Markdown: "Deploy?"},
		{Kind: wire.KindChoice, Single: true, Header: "DB", Markdown: "Which DB?", Options: []wire.Option{{Label: "Postgres", Default: true}, {Label: "Other", FreeText: true}}},
		{Kind: wire.KindChoice, Markdown: "## Features\n\nWhich?", Options: []wire.Option{{Label: "A"}, {Label: "B", Default: true}}},
		{Markdown: "Anything else?"},
	}}
	msg, schema, fields := elicitationForm(q)
	if msg != "The agent asks 4 questions; answer each below." {
		t.Errorf("message = %q", msg)
	}
	data, _ := json.Marshal(schema)
	want := `{"properties":{` +
		`"q1":{"description":"Deploy?","enum":["yes","no"],"title":"Deploy?","type":"string"},` +
		`"q2":{"default":"Postgres","description":"Which DB?","enum":["Postgres","Other"],"title":"DB","type":"string"},` +
		`"q2_text":{"title":"Your own answer (with \"Other\")","type":"string"},` +
		`"q3":{"default":["B"],"description":"## Features\n\nWhich?","items":{"enum":["A","B"],"type":"string"},"title":"Features","type":"array"},` +
		`"q4":{"description":"Anything else?","title":"Anything else?","type":"string"}},` +
		`"required":["q1"],"type":"object"}`
	if string(data) != want {
		t.Errorf("schema:\n%s\nwant\n%s", data, want)
	}
	for _, tc := range []struct {
		name    string
		action  mcp.ElicitationResponseAction
		content any
		want    wire.Answer
	}{
		{"accept", mcp.ElicitationResponseActionAccept,
			map[string]any{"q1": "yes", "q2": "Other", "q2_text": "DuckDB", "q3": []any{"B", "A", "Z"}, "q4": " no "},
			wire.Answer{QuestionID: "q", Status: wire.StatusAnswered, ElapsedMS: 7, Replies: []wire.Reply{
				{Text: "yes"}, {Selected: []string{"Other"}, Text: "DuckDB"}, {Selected: []string{"A", "B"}, Text: "Z"}, {Text: "no"}}}},
		{"accept with a boolean and blanks", mcp.ElicitationResponseActionAccept,
			map[string]any{"q1": false},
			wire.Answer{QuestionID: "q", Status: wire.StatusAnswered, ElapsedMS: 7, Replies: []wire.Reply{{Text: "no"}, {}, {}, {}}}},
		{"decline", mcp.ElicitationResponseActionDecline, nil, wire.Answer{QuestionID: "q", Status: wire.StatusDismissed, ElapsedMS: 7, Reason: reasonFormDeclined}},
		{"cancel", mcp.ElicitationResponseActionCancel, nil, wire.Answer{QuestionID: "q", Status: wire.StatusDismissed, ElapsedMS: 7, Reason: reasonFormCancelled}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: tc.action, Content: tc.content}}
			got := formAnswer(q, fields, res, 7)
			g, _ := json.Marshal(got)
			w, _ := json.Marshal(tc.want)
			if string(g) != string(w) {
				t.Errorf("answer:\n%s\nwant\n%s", g, w)
			}
		})
	}
}

// An answer the app sent for the user (their draft at the countdown's
// end) says so in a last text block.
func TestAutoSubmittedDraft(t *testing.T) {
	app := askFunc(func(_ context.Context, q wire.Question, _ func(wire.Event)) (wire.Answer, error) {
		return wire.Answer{QuestionID: q.ID, Status: wire.StatusAnswered, Auto: true, Replies: []wire.Reply{{Text: "half a thought"}}}, nil
	})
	c := startShim(t, Options{Connect: connectTo(app)})
	res := callTool(t, c, map[string]any{"message": "Thoughts?"})
	if len(res.Content) != 2 {
		t.Fatalf("%d blocks, want the answer and the note", len(res.Content))
	}
	first, _ := mcp.AsTextContent(res.Content[0])
	last, _ := mcp.AsTextContent(res.Content[1])
	if first.Text != "User reply:\nhalf a thought" || last.Text != textAutoSubmitted {
		t.Errorf("content = %q, %q", first.Text, last.Text)
	}
}

// An endpoint refused as untrusted (another user may be listening there)
// falls back to the client's form, and the form tells the person why: the
// shim's log alone would hide a possible impersonation from them.
func TestUntrustedEndpointIsNamedInTheForm(t *testing.T) {
	var got mcp.ElicitationRequest
	accept := elicitor(func(_ context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
		got = req
		return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionAccept,
			Content: map[string]any{"answer": "A"}}}, nil
	})
	untrusted := func(context.Context) (wire.Asker, error) {
		return nil, &launch.NotReachedError{Err: &ipc.EndpointError{Path: "/run/user/1000/feedback", Reason: "it is owned by uid 65534, not by you", Owner: 65534}}
	}
	c := startShimWith(t, Options{Connect: untrusted}, client.WithElicitationHandler(accept))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := callCtx(ctx, c, "ask_choice", map[string]any{"question": "Which?", "options": []any{"A", "B"}})
	if err != nil {
		t.Fatal(err)
	}
	if sc := structuredMap(t, res); sc["status"] != "answered" || sc["answer"] != "A" {
		t.Errorf("ask_choice: %v", sc)
	}
	if msg := got.Params.Message; !strings.HasPrefix(msg, "Warning: ") || !strings.Contains(msg, "/run/user/1000/feedback") || !strings.Contains(msg, "uid 65534") || !strings.HasSuffix(msg, "Which?") {
		t.Errorf("form message %q does not name the refused endpoint", msg)
	}
}
