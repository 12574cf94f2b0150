package uiprocess

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"feedback/app/store"
	"feedback/app/windowreq"
	"feedback/dialogs/settingswin"
	"feedback/internal/settings"
	"feedback/internal/settings/settingsfile"
	"feedback/ipc/uiproto"
	"feedback/ipc/wire"
)

// linked is a server whose commands come from an app end that answers its
// requests with answer (nil: it never answers); the server reads its
// channel as Serve's does (receive).
func linked(t *testing.T, answer func(uiproto.Request) uiproto.Response) *server {
	t.Helper()
	exit := exitProcess
	exitProcess = func(int) {}
	a, b := net.Pipe()
	app := uiproto.NewAppConn(a)
	s := &server{conn: uiproto.NewUIConn(b), log: slog.New(slog.DiscardHandler)}
	ended := make(chan struct{})
	t.Cleanup(func() {
		app.Close()
		s.conn.Close()
		<-ended // receive saw the channel close
		exitProcess = exit
	})
	go func() {
		defer close(ended)
		s.receive(nil)
	}()
	go func() {
		for {
			ev, err := app.Receive()
			if err != nil {
				return
			}
			if req, ok := ev.(uiproto.Request); ok && answer != nil {
				go app.Send(answer(req))
			}
		}
	}()
	return s
}

// The History window's pages and images come from the app over the
// channel: the app's own answers (package windowreq, over a real store).
func TestHistoryComesFromTheApp(t *testing.T) {
	path := filepath.Join(t.TempDir(), "feedback.db")
	st, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	for i, id := range []string{"a", "b", "c"} {
		st.SaveQuestion(wire.Question{ID: id, Client: "codex", Prompts: []wire.Prompt{{Markdown: "Ship " + id + "?"}}}, at.Add(time.Duration(i)*time.Minute))
	}
	st.SaveAnswer(wire.Answer{QuestionID: "b", Status: wire.StatusAnswered, Images: []wire.Image{{MIME: "image/png", Data: []byte("png")}}}, at.Add(time.Hour), true)
	st.Close()
	srv := &windowreq.Server{DB: path}
	src := historySource{linked(t, srv.Answer)}
	p, err := src.Page("", 1, 1)
	if err != nil || len(p.Entries) != 1 || p.Entries[0].Record != "b" || !p.More {
		t.Fatalf("page: %+v, %v", p, err)
	}
	p, err = src.Page("ship c", 0, 10)
	if err != nil || len(p.Entries) != 1 || p.Entries[0].Record != "c" || p.More {
		t.Fatalf("search: %+v, %v", p, err)
	}
	imgs, err := src.Images("b")
	if err != nil || len(imgs.Images) != 1 || string(imgs.Images[0].Data) != "png" {
		t.Fatalf("images: %+v, %v", imgs, err)
	}
}

// The Settings window's values come from the app, and its save is the
// app's to write; an error the app gives comes back as one. The relay's
// broker connection comes with the values.
func TestSettingsGoThroughTheApp(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	os.WriteFile(path, []byte(`{"extend_seconds": 600}`), 0o600)
	status := filepath.Join(t.TempDir(), "relay-status.json")
	os.WriteFile(status, []byte(fmt.Sprintf(`{"broker":"mqtt://desk@b:1883","last_error":"connection refused","pid":%d}`, os.Getpid())), 0o600)
	srv := &windowreq.Server{SettingsPath: path, RelayStatusPath: status}
	s := linked(t, srv.Answer)
	values, readErr, relay, err := readSettings(s)
	if err != nil || readErr != nil || values.ExtendSeconds != 600 {
		t.Fatalf("read: extend %d, %v, %v", values.ExtendSeconds, readErr, err)
	}
	if relay != (settingswin.RelayState{Broker: "mqtt://desk@b:1883", LastError: "connection refused"}) {
		t.Errorf("the relay's state: %+v", relay)
	}
	edited := values
	edited.ExtendSeconds = 120
	changes, _ := settings.Changes(values, edited)
	if _, _, err := saveSettings(s, edited, changes); err != nil {
		t.Fatal(err)
	}
	if got, err := settingsfile.Load(path, func(string) string { return "" }); err != nil || got.ExtendSeconds != 120 {
		t.Fatalf("the file: extend %d, %v", got.ExtendSeconds, err)
	}
	edited.ExtendSeconds = -1
	if _, _, err := saveSettings(s, edited, nil); err == nil {
		t.Fatal("the app took an invalid value")
	}
}

// A request the app does not answer fails after requestWait, and its late
// answer is dropped.
func TestUnansweredRequest(t *testing.T) {
	wait := requestWait
	requestWait = 50 * time.Millisecond
	t.Cleanup(func() { requestWait = wait })
	s := linked(t, nil)
	src := historySource{s}
	if _, err := src.Page("", 0, 1); !errors.Is(err, errNoAnswer) {
		t.Fatalf("err = %v, want errNoAnswer", err)
	}
	late := uiproto.HistoryPage{Req: 1}
	if s.reqs.deliver(late) {
		t.Error("a late answer found its request")
	}
}
