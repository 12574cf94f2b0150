package mcpshim

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"feedback/internal/settings"
	"feedback/ipc"
	"feedback/ipc/launch"
	"feedback/ipc/wire"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Options configures the MCP server.
type Options struct {
	// Dir is the project directory permission_prompt saves "always allow"
	// rules in; empty is the working directory (where a client such as
	// Claude Code starts the shim).
	Dir string
	// Connect is called lazily, once per question asked of the app, and
	// again for each restart when the app went away (it may start the app);
	// its error sends the call to the no-GUI fallback. An ipc.Asker that
	// is also an io.Closer is closed when its Ask returns.
	Connect func(ctx context.Context) (wire.Asker, error)
	// Greet, if set, is called once the client has initialized: it says
	// hello to the app if one runs (never starting it), so the app can
	// start its UI process ahead of the first question (ui_prewarm).
	Greet func()
	// Logger receives the server's logs; nil discards them. It must never
	// write to the protocol output (stdout).
	Logger *slog.Logger
	// Version is reported in initialize's serverInfo.
	Version string
	// Settings are the user's preferences (language, prompt suffix, …).
	Settings settings.Settings
	// Tools names the tools to expose (the --tools flag). Empty means
	// Settings.Tools, and when that is empty too, every tool. ask_human
	// brings ask_human_result with it. An unknown name is an
	// *UnknownToolError from NewServer and ServeStdio.
	Tools []string
	// HTTPClient posts ask_human's callback_url notifications; nil uses a
	// client with a 10 s timeout.
	HTTPClient *http.Client
	// ProgressInterval is how often a call with a progressToken is sent
	// notifications/progress while it waits; 0 means 10 s.
	ProgressInterval time.Duration
	// Session identifies the calling session (ParentSession: the client
	// process that started this shim). It is part of every stable
	// question id, so a window kept open, and an answer kept, for a call
	// again are found only by calls of the same session — a restarted shim
	// of the same client process included — never by another session of
	// the same client asking the identical question.
	Session string
}

// UnknownToolError is a tool name in Options.Tools that the shim does not
// know.
type UnknownToolError struct {
	Names []string // the unknown names, in the order given
}

func (e *UnknownToolError) Error() string {
	return fmt.Sprintf("unknown tool %s; valid tools are: %s",
		strings.Join(quoteAll(e.Names), ", "), strings.Join(ToolNames(), ", "))
}

func quoteAll(names []string) []string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return q
}

// workerPoolSize bounds the tool calls served at once. mcp-go's default of 5
// would queue a sixth parallel question behind five that may wait for
// minutes (a queued call's cancel is honoured: it never starts).
const workerPoolSize = 64

const instructions = "Ask the human user in a desktop window, and wait for the answer, whenever you need a decision, " +
	"clarification or approval instead of guessing. Tools: "

// NewServer builds the MCP server with the tools selected by opts (see
// Options.Tools). An unknown tool name is an *UnknownToolError.
func NewServer(opts Options) (*server.MCPServer, error) {
	s, _, err := newServer(opts)
	return s, err
}

func newServer(opts Options) (*server.MCPServer, *handler, error) {
	selected, err := selectTools(opts.Tools, opts.Settings.Tools)
	if err != nil {
		return nil, nil, err
	}
	names := make([]string, len(selected))
	for i, d := range selected {
		names[i] = d.tool.Name
	}
	hooks := &server.Hooks{}
	hooks.AddBeforeCallTool(boundTaskCall) // tasks.go
	if opts.Greet != nil {
		greet := opts.Greet
		hooks.AddAfterInitialize(func(context.Context, any, *mcp.InitializeRequest, *mcp.InitializeResult) {
			go greet() // the app, if it runs, may warm its windows up (settings' ui_prewarm)
		})
		hooks.AddOnRequestInitialization(greetOnFirstModernRequest(greet)) // revision.go: no initialize
	}
	s := server.NewMCPServer("feedback", opts.Version,
		server.WithToolCapabilities(false),
		server.WithInstructions(instructions+strings.Join(names, ", ")+"."),
		server.WithHooks(hooks),
		server.WithTaskCapabilities(true, true, true),
	)
	h := &handler{connect: opts.Connect, log: logger(opts), progressEvery: opts.ProgressInterval}
	h.base, h.stop = context.WithCancel(context.Background())
	dir := opts.Dir
	if dir == "" {
		dir, _ = os.Getwd()
	}
	h.env = callEnv{
		settings: opts.Settings,
		session:  opts.Session,
		notify:   h.webhookPoster(opts.HTTPClient),
		dir:      dir,
		logf:     h.log.Warn,
		tellUser: h.tellUser,
		granted:  &grants{},
	}
	for _, d := range selected {
		tool := d.tool
		if tool.Name != askHumanResultName { // it attaches for at most 300 s
			tool = withTaskSupport(tool) // tasks.go
		}
		s.AddTool(tool, h.toolHandler(d, tool))
	}
	return s, h, nil
}

// selectTools returns the dialects named by names, else by fallback, else
// every dialect, in table order. ask_human brings ask_human_result.
func selectTools(names, fallback []string) ([]dialect, error) {
	if len(names) == 0 {
		names = fallback
	}
	if len(names) == 0 {
		return tools, nil
	}
	want := make(map[string]bool, len(names))
	var unknown []string
	for _, n := range names {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		if !slices.Contains(ToolNames(), n) {
			unknown = append(unknown, n)
		}
		want[n] = true
	}
	if len(unknown) > 0 {
		return nil, &UnknownToolError{Names: unknown}
	}
	if want[askHumanName] {
		want[askHumanResultName] = true
	}
	var out []dialect
	for _, d := range tools {
		if want[d.tool.Name] {
			out = append(out, d)
		}
	}
	if len(out) == 0 {
		return tools, nil // only blank names: the default
	}
	return out, nil
}

// ServeStdio serves the MCP server over in and out (newline-delimited
// JSON-RPC) until in reaches EOF (nil) or ctx ends (ctx.Err()). In-flight
// calls are cancelled when it returns. mcp-go keeps the stdio session in a
// package variable: run one ServeStdio at a time per process.
//
// An unknown tool in opts is an *UnknownToolError before anything is read.
// Before returning it waits, at most webhookTimeout, for the callback_url
// notifications still being posted.
func ServeStdio(ctx context.Context, opts Options, in io.Reader, out io.Writer) error {
	log := logger(opts)
	s, h, err := newServer(opts)
	if err != nil {
		return err
	}
	stdio := server.NewStdioServer(s)
	errLog := slog.NewLogLogger(log.Handler(), slog.LevelError)
	server.WithErrorLogger(errLog)(stdio)
	server.WithWorkerPoolSize(workerPoolSize)(stdio)
	// The stream drops the responses to cancelled requests and writes
	// progress in order with the results (see stdioStream).
	stream := newStdioStream(out, log)
	server.WithStdioContextFunc(func(ctx context.Context) context.Context {
		return context.WithValue(ctx, streamKey{}, stream)
	})(stdio)
	err = stdio.Listen(ctx, stream.reader(in), stream)
	h.stop() // withdraws the questions still being waited for: their client is gone
	if !h.waitAsks(5 * time.Second) {
		log.Warn("questions still being withdrawn at exit")
	}
	h.waitWebhooks(webhookTimeout + time.Second)
	return err
}

// logger returns opts.Logger, or a logger that discards.
func logger(opts Options) *slog.Logger {
	if opts.Logger != nil {
		return opts.Logger
	}
	return slog.New(slog.DiscardHandler)
}

// handler serves the tool calls of every dialect.
type handler struct {
	connect        func(ctx context.Context) (wire.Asker, error)
	log            *slog.Logger
	env            callEnv
	roots          rootsCache         // the project each client's roots name
	base           context.Context    // ends, with every ask, when the server stops
	stop           context.CancelFunc // ends base
	asks           sync.WaitGroup     // asks of the app in progress
	progressEvery  time.Duration      // 0: progressInterval
	webhookMu      sync.Mutex         // guards webhooksClosed and the Add of webhooks
	webhooksClosed bool               // waitWebhooks has begun: later posts are not counted
	// webhooks counts the callback_url notifications being posted.
	webhooks sync.WaitGroup
}

// toolHandler returns the mcp-go handler of dialect d, served as tool
// (d's tool as registered: with its task support).
func (h *handler) toolHandler(d dialect, tool mcp.Tool) server.ToolHandlerFunc {
	name := d.tool.Name
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		// mcp-go learns a request's id as it reads it, so a cancel that
		// comes while the call waits for a worker ends ctx before the call
		// starts: it asks nothing (its response is dropped, stdio.go).
		if err := ctx.Err(); err != nil {
			h.log.Info("call cancelled by the client before it started", "tool", name)
			return nil, err
		}
		isTask := runsAsTask(tool, req) // tasks.go: mcp-go runs it detached from the tools/call
		env := h.env
		env.client = clientName(ctx)
		env.elicitation = clientDeclaresElicitation(ctx) && revisionHasElicitation(ctx)
		args, err := toolArguments(req)
		var p prepared
		if err == nil {
			p, err = d.prepare(args, env)
		}
		var aerr *ArgError
		if errors.As(err, &aerr) {
			h.log.Info("invalid tool arguments", "tool", name, "err", err)
			return mcp.NewToolResultError(fmt.Sprintf("Invalid arguments for %s: %s. Fix the argument and call %s again.", name, aerr, name)), nil
		}
		if err != nil { // not reached: prepare returns only *ArgError
			return mcp.NewToolResultError(fmt.Sprintf("Invalid arguments for %s: %v.", name, err)), nil
		}
		if len(p.ignored) > 0 {
			h.log.Debug("ignoring compatibility arguments", "tool", name, "fields", p.ignored)
		}
		if m := p.message; m != nil { // notify.go: nothing is asked
			m.Client, m.Project = env.client, h.roots.project(ctx)
			return h.tell(ctx, *m, h.log.With("tool", name)), nil
		}
		p.question.Client = env.client
		if p.question.Project == "" && p.immediate == nil {
			p.question.Project = h.roots.project(ctx) // project.go
		}
		return h.ask(ctx, call{tool: name, p: p, token: progressToken(req), client: env.client, elicitation: env.elicitation,
			modern: modernRequest(ctx), roundTrip: req.Params.MultiRoundTripParams, task: isTask, env: env})
	}
}

// call is one tool call, prepared.
type call struct {
	tool        string
	p           prepared
	token       mcp.ProgressToken // nil: the client wants no progress
	client      string            // initialize's clientInfo.name
	elicitation bool              // the client declared form elicitation
	// modern: the request uses the stateless revision (revision.go), whose
	// client gets the no-GUI form as an input-required result.
	modern bool
	// roundTrip is the form's answer when the call is the retry of one
	// answered with it (fallback_mrtr.go).
	roundTrip mcp.MultiRoundTripParams
	// task: the call runs as a task (tasks.go): no client wait applies.
	task bool
	// env is what the call was prepared with (its session and settings
	// bind and expire the no-GUI form's state, fallback_mrtr.go).
	env callEnv
}

// ask delivers a prepared question and renders the outcome. Failures the
// agent must know about are tool results with isError set; a cancelled ctx
// returns ctx.Err().
//
// Every wait is bounded: by the client's wait profile (clientWait, and
// p.wait when set), after which the dialect's "call again" result is
// returned while the window stays open; by ctx, which the client cancels
// (notifications/cancelled, end of input); and by the app's countdown.
func (h *handler) ask(ctx context.Context, c call) (*mcp.CallToolResult, error) {
	p := c.p
	if p.immediate != nil {
		return p.immediate, nil
	}
	q := p.question
	log := h.log.With("tool", c.tool, "question", q.ID)
	if err := (&wire.Ask{Question: q, AttachOnly: p.attachOnly}).Validate(); err != nil { // a normaliser bug: say so rather than send it
		log.Error("normalised question is invalid", "err", err)
		return mcp.NewToolResultError(fmt.Sprintf("The %s arguments could not be turned into a valid question (%v). Simplify the arguments and call %s again.", c.tool, err, c.tool)), nil
	}
	if res, ok := resumeForm(c, log); ok { // fallback_mrtr.go: the answer to the form
		return res, nil
	}
	if h.connect == nil {
		log.Error("no connection to the feedback app is configured")
		return mcp.NewToolResultError("The feedback app is not reachable: this MCP server has no connection configured. Ask the user in chat instead."), nil
	}
	wait := clientWait(c.client, h.env.settings)
	if p.wait > 0 {
		wait = min(wait, p.wait)
	}
	if c.task { // the client polls: the question's countdown ends the wait
		wait = taskWait
	}
	log.Info("asking", "client", c.client, "wait", wait, "progress", c.token != nil)
	return h.askApp(ctx, c, wait, log)
}

// askApp asks the app, which waits for the answer at most wait for this
// call (wire.Ask.Wait): then the call returns the dialect's "call
// again" result, and the app keeps the window open, and its answer, for
// the call made again with the same ID, from this process or from a new
// one (the client restarted the shim), or from the next session of a
// one-shot client once this one has ended (wire.Ask.Key and Session). A
// call the client cancels withdraws the question once nobody else waits
// for it. The shim keeps no answers.
func (h *handler) askApp(ctx context.Context, c call, wait time.Duration, log *slog.Logger) (*mcp.CallToolResult, error) {
	h.asks.Add(1)
	defer h.asks.Done()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	start := time.Now()
	a := wire.Ask{Question: c.p.question, Wait: max(wait.Truncate(time.Millisecond), time.Millisecond), AttachOnly: c.p.attachOnly,
		Key: questionKey(c.tool, c.client, h.env.session, c.p.question), Session: h.env.session} // questionid.go: a one-shot client's next session
	onStop := cancel
	if c.task { // its client comes back after a restart of the shim (taskhandoff.go)
		onStop = func() { h.handOff(a.Question, log); cancel() }
	}
	defer context.AfterFunc(h.base, onStop)()
	var (
		shownAt atomic.Int64
		snoozed atomic.Pointer[wire.Snooze] // the question was snoozed when this call joined it
	)
	onEvent := func(e wire.Event) {
		log.Debug("event", "type", e.Type)
		if e.Type == wire.EventShown {
			shownAt.CompareAndSwap(0, time.Now().UnixNano())
			if e.Snooze != nil {
				snoozed.Store(e.Snooze)
			}
		}
	}
	shown := func() (string, time.Time) {
		if ns := shownAt.Load(); ns != 0 {
			return windowStatus(time.Unix(0, ns), snoozed.Load(), time.Now())
		}
		return "", time.Time{}
	}
	hb := startHeartbeat(ctx, h.progressEvery, c.token, shown, log)
	ans, err := launch.AskRestarting(ctx, h.connect, a, onEvent, log)
	hb.stop()
	if errors.Is(err, wire.ErrPending) && ctx.Err() == nil {
		log.Info("not answered within the client's wait: call again; the app keeps the window open", "waited", wait)
		if ans.Snooze != nil {
			log.Info("the user snoozed the question: call again", "until", ans.Snooze.Until, "until_back", ans.Snooze.UntilBack)
		}
		// The result says how long this call waited, and a snooze's
		// one instruction instead of "call again now" (nextsteps.go).
		ans.ElapsedMS = time.Since(start).Milliseconds()
		return c.pending(ans), nil
	}
	return h.outcome(ctx, c, ans, err, start, wait, log)
}

// waitAsks waits, at most d, for the asks in progress to end (they end
// when the server stops).
func (h *handler) waitAsks(d time.Duration) bool {
	done := make(chan struct{})
	go func() { h.asks.Wait(); close(done) }()
	select {
	case <-done:
		return true
	case <-time.After(d):
		return false
	}
}

// outcome renders what an ask came to: the answer, or the failure (the
// no-GUI fallback when the app could not show the question at all).
func (h *handler) outcome(ctx context.Context, c call, a wire.Answer, err error, start time.Time, wait time.Duration, log *slog.Logger) (*mcp.CallToolResult, error) {
	p, q := c.p, c.p.question
	if err == nil {
		if a.QuestionID == "" {
			a.QuestionID = q.ID
		}
		log.Info("answered", "status", a.Status, "auto", a.Auto, "elapsed", time.Since(start).Round(time.Millisecond))
		res := p.render(a)
		withImages(res, a)
		if a.Auto && a.Status == wire.StatusAnswered && !res.IsError {
			res.Content = append(res.Content, mcp.NewTextContent(textAutoSubmitted))
		}
		withUserNotes(res, a.Notes) // notes.go
		return res, nil
	}
	if ctx.Err() != nil {
		log.Info("call cancelled by the client", "err", ctx.Err())
		return nil, ctx.Err()
	}
	var ce *launch.NotReachedError
	// A revoked relay pairing reaches no window either: ask without one.
	if !p.attachOnly && (errors.As(err, &ce) || errors.Is(err, &wire.Error{Code: wire.CodeNoDisplay}) || errors.Is(err, &wire.Error{Code: wire.CodeRevoked})) {
		return h.noGUI(ctx, c, err, wait-time.Since(start), log)
	}
	return c.failure(err, log), nil
}

// withImages makes sure an answer's attachments reach the agent whatever
// the dialect: a result with no image block of its own gets, after its
// first (text) block, a line counting them and one image block each, so an
// agent whose client drops image blocks still knows they were sent.
func withImages(res *mcp.CallToolResult, a wire.Answer) {
	if res == nil || res.IsError || a.Status != wire.StatusAnswered || len(a.Images) == 0 {
		return
	}
	for _, c := range res.Content {
		if _, ok := c.(mcp.ImageContent); ok {
			return
		}
	}
	blocks := []mcp.Content{mcp.NewTextContent(fmt.Sprintf("Attached images: %d", len(a.Images)))}
	for _, img := range a.Images {
		blocks = append(blocks, mcp.NewImageContent(base64.StdEncoding.EncodeToString(img.Data), img.MIME))
	}
	n := min(1, len(res.Content))
	res.Content = append(res.Content[:n:n], append(blocks, res.Content[n:]...)...)
}

// textAutoSubmitted ends every result of an answer the app sent for the
// user (wire.Answer.Auto): the countdown ran out and the setting
// submit_draft_on_timeout sent their unfinished draft.
const textAutoSubmitted = "Note: the user did not press Submit. The window's countdown ran out and their unfinished draft was sent as it stood. Treat it as a draft, not a considered answer; confirm with the user before acting on anything that matters."

// failure is the dialect's result for an infrastructure failure.
func (c call) failure(err error, log *slog.Logger) *mcp.CallToolResult {
	if c.p.fail != nil {
		log.Error("ask failed", "err", err)
		return c.p.fail(err)
	}
	return askFailure(log, c.tool, err)
}

// pending is the dialect's "not answered yet — call again" result; a
// carries the snooze, if the user snoozed the question (callAgain), and
// this call's wait as ElapsedMS.
func (c call) pending(a wire.Answer) *mcp.CallToolResult {
	if c.p.pending != nil {
		return c.p.pending(a)
	}
	return mcp.NewToolResultText(callAgain(a, c.tool, fmt.Sprintf("The user has not answered yet; the question is still open in the feedback window. This is not an answer. Call %s again with the same arguments to keep waiting.", c.tool)))
}

// noGUI asks without the app, which cannot show the question (cause): in
// the client's own form when it declared elicitation (bounded by budget,
// what is left of the client's wait), else it returns the dialect's "ask
// in chat" result, which carries the question and its options.
func (h *handler) noGUI(ctx context.Context, c call, cause error, budget time.Duration, log *slog.Logger) (*mcp.CallToolResult, error) {
	p, q := c.p, formQuestion(c.p.question) // fallback_mrtr.go: a form never allows a tool call
	srv := server.ServerFromContext(ctx)
	log.Warn("the feedback window cannot be shown: asking without it", "err", cause, "client_elicitation", c.elicitation, "stateless", c.modern)
	if c.elicitation && c.modern {
		msg, schema, _ := elicitationForm(q)
		res, err := askFormStateless(c, untrustedWarning(cause, msg), schema, log)
		if err == nil {
			return res, nil
		}
		cause = fmt.Errorf("%w; %v", cause, err)
	} else if c.elicitation && srv != nil && budget > time.Second {
		msg, schema, fields := elicitationFormAt(q, server.RequestProtocolVersion(ctx)) // elicit.go: what the revision allows
		msg = untrustedWarning(cause, msg)
		ectx, cancel := context.WithTimeout(ctx, budget)
		defer cancel()
		sent := time.Now()
		hb := startHeartbeat(ctx, h.progressEvery, c.token, func() (string, time.Time) { return "form open", sent }, log)
		res, err := srv.RequestElicitation(ectx, mcp.ElicitationRequest{
			Request: mcp.Request{Method: string(mcp.MethodElicitationCreate)},
			Params:  mcp.ElicitationParams{Message: msg, RequestedSchema: schema},
		})
		hb.stop()
		switch {
		case err == nil && res != nil:
			a := formAnswer(q, fields, res, time.Since(sent).Milliseconds())
			log.Info("asked through the client's form", "action", res.Action, "status", a.Status, "elapsed_ms", a.ElapsedMS, "not_the_users", formNotAsked(a) != nil)
			return c.renderFormAnswer(a), nil
		case ctx.Err() != nil:
			return nil, ctx.Err()
		case ectx.Err() != nil:
			cause = fmt.Errorf("%w; the client's form was not answered within %v", cause, budget.Round(time.Second))
		default:
			cause = fmt.Errorf("%w; the client's form failed: %v", cause, err)
		}
		log.Warn("elicitation did not answer", "err", cause)
	}
	if p.chat != nil {
		return p.chat(cause), nil
	}
	return c.failure(cause, log), nil
}

// untrustedWarning prefixes a form's message with a warning when the
// window was not used because the app's endpoint is not trusted: the
// person must learn that someone may be impersonating the app; the log
// alone would hide it from them.
func untrustedWarning(cause error, msg string) string {
	if !errors.Is(cause, ipc.ErrUntrustedEndpoint) {
		return msg
	}
	return fmt.Sprintf("Warning: feedback did not use its window because %v. Answer here instead, and check that socket.\n\n%s", cause, msg)
}

// askFailure is the tool result for a failed Ask.
func askFailure(log *slog.Logger, tool string, err error) *mcp.CallToolResult {
	log.Error("ask failed", "err", err)
	var e *wire.Error
	if errors.As(err, &e) {
		return mcp.NewToolResultError(fmt.Sprintf("The feedback app refused the question (%s): %s. %s", e.Code, e.Message, refusalHint(e.Code, tool)))
	}
	return mcp.NewToolResultError(fmt.Sprintf("The feedback app is not reachable: the connection broke while waiting for the answer (%v). No answer was received; call %s again.", err, tool))
}

// refusalHint tells the agent what to do about an ipc.Error code.
func refusalHint(code wire.ErrorCode, tool string) string {
	switch code {
	case wire.CodeInvalid:
		return "Fix the arguments and call " + tool + " again."
	case wire.CodeTooMany:
		return "Too many questions are open; wait for one to be answered, then call " + tool + " again."
	case wire.CodeNoDisplay:
		return "The app cannot show windows on this machine; ask the user in chat instead."
	case wire.CodeRevoked:
		return "Ask the user in chat instead, and tell them this machine's relay pairing was revoked on their desktop: they must pair it again."
	case wire.CodeProtocol:
		return "The feedback app and this MCP server are different versions; ask the user to update and restart them."
	default:
		return "Call " + tool + " again; if it keeps failing, ask the user in chat."
	}
}

// toolArguments returns the call's arguments as an object; absent or null
// arguments are an empty object.
func toolArguments(req mcp.CallToolRequest) (map[string]any, error) {
	switch a := req.Params.Arguments.(type) {
	case nil:
		return map[string]any{}, nil
	case map[string]any:
		return a, nil
	default:
		return nil, argErrorf("arguments", "must be a JSON object, got %s", jsonType(a))
	}
}

// clientName returns the name of the MCP client making the call, from the
// request's metadata (protocol 2026-07-28) or the session's initialize
// clientInfo, or "".
func clientName(ctx context.Context) string {
	if info := server.RequestProtocolInfoFromContext(ctx); info != nil && info.ClientInfo != nil && info.ClientInfo.Name != "" {
		return canonicalClient(info.ClientInfo.Name)
	}
	if s, ok := server.ClientSessionFromContext(ctx).(server.SessionWithClientInfo); ok {
		return canonicalClient(s.GetClientInfo().Name)
	}
	return ""
}

// sameClient maps the name a client's MCP connection gives itself to the
// name its hooks use (notifycmd), where the two differ: one client, one
// name in the windows, History and the notes for an agent.
var sameClient = map[string]string{
	"gemini-cli-mcp-client": "gemini-cli", // the Gemini CLI's MCP client; its hooks say gemini-cli
}

// canonicalClient is name as feedback shows and matches it.
func canonicalClient(name string) string {
	if c, ok := sameClient[name]; ok {
		return c
	}
	return name
}
