package mcpshim

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"feedback/internal/settings"
	"feedback/ipc/wire"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// The conformance matrix: every tool, through mcp-go's own client, at every
// protocol revision the shim serves — 2026-07-28 in the stateless mode (no
// initialize, _meta on every request) and the older ones with initialize.
// Each row checks listing, each tool's happy path (answered by a fake app),
// its bad-input error, cancel, progress, the client's name as the app sees
// it, and the no-GUI fallback in the form the revision understands. A new
// revision is one more row.

// fallbackForm is how a revision's client is asked when no window can be
// shown.
type fallbackForm int

const (
	formByInputRequired fallbackForm = iota // 2026-07-28: an input-required result, the call retried
	formByElicitation                       // elicitation/create from the server
	formByChat                              // neither: the question handed back for the chat
)

// revisionRows are the matrix's rows.
var revisionRows = []struct {
	version string
	form    fallbackForm
}{
	{"2026-07-28", formByInputRequired},
	{"2025-11-25", formByElicitation},
	{"2025-06-18", formByElicitation},
	{"2024-11-05", formByChat}, // no elicitation in that revision, even when declared
}

// matrixClient is the name the matrix's client gives; its wait profile is
// claude-code's, so the ask's Wait shows that the name was read.
const matrixClient = "claude-code-matrix"

// humanWords is what the fake human types into a reply box.
const humanWords = "the human's words"

// matrixTool is one tool's column of the matrix.
type matrixTool struct {
	name string
	args map[string]any
	// answered is a text every answered result holds (in its text blocks).
	answered string
	// chat is a text the chat hand-off holds.
	chat string
	// bad are arguments the agent must fix.
	bad map[string]any
}

// matrixTools covers every tool but ask_human_result, which asks nothing
// (its row checks it after an ask_human that returned pending).
var matrixTools = []matrixTool{
	{"interactive_feedback", map[string]any{"message": "Ship it?", "predefined_options": []any{"Ship", "Wait"}}, "- Ship", "needs_user_input", map[string]any{"predefined_options": "Ship"}},
	{"ask_human", map[string]any{"agent_name": "matrix", "title": "Deploy?", "choices": []any{map[string]any{"id": "go", "label": "Go"}, map[string]any{"id": "stop", "label": "Stop"}}}, `"choice_id":"go"`, "needs_user_input", map[string]any{"agent_name": "matrix", "title": "Deploy?", "choices": []any{}}},
	{"user_interact", map[string]any{"question": "Your name?"}, `"answer":"` + humanWords + `"`, `"outcome":"pending"`, map[string]any{"question": 7}},
	{"ask_user_question", map[string]any{"questions": []any{map[string]any{"question": "Which?", "header": "Pick", "options": []any{map[string]any{"label": "Red"}, map[string]any{"label": "Blue"}}}}}, "Red", "needs_user_input", map[string]any{"questions": "Which?"}},
	{"ask_choice", map[string]any{"question": "Which DB?", "options": []any{"Postgres", "SQLite"}}, `"answer":"Postgres"`, "needs_user_input", map[string]any{"question": "Which DB?"}},
	{"ask_confirm", map[string]any{"question": "Sure?"}, `"confirmed":true`, "needs_user_input", map[string]any{"question": ""}},
	{"ask_text", map[string]any{"question": "Why?"}, humanWords, "needs_user_input", map[string]any{}},
	{"ask_multi_select", map[string]any{"question": "Which?", "options": []any{"A", "B", "C"}}, `"selected":["A"]`, "needs_user_input", map[string]any{"question": "Which?", "options": "A"}},
}

// windowAnswer is the fake human's answer in the window: the first option
// of each prompt, "yes", or humanWords.
func windowAnswer(q wire.Question) wire.Answer {
	a := wire.Answer{QuestionID: q.ID, Status: wire.StatusAnswered, ElapsedMS: 900, Replies: make([]wire.Reply, len(q.Prompts))}
	for i, p := range q.Prompts {
		switch {
		case p.EffectiveKind() == wire.KindYesNo:
			a.Replies[i].Text = "yes"
		case len(p.Options) > 0:
			a.Replies[i].Selected = []string{p.Options[0].Label}
		default:
			a.Replies[i].Text = humanWords
		}
	}
	return a
}

// formAnswerer is the fake human's answer in the client's own form: the
// first value of every enum (a one-item array for a multiple choice),
// humanWords in every text field, the first label of every enum, and of
// checkboxes (a 2025-06-18 multi-select: one boolean per option, "…_1"
// the first) the first ticked; or action for anything but accept. It
// counts the forms it was shown.
func formAnswerer(action mcp.ElicitationResponseAction, shown *atomic.Int32) elicitor {
	return func(_ context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
		shown.Add(1)
		res := &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: action}}
		if action != mcp.ElicitationResponseActionAccept {
			return res, nil
		}
		raw, _ := json.Marshal(req.Params.RequestedSchema)
		var schema struct {
			Properties map[string]struct {
				Type  string   `json:"type"`
				Enum  []string `json:"enum"`
				Items struct {
					Enum []string `json:"enum"`
				} `json:"items"`
			} `json:"properties"`
		}
		if err := json.Unmarshal(raw, &schema); err != nil {
			return nil, err
		}
		content := map[string]any{}
		for k, p := range schema.Properties {
			switch {
			case len(p.Enum) > 0:
				content[k] = p.Enum[0]
			case len(p.Items.Enum) > 0:
				content[k] = []any{p.Items.Enum[0]}
			case p.Type == "boolean":
				content[k] = strings.HasSuffix(k, "_1")
			default:
				content[k] = humanWords
			}
		}
		res.Content = content
		return res, nil
	}
}

// allText is every text block of res and its structuredContent as JSON.
func allText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := mcp.AsTextContent(c); ok {
			b.WriteString(tc.Text + "\n")
		}
	}
	if res.StructuredContent != nil {
		raw, _ := json.Marshal(res.StructuredContent)
		b.Write(raw)
	}
	return b.String()
}

func TestConformanceMatrix(t *testing.T) {
	for _, row := range revisionRows {
		t.Run(row.version, func(t *testing.T) {
			t.Run("answered", func(t *testing.T) { matrixAnswered(t, row.version) })
			t.Run("cancel-progress-pending", func(t *testing.T) { matrixWaiting(t, row.version) })
			t.Run("call-again", func(t *testing.T) { matrixCallAgain(t, row.version) })
			t.Run("fallback", func(t *testing.T) { matrixFallback(t, row.version, row.form) })
		})
	}
}

// matrixAnswered: listing, each tool's happy path through the window (the
// client's name and wait reach the app; notes and images reach the agent),
// and each tool's bad input.
func matrixAnswered(t *testing.T, version string) {
	app := newFakeInbox()
	app.auto = func(q wire.Question) wire.Answer {
		a := windowAnswer(q)
		if q.Source == "interactive_feedback" {
			a.Notes = []string{"use the staging database"}
			a.Images = []wire.Image{{MIME: "image/png", Data: []byte("\x89PNG fake")}}
		}
		return a
	}
	c, _ := startShimAt(t, Options{Connect: connectTo(app)}, version, matrixClient)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	list, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	if want := slices.Sorted(slices.Values(ToolNames())); !slices.Equal(names, want) {
		t.Errorf("tools/list = %v, want %v", names, want)
	}

	for _, tool := range matrixTools {
		res, err := callCtx(ctx, c, tool.name, tool.args)
		if err != nil {
			t.Fatalf("%s: %v", tool.name, err)
		}
		if text := allText(res); res.IsError || !strings.Contains(text, tool.answered) {
			t.Errorf("%s answered: isError %v, want %q in\n%s", tool.name, res.IsError, tool.answered, text)
		}
		q := <-app.asked
		if q.Client != matrixClient {
			t.Errorf("%s: the app was told the client is %q, want %q", tool.name, q.Client, matrixClient)
		}
		if tool.name == "interactive_feedback" {
			if want, got := clientWait(matrixClient, settings.Settings{}), app.askOf(q.ID).Wait; got != want {
				t.Errorf("interactive_feedback: wait %v, want the client's profile %v", got, want)
			}
			var images int
			for _, b := range res.Content {
				if _, ok := b.(mcp.ImageContent); ok {
					images++
				}
			}
			if text := allText(res); images != 1 || !strings.Contains(text, textUserNote+"use the staging database") {
				t.Errorf("interactive_feedback: %d image blocks, want 1; the note in\n%s", images, text)
			}
		}

		res, err = callCtx(ctx, c, tool.name, tool.bad)
		if err != nil {
			t.Fatalf("%s with bad input: %v", tool.name, err)
		}
		if !res.IsError {
			t.Errorf("%s with bad input %v: not an error:\n%s", tool.name, tool.bad, allText(res))
		}
	}
	res, err := callCtx(ctx, c, "ask_human_result", map[string]any{"request_id": "not-an-id"})
	if err != nil || !res.IsError {
		t.Errorf("ask_human_result with a bad request_id: %v, %+v", err, res)
	}
	if asks, _ := app.counts(); asks != len(matrixTools)+1 {
		t.Errorf("the app was asked %d times, want %d (bad input asks nothing; ask_human_result looks its id up)", asks, len(matrixTools)+1)
	}
}

// matrixWaiting: a call cancelled by the client withdraws its window, for
// every tool; a waiting call with a progressToken gets progress; ask_human
// returns pending and ask_human_result collects the answer.
func matrixWaiting(t *testing.T, version string) {
	app := newFakeInbox()
	s := settings.Default()
	s.PendingWaitSeconds = 1
	c, _ := startShimAt(t, Options{Connect: connectTo(app), Settings: s, ProgressInterval: 50 * time.Millisecond}, version, matrixClient)

	for _, tool := range matrixTools {
		ctx, cancel := context.WithCancel(context.Background())
		errc := make(chan error, 1)
		go func() {
			_, err := callCtx(ctx, c, tool.name, tool.args)
			errc <- err
		}()
		var q wire.Question
		select {
		case q = <-app.asked:
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: the question never reached the app", tool.name)
		}
		app.waitWaiters(t, q.ID, 1)
		cancel()
		if err := <-errc; !errors.Is(err, context.Canceled) {
			t.Errorf("%s: CallTool after cancel: %v", tool.name, err)
		}
		select {
		case id := <-app.withdrawn:
			if id != q.ID {
				t.Errorf("%s: withdrawn %s, want %s", tool.name, id, q.ID)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: cancel did not withdraw the window", tool.name)
		}
	}

	progress := make(chan string, 16)
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == string(mcp.MethodNotificationProgress) {
			if tok, _ := n.Params.AdditionalFields["progressToken"].(string); tok != "" {
				progress <- tok
			}
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	resc := make(chan *mcp.CallToolResult, 1)
	go func() {
		req := mcp.CallToolRequest{}
		req.Params.Name = "ask_text"
		req.Params.Arguments = map[string]any{"question": "Progress?"}
		req.Params.Meta = &mcp.Meta{ProgressToken: "matrix-progress"}
		res, err := c.CallTool(ctx, req)
		if err != nil {
			t.Errorf("ask_text with progress: %v", err)
		}
		resc <- res
	}()
	q := <-app.asked
	select {
	case tok := <-progress:
		if tok != "matrix-progress" {
			t.Errorf("progressToken %q", tok)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no progress while the window was open")
	}
	app.waitWaiters(t, q.ID, 1)
	app.answer(t, q.ID, windowAnswer(q))
	if res := <-resc; res == nil || !strings.Contains(allText(res), humanWords) {
		t.Errorf("ask_text with progress: %+v", res)
	}

	res, err := callCtx(ctx, c, "ask_human", matrixTools[1].args)
	if err != nil {
		t.Fatal(err)
	}
	sc := structuredMap(t, res)
	if sc["status"] != "pending" {
		t.Fatalf("ask_human after the pending wait: %v", sc)
	}
	q = <-app.asked
	app.answer(t, q.ID, windowAnswer(q))
	res, err = callCtx(ctx, c, "ask_human_result", map[string]any{"request_id": sc["request_id"]})
	if err != nil {
		t.Fatal(err)
	}
	if sc := structuredMap(t, res); sc["status"] != "answered" || sc["choice_id"] != "go" {
		t.Errorf("ask_human_result: %v", sc)
	}
}

// matrixFallback: no window can be shown. Every tool asks through the form
// the revision understands and renders its answer as the window's would
// be; decline and cancel are no answer; without a form the question is
// handed back for the chat.
func matrixFallback(t *testing.T, version string, form fallbackForm) {
	t.Run("accept", func(t *testing.T) { matrixFormAccepted(t, version, form) })
	if form == formByChat {
		return
	}
	for _, action := range []mcp.ElicitationResponseAction{mcp.ElicitationResponseActionDecline, mcp.ElicitationResponseActionCancel} {
		t.Run(string(action), func(t *testing.T) { matrixFormRefused(t, version, action) })
	}
}

// matrixFormAccepted: every tool asked through the revision's form.
func matrixFormAccepted(t *testing.T, version string, form fallbackForm) {
	var shown atomic.Int32
	c, logs := startShimAt(t, Options{Connect: noDisplay, Settings: settings.Default()}, version, matrixClient,
		client.WithElicitationHandler(formAnswerer(mcp.ElicitationResponseActionAccept, &shown)))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for _, tool := range matrixTools {
		before := shown.Load()
		res, err := callCtx(ctx, c, tool.name, tool.args)
		if err != nil {
			t.Fatalf("%s: %v", tool.name, err)
		}
		want, forms := tool.answered, int32(1)
		if form == formByChat {
			want, forms = tool.chat, 0
		}
		if text := allText(res); res.IsError || !strings.Contains(text, want) {
			t.Errorf("%s without a window: isError %v, want %q in\n%s", tool.name, res.IsError, want, text)
		}
		if got := shown.Load() - before; got != forms {
			t.Errorf("%s: the client showed %d forms, want %d", tool.name, got, forms)
		}
	}
	if want := "input-required result"; (form == formByInputRequired) != strings.Contains(logs.String(), want) {
		t.Errorf("the log says %q: %v, want %v", want, !(form == formByInputRequired), form == formByInputRequired)
	}
}

// matrixFormRefused: the form declined or cancelled is no answer. This
// client answers at once, sooner than a person could: a decline this fast
// is "needs_user_input", suspected of being the client's own
// (auto_reject_suspected, seed 004), and so is a cancel this fast
// (autoCancelled: nobody was asked); in every dialect either is its "ask
// in chat" result (declined_test.go, autocancel_test.go). A cancel in a
// person's time is a dismissal ("cancelled", as in seed 004).
func matrixFormRefused(t *testing.T, version string, action mcp.ElicitationResponseAction) {
	var n atomic.Int32
	c, _ := startShimAt(t, Options{Connect: noDisplay, Settings: settings.Default()}, version, matrixClient, client.WithElicitationHandler(formAnswerer(action, &n)))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := callCtx(ctx, c, "ask_choice", matrixTools[4].args)
	if err != nil {
		t.Fatal(err)
	}
	want, auto := "needs_user_input", true
	if sc := structuredMap(t, res); sc["status"] != want || sc["via"] != "elicitation" || sc["auto_reject_suspected"] != auto {
		t.Errorf("ask_choice, form %s: %v, want status %s", action, sc, want)
	}
	res, err = callCtx(ctx, c, "interactive_feedback", matrixTools[0].args)
	if err != nil {
		t.Fatal(err)
	}
	if sc := structuredMap(t, res); sc["status"] != want {
		t.Errorf("interactive_feedback, form %s: %v, want status %s", action, sc, want)
	}
	if n.Load() != 2 {
		t.Errorf("%d forms shown, want 2", n.Load())
	}
}

// matrixCallAgain: the client's wait runs out ("call again", the window
// stays); the answer given meanwhile is collected by the call made again.
func matrixCallAgain(t *testing.T, version string) {
	app := newFakeInbox()
	s := settings.Default()
	s.MaxWaitSeconds = 1
	c, _ := startShimAt(t, Options{Connect: connectTo(app), Settings: s}, version, matrixClient)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	args := matrixTools[0].args
	res, err := callCtx(ctx, c, "interactive_feedback", args)
	if err != nil {
		t.Fatal(err)
	}
	if sc := structuredMap(t, res); sc["status"] != "pending" {
		t.Fatalf("after the client's wait: %v", sc)
	}
	q := <-app.asked
	app.answer(t, q.ID, windowAnswer(q))
	res, err = callCtx(ctx, c, "interactive_feedback", args)
	if err != nil {
		t.Fatal(err)
	}
	if sc := structuredMap(t, res); sc["status"] != "answered" || sc["question_id"] != q.ID {
		t.Errorf("called again: %v, want the answer to %s", sc, q.ID)
	}
	if _, windows := app.counts(); windows != 1 {
		t.Errorf("%d windows, want 1", windows)
	}
}
