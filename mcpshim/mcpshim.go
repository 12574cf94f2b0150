package mcpshim

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"feedback/ipc"
	"feedback/settings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Asker delivers a question to the app and waits for the outcome. onEvent may be nil.
//
// Ask returns when the question ends (an Answer), when ctx ends (ctx.Err()),
// or when it fails: an *ipc.Error is the app refusing the question, any
// other error is a transport failure.
type Asker interface {
	Ask(ctx context.Context, q ipc.Question, onEvent func(ipc.Event)) (ipc.Answer, error)
}

// Options configures the MCP server.
type Options struct {
	// Connect is called lazily, once per tool call (it may start the app);
	// its error is reported to the agent. An Asker that is also an io.Closer
	// is closed when the call ends.
	Connect func(ctx context.Context) (Asker, error)
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
// would queue a sixth parallel question, and a cancel for a queued call is
// lost.
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
	s := server.NewMCPServer("feedback", opts.Version,
		server.WithToolCapabilities(false),
		server.WithInstructions(instructions+strings.Join(names, ", ")+"."),
	)
	h := &handler{connect: opts.Connect, log: logger(opts)}
	h.env = callEnv{
		settings: opts.Settings,
		requests: newRequestStore(),
		notify:   h.webhookPoster(opts.HTTPClient),
	}
	for _, d := range selected {
		s.AddTool(d.tool, h.toolHandler(d))
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
	err = stdio.Listen(ctx, in, out)
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
	connect        func(ctx context.Context) (Asker, error)
	log            *slog.Logger
	env            callEnv
	webhookMu      sync.Mutex // guards webhooksClosed and the Add of webhooks
	webhooksClosed bool       // waitWebhooks has begun: later posts are not counted
	// webhooks counts the callback_url notifications being posted.
	webhooks sync.WaitGroup
}

// toolHandler returns the mcp-go handler of dialect d.
func (h *handler) toolHandler(d dialect) server.ToolHandlerFunc {
	name := d.tool.Name
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		args, err := toolArguments(req)
		var p prepared
		if err == nil {
			p, err = d.prepare(args, h.env)
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
		p.question.Client = clientName(ctx)
		return h.ask(ctx, name, p)
	}
}

// ask delivers a prepared question and renders the outcome. Failures the
// agent must know about are tool results with isError set; a cancelled ctx
// returns ctx.Err().
func (h *handler) ask(ctx context.Context, tool string, p prepared) (*mcp.CallToolResult, error) {
	if p.immediate != nil {
		return p.immediate, nil
	}
	q := p.question
	log := h.log.With("tool", tool, "question", q.ID)
	failure := func(err error) *mcp.CallToolResult {
		if p.fail != nil {
			log.Error("ask failed", "err", err)
			return p.fail(err)
		}
		return askFailure(log, tool, err)
	}
	if err := q.Validate(); err != nil { // a normaliser bug: say so rather than send it
		log.Error("normalised question is invalid", "err", err)
		return mcp.NewToolResultError(fmt.Sprintf("The %s arguments could not be turned into a valid question (%v). Simplify the arguments and call %s again.", tool, err, tool)), nil
	}
	if h.connect == nil {
		log.Error("no connection to the feedback app is configured")
		return mcp.NewToolResultError("The feedback app is not reachable: this MCP server has no connection configured. Ask the user in chat instead."), nil
	}
	start := time.Now()
	asker, err := h.connect(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if p.fail != nil {
			return failure(err), nil
		}
		log.Error("cannot reach the feedback app", "err", err)
		return mcp.NewToolResultError(fmt.Sprintf("The feedback app is not reachable: %v. Make sure the feedback app can run on the user's desktop (start `feedback` once), then call %s again; if it keeps failing, ask the user in chat.", err, tool)), nil
	}
	if c, ok := asker.(io.Closer); ok {
		defer c.Close()
	}
	log.Info("asking", "client", q.Client)
	onEvent := func(e ipc.Event) { log.Debug("event", "type", e.Type) }
	askCtx := ctx
	if p.wait > 0 {
		var cancel context.CancelFunc
		askCtx, cancel = context.WithTimeout(ctx, p.wait)
		defer cancel()
	}
	a, err := asker.Ask(askCtx, q, onEvent)
	if err != nil {
		if ctx.Err() != nil {
			log.Info("call cancelled by the client", "err", ctx.Err())
			return nil, ctx.Err()
		}
		if askCtx.Err() != nil && p.pending != nil {
			log.Info("no answer yet: pending", "waited", p.wait)
			return p.pending(), nil
		}
		return failure(err), nil
	}
	log.Info("answered", "status", a.Status, "elapsed", time.Since(start).Round(time.Millisecond))
	return p.render(a), nil
}

// askFailure is the tool result for a failed Ask.
func askFailure(log *slog.Logger, tool string, err error) *mcp.CallToolResult {
	log.Error("ask failed", "err", err)
	var e *ipc.Error
	if errors.As(err, &e) {
		return mcp.NewToolResultError(fmt.Sprintf("The feedback app refused the question (%s): %s. %s", e.Code, e.Message, refusalHint(e.Code, tool)))
	}
	return mcp.NewToolResultError(fmt.Sprintf("The feedback app is not reachable: the connection broke while waiting for the answer (%v). No answer was received; call %s again.", err, tool))
}

// refusalHint tells the agent what to do about an ipc.Error code.
func refusalHint(code ipc.ErrorCode, tool string) string {
	switch code {
	case ipc.CodeInvalid:
		return "Fix the arguments and call " + tool + " again."
	case ipc.CodeTooMany:
		return "Too many questions are open; wait for one to be answered, then call " + tool + " again."
	case ipc.CodeNoDisplay:
		return "The app cannot show windows on this machine; ask the user in chat instead."
	case ipc.CodeProtocol:
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
		return info.ClientInfo.Name
	}
	if s, ok := server.ClientSessionFromContext(ctx).(server.SessionWithClientInfo); ok {
		return s.GetClientInfo().Name
	}
	return ""
}

// newQuestionID returns a fresh random question ID: 16 bytes, hex.
func newQuestionID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand, Go 1.24+)
	return hex.EncodeToString(b[:])
}
