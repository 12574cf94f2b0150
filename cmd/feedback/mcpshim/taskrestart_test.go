package mcpshim

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"feedback/internal/settings"
)

// A shim that exits while a task waits for the human does not withdraw the
// question: the app keeps it open (and its answer), as after a "call
// again" result. A new shim cannot serve the old task (mcp-go v1.6.0 knows
// only the tasks it created), but the same call made again there, as a
// task, reattaches to the same window — or collects the answer given while
// no shim ran — and its tasks/result carries the human's answer.
func TestTaskSurvivesAShimRestart(t *testing.T) {
	for _, tc := range []struct {
		name          string
		answerBetween bool // answered while no shim runs
	}{{"answered after the new shim reattached", false}, {"answered while no shim ran", true}} {
		t.Run(tc.name, func(t *testing.T) {
			app := newFakeInbox()
			call := `{"jsonrpc":"2.0","id":"t1","method":"tools/call","params":{"name":"ask_text","arguments":{"question":"Still there after a restart?"},"task":{}}}`
			first := startRawShim(t, Options{Connect: connectTo(app), Settings: settings.Default()})
			first.send(call)
			if id, status := taskOf(t, first.response(`"t1"`)); id == "" || status != "working" {
				t.Fatalf("tools/call as a task: %q %q", id, status)
			}
			q := <-app.asked
			app.waitWaiters(t, q.ID, 1)
			first.closeAndDrain() // the client restarts the shim
			app.waitWaiters(t, q.ID, 0)
			select {
			case id := <-app.withdrawn:
				t.Fatalf("the shim's exit withdrew %s, which its task's client comes back for", id)
			default:
			}
			if tc.answerBetween {
				app.answer(t, q.ID, windowAnswer(q))
			}

			second := startRawShim(t, Options{Connect: connectTo(app), Settings: settings.Default()})
			second.send(call)
			id, _ := taskOf(t, second.response(`"t1"`))
			if !tc.answerBetween {
				app.waitWaiters(t, q.ID, 1)
				app.answer(t, q.ID, windowAnswer(q))
			}
			second.send(`{"jsonrpc":"2.0","id":"r1","method":"tasks/result","params":{"taskId":"` + id + `"}}`)
			if res := second.response(`"r1"`); !strings.Contains(string(res.Result), humanWords) {
				t.Errorf("tasks/result on the new shim: %s", res.raw)
			}
			if _, windows := app.counts(); windows != 1 {
				t.Errorf("%d windows, want the one the first shim opened", windows)
			}
		})
	}
}

// tasks/cancel still withdraws the window of a task whose question a
// restarted shim reattached to.
func TestTaskCancelAfterAShimRestart(t *testing.T) {
	app := newFakeInbox()
	call := `{"jsonrpc":"2.0","id":"t1","method":"tools/call","params":{"name":"ask_confirm","arguments":{"question":"Cancel me later?"},"task":{}}}`
	first := startRawShim(t, Options{Connect: connectTo(app), Settings: settings.Default()})
	first.send(call)
	first.response(`"t1"`)
	q := <-app.asked
	app.waitWaiters(t, q.ID, 1)
	first.closeAndDrain()
	app.waitWaiters(t, q.ID, 0)

	second := startRawShim(t, Options{Connect: connectTo(app), Settings: settings.Default()})
	second.send(call)
	id, _ := taskOf(t, second.response(`"t1"`))
	app.waitWaiters(t, q.ID, 1)
	second.send(`{"jsonrpc":"2.0","id":"c1","method":"tasks/cancel","params":{"taskId":"` + id + `"}}`)
	second.response(`"c1"`)
	app.waitWithdrawn(t, q.ID)
}

// waitWithdrawn waits until the app withdraws window id.
func (f *fakeInbox) waitWithdrawn(t *testing.T, id string) {
	t.Helper()
	select {
	case got := <-f.withdrawn:
		if got != id {
			t.Errorf("withdrawn %s, want %s", got, id)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("window %s was not withdrawn", id)
	}
}

// The shim is stopped (SIGTERM or SIGINT cancel ServeStdio's context) while
// a task waits: it hands the window over as at the end of its input.
func TestTaskHandedOverWhenStopped(t *testing.T) {
	app := newFakeInbox()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	toServer, in := io.Pipe()
	out, fromServer := io.Pipe()
	go io.Copy(io.Discard, out)
	done := make(chan error, 1)
	go func() {
		done <- ServeStdio(ctx, Options{Connect: connectTo(app), Settings: settings.Default()}, toServer, fromServer)
		fromServer.Close()
	}()
	defer in.Close()
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"` + testProtocolVersion + `","capabilities":{},"clientInfo":{"name":"signalled","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":"t1","method":"tools/call","params":{"name":"ask_text","arguments":{"question":"Stopped?"},"task":{}}}`,
	} {
		if _, err := io.WriteString(in, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	q := <-app.asked
	app.waitWaiters(t, q.ID, 1)
	cancel()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("ServeStdio did not return when its context ended")
	}
	app.waitWaiters(t, q.ID, 0)
	select {
	case id := <-app.withdrawn:
		t.Fatalf("stopping the shim withdrew %s", id)
	default:
	}
}
