package mcpshim

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"sync"

	"feedback/ipc"

	"github.com/mark3labs/mcp-go/mcp"
)

// stdioStream sits between mcp-go's stdio server and the process's stdin
// and stdout, one JSON-RPC message per line each way, and keeps three
// rules that mcp-go's stdio transport (v1.6.0, TestMCPGoWorkaroundsVerified)
// does not; upstream_test.go probes mcp-go alone for each, and
// docs/upstream/mcp-go-*.md asks for it:
//
//   - A request the client cancelled (notifications/cancelled) gets no
//     response. mcp-go cancels the handler's context (a queued call's
//     too) and then writes the handler's error ("context canceled") as a
//     response; the stream reads the cancel as it passes on the input and
//     drops that response (or any other) on the output.
//   - No progress notification follows the result of its call, or its
//     cancel. mcp-go queues notifications on a channel that another
//     goroutine writes, so a progress sent before the result could be
//     written after it. The heartbeat writes its progress here instead,
//     synchronously, and stops (waiting for its sender) before the handler
//     returns the result; the progress of a cancelled call is dropped (the
//     client has forgotten its token).
//   - One input line is bounded (maxInputLineBytes): mcp-go reads a line
//     whole, however long, into memory (bufio.Reader.ReadString).
//
// Every line is written to out whole, under one mutex, so mcp-go's writers
// (responses, its notification goroutine, server-to-client requests) and
// the heartbeats never interleave.
type stdioStream struct {
	log *slog.Logger
	mu  sync.Mutex // guards out, outBuf, calls and tokens
	out io.Writer
	// outBuf holds the start of a line written in pieces (mcp-go writes
	// whole lines; this is for safety).
	outBuf []byte
	// calls are the client's requests read and not yet answered, by id
	// key. At most maxTrackedCalls; a request beyond is answered as usual
	// but its cancel cannot be honoured.
	calls map[string]*inFlight
	// tokens maps the progressToken (as idKey) of a call in calls to its
	// id key.
	tokens map[string]string
}

// inFlight is a request of the client that has no response yet.
type inFlight struct {
	cancelled bool
	token     string // its progressToken as idKey, "" when none
}

// maxTrackedCalls bounds stdioStream.calls: far above the requests a
// client keeps open at once (mcp-go serves workerPoolSize tool calls).
const maxTrackedCalls = 4096

// maxLineBytes bounds an output line the stream holds to look into; a
// longer one is written as it is. (Input lines: maxInputLineBytes.)
const maxLineBytes = 64 << 20

func newStdioStream(out io.Writer, log *slog.Logger) *stdioStream {
	return &stdioStream{out: out, log: log, calls: map[string]*inFlight{}, tokens: map[string]string{}}
}

// Write implements io.Writer for mcp-go: each complete line is written to
// out unless it is the response to a cancelled request. It reports the
// whole of p as written.
func (s *stdioStream) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			if len(s.outBuf)+len(p) > maxLineBytes { // not a line we can hold: pass it on
				if err := s.flushPartial(p); err != nil {
					return 0, err
				}
				return n, nil
			}
			s.outBuf = append(s.outBuf, p...)
			return n, nil
		}
		line := p[:i+1]
		if len(s.outBuf) > 0 {
			line = append(s.outBuf, line...)
			s.outBuf = s.outBuf[:0]
		}
		p = p[i+1:]
		if s.dropResponse(line) {
			continue
		}
		if _, err := s.out.Write(line); err != nil {
			return 0, err
		}
	}
	return n, nil
}

// flushPartial writes what is buffered and p, a piece of an overlong line.
func (s *stdioStream) flushPartial(p []byte) error {
	if len(s.outBuf) > 0 {
		if _, err := s.out.Write(s.outBuf); err != nil {
			return err
		}
		s.outBuf = s.outBuf[:0]
	}
	_, err := s.out.Write(p)
	return err
}

// dropResponse reports whether line is a response to a request the client
// cancelled, and forgets a request once it is answered.
func (s *stdioStream) dropResponse(line []byte) bool {
	if len(s.calls) == 0 {
		return false
	}
	id, method, ok := messageHead(line)
	if !ok || method != "" || id == "" {
		return false // not a response
	}
	c, known := s.calls[id]
	if !known {
		return false
	}
	delete(s.calls, id)
	if c.token != "" {
		delete(s.tokens, c.token)
	}
	if c.cancelled {
		s.log.Debug("no response to a cancelled request", "id", id)
		return true
	}
	return false
}

// notify writes a notification to the client at once, ordered with every
// other line: when it returns, the notification is written — unless it is
// the progress of a call the client cancelled, which is dropped (the client
// has forgotten its token).
func (s *stdioStream) notify(method string, params map[string]any) error {
	line, err := json.Marshal(mcp.JSONRPCNotification{
		JSONRPC:      mcp.JSONRPC_VERSION,
		Notification: mcp.Notification{Method: method, Params: mcp.NotificationParams{AdditionalFields: params}},
	})
	if err != nil {
		return err
	}
	if method == string(mcp.MethodNotificationProgress) && s.cancelledToken(params["progressToken"]) {
		return nil
	}
	_, err = s.Write(append(line, '\n'))
	return err
}

// cancelledToken reports whether token is the progressToken of a call the
// client cancelled.
func (s *stdioStream) cancelledToken(token any) bool {
	raw, err := json.Marshal(token)
	if err != nil {
		return false
	}
	key := idKey(raw)
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.calls[s.tokens[key]]
	return key != "" && c != nil && c.cancelled
}

// reader returns in with the stream looking at each line as it passes: it
// learns the requests (by id) and the cancels, before mcp-go has read them.
func (s *stdioStream) reader(in io.Reader) io.Reader {
	return &tapReader{r: in, s: s, max: maxInputLineBytes}
}

// maxInputLineBytes bounds one input line (one JSON-RPC message): the
// app's own cap on a question's body (ipc.MaxBodyBytes), which any tool
// call it could take fits in, escaped JSON included. A longer line is
// read and dropped without being held, and answered with an Invalid
// Request error: input never grows the shim's memory without bound.
const maxInputLineBytes = ipc.MaxBodyBytes

// idPrefixBytes is how much of an overlong line is kept to find its id.
const idPrefixBytes = 4 << 10

// tapReader hands its reader's bytes on line by line: each complete line
// goes to the stream (observe) and then, with its newline, to mcp-go. A
// line over max bytes is not passed on: the stream answers it with an
// error (tooLong). What is held is bounded by max plus one read.
type tapReader struct {
	r    io.Reader
	s    *stdioStream
	max  int
	buf  []byte // the start of the line being read
	skip int    // the length of the overlong line being dropped, 0 when none
	head []byte // the first idPrefixBytes of the line being dropped
	out  []byte // complete lines not yet handed on
	err  error  // the reader's error, returned once out is empty
	tmp  []byte
}

func (t *tapReader) Read(p []byte) (int, error) {
	for len(t.out) == 0 && t.err == nil {
		if t.tmp == nil {
			t.tmp = make([]byte, 64<<10)
		}
		n, err := t.r.Read(t.tmp)
		t.take(t.tmp[:n])
		if err != nil {
			t.err = err
			if t.skip == 0 && len(t.buf) > 0 { // a last line without a newline
				t.s.observe(t.buf)
				t.out = append(t.out, t.buf...)
			}
			t.buf = nil
		}
	}
	n := copy(p, t.out)
	t.out = t.out[n:]
	if len(t.out) == 0 {
		t.out = nil
		if n == 0 {
			return 0, t.err
		}
	}
	return n, nil
}

// take splits b into lines: complete ones are observed and queued for
// mcp-go, an overlong one is dropped and answered.
func (t *tapReader) take(b []byte) {
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		piece := b
		if i >= 0 {
			piece = b[:i]
		}
		t.hold(piece)
		if i < 0 {
			return
		}
		if t.skip > 0 {
			t.s.tooLong(t.head, t.skip, t.max)
		} else {
			t.s.observe(t.buf)
			t.out = append(append(t.out, t.buf...), '\n')
		}
		t.buf, t.skip, t.head = t.buf[:0], 0, nil
		b = b[i+1:]
	}
}

// hold appends b to the line being read, or counts it when the line is
// over t.max.
func (t *tapReader) hold(b []byte) {
	if t.skip > 0 {
		t.skip += len(b)
		return
	}
	if len(t.buf)+len(b) <= t.max {
		t.buf = append(t.buf, b...)
		return
	}
	t.skip = len(t.buf) + len(b)
	t.head = append([]byte(nil), t.buf[:min(len(t.buf), idPrefixBytes)]...)
	if len(t.head) < idPrefixBytes {
		t.head = append(t.head, b[:min(len(b), idPrefixBytes-len(t.head))]...)
	}
	t.buf = nil // give the memory back now, not at the newline
}

// tooLong answers an input line of n bytes, over max, with a JSON-RPC
// Invalid Request error, under the request's id when its first bytes
// (head) name it before anything else large, else id null.
func (s *stdioStream) tooLong(head []byte, n, max int) {
	id, _, _ := messageHead(head)
	s.log.Warn("input line too long: dropped", "bytes", n, "max", max, "id", id)
	resp := map[string]any{
		"jsonrpc": mcp.JSONRPC_VERSION,
		"id":      leadingID(head),
		"error": map[string]any{
			"code":    mcp.INVALID_REQUEST,
			"message": fmt.Sprintf("message of %d bytes is over the %d-byte limit of one line: it was not read; send a smaller request (a tool call's text is capped far below this)", n, max),
		},
	}
	line, err := json.Marshal(resp)
	if err != nil {
		return
	}
	if _, err := s.Write(append(line, '\n')); err != nil {
		s.log.Warn("answering an overlong line", "err", err)
	}
}

// leadingID returns the "id" of a JSON-RPC message from the start of it,
// when it comes before any value that is not whole in head; else null.
func leadingID(head []byte) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(head))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return json.RawMessage("null")
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		var raw json.RawMessage
		if dec.Decode(&raw) != nil {
			break
		}
		if tok == "id" && idKey(raw) != "" {
			return raw
		}
	}
	return json.RawMessage("null")
}

// observe learns from one input line: a request is in flight until its
// response; notifications/cancelled marks one cancelled.
func (s *stdioStream) observe(line []byte) {
	id, method, ok := messageHead(line)
	if !ok || method == "" {
		return
	}
	if method == string(mcp.MethodNotificationCancelled) {
		var n struct {
			Params struct {
				RequestID json.RawMessage `json:"requestId"`
			} `json:"params"`
		}
		if json.Unmarshal(line, &n) != nil {
			return
		}
		key := idKey(n.Params.RequestID)
		s.mu.Lock()
		defer s.mu.Unlock()
		if c := s.calls[key]; c != nil && key != "" {
			c.cancelled = true
		}
		return
	}
	if id == "" {
		return // another notification
	}
	c := &inFlight{}
	if method == string(mcp.MethodToolsCall) {
		var r struct {
			Params struct {
				Meta struct {
					ProgressToken json.RawMessage `json:"progressToken"`
				} `json:"_meta"`
			} `json:"params"`
		}
		if json.Unmarshal(line, &r) == nil {
			c.token = idKey(r.Params.Meta.ProgressToken)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.calls[id] != nil {
		// The id of a request in flight: mcp-go refuses the new one, and
		// answers it under id null; the first keeps its place (and its
		// cancel).
		return
	}
	if len(s.calls) >= maxTrackedCalls {
		s.log.Warn("too many requests in flight to track their cancels", "limit", maxTrackedCalls)
		return
	}
	s.calls[id] = c
	if c.token != "" {
		s.tokens[c.token] = id
	}
}

// messageHead reads the id (as idKey) and method of one JSON-RPC message,
// and ok when it is a JSON object. It stops as soon as it knows both, so a
// large result or argument after them is not scanned: mcp-go writes
// "jsonrpc", "id", then the rest; clients send "method" and "id" first.
func messageHead(line []byte) (id, method string, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(line))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return "", "", false
	}
	var seenID, seenMethod bool
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return "", "", false
		}
		key, _ := tok.(string)
		switch key {
		case "id":
			var raw json.RawMessage
			if dec.Decode(&raw) != nil {
				return "", "", false
			}
			id, seenID = idKey(raw), true
		case "method":
			if dec.Decode(&method) != nil {
				return "", "", false
			}
			seenMethod = true
		case "result", "error":
			if seenID { // a response: no method follows
				return id, "", true
			}
			fallthrough
		default:
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return "", "", false
			}
		}
		if seenID && seenMethod {
			break
		}
	}
	return id, method, true
}

// idKey is a canonical key of a JSON-RPC id: a string is "s:" and its
// text, a number "n:" and its value (2 and 2.0 are the same id, as mcp-go
// echoes 2.0 as 2); null, absent or another type is "".
func idKey(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return ""
	}
	switch raw[0] {
	case '"':
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return ""
		}
		return "s:" + s
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		f, err := strconv.ParseFloat(string(raw), 64)
		if err != nil {
			return ""
		}
		return "n:" + strconv.FormatFloat(f, 'g', -1, 64)
	}
	return ""
}
