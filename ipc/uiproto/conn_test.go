package uiproto

import (
	"encoding/json"
	"errors"
	"io"
	"net"
	"reflect"
	"strings"
	"testing"
	"time"

	"feedback/ipc/wire"
)

// pipe returns the two ends of one channel.
func pipe(t *testing.T) (*AppConn, *UIConn) {
	t.Helper()
	a, b := net.Pipe()
	app, ui := NewAppConn(a), NewUIConn(b)
	t.Cleanup(func() { app.Close(); ui.Close() })
	return app, ui
}

// Every command and every event crosses the channel as itself.
func TestRoundTrip(t *testing.T) {
	at := time.Date(2026, 12, 2, 1, 0, 0, 0, time.UTC)
	draft := &wire.Draft{Replies: []wire.Reply{{Text: "half"}}, Images: []wire.Image{{MIME: "image/png", Data: []byte{1, 2}}}}
	cmds := []Command{
		Settings{Language: "zh-Hans", DefaultTimeout: time.Minute, Extend: 2 * time.Minute, Images: ImageLimits{MaxCount: 4, MaxEdge: 2048}},
		Show{Question: wire.Question{ID: "q", Prompts: []wire.Prompt{{Markdown: "Go?"}}}, Draft: draft,
			Countdown: &wire.Countdown{Deadline: at}, Quiet: true},
		Withdraw{ID: "q"}, Focus{ID: "q"}, ConfirmQuit{Open: 2},
		OpenWindow{Window: WindowNote, Note: &NoteChoices{Targets: []wire.NoteTarget{{Client: "codex"}}}},
		OpenWindow{Window: WindowHistory},
		Notify{Title: "t", Body: "b"}, Ping{}, Warm{}, Sleep{}, Exit{},
		HistoryPage{Req: 7, More: true, Entries: []HistoryEntry{{Record: "q#1", State: "answered", AskedAt: at, AnsweredAt: at.Add(time.Minute), Images: 2,
			Question: wire.Question{ID: "q", Client: "codex", Prompts: []wire.Prompt{{Markdown: "Go?", Options: []wire.Option{{Label: "Yes"}}}}},
			Answer:   &wire.Answer{QuestionID: "q", Status: wire.StatusAnswered, Replies: []wire.Reply{{Selected: []string{"Yes"}, Text: "go"}}}}}},
		HistoryPage{Req: 8, Problem: HistoryFailed, Error: "disk"},
		HistoryImages{Req: 9, Images: draft.Images, Omitted: 1},
		SettingsFile{Req: 10, Values: []byte(`{"language":"en"}`), ReadError: "malformed"},
		SettingsSaved{Req: 11, Values: []byte(`{"language":"en"}`), MovedAside: "/x.invalid-1"}, SettingsSaved{Req: 12, Error: "bad"},
	}
	evs := []Event{
		Hello{Protocol: Version, Build: "1.2.3"}, Shown{ID: "q", Unfocused: true}, DraftChanged{ID: "q", Replies: draft.Replies, Images: []DraftImage{{Ref: "1", Image: &draft.Images[0]}, {Ref: "2"}}},
		CountdownChanged{ID: "q", Countdown: wire.Countdown{Pinned: true, Left: time.Minute}},
		Done{ID: "q", Answer: wire.Answer{Status: wire.StatusAnswered}}, Closed{ID: "q"}, Found{ID: "q"},
		QuitAnswer{Confirmed: true}, AppWindows{Open: 1}, Note{Client: "codex", Text: "n"}, Pong{}, Sleeping{Refused: "clipboard"},
		HistoryQuery{Req: 1, Search: "deploy", Offset: 100, Limit: 100}, HistoryImagesQuery{Req: 2, Record: "q#1"}, SettingsQuery{Req: 3},
		SaveSettings{Req: 4, Values: []byte(`{"language":"en"}`), Changes: map[string]json.RawMessage{"language": []byte(`"en"`)}},
	}
	app, ui := pipe(t)
	go func() {
		for _, c := range cmds {
			app.Send(c)
		}
	}()
	for _, want := range cmds {
		got, err := ui.Receive()
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("received %#v, %v; want %#v", got, err, want)
		}
	}
	go func() {
		for _, e := range evs {
			ui.Send(e)
		}
	}()
	for _, want := range evs {
		got, err := app.Receive()
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("received %#v, %v; want %#v", got, err, want)
		}
	}
}

// The wire form is a small envelope; a message without fields has no body.
func TestEnvelope(t *testing.T) {
	for _, tc := range []struct {
		msg  message
		want string
	}{
		{Withdraw{ID: "q"}, `{"type":"withdraw","body":{"id":"q"}}`},
		{Ping{}, `{"type":"ping"}`},
		{Hello{Protocol: 1, Build: "v"}, `{"type":"hello","body":{"protocol":1,"build":"v"}}`},
	} {
		t.Run(tc.msg.Type(), func(t *testing.T) {
			a, b := net.Pipe()
			defer a.Close()
			c := newConn(b)
			go c.send(tc.msg)
			line := make([]byte, 256)
			n, _ := a.Read(line)
			if got := strings.TrimSpace(string(line[:n])); got != tc.want {
				t.Errorf("wire form %s, want %s", got, tc.want)
			}
		})
	}
}

// A message of a type this side does not know — an event sent to the UI
// process, a command from a newer app — is a clear error, not a zero
// message.
func TestUnknownType(t *testing.T) {
	a, b := net.Pipe()
	ui := NewUIConn(b)
	defer ui.Close()
	go io.WriteString(a, `{"type":"pong"}`+"\n"+`{"type":"teleport","body":{}}`+"\n")
	for _, want := range []string{"pong", "teleport"} {
		_, err := ui.Receive()
		var u *UnknownTypeError
		if !errors.As(err, &u) || u.Type != want {
			t.Errorf("Receive = %v, want an UnknownTypeError for %q", err, want)
		}
	}
}

// A body that does not fit its type is an error naming the type.
func TestMalformedBody(t *testing.T) {
	a, b := net.Pipe()
	app := NewAppConn(b)
	defer app.Close()
	go io.WriteString(a, `{"type":"shown","body":{"id":7}}`+"\n")
	if _, err := app.Receive(); err == nil || !strings.Contains(err.Error(), "shown") {
		t.Errorf("Receive = %v, want an error about the shown message", err)
	}
}

// The protocol refuses a message over its bound instead of reading on.
func TestBoundsAMessage(t *testing.T) {
	a, b := net.Pipe()
	defer a.Close()
	c := NewAppConn(b)
	go func() {
		chunk := make([]byte, 1<<20)
		for i := range chunk {
			chunk[i] = 'x'
		}
		for range MaxMsgBytes/len(chunk) + 2 {
			if _, err := a.Write(chunk); err != nil {
				return
			}
		}
	}()
	if _, err := c.Receive(); !errors.Is(err, ErrTooLong) {
		t.Errorf("Receive = %v, want ErrTooLong", err)
	}
	c.Close()
}

// A half line at the end of the stream is not a message.
func TestTruncatedLine(t *testing.T) {
	a, b := net.Pipe()
	app := NewAppConn(b)
	defer app.Close()
	go func() { io.WriteString(a, `{"type":"pong"`); a.Close() }()
	if _, err := app.Receive(); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("Receive = %v, want io.ErrUnexpectedEOF", err)
	}
}

// CheckHello accepts only the same protocol and build.
func TestCheckHello(t *testing.T) {
	app := Hello{Protocol: Version, Build: "1.0.0"}
	for _, tc := range []struct {
		name string
		ui   Hello
		ok   bool
	}{
		{"same", app, true},
		{"other build", Hello{Protocol: Version, Build: "1.0.1"}, false},
		{"other protocol", Hello{Protocol: Version + 1, Build: "1.0.0"}, false},
		{"no hello", Hello{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckHello(app, tc.ui)
			var m *MismatchError
			if tc.ok != (err == nil) || (err != nil && !errors.As(err, &m)) {
				t.Errorf("CheckHello = %v, ok %v wanted", err, tc.ok)
			}
		})
	}
}
