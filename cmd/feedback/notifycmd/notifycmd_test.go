package notifycmd

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"feedback/ipc"
	"feedback/ipc/wire"
)

// fakeApp takes messages as the app does.
type fakeApp struct {
	wire.Asker
	got []wire.Message
	err error
}

func (f *fakeApp) Message(_ context.Context, m wire.Message) (ipc.Receipt, error) {
	if f.err != nil {
		return ipc.Receipt{}, f.err
	}
	f.got = append(f.got, m)
	return ipc.Receipt{ID: "m1", Notified: true}, nil
}

func run(t *testing.T, app *fakeApp, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	env := Env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb,
		Connect: func(context.Context) (wire.Asker, error) { return app, nil }}
	code = Run(context.Background(), args, env)
	return code, out.String(), errb.String()
}

func TestNotifyFromAScript(t *testing.T) {
	app := &fakeApp{}
	if code, _, errs := run(t, app, "", "--title", "Build", "--project", "shop", "--urgent", "tests green"); code != ExitShown || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if got := app.got[0]; got != (wire.Message{Client: "feedback notify", Project: "shop", Title: "Build", Text: "tests green", Urgent: true}) {
		t.Errorf("sent %+v", got)
	}
	if code, _, _ := run(t, app, "from stdin\n", "-"); code != ExitShown || app.got[1].Text != "from stdin" {
		t.Errorf("exit %d, sent %+v", code, app.got[1])
	}
	if code, _, errs := run(t, app, "", "done", "--urgent"); code != ExitShown || !app.got[2].Urgent || app.got[2].Text != "done" {
		t.Errorf("a flag after the message: exit %d (%s), sent %+v", code, errs, app.got[2])
	}
	for _, args := range [][]string{{}, {"a", "b"}, {"  "}, {"--nope", "x"}, {strings.Repeat("x", wire.MaxMessageRunes+1)}} {
		if code, _, errs := run(t, app, "", args...); code != ExitFailed || errs == "" {
			t.Errorf("%q: exit %d, stderr %q; want 2 and a reason", args, code, errs)
		}
	}
	limited := &fakeApp{err: &wire.Error{Code: wire.CodeRateLimited, Message: "the next one is shown in 9 s"}}
	if code, _, errs := run(t, limited, "", "again"); code != ExitNotShown || errs != "feedback notify: not shown: the next one is shown in 9 s\n" {
		t.Errorf("rate limited: exit %d, stderr %q", code, errs)
	}
	if code, out, _ := run(t, app, "", "-h"); code != ExitShown || !strings.Contains(out, "--from") {
		t.Errorf("-h: exit %d, %q", code, out)
	}
}

// Each client's hook events, as its documentation shows them, make the
// message a user expects; other events make none; a hook always exits 0
// and prints what its client reads.
func TestNotifyAsAHook(t *testing.T) {
	for _, tc := range []struct {
		name, from, event string
		args              []string
		want              *wire.Message
		stdout            string
	}{
		{"claude notification", "claude-code",
			`{"session_id":"abc123","transcript_path":"/t.jsonl","cwd":"/home/u/shop","hook_event_name":"Notification","message":"Claude needs your permission to use Bash","title":"Permission needed","notification_type":"permission_prompt"}`,
			nil, &wire.Message{Client: "claude-code", Project: "shop", Title: "Permission needed", Text: "Claude needs your permission to use Bash", Urgent: true, Permission: true}, ""},
		{"claude notification, an older version", "claude-code",
			`{"session_id":"abc123","cwd":"/home/u/shop","hook_event_name":"Notification","message":"Claude is waiting for your input"}`,
			nil, &wire.Message{Client: "claude-code", Project: "shop", Text: "Claude is waiting for your input"}, ""},
		{"claude stop", "claude-code",
			`{"session_id":"abc123","cwd":"/home/u/shop","permission_mode":"default","hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"I've completed the refactoring.\n\nHere's a summary..."}`,
			nil, &wire.Message{Client: "claude-code", Project: "shop", Title: "Finished", Text: "I've completed the refactoring."}, ""},
		{"claude stop without the last message", "claude-code", `{"hook_event_name":"Stop","cwd":"/"}`,
			nil, &wire.Message{Client: "claude-code", Title: "Finished", Text: "The agent finished its turn and waits for you."}, ""},
		{"claude pre-tool-use: nothing", "claude-code", `{"hook_event_name":"PreToolUse","tool_name":"Bash"}`, nil, nil, ""},
		{"claude: not JSON", "claude-code", `not json`, nil, nil, ""},
		{"gemini notification", "gemini",
			`{"session_id":"s","cwd":"/w/api","hook_event_name":"Notification","timestamp":"2026-01-01T00:00:00Z","notification_type":"ToolPermission","message":"Allow run_shell_command?","details":{}}`,
			nil, &wire.Message{Client: "gemini-cli", Project: "api", Text: "Allow run_shell_command?", Urgent: true}, "{}\n"},
		{"gemini after agent", "gemini", `{"cwd":"/w/api","hook_event_name":"AfterAgent","prompt":"p","prompt_response":"Done: 3 files changed.","stop_hook_active":false}`,
			nil, &wire.Message{Client: "gemini-cli", Project: "api", Title: "Finished", Text: "Done: 3 files changed."}, "{}\n"},
		{"gemini before tool: nothing, still {}", "gemini", `{"hook_event_name":"BeforeTool"}`, nil, nil, "{}\n"},
		{"codex turn complete", "codex", "",
			[]string{`{"type":"agent-turn-complete","thread-id":"b5f6","turn-id":"12345","cwd":"/Users/example/project","client":"codex-tui","input-messages":["Rename foo to bar"],"last-assistant-message":"Rename complete and verified cargo build succeeds."}`},
			&wire.Message{Client: "codex", Project: "project", Title: "Finished", Text: "Rename complete and verified cargo build succeeds."}, ""},
		{"codex with a null last message", "codex", "", []string{`{"type":"agent-turn-complete","last-assistant-message":null}`},
			&wire.Message{Client: "codex", Title: "Finished", Text: "Codex finished its turn and waits for you."}, ""},
		{"cursor stop", "cursor", `{"conversation_id":"c","hook_event_name":"stop","status":"completed","loop_count":0,"workspace_roots":["/home/u/web"]}`,
			nil, &wire.Message{Client: "cursor", Project: "web", Title: "Finished", Text: "Cursor's agent finished and waits for you."}, "{}\n"},
		{"cursor stop on an error", "cursor", `{"hook_event_name":"stop","status":"error","workspace_roots":[]}`,
			nil, &wire.Message{Client: "cursor", Title: "Stopped", Text: "The agent stopped on an error.", Urgent: true}, "{}\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			app := &fakeApp{}
			code, out, _ := run(t, app, tc.event, append([]string{"--from", tc.from}, tc.args...)...)
			if code != 0 || out != tc.stdout {
				t.Errorf("exit %d, stdout %q; want 0 and %q", code, out, tc.stdout)
			}
			switch {
			case tc.want == nil && len(app.got) != 0:
				t.Errorf("sent %+v, want nothing", app.got)
			case tc.want != nil:
				want := *tc.want
				want.Hook = true // the client's hook, rated apart from its agent
				if len(app.got) != 1 || app.got[0] != want {
					t.Errorf("sent %+v, want %+v", app.got, want)
				}
			}
		})
	}
	if code, _, errs := run(t, &fakeApp{}, "{}", "--from", "vim"); code != ExitFailed || !strings.Contains(errs, "claude-code") {
		t.Errorf("an unknown client: exit %d, %q", code, errs)
	}
	// A hook never fails its agent, even when the app is unreachable.
	app := &fakeApp{err: ipc.ErrAppGone}
	if code, _, errs := run(t, app, `{"hook_event_name":"Stop"}`, "--from", "claude-code"); code != 0 || errs == "" {
		t.Errorf("app gone: exit %d, stderr %q", code, errs)
	}
}
