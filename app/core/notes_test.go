package core

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"
	"testing/synctest"
	"time"

	"feedback/ipc/uiproto"
	"feedback/ipc/wire"
)

func clientQ(id, client, project string) wire.Ask {
	qq := q(id)
	qq.Question.Client, qq.Question.Project = client, project
	return qq
}

// answerOf asks qq, answers it with status and returns what the caller got.
func answerOf(t *testing.T, in *Inbox, ui *fakeUI, qq wire.Ask, status wire.Status) wire.Answer {
	t.Helper()
	ch := ask(context.Background(), in, qq)
	ui.waitShown(t, qq.Question.ID)
	ui.answer(qq.Question.ID, wire.Answer{Status: status})
	r := result(t, ch)
	if r.err != nil {
		t.Fatalf("ask %s: %v", qq.Question.ID, r.err)
	}
	return r.a
}

// A note rides on the next outcome delivered to its client only (whatever
// the status), for its project or any, then is gone.
func TestNoteRidesOnTheNextResultOfItsClient(t *testing.T) {
	for _, persistent := range []bool{false, true} {
		name := map[bool]string{false: "in memory", true: "database"}[persistent]
		t.Run(name, func(t *testing.T) {
			ui := newFakeUI()
			open := func() (Store, error) { return NewMemoryStore(), nil }
			if persistent {
				path := filepath.Join(t.TempDir(), "f.db")
				open = func() (Store, error) { return openStore(path) }
			}
			in := New(Options{Presenter: ui, Open: open})
			in.Start()
			defer in.Close(time.Second)
			must := func(err error) {
				t.Helper()
				if err != nil {
					t.Fatal(err)
				}
			}
			must(in.AddNote(uiproto.Note{Client: "claude-code", Text: "use the staging database"}))
			must(in.AddNote(uiproto.Note{Client: "claude-code", Project: "api", Text: "only for api"}))
			must(in.AddNote(uiproto.Note{Client: "Claude-Code", Text: "for the client that calls itself Claude-Code"}))
			if in.AddNote(uiproto.Note{Client: "claude-code", Text: "  "}) == nil {
				t.Fatal("an empty note was accepted")
			}

			if a := answerOf(t, in, ui, clientQ("other", "codex", "web"), wire.StatusAnswered); a.Notes != nil {
				t.Fatalf("another client's result carries %q", a.Notes)
			}
			// Client names are self-declared and match exactly (issue 19).
			if a := answerOf(t, in, ui, clientQ("shout", "CLAUDE-CODE", "web"), wire.StatusAnswered); a.Notes != nil {
				t.Fatalf("CLAUDE-CODE's result carries claude-code's notes %q", a.Notes)
			}
			a := answerOf(t, in, ui, clientQ("mine", "claude-code", "web"), wire.StatusDismissed)
			if want := []string{"use the staging database"}; !reflect.DeepEqual(a.Notes, want) {
				t.Fatalf("first result of the client: notes %q, want %q", a.Notes, want)
			}
			if a := answerOf(t, in, ui, clientQ("again", "claude-code", "web"), wire.StatusTimeout); a.Notes != nil {
				t.Fatalf("the next result carries %q again", a.Notes)
			}
			a = answerOf(t, in, ui, clientQ("api", "claude-code", "api"), wire.StatusAnswered)
			if want := []string{"only for api"}; !reflect.DeepEqual(a.Notes, want) {
				t.Fatalf("the api project's result: notes %q, want %q", a.Notes, want)
			}
			a = answerOf(t, in, ui, clientQ("mixed", "Claude-Code", "web"), wire.StatusAnswered)
			if want := []string{"for the client that calls itself Claude-Code"}; !reflect.DeepEqual(a.Notes, want) {
				t.Fatalf("Claude-Code's result: notes %q, want %q", a.Notes, want)
			}
			if c := in.NoteChoices(); len(c.Waiting) != 0 {
				t.Fatalf("notes still waiting: %+v", c.Waiting)
			}
		})
	}
}

// A note written while an answer is kept for a caller that comes back
// rides on that answer when it is collected, not before; a caller that went
// away takes nothing.
func TestNoteRidesOnAKeptAnswerWhenCollected(t *testing.T) {
	ui := newFakeUI()
	in := New(Options{Presenter: ui})
	in.Start()
	qq := clientQ("k", "codex", "")
	qq.Wait = 1 * time.Millisecond
	r := result(t, ask(context.Background(), in, qq))
	if r.err == nil {
		t.Fatal("want a pending ask")
	}
	ui.waitShown(t, "k")
	ui.answer("k", wire.Answer{Status: wire.StatusAnswered})

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if a := in.withNotes(ctx, qq.Question, wire.Answer{}); a.Notes != nil {
		t.Fatal("a caller that went away took the notes")
	}
	if err := in.AddNote(uiproto.Note{Client: "codex", Text: "rebase first"}); err != nil {
		t.Fatal(err)
	}
	qq.Wait = 0
	r = result(t, ask(context.Background(), in, qq))
	if r.err != nil || !reflect.DeepEqual(r.a.Notes, []string{"rebase first"}) {
		t.Fatalf("collected kept answer: %+v, %v", r.a, r.err)
	}
}

// Notes kept in the database survive a restart of the inbox, and the
// note window's choices list the clients and projects that asked.
func TestNotesSurviveARestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f.db")
	open := func() (Store, error) { return openStore(path) }
	ui := newFakeUI()
	in := New(Options{Presenter: ui, Open: open})
	in.Start()
	answerOf(t, in, ui, clientQ("first", "gemini", "site"), wire.StatusAnswered)
	if err := in.AddNote(uiproto.Note{Client: "gemini", Text: "after the restart"}); err != nil {
		t.Fatal(err)
	}
	c := in.NoteChoices()
	if want := []wire.NoteTarget{{Client: "gemini", Project: "site"}}; !reflect.DeepEqual(c.Targets, want) || len(c.Waiting) != 1 {
		t.Fatalf("NoteChoices = %+v", c)
	}
	in.Close(2 * time.Second)

	ui = newFakeUI()
	in = New(Options{Presenter: ui, Open: open})
	in.Start()
	defer in.Close(time.Second)
	a := answerOf(t, in, ui, clientQ("second", "gemini", "site"), wire.StatusAnswered)
	if want := []string{"after the restart"}; !reflect.DeepEqual(a.Notes, want) {
		t.Fatalf("after a restart: notes %q, want %q", a.Notes, want)
	}
}

// slowNotes is a database whose TakeNotes waits for release.
type slowNotes struct {
	*memoryStore
	release chan struct{}
	took    chan struct{}
}

func (s slowNotes) TakeNotes(client, project string) ([]wire.Note, error) {
	<-s.release
	defer close(s.took)
	return s.memoryStore.TakeNotes(client, project)
}

// withNotes gives up after lookupTimeout on a stuck database: the outcome
// goes without the notes, and the notes taken after that are put back for
// the next outcome.
func TestNotesPutBackWhenTheCallerGaveUp(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		slow := slowNotes{memoryStore: &memoryStore{}, release: make(chan struct{}), took: make(chan struct{})}
		if _, err := slow.AddNote(wire.Note{Client: "c", Text: "x"}); err != nil {
			t.Fatal(err)
		}
		in := New(Options{Presenter: newFakeUI(), Open: func() (Store, error) { return slow, nil }})
		in.Start()
		defer in.Close(time.Second)
		if a := in.withNotes(context.Background(), clientQ("q", "c", "").Question, wire.Answer{}); a.Notes != nil {
			t.Fatalf("notes %q delivered past the timeout", a.Notes)
		}
		close(slow.release)
		<-slow.took
		c := in.NoteChoices() // runs after the put-back, on the same goroutine
		if len(c.Waiting) != 1 || c.Waiting[0].Text != "x" {
			t.Fatalf("waiting after the late take: %+v", c.Waiting)
		}
	})
}
