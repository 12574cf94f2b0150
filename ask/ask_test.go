package ask

import (
	"bytes"
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"feedback/ipc"
)

type fakeApp struct {
	got    ipc.Question
	answer ipc.Answer
	err    error
}

func (f *fakeApp) Ask(_ context.Context, q ipc.Question, _ func(ipc.Event)) (ipc.Answer, error) {
	f.got = q
	return f.answer, f.err
}

func runAsk(t *testing.T, app *fakeApp, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	env := Env{
		Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errOut,
		Connect: func(context.Context) (Asker, error) { return app, nil },
		NewID:   func() string { return "id1" },
	}
	code := Run(context.Background(), args, env)
	return code, out.String(), errOut.String()
}

func TestRun(t *testing.T) {
	answered := func(r ipc.Reply) ipc.Answer {
		return ipc.Answer{Status: ipc.StatusAnswered, Replies: []ipc.Reply{r}}
	}
	for _, tc := range []struct {
		name     string
		args     []string
		stdin    string
		answer   ipc.Answer
		wantCode int
		wantOut  string
		wantQ    func(q ipc.Question) bool
	}{
		{name: "reply only", args: []string{"Why?"}, answer: answered(ipc.Reply{Text: "because"}),
			wantOut: "because\n", wantQ: func(q ipc.Question) bool { return q.Prompts[0].Markdown == "Why?" && q.Source == "ask" }},
		{name: "options and reply", args: []string{"--option", "a", "--default", "b", "Pick"},
			answer:  answered(ipc.Reply{Selected: []string{"a", "b"}, Text: "both\n"}),
			wantOut: "a\nb\n\nboth\n",
			wantQ: func(q ipc.Question) bool {
				return reflect.DeepEqual(q.Prompts[0].Options, []ipc.Option{{Label: "a"}, {Label: "b", Default: true}})
			}},
		{name: "yes/no", args: []string{"--yesno", "--title", "T", "Go?"}, answer: answered(ipc.Reply{Text: "yes"}),
			wantOut: "yes\n", wantQ: func(q ipc.Question) bool { return q.Prompts[0].Kind == ipc.KindYesNo && q.Title == "T" }},
		{name: "message from stdin", args: []string{"-"}, stdin: "# From stdin", answer: answered(ipc.Reply{Text: "x"}),
			wantOut: "x\n", wantQ: func(q ipc.Question) bool { return q.Prompts[0].Markdown == "# From stdin" }},
		{name: "timeout flag", args: []string{"--timeout", "-1", "Q"}, answer: answered(ipc.Reply{}),
			wantQ: func(q ipc.Question) bool { return q.TimeoutSeconds == -1 }},
		{name: "dismissed", args: []string{"Q"}, answer: ipc.Answer{Status: ipc.StatusDismissed}, wantCode: ExitDismissed},
		{name: "timed out", args: []string{"Q"}, answer: ipc.Answer{Status: ipc.StatusTimeout}, wantCode: ExitFailed},
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
	app := &fakeApp{answer: ipc.Answer{QuestionID: "id1", Status: ipc.StatusDismissed}}
	code, out, _ := runAsk(t, app, "", "--json", "Q")
	if code != ExitDismissed || !strings.Contains(out, `"status": "dismissed"`) {
		t.Errorf("exit %d, stdout %q", code, out)
	}
}

func TestAppUnreachable(t *testing.T) {
	var errOut bytes.Buffer
	env := Env{Stdin: strings.NewReader(""), Stdout: &bytes.Buffer{}, Stderr: &errOut,
		Connect: func(context.Context) (Asker, error) { return nil, errors.New("no display") },
		NewID:   func() string { return "id" }}
	if code := Run(context.Background(), []string{"Q"}, env); code != ExitFailed {
		t.Errorf("exit = %d", code)
	}
	if !strings.Contains(errOut.String(), "no display") {
		t.Errorf("stderr = %q", errOut.String())
	}
}
