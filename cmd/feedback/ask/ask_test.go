package ask

import (
	"bytes"
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"feedback/ipc"
	"feedback/ipc/launch"
	"feedback/ipc/wire"
)

type fakeApp struct {
	got    wire.Question
	answer wire.Answer
	err    error
}

func (f *fakeApp) Ask(_ context.Context, a wire.Ask, _ func(wire.Event)) (wire.Answer, error) {
	f.got = a.Question
	return f.answer, f.err
}

func runAsk(t *testing.T, app *fakeApp, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	env := Env{
		Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errOut,
		Connect: func(context.Context) (wire.Asker, error) { return app, nil },
		NewID:   func() string { return "id1" },
	}
	code := Run(context.Background(), args, env)
	return code, out.String(), errOut.String()
}

func TestRun(t *testing.T) {
	answered := func(r wire.Reply) wire.Answer {
		return wire.Answer{Status: wire.StatusAnswered, Replies: []wire.Reply{r}}
	}
	for _, tc := range []struct {
		name     string
		args     []string
		stdin    string
		answer   wire.Answer
		wantCode int
		wantOut  string
		wantQ    func(q wire.Question) bool
	}{
		{name: "reply only", args: []string{"Why?"}, answer: answered(wire.Reply{Text: "because"}),
			wantOut: "because\n", wantQ: func(q wire.Question) bool { return q.Prompts[0].Markdown == "Why?" && q.Source == "ask" }},
		{name: "options and reply", args: []string{"--option", "a", "--default", "b", "Pick"},
			answer:  answered(wire.Reply{Selected: []string{"a", "b"}, Text: "both\n"}),
			wantOut: "a\nb\n\nboth\n",
			wantQ: func(q wire.Question) bool {
				return reflect.DeepEqual(q.Prompts[0].Options, []wire.Option{{Label: "a"}, {Label: "b", Default: true}})
			}},
		{name: "yes/no", args: []string{"--yesno", "--title", "T", "Go?"}, answer: answered(wire.Reply{Text: "yes"}),
			wantOut: "yes\n", wantQ: func(q wire.Question) bool { return q.Prompts[0].Kind == wire.KindYesNo && q.Title == "T" }},
		{name: "message from stdin", args: []string{"-"}, stdin: "# From stdin", answer: answered(wire.Reply{Text: "x"}),
			wantOut: "x\n", wantQ: func(q wire.Question) bool { return q.Prompts[0].Markdown == "# From stdin" }},
		{name: "timeout flag", args: []string{"--timeout", "-1", "Q"}, answer: answered(wire.Reply{}),
			wantQ: func(q wire.Question) bool { return q.TimeoutSeconds == -1 }},
		{name: "project flag", args: []string{"--project", " feedback ", "Q"}, answer: answered(wire.Reply{}),
			wantQ: func(q wire.Question) bool { return q.Project == "feedback" }},
		{name: "no project unless given", args: []string{"Q"}, answer: answered(wire.Reply{}),
			wantQ: func(q wire.Question) bool { return q.Project == "" }},
		{name: "project too long", args: []string{"--project", strings.Repeat("p", 257), "Q"}, wantCode: ExitFailed},
		{name: "dismissed", args: []string{"Q"}, answer: wire.Answer{Status: wire.StatusDismissed}, wantCode: ExitDismissed},
		{name: "timed out", args: []string{"Q"}, answer: wire.Answer{Status: wire.StatusTimeout}, wantCode: ExitFailed},
		{name: "no message", args: nil, wantCode: ExitFailed},
		{name: "blank message", args: []string{"  "}, wantCode: ExitFailed},
		{name: "unknown flag", args: []string{"--nope", "Q"}, wantCode: ExitFailed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			app := &fakeApp{answer: tc.answer}
			code, out, _ := runAsk(t, app, tc.stdin, tc.args...)
			if code != tc.wantCode {
				t.Errorf("exit = %d, want %d", code, tc.wantCode)
			}
			if out != tc.wantOut {
				t.Errorf("stdout = %q, want %q", out, tc.wantOut)
			}
			if tc.wantQ != nil && !tc.wantQ(app.got) {
				t.Errorf("question = %+v", app.got)
			}
		})
	}
}

func TestJSONOutput(t *testing.T) {
	app := &fakeApp{answer: wire.Answer{QuestionID: "id1", Status: wire.StatusDismissed}}
	code, out, _ := runAsk(t, app, "", "--json", "Q")
	if code != ExitDismissed || !strings.Contains(out, `"status": "dismissed"`) {
		t.Errorf("exit %d, stdout %q", code, out)
	}
}

func TestAppUnreachable(t *testing.T) {
	var errOut bytes.Buffer
	env := Env{Stdin: strings.NewReader(""), Stdout: &bytes.Buffer{}, Stderr: &errOut,
		Connect: func(context.Context) (wire.Asker, error) { return nil, errors.New("no display") },
		NewID:   func() string { return "id" }}
	if code := Run(context.Background(), []string{"Q"}, env); code != ExitFailed {
		t.Errorf("exit = %d", code)
	}
	if !strings.Contains(errOut.String(), "no display") {
		t.Errorf("stderr = %q", errOut.String())
	}
}

// goneOnce fails its first ask as an app that crashed, then answers.
type goneOnce struct {
	asks, connects int
	ids            []string
}

func (g *goneOnce) Ask(_ context.Context, a wire.Ask, _ func(wire.Event)) (wire.Answer, error) {
	q := a.Question
	g.asks++
	g.ids = append(g.ids, q.ID)
	if g.asks == 1 {
		return wire.Answer{}, ipc.ErrAppGone
	}
	return wire.Answer{QuestionID: q.ID, Status: wire.StatusAnswered, Replies: []wire.Reply{{Text: "after the crash"}}}, nil
}

// The app crashes while the question is open: feedback ask starts it again
// (connects again) and asks the same question, as the shim does.
func TestRestartsACrashedApp(t *testing.T) {
	old := launch.RestartBackoff
	launch.RestartBackoff = []time.Duration{time.Millisecond}
	t.Cleanup(func() { launch.RestartBackoff = old })
	g := &goneOnce{}
	var out, errOut bytes.Buffer
	env := Env{
		Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut,
		Connect: func(context.Context) (wire.Asker, error) { g.connects++; return g, nil },
		NewID:   func() string { return "id1" },
	}
	code := Run(context.Background(), []string{"Still there?"}, env)
	if code != ExitAnswered || out.String() != "after the crash\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out.String(), errOut.String())
	}
	if g.connects != 2 || !reflect.DeepEqual(g.ids, []string{"id1", "id1"}) {
		t.Errorf("connects %d, asked %v; want 2 connects and the same id twice", g.connects, g.ids)
	}
}

// The user's notes go to stderr, apart from the answer on stdout, for any
// outcome; --json has them as "notes".
func TestNotesFromTheUser(t *testing.T) {
	app := &fakeApp{answer: wire.Answer{Status: wire.StatusAnswered, Replies: []wire.Reply{{Text: "yes"}}, Notes: []string{"stop at 5"}}}
	code, out, errOut := runAsk(t, app, "", "Go?")
	if code != ExitAnswered || out != "yes\n" || errOut != "feedback ask: a note from the user, not an answer to this question: stop at 5\n" {
		t.Errorf("code %d, stdout %q, stderr %q", code, out, errOut)
	}
	app.answer = wire.Answer{Status: wire.StatusDismissed, Notes: []string{"later"}}
	if _, _, errOut := runAsk(t, app, "", "Go?"); !strings.Contains(errOut, "not an answer to this question: later\n") {
		t.Errorf("dismissed: stderr %q", errOut)
	}
	_, out, _ = runAsk(t, app, "", "--json", "Go?")
	if !strings.Contains(out, `"notes": [`) || !strings.Contains(out, `"later"`) {
		t.Errorf("--json: %s", out)
	}
	app.answer = wire.Answer{Status: wire.StatusDismissed, Notes: []string{"\x1b]52;c;ZXZpbA==\x07pasted"}}
	if _, _, errOut := runAsk(t, app, "", "Go?"); !strings.Contains(errOut, "question: ␛]52;c;ZXZpbA==␇pasted\n") {
		t.Errorf("a note with an escape: stderr %q", errOut)
	}
}

// Flags may follow the message (`feedback ask "Deploy now?" --option yes`,
// as the user typed it), and "--" ends them; -h prints the usage
// on stdout and exits 0; two messages get usage and a line saying what to
// do, exit 2.
func TestFlagsAfterTheMessage(t *testing.T) {
	app := &fakeApp{answer: wire.Answer{Status: wire.StatusAnswered, Replies: []wire.Reply{{Selected: []string{"yes"}}}}}
	code, out, errOut := runAsk(t, app, "", "Deploy now?", "--option", "yes", "--title", "Deploy", "--option", "no")
	if code != ExitAnswered || out != "yes\n" {
		t.Fatalf("flags after the message: exit %d, out %q, stderr %q", code, out, errOut)
	}
	if got := app.got; got.Prompts[0].Markdown != "Deploy now?" || got.Title != "Deploy" ||
		!reflect.DeepEqual(got.Prompts[0].Options, []wire.Option{{Label: "yes"}, {Label: "no"}}) {
		t.Errorf("question %+v", got)
	}

	code, _, errOut = runAsk(t, app, "", "--option", "a", "--", "-1 or 1?")
	if code != ExitAnswered || app.got.Prompts[0].Markdown != "-1 or 1?" {
		t.Errorf("after --: exit %d, message %q, stderr %q", code, app.got.Prompts[0].Markdown, errOut)
	}

	for _, h := range []string{"-h", "--help"} {
		code, out, errOut = runAsk(t, app, "", "Deploy now?", h)
		if code != 0 || !strings.Contains(out, "usage: feedback ask") || !strings.Contains(out, "-option") || errOut != "" {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want the usage on stdout, exit 0", h, code, out, errOut)
		}
	}

	code, out, errOut = runAsk(t, app, "", "Deploy", "now?", "--option", "yes")
	if code != ExitFailed || out != "" || !strings.Contains(errOut, "usage:") || !strings.Contains(errOut, `quote a message of several words`) {
		t.Errorf("two messages: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	code, _, errOut = runAsk(t, app, "", "Deploy?", "--nope")
	if code != ExitFailed || !strings.Contains(errOut, "flag provided but not defined: -nope") {
		t.Errorf("unknown flag: exit %d, stderr %q", code, errOut)
	}
}

// --timeout -1 is "no countdown"; any other negative number is refused
// with a reason, and nothing is asked (-2 was taken as no countdown).
func TestNegativeTimeoutRefused(t *testing.T) {
	for _, v := range []string{"-2", "-600"} {
		app := &fakeApp{answer: wire.Answer{Status: wire.StatusAnswered}}
		code, out, errOut := runAsk(t, app, "", "--timeout", v, "Q")
		if code != ExitFailed || out != "" || !strings.Contains(errOut, "--timeout "+v+": want a number of seconds") || app.got.ID != "" {
			t.Errorf("--timeout %s: exit %d, stdout %q, stderr %q, asked %q", v, code, out, errOut, app.got.ID)
		}
	}
}
