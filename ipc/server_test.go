package ipc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"feedback/ipc/wire"
)

func TestHello(t *testing.T) {
	c := startServer(t, answerAll, ServerOptions{Version: "1.2.3"})
	h, err := c.Hello(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := Hello{Protocol: ProtocolVersion, App: "feedback", Version: "1.2.3", PID: h.PID}
	if h != want || h.PID == 0 {
		t.Errorf("Hello() = %+v, want %+v with a PID", h, want)
	}
}

func TestAskRoundTrip(t *testing.T) {
	want := wire.Answer{QuestionID: "q1", Status: wire.StatusAnswered, Replies: []wire.Reply{{Selected: []string{"A"}, Text: "because"}}, ElapsedMS: 42}
	c := startServer(t, askFunc(func(ctx context.Context, a wire.Ask, emit func(wire.Event)) (wire.Answer, error) {
		emit(wire.Event{Type: wire.EventShown})
		emit(wire.Event{Type: wire.EventAnswer, Answer: &wire.Answer{Status: wire.StatusDismissed}}) // not the Asker's to send: dropped
		return want, nil
	}), ServerOptions{})

	var got []wire.EventType
	ans, err := c.Ask(context.Background(), question("q1"), func(ev wire.Event) { got = append(got, ev.Type) })
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ans, want) {
		t.Errorf("Ask() = %+v, want %+v", ans, want)
	}
	if wantEvents := []wire.EventType{wire.EventQueued, wire.EventShown, wire.EventAnswer}; !reflect.DeepEqual(got, wantEvents) {
		t.Errorf("events = %v, want %v", got, wantEvents)
	}
}

func TestAskErrors(t *testing.T) {
	tests := []struct {
		name      string
		q         wire.Ask
		err       error // returned by the Asker
		panics    bool
		wantCode  wire.ErrorCode
		wantInMsg string
	}{
		{name: "invalid question", q: wire.Ask{Question: wire.Question{ID: "q"}}, wantCode: wire.CodeInvalid, wantInMsg: "prompts"},
		{name: "app refuses", q: question("q"), err: &wire.Error{Code: wire.CodeNoDisplay, Message: "no display"}, wantCode: wire.CodeNoDisplay, wantInMsg: "no display"},
		{name: "app fails", q: question("q"), err: errors.New("boom"), wantCode: wire.CodeInternal, wantInMsg: "boom"},
		{name: "app panics", q: question("q"), panics: true, wantCode: wire.CodeInternal, wantInMsg: "log"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := startServer(t, askFunc(func(context.Context, wire.Ask, func(wire.Event)) (wire.Answer, error) {
				if tt.panics {
					panic("bug")
				}
				return wire.Answer{}, tt.err
			}), ServerOptions{})
			_, err := c.Ask(context.Background(), tt.q, nil)
			var e *wire.Error
			if !errors.As(err, &e) {
				t.Fatalf("Ask() error = %v, want an *Error", err)
			}
			if e.Code != tt.wantCode || !strings.Contains(e.Message, tt.wantInMsg) {
				t.Errorf("Ask() error = %v, want code %s and a message containing %q", e, tt.wantCode, tt.wantInMsg)
			}
		})
	}
}

func TestHTTPErrors(t *testing.T) {
	valid := `{"question":{"id":"q","prompts":[{"markdown":"Go?"}]}}`
	tooLarge := `{"question":{"id":"q","prompts":[{"markdown":"` + strings.Repeat("a", MaxBodyBytes) + `"}]}}`
	tests := []struct {
		name, method, path, body string
		origin                   bool
		wantStatus               int
		wantCode                 wire.ErrorCode
	}{
		{"unknown fields are fine", "POST", PathQuestions, `{"question":{"id":"q","future":1,"prompts":[{"markdown":"Go?","x":[]}]},"later":2}`, false, 200, ""},
		{"hello from a browser", "GET", PathHello, "", true, 403, wire.CodeProtocol},
		{"question from a browser", "POST", PathQuestions, valid, true, 403, wire.CodeProtocol},
		{"malformed JSON", "POST", PathQuestions, `{"id":`, false, 400, wire.CodeProtocol},
		{"trailing garbage", "POST", PathQuestions, valid + `x`, false, 400, wire.CodeProtocol},
		{"two values", "POST", PathQuestions, valid + valid, false, 400, wire.CodeProtocol},
		{"empty body", "POST", PathQuestions, "", false, 400, wire.CodeProtocol},
		{"wrong type", "POST", PathQuestions, `{"question":{"id":"q","prompts":"Go?"}}`, false, 400, wire.CodeInvalid},
		{"wait out of range", "POST", PathQuestions, `{"question":{"id":"q","prompts":[{"markdown":"Go?"}]},"wait_ms":-5}`, false, 400, wire.CodeInvalid},
		{"a protocol 1 question on this path", "POST", PathQuestions, `{"id":"q","prompts":[{"markdown":"Go?"}]}`, false, 400, wire.CodeProtocol},
		{"a protocol 1 caller", "POST", "/v1/questions", `{"id":"q","prompts":[{"markdown":"Go?"}]}`, false, 404, wire.CodeProtocol},
		{"too large", "POST", PathQuestions, tooLarge, false, 413, wire.CodeInvalid},
		{"unknown path", "GET", "/v1/nope", "", false, 404, wire.CodeProtocol},
		{"wrong method", "GET", PathQuestions, "", false, 405, wire.CodeProtocol},
	}
	c := startServer(t, answerAll, ServerOptions{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequest(tt.method, baseURL+tt.path, strings.NewReader(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			if tt.origin {
				req.Header.Set("Origin", "https://example.com")
			}
			resp, err := c.httpClient().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			if resp.StatusCode != tt.wantStatus {
				t.Errorf("status %d, want %d", resp.StatusCode, tt.wantStatus)
			}
			if got := resp.Header.Get(HeaderProtocol); got != strconv.Itoa(ProtocolVersion) {
				t.Errorf("%s header = %q", HeaderProtocol, got)
			}
			if tt.wantCode == "" {
				return
			}
			var e wire.Error
			if err := json.NewDecoder(resp.Body).Decode(&e); err != nil || e.Code != tt.wantCode || e.Message == "" {
				t.Errorf("body = %+v, %v; want code %s and a message", e, err, tt.wantCode)
			}
		})
	}
}

func TestAskCancelWithdraws(t *testing.T) {
	started := make(chan struct{})
	withdrawn := make(chan struct{})
	c := startServer(t, askFunc(func(ctx context.Context, a wire.Ask, emit func(wire.Event)) (wire.Answer, error) {
		close(started)
		<-ctx.Done()
		close(withdrawn)
		return wire.Answer{}, ctx.Err()
	}), ServerOptions{})

	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := c.Ask(ctx, question("q"), nil)
		errc <- err
	}()
	within(t, started, "the question to open")
	cancel()
	within(t, withdrawn, "the Asker's context to end")
	if err := within(t, errc, "Ask to return"); !errors.Is(err, context.Canceled) {
		t.Errorf("Ask() error = %v, want context.Canceled", err)
	}
}

// The server does not count questions: how many may be open is the
// Asker's to say (the app's inbox counts its windows, kept ones included).
// Every caller reaches the Asker, more than the inbox's cap included, and
// a refusal from the Asker reaches its caller with its code.
func TestServerLeavesTheCapToTheAsker(t *testing.T) {
	const n = wire.MaxOpenQuestions + 2
	arrived := make(chan struct{}, n)
	release := make(chan struct{})
	c := startServer(t, askFunc(func(ctx context.Context, a wire.Ask, emit func(wire.Event)) (wire.Answer, error) {
		if a.Question.ID == "refused" {
			return wire.Answer{}, &wire.Error{Code: wire.CodeTooMany, Message: "64 questions are open"}
		}
		arrived <- struct{}{}
		select {
		case <-release:
			return wire.Answer{QuestionID: a.Question.ID, Status: wire.StatusAnswered}, nil
		case <-ctx.Done():
			return wire.Answer{}, ctx.Err()
		}
	}), ServerOptions{})

	errc := make(chan error, n)
	for i := range n {
		go func() {
			_, err := c.Ask(context.Background(), question(fmt.Sprint("q", i)), nil)
			errc <- err
		}()
	}
	for i := range n {
		within(t, arrived, fmt.Sprintf("question %d of %d to reach the Asker", i+1, n))
	}
	if _, err := c.Ask(context.Background(), question("refused"), nil); !errors.Is(err, &wire.Error{Code: wire.CodeTooMany}) {
		t.Errorf("the Asker's refusal: error = %v, want CodeTooMany", err)
	}
	close(release)
	for range n {
		if err := within(t, errc, "an Ask to return"); err != nil {
			t.Errorf("Ask() error = %v", err)
		}
	}
}

func TestShutdownWithdrawsOpenQuestions(t *testing.T) {
	path := socketPath(t)
	l, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	started := make(chan struct{})
	withdrawn := make(chan struct{})
	s := NewServer(askFunc(func(ctx context.Context, a wire.Ask, emit func(wire.Event)) (wire.Answer, error) {
		close(started)
		<-ctx.Done()
		close(withdrawn)
		return wire.Answer{}, ctx.Err()
	}), ServerOptions{})
	served := make(chan error, 1)
	go func() { served <- s.Serve(l) }()

	errc := make(chan error, 1)
	go func() {
		_, err := (&Client{Path: path}).Ask(context.Background(), question("q"), nil)
		errc <- err
	}()
	within(t, started, "the question to open")
	if err := s.Shutdown(context.Background()); err != nil {
		t.Errorf("Shutdown: %v", err)
	}
	within(t, withdrawn, "the Asker's context to end")
	if err := within(t, errc, "Ask to return"); !errors.Is(err, ErrAppGone) {
		t.Errorf("Ask() error = %v, want ErrAppGone", err)
	}
	if err := within(t, served, "Serve to return"); err != nil {
		t.Errorf("Serve: %v", err)
	}
}

func TestEmitAfterAskReturnedIsDropped(t *testing.T) {
	emits := make(chan func(wire.Event), 1)
	c := startServer(t, askFunc(func(ctx context.Context, a wire.Ask, emit func(wire.Event)) (wire.Answer, error) {
		emits <- emit
		return wire.Answer{QuestionID: a.Question.ID, Status: wire.StatusAnswered}, nil
	}), ServerOptions{})
	if _, err := c.Ask(context.Background(), question("q"), nil); err != nil {
		t.Fatal(err)
	}
	(<-emits)(wire.Event{Type: wire.EventShown}) // must neither panic nor race
}

// FuzzDecodeQuestion feeds arbitrary bodies to the question handler: it must
// never panic, and answer 200 or a 4xx.
func FuzzDecodeQuestion(f *testing.F) {
	for _, seed := range []string{
		`{"question":{"id":"q","prompts":[{"markdown":"Go?","kind":"choice","options":[{"label":"A"},{"label":"B"}]}]}}`,
		`{"question":{"id":"q","prompts":[{"markdown":"Go?"}],"context":[{"label":"l","value":"v"}],"timeout_seconds":-1},"wait_ms":5}`,
		`{"question":{"id":"q"},"attach_only":true,"wait_ms":1e999}`, `{"question":null}`,
		``, `{`, `null`, `[]`, `{"id":"q","prompts":"x"}`, `{"id":"q"} {}`, `{"id":1e999}`,
	} {
		f.Add([]byte(seed))
	}
	h := NewServer(answerAll, ServerOptions{}).hs.Handler
	f.Fuzz(func(t *testing.T, body []byte) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, PathQuestions, bytes.NewReader(body)))
		if rec.Code != http.StatusOK && rec.Code/100 != 4 {
			t.Fatalf("status %d for %q: %s", rec.Code, body, rec.Body)
		}
	})
}

// A connection that never sends a request does not hold up Shutdown.
func TestShutdownWithASilentConnection(t *testing.T) {
	path := socketPath(t)
	l, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	srv := NewServer(askFunc(func(ctx context.Context, a wire.Ask, _ func(wire.Event)) (wire.Answer, error) {
		return wire.Answer{}, nil
	}), ServerOptions{})
	go srv.Serve(l)
	conn, err := dialPlain(path)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// Wait for the fact the test is about: the server holds the connection.
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		srv.mu.Lock()
		seen := len(srv.fresh)
		srv.mu.Unlock()
		if seen == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the server never saw the connection")
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	start := time.Now()
	if err := srv.Shutdown(ctx); err != nil {
		t.Fatalf("Shutdown = %v", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("Shutdown took %v", d)
	}
}

// A caller whose headers arrived but whose body stalls gets its reply (a 408
// when the body timeout passes, a 400 at once when what came is malformed),
// and its connection is closed by the body timeout: it is not held while the
// server waits for the rest of the body.
func TestStalledBodyIsNotHeld(t *testing.T) {
	tests := []struct{ name, headers, body, want string }{
		{"content length", "Content-Length: 1000\r\n", `{"id": "stall", "prompts": [`, "HTTP/1.1 408"},
		{"chunked", "Transfer-Encoding: chunked\r\n", "10\r\n{\"id\": \"stall\", \r\n", "HTTP/1.1 408"},
		{"malformed, then stalls", "Content-Length: 1000\r\n", `{"id": 1x`, "HTTP/1.1 400"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := socketPath(t)
			l, err := Listen(path)
			if err != nil {
				t.Fatal(err)
			}
			s := NewServer(answerAll, ServerOptions{})
			s.bodyTimeout = 100 * time.Millisecond
			done := make(chan error, 1)
			go func() { done <- s.Serve(l) }()
			t.Cleanup(func() {
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				defer cancel()
				s.Shutdown(ctx)
				<-done
			})

			c, err := dialPlain(path)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if _, err := io.WriteString(c, "POST "+PathQuestions+" HTTP/1.1\r\nHost: feedback\r\nContent-Type: application/json\r\n"+tt.headers+"\r\n"+tt.body); err != nil {
				t.Fatal(err)
			}
			// The deadline only keeps a failing test from hanging: the test
			// waits for the server to close the connection.
			c.SetReadDeadline(time.Now().Add(10 * time.Second))
			out, err := io.ReadAll(c)
			if err != nil {
				t.Fatalf("the server still held the connection 10 s after a body timeout of %v: %v (read %q)", s.bodyTimeout, err, out)
			}
			if !bytes.HasPrefix(out, []byte(tt.want)) {
				t.Errorf("response %q, want %s", out, tt.want)
			}
			if tt.want == "HTTP/1.1 408" && !bytes.Contains(out, []byte("did not arrive within 100ms")) {
				t.Errorf("response %q does not say why", out)
			}
		})
	}
}

// A shim's greeting (Client.Greet) reaches OnGreet; a plain hello does not.
func TestGreet(t *testing.T) {
	greeted := make(chan struct{}, 4)
	c := startServer(t, answerAll, ServerOptions{OnGreet: func() { greeted <- struct{}{} }})
	if _, err := c.Hello(context.Background()); err != nil {
		t.Fatal(err)
	}
	select {
	case <-greeted:
		t.Fatal("a plain hello was taken for a greeting")
	default:
	}
	if h, err := c.Greet(context.Background()); err != nil || h.Protocol != ProtocolVersion {
		t.Fatalf("Greet = %+v, %v", h, err)
	}
	select {
	case <-greeted:
	default:
		t.Fatal("OnGreet was not called")
	}
}
