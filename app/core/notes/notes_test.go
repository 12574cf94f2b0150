package notes

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"
	"testing/synctest"
	"time"

	"feedback/app/core"
	"feedback/app/core/coretest"
	"feedback/ipc/uiproto"
	"feedback/ipc/wire"
)

// noted is an inbox with the notes attached, recording in what open opens.
func noted(ui core.Presenter, open func() (core.Store, error)) (*core.Inbox, *Control) {
	c := New(nil)
	in := core.New(core.Options{Presenter: ui, Open: open, Features: []core.Feature{c}})
	in.Start()
	return in, c
}

func clientQ(id, client, project string) wire.Ask {
	qq := coretest.Q(id)
	qq.Question.Client, qq.Question.Project = client, project
	return qq
}

// answerOf asks qq, answers it with status and returns what the caller got.
func answerOf(t *testing.T, in *core.Inbox, ui *coretest.UI, qq wire.Ask, status wire.Status) wire.Answer {
	t.Helper()
	ch := coretest.Ask(context.Background(), in, qq)
	ui.WaitShown(t, qq.Question.ID)
	ui.Answer(qq.Question.ID, wire.Answer{Status: status})
	r := coretest.Wait(t, ch)
	if r.Err != nil {
		t.Fatalf("ask %s: %v", qq.Question.ID, r.Err)
	}
	return r.A
}

// A note rides on the next outcome delivered to its client only (whatever
// the status), for its project or any, then is gone.
func TestNoteRidesOnTheNextResultOfItsClient(t *testing.T) {
	for _, persistent := range []bool{false, true} {
		name := map[bool]string{false: "in memory", true: "database"}[persistent]
		t.Run(name, func(t *testing.T) {
			ui := coretest.NewUI()
			open := func() (core.Store, error) { return core.NewMemoryStore(), nil }
			if persistent {
				path := filepath.Join(t.TempDir(), "f.db")
				open = func() (core.Store, error) { return coretest.OpenSQLite(path) }
			}
			in, c := noted(ui, open)
			defer in.Close(time.Second)
			must := func(err error) {
				t.Helper()
				if err != nil {
					t.Fatal(err)
				}
			}
			must(c.Add(uiproto.Note{Client: "claude-code", Text: "use the staging database"}))
			must(c.Add(uiproto.Note{Client: "claude-code", Project: "api", Text: "only for api"}))
			must(c.Add(uiproto.Note{Client: "Claude-Code", Text: "for the client that calls itself Claude-Code"}))
			if c.Add(uiproto.Note{Client: "claude-code", Text: "  "}) == nil {
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
			if choices := c.Choices(); len(choices.Waiting) != 0 {
				t.Fatalf("notes still waiting: %+v", choices.Waiting)
			}
		})
	}
}

// A note written while an answer is kept for a caller that comes back
// rides on that answer when it is collected, not before; a caller that went
// away takes nothing.
func TestNoteRidesOnAKeptAnswerWhenCollected(t *testing.T) {
	ui := coretest.NewUI()
	in, c := noted(ui, nil)
	qq := clientQ("k", "codex", "")
	qq.Wait = 1 * time.Millisecond
	r := coretest.Wait(t, coretest.Ask(context.Background(), in, qq))
	if r.Err == nil {
		t.Fatal("want a pending ask")
	}
	ui.WaitShown(t, "k")
	ui.Answer("k", wire.Answer{Status: wire.StatusAnswered})

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if a := c.outcome(ctx, qq.Question, wire.Answer{}); a.Notes != nil {
		t.Fatal("a caller that went away took the notes")
	}
	if err := c.Add(uiproto.Note{Client: "codex", Text: "rebase first"}); err != nil {
		t.Fatal(err)
	}
	qq.Wait = 0
	r = coretest.Wait(t, coretest.Ask(context.Background(), in, qq))
	if r.Err != nil || !reflect.DeepEqual(r.A.Notes, []string{"rebase first"}) {
		t.Fatalf("collected kept answer: %+v, %v", r.A, r.Err)
	}
}

// Notes kept in the database survive a restart of the inbox, and the
// note window's choices list the clients and projects that asked.
func TestNotesSurviveARestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f.db")
	open := func() (core.Store, error) { return coretest.OpenSQLite(path) }
	ui := coretest.NewUI()
	in, c := noted(ui, open)
	answerOf(t, in, ui, clientQ("first", "gemini", "site"), wire.StatusAnswered)
	if err := c.Add(uiproto.Note{Client: "gemini", Text: "after the restart"}); err != nil {
		t.Fatal(err)
	}
	choices := c.Choices()
	if want := []wire.NoteTarget{{Client: "gemini", Project: "site"}}; !reflect.DeepEqual(choices.Targets, want) || len(choices.Waiting) != 1 {
		t.Fatalf("Choices = %+v", choices)
	}
	in.Close(2 * time.Second)

	ui = coretest.NewUI()
	in, _ = noted(ui, open)
	defer in.Close(time.Second)
	a := answerOf(t, in, ui, clientQ("second", "gemini", "site"), wire.StatusAnswered)
	if want := []string{"after the restart"}; !reflect.DeepEqual(a.Notes, want) {
		t.Fatalf("after a restart: notes %q, want %q", a.Notes, want)
	}
}

// slowNotes is a database whose TakeNotes waits for release.
type slowNotes struct {
	core.Store
	release chan struct{}
	took    chan struct{}
}

func (s slowNotes) TakeNotes(client, project string) ([]wire.Note, error) {
	<-s.release
	defer close(s.took)
	return s.Store.TakeNotes(client, project)
}

// withNotes gives up after LookupTimeout on a stuck database: the outcome
// goes without the notes, and the notes taken after that are put back for
// the next outcome.
func TestNotesPutBackWhenTheCallerGaveUp(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		slow := slowNotes{Store: core.NewMemoryStore(), release: make(chan struct{}), took: make(chan struct{})}
		if _, err := slow.AddNote(wire.Note{Client: "c", Text: "x"}); err != nil {
			t.Fatal(err)
		}
		in, c := noted(coretest.NewUI(), func() (core.Store, error) { return slow, nil })
		defer in.Close(time.Second)
		if a := c.outcome(context.Background(), clientQ("q", "c", "").Question, wire.Answer{}); a.Notes != nil {
			t.Fatalf("notes %q delivered past the timeout", a.Notes)
		}
		close(slow.release)
		<-slow.took
		choices := c.Choices() // runs after the put-back, on the same goroutine
		if len(choices.Waiting) != 1 || choices.Waiting[0].Text != "x" {
			t.Fatalf("waiting after the late take: %+v", choices.Waiting)
		}
	})
}
