package windowreq

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"feedback/app/store"
	"feedback/internal/settings"
	"feedback/internal/settings/settingsfile"
	"feedback/ipc/uiproto"
	"feedback/ipc/wire"
)

var t0 = time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)

// fill keeps n questions, q000 the oldest, each answered with an image
// when answered is set.
func fill(t *testing.T, n int, text func(i int) string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "feedback.db")
	s, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i := range n {
		id := fmt.Sprintf("q%03d", i)
		q := wire.Question{ID: id, Client: "codex", Prompts: []wire.Prompt{{Markdown: text(i)}}}
		if err := s.SaveQuestion(q, t0.Add(time.Duration(i)*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

func page(t *testing.T, srv *Server, q uiproto.HistoryQuery) uiproto.HistoryPage {
	t.Helper()
	p, ok := srv.Answer(q).(uiproto.HistoryPage)
	if !ok || p.Req != q.Req {
		t.Fatalf("answer to %+v: %+v", q, p)
	}
	return p
}

func ids(p uiproto.HistoryPage) string {
	var out []string
	for _, e := range p.Entries {
		out = append(out, e.Record)
	}
	return strings.Join(out, " ")
}

// The History window's pages come from the database newest first, from
// their offset, with More until the last, and searched.
func TestHistoryPagesAndSearch(t *testing.T) {
	srv := &Server{DB: fill(t, 5, func(i int) string { return fmt.Sprintf("Question %d: %s?", i, []string{"deploy", "merge"}[i%2]) })}
	for _, tc := range []struct {
		q    uiproto.HistoryQuery
		want string
		more bool
	}{
		{uiproto.HistoryQuery{Req: 1, Limit: 2}, "q004 q003", true},
		{uiproto.HistoryQuery{Req: 2, Offset: 2, Limit: 2}, "q002 q001", true},
		{uiproto.HistoryQuery{Req: 3, Offset: 4, Limit: 2}, "q000", false},
		{uiproto.HistoryQuery{Req: 4, Offset: 9, Limit: 2}, "", false},
		{uiproto.HistoryQuery{Req: 5, Search: "DEPLOY", Limit: 10}, "q004 q002 q000", false},
		{uiproto.HistoryQuery{Req: 6, Search: "merge", Offset: 1, Limit: 1}, "q001", false},
		{uiproto.HistoryQuery{Req: 7, Search: "nothing like it", Limit: 10}, "", false},
	} {
		p := page(t, srv, tc.q)
		if got := ids(p); got != tc.want || p.More != tc.more || p.Problem != "" {
			t.Errorf("%+v: %q more %v (%s %s), want %q more %v", tc.q, got, p.More, p.Problem, p.Error, tc.want, tc.more)
		}
	}
	// What the window shows of an entry crosses whole.
	p := page(t, srv, uiproto.HistoryQuery{Req: 8, Limit: 1})
	if e := p.Entries[0]; e.Question.Prompts[0].Markdown != "Question 4: deploy?" || e.Question.Client != "codex" || !e.AskedAt.Equal(t0.Add(4*time.Minute)) || e.State != store.StateOpen {
		t.Errorf("entry %+v", e)
	}
}

// A page is bounded whatever the UI process asks: at most MaxHistoryPage
// entries, at most MaxHistoryPageBytes of text (at least one entry).
func TestHistoryPageBounds(t *testing.T) {
	srv := &Server{DB: fill(t, uiproto.MaxHistoryPage+5, func(int) string { return "short" })}
	p := page(t, srv, uiproto.HistoryQuery{Req: 1, Limit: 1 << 20})
	if len(p.Entries) != uiproto.MaxHistoryPage || !p.More {
		t.Errorf("%d entries, more %v; want %d and more", len(p.Entries), p.More, uiproto.MaxHistoryPage)
	}
	big := uiproto.MaxHistoryPageBytes/2 + 1
	srv = &Server{DB: fill(t, 3, func(int) string { return strings.Repeat("x", big) })}
	p = page(t, srv, uiproto.HistoryQuery{Req: 2, Limit: 3})
	if got := ids(p); got != "q002" || !p.More {
		t.Errorf("pages of %d-byte questions: %q more %v, want one and more", big, got, p.More)
	}
}

// No database is said, and none is created; the app keeping none
// (FEEDBACK_DB=off) is said apart.
func TestHistoryProblems(t *testing.T) {
	path := filepath.Join(t.TempDir(), "none.db")
	if p := page(t, &Server{DB: path}, uiproto.HistoryQuery{Req: 1, Limit: 1}); p.Problem != uiproto.HistoryNone {
		t.Errorf("no database: %+v", p)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Error("a database was created")
	}
	if p := page(t, &Server{}, uiproto.HistoryQuery{Req: 2, Limit: 1}); p.Problem != uiproto.HistoryOff {
		t.Errorf("FEEDBACK_DB=off: %+v", p)
	}
	bad := filepath.Join(t.TempDir(), "bad.db")
	os.WriteFile(bad, []byte("not a database, not at all, no, it is not"), 0o600)
	if p := page(t, &Server{DB: bad}, uiproto.HistoryQuery{Req: 3, Limit: 1}); p.Problem != uiproto.HistoryFailed || p.Error == "" {
		t.Errorf("a broken database: %+v", p)
	}
}

// An answer's images are fetched by the ask's record.
func TestHistoryImages(t *testing.T) {
	path := fill(t, 1, func(int) string { return "Look?" })
	s, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	imgs := []wire.Image{{MIME: "image/png", Data: []byte("one")}, {MIME: "image/png", Data: []byte("two")}}
	if err := s.SaveAnswer(wire.Answer{QuestionID: "q000", Status: wire.StatusAnswered, Images: imgs}, t0.Add(time.Hour), true); err != nil {
		t.Fatal(err)
	}
	s.Close()
	srv := &Server{DB: path}
	got, ok := srv.Answer(uiproto.HistoryImagesQuery{Req: 9, Record: "q000"}).(uiproto.HistoryImages)
	if !ok || got.Req != 9 || got.Error != "" || len(got.Images) != 2 || string(got.Images[1].Data) != "two" {
		t.Fatalf("images: %+v", got)
	}
	if p := page(t, srv, uiproto.HistoryQuery{Req: 1, Limit: 1}); p.Entries[0].Images != 2 || p.Entries[0].Answer == nil || len(p.Entries[0].Answer.Images) != 0 {
		t.Errorf("the page carries the images: %+v", p.Entries[0])
	}
}

func settingsOf(t *testing.T, raw json.RawMessage) settings.Settings {
	t.Helper()
	s, err := settings.Decode(raw, "test")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// The Settings window reads the file through the app, and its save is the
// app's: checked, its edits laid over a hand edit made meanwhile, unknown
// keys kept; a refused save writes nothing and says why.
func TestSettingsReadAndSave(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	os.WriteFile(path, []byte(`{"timeout_seconds": 120, "$comment": "mine"}`), 0o600)
	srv := &Server{SettingsPath: path}
	f, ok := srv.Answer(uiproto.SettingsQuery{Req: 1}).(uiproto.SettingsFile)
	if !ok || f.Req != 1 || f.ReadError != "" || settingsOf(t, f.Values).TimeoutSeconds != 120 {
		t.Fatalf("settings file: %+v", f)
	}
	values := settingsOf(t, f.Values)
	edited := values
	edited.ExtendSeconds = 900
	changes, err := settings.Changes(values, edited)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(path, []byte(`{"timeout_seconds": 60, "$comment": "mine"}`), 0o600) // by hand, meanwhile
	data, _ := json.Marshal(edited)
	saved, ok := srv.Answer(uiproto.SaveSettings{Req: 2, Values: data, Changes: changes}).(uiproto.SettingsSaved)
	if !ok || saved.Req != 2 || saved.Error != "" {
		t.Fatalf("save: %+v", saved)
	}
	s, err := settingsfile.Load(path, func(string) string { return "" })
	if err != nil || s.ExtendSeconds != 900 || s.TimeoutSeconds != 60 {
		t.Errorf("file: extend %d timeout %d, %v; want the edit and the hand edit", s.ExtendSeconds, s.TimeoutSeconds, err)
	}
	if raw, _ := os.ReadFile(path); !strings.Contains(string(raw), `"$comment": "mine"`) {
		t.Errorf("the unknown key is gone:\n%s", raw)
	}
	if got := settingsOf(t, saved.Values); got.TimeoutSeconds != 60 || got.ExtendSeconds != 900 {
		t.Errorf("the values said written: %+v", got)
	}

	before, _ := os.ReadFile(path)
	bad := edited
	bad.TimeoutSeconds = -5
	data, _ = json.Marshal(bad)
	refused := srv.Answer(uiproto.SaveSettings{Req: 3, Values: data}).(uiproto.SettingsSaved)
	if !strings.Contains(refused.Error, "timeout_seconds") {
		t.Errorf("an invalid save: %+v", refused)
	}
	huge := srv.Answer(uiproto.SaveSettings{Req: 4, Values: data, Changes: map[string]json.RawMessage{"x": json.RawMessage(`"` + strings.Repeat("x", uiproto.MaxSettingsBytes) + `"`)}}).(uiproto.SettingsSaved)
	if huge.Error == "" {
		t.Error("a save over MaxSettingsBytes was taken")
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Errorf("a refused save wrote the file:\n%s", after)
	}
}

// A malformed file is said, with the defaults to edit; the save puts it
// aside and writes a new one.
func TestSettingsMalformedFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	os.WriteFile(path, []byte(`{"timeout_seconds": `), 0o600)
	srv := &Server{SettingsPath: path}
	f := srv.Answer(uiproto.SettingsQuery{Req: 1}).(uiproto.SettingsFile)
	if f.ReadError == "" || settingsOf(t, f.Values).TimeoutSeconds != settings.Default().TimeoutSeconds {
		t.Fatalf("malformed file: %+v", f)
	}
	saved := srv.Answer(uiproto.SaveSettings{Req: 2, Values: f.Values}).(uiproto.SettingsSaved)
	if saved.Error != "" || saved.MovedAside == "" {
		t.Fatalf("save: %+v", saved)
	}
	if _, err := settingsfile.Load(path, func(string) string { return "" }); err != nil {
		t.Errorf("the new file: %v", err)
	}
}

// The Settings window's values carry the relay's broker connection as
// the relay's status file says (#33): none set up, connected since a
// time, or not connected with the last error; a status left by an app
// that has gone is not connected.
func TestSettingsFileCarriesTheRelayState(t *testing.T) {
	dir := t.TempDir()
	status := filepath.Join(dir, "relay-status.json")
	srv := &Server{SettingsPath: filepath.Join(dir, "settings.json"), RelayStatusPath: status}
	relayOf := func() uiproto.RelayState {
		t.Helper()
		f, ok := srv.Answer(uiproto.SettingsQuery{Req: 1}).(uiproto.SettingsFile)
		if !ok {
			t.Fatal("no SettingsFile")
		}
		return f.Relay
	}
	if got := relayOf(); got != (uiproto.RelayState{}) {
		t.Errorf("no status file: %+v, want not set up", got)
	}
	since := time.Date(2026, 12, 4, 22, 10, 0, 0, time.UTC)
	write := func(st map[string]any) {
		t.Helper()
		data, _ := json.Marshal(st)
		if err := os.WriteFile(status, data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(map[string]any{"broker": "mqtt://desk@broker:1883", "connected": true, "since": since, "pid": os.Getpid()})
	if got := relayOf(); got != (uiproto.RelayState{Broker: "mqtt://desk@broker:1883", Connected: true, Since: since}) {
		t.Errorf("connected: %+v", got)
	}
	write(map[string]any{"broker": "mqtt://desk@broker:1883", "last_error": "connection refused", "pid": os.Getpid()})
	if got := relayOf(); got != (uiproto.RelayState{Broker: "mqtt://desk@broker:1883", LastError: "connection refused"}) {
		t.Errorf("not connected: %+v", got)
	}
	write(map[string]any{"broker": "mqtt://desk@broker:1883", "connected": true, "since": since, "pid": 1 << 30})
	if got := relayOf(); got.Connected {
		t.Errorf("a status of an app that has gone: %+v, want not connected", got)
	}
	write(map[string]any{"broker": "mqtt://desk@broker:1883", "last_error": strings.Repeat("e", 4*uiproto.MaxRelayErrorBytes), "pid": os.Getpid()})
	if got := relayOf(); len(got.LastError) > uiproto.MaxRelayErrorBytes+len("…") {
		t.Errorf("an error of %d bytes was passed on", len(got.LastError))
	}
	write(map[string]any{"broker": "", "pid": os.Getpid()})
	if got := relayOf(); got != (uiproto.RelayState{}) {
		t.Errorf("no broker: %+v, want not set up", got)
	}
}
