package mcpshim

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"feedback/ipc/wire"
)

func TestNormalizeUserInteract(t *testing.T) {
	huge := strings.Repeat("x", wire.MaxMarkdownBytes)
	for _, tc := range []struct {
		name    string
		args    map[string]any
		ask     string // the prompt's Markdown when a question is asked
		result  string // the immediate result's JSON otherwise
		isError bool
	}{
		{name: "question", args: map[string]any{"question": "Which port?"}, ask: "Which port?"},
		{name: "question at the limit", args: map[string]any{"question": huge}, ask: huge},
		{name: "pre-filled answer", args: map[string]any{"question": "Which port?", "answer": "8080"}, result: `{"outcome":"succeeded","answer":"8080"}`},
		{name: "pre-filled answer kept as given", args: map[string]any{"question": "Which port?", "answer": " 8080 "}, result: `{"outcome":"succeeded","answer":" 8080 "}`},
		// As the original: the question is checked first, answer or not.
		{name: "pre-filled answer without question", args: map[string]any{"answer": "8080"}, isError: true,
			result: `{"outcome":"failed","error":{"category":"validation","message":"Invalid arguments for user_interact: question: required: a non-empty string (the question to show the user). Fix the argument and call user_interact again."}}`},
		{name: "pre-filled answer with a blank question", args: map[string]any{"question": " ", "answer": "8080"}, isError: true,
			result: `{"outcome":"failed","error":{"category":"validation","message":"Invalid arguments for user_interact: question: required: a non-empty string (the question to show the user). Fix the argument and call user_interact again."}}`},
		{name: "empty answer asks", args: map[string]any{"question": "q", "answer": ""}, ask: "q"},
		{name: "null answer asks", args: map[string]any{"question": "q", "answer": nil}, ask: "q"},
		{name: "no question", args: map[string]any{}, isError: true,
			result: `{"outcome":"failed","error":{"category":"validation","message":"Invalid arguments for user_interact: question: required: a non-empty string (the question to show the user). Fix the argument and call user_interact again."}}`},
		{name: "blank question", args: map[string]any{"question": " \n"}, isError: true,
			result: `{"outcome":"failed","error":{"category":"validation","message":"Invalid arguments for user_interact: question: required: a non-empty string (the question to show the user). Fix the argument and call user_interact again."}}`},
		{name: "question a number", args: map[string]any{"question": 1.0}, isError: true,
			result: `{"outcome":"failed","error":{"category":"validation","message":"Invalid arguments for user_interact: question: must be a string, got number. Fix the argument and call user_interact again."}}`},
		{name: "answer an object", args: map[string]any{"question": "q", "answer": map[string]any{}}, isError: true,
			result: `{"outcome":"failed","error":{"category":"validation","message":"Invalid arguments for user_interact: answer: must be a string, got object. Fix the argument and call user_interact again."}}`},
		{name: "question over the limit", args: map[string]any{"question": huge + "x"}, isError: true,
			result: `{"outcome":"failed","error":{"category":"validation","message":"Invalid arguments for user_interact: question: at most 1048576 bytes, got 1048577; shorten it. Fix the argument and call user_interact again."}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q, res := normalizeUserInteract(tc.args)
			if tc.ask != "" {
				if res != nil {
					t.Fatalf("immediate result %s", resultText(t, res))
				}
				if err := q.Validate(); err != nil || q.Source != "user_interact" || !idPattern.MatchString(q.ID) ||
					len(q.Prompts) != 1 || q.Prompts[0].Kind != wire.KindText || q.Prompts[0].Markdown != tc.ask {
					t.Errorf("question = %+v (%v)", q, err)
				}
				return
			}
			if res == nil {
				t.Fatalf("asked %+v, want an immediate result", q)
			}
			if got := resultText(t, res); got != tc.result || res.IsError != tc.isError {
				t.Errorf("result (isError %v):\n got %s\nwant %s", res.IsError, got, tc.result)
			}
		})
	}
}

func TestRenderUserInteract(t *testing.T) {
	for _, tc := range []struct {
		name    string
		a       wire.Answer
		want    string
		isError bool
	}{
		{"answered", wire.Answer{Status: wire.StatusAnswered, Replies: []wire.Reply{{Text: "port 8080\nthanks"}}}, `{"outcome":"succeeded","answer":"port 8080\nthanks"}`, false},
		{"answered empty", wire.Answer{Status: wire.StatusAnswered, Replies: []wire.Reply{{}}}, `{"outcome":"succeeded"}`, false},
		{"dismissed", wire.Answer{Status: wire.StatusDismissed}, `{"outcome":"failed","error":{"category":"unknown","message":"` + interactDismissed + `"}}`, false},
		{"timeout", wire.Answer{Status: wire.StatusTimeout}, `{"outcome":"failed","error":{"category":"unknown","message":"` + interactTimeout() + `"}}`, false},
		{"unknown status", wire.Answer{Status: "snoozed", Replies: []wire.Reply{{Text: "x"}}}, `{"outcome":"failed","error":{"category":"unknown","message":"The feedback app ended the question with an unknown status \"snoozed\"; the user's answer is unknown. Update the feedback app and this MCP server to the same version."}}`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := renderUserInteract(tc.a)
			if got := resultText(t, res); got != tc.want || res.IsError != tc.isError {
				t.Errorf("isError %v, text\n got %s\nwant %s", res.IsError, got, tc.want)
			}
		})
	}
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"unreachable", errors.New("dial unix /s: connect: refused"), `{"outcome":"failed","error":{"category":"io","message":"The feedback window could not ask the user (dial unix /s: connect: refused). Nothing was answered; call user_interact again, or ask the user in chat."}}`},
		{"refused as invalid", &wire.Error{Code: wire.CodeInvalid, Message: "prompts[0].markdown: must be valid UTF-8"}, `{"outcome":"failed","error":{"category":"validation","message":"The feedback window could not ask the user (the feedback app refused the question (invalid): prompts[0].markdown: must be valid UTF-8). Nothing was answered; call user_interact again, or ask the user in chat."}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := userInteractFailure(tc.err)
			if got := resultText(t, res); !res.IsError || got != tc.want {
				t.Errorf("isError %v, text\n got %s\nwant %s", res.IsError, got, tc.want)
			}
		})
	}
}

func TestE2EUserInteract(t *testing.T) {
	var asked atomic.Int32
	var got wire.Question
	asker := askFunc(func(ctx context.Context, q wire.Question, _ func(wire.Event)) (wire.Answer, error) {
		asked.Add(1)
		got = q
		return wire.Answer{QuestionID: q.ID, Status: wire.StatusAnswered, Replies: []wire.Reply{{Text: "blue"}}}, nil
	})
	c := startShim(t, Options{Connect: connectTo(asker)})

	res := callNamed(t, c, "user_interact", map[string]any{"question": "Favourite colour?"})
	if g := jsonResult(t, res); res.IsError || !jsonEqual(g, map[string]any{"outcome": "succeeded", "answer": "blue"}) {
		t.Errorf("answered: %v", g)
	}
	if got.Prompts[0].Markdown != "Favourite colour?" || got.Client != "shim-test" {
		t.Errorf("question = %+v", got)
	}
	res = callNamed(t, c, "user_interact", map[string]any{"question": "Favourite colour?", "answer": "green"})
	if g := jsonResult(t, res); res.IsError || !jsonEqual(g, map[string]any{"outcome": "succeeded", "answer": "green"}) {
		t.Errorf("pre-filled: %v", g)
	}
	res = callNamed(t, c, "user_interact", map[string]any{})
	if g := jsonResult(t, res); !res.IsError || g["outcome"] != "failed" || g["error"].(map[string]any)["category"] != "validation" {
		t.Errorf("no question: %v", g)
	}
	if n := asked.Load(); n != 1 {
		t.Errorf("the app was asked %d times, want 1 (pre-filled and invalid calls ask nothing)", n)
	}
}

func TestE2EUserInteractAppDown(t *testing.T) {
	c := startShim(t, Options{Connect: func(context.Context) (wire.Asker, error) { return nil, errors.New("no app") }})
	res := callNamed(t, c, "user_interact", map[string]any{"question": "q"})
	// The seed's MCP surface: pending with the question, for the host to ask.
	if g := jsonResult(t, res); res.IsError || !jsonEqual(g, map[string]any{"outcome": "pending", "question": "q"}) {
		t.Errorf("app down: isError = %v, %v", res.IsError, g)
	}
}
