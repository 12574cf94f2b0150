package notifycmd

import (
	"slices"
	"strings"

	"feedback/ipc/wire"
)

// hook is how one client's hook events become messages. The event formats
// are the clients' documented ones (see the README's "Hooks" section).
type hook struct {
	name string // the client, as messages name it
	// argv: the event is the last argument (Codex's notify program),
	// not standard input.
	argv bool
	// stdout is what the hook prints for the client to read: Gemini CLI
	// and Cursor read a JSON object, "{}" being "carry on".
	stdout string
	// message is the message an event makes; false: none.
	message func(event []byte) (wire.Message, bool, error)
}

var hooks = map[string]hook{
	"claude-code": {name: "claude-code", message: claudeEvent},
	"gemini":      {name: "gemini-cli", stdout: "{}", message: geminiEvent},
	"codex":       {name: "codex", argv: true, message: codexEvent},
	"cursor":      {name: "cursor", stdout: "{}", message: cursorEvent},
}

// HookClients are the clients `feedback notify --from` reads the hook
// events of.
func HookClients() []string {
	names := make([]string, 0, len(hooks))
	for n := range hooks {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// maxSummaryRunes bounds the part of an agent's last message a "finished"
// message quotes.
const maxSummaryRunes = 300

// finished is the message of an agent that ended its turn: "Finished"
// over the start of its last message, or over fallback.
func finished(project, last, fallback string) wire.Message {
	text := summary(last)
	if text == "" {
		text = fallback
	}
	return wire.Message{Project: project, Title: "Finished", Text: text}
}

// attention is the message of an agent that needs the user: the client's
// text, or fallback without one.
func attention(project, title, text, fallback string, urgent bool) wire.Message {
	if strings.TrimSpace(text) == "" {
		text = fallback
	}
	return wire.Message{Project: project, Title: title, Text: text, Urgent: urgent}
}

// summary is the first paragraph of an agent's message, at most
// maxSummaryRunes.
func summary(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.Index(s, "\n\n"); i >= 0 {
		s = s[:i]
	}
	return cut(strings.Join(strings.Fields(s), " "), maxSummaryRunes)
}

// claudeEvent reads a Claude Code hook event (VS Code Copilot runs the same
// hooks with events of its own shape: what is not recognised is a generic
// message or none).
//   - Notification {message, title?, notification_type?}: the message;
//     urgent when Claude waits for a permission or a form.
//   - Stop {cwd, last_assistant_message?}: "Finished".
func claudeEvent(event []byte) (wire.Message, bool, error) {
	var e struct {
		Event            string `json:"hook_event_name"`
		Cwd              string `json:"cwd"`
		Message          string `json:"message"`
		Title            string `json:"title"`
		NotificationType string `json:"notification_type"`
		LastMessage      string `json:"last_assistant_message"`
	}
	if err := decode(event, &e); err != nil {
		return wire.Message{}, false, err
	}
	project := projectOf(e.Cwd)
	switch e.Event {
	case "Notification":
		urgent := e.NotificationType == "permission_prompt" || e.NotificationType == "elicitation_dialog" || e.NotificationType == "agent_needs_input"
		m := attention(project, e.Title, e.Message, "Claude Code needs your attention.", urgent)
		m.Permission = e.NotificationType == "permission_prompt"
		return m, true, nil
	case "Stop":
		return finished(project, e.LastMessage, "The agent finished its turn and waits for you."), true, nil
	}
	return wire.Message{}, false, nil
}

// geminiEvent reads a Gemini CLI hook event:
//   - Notification {message, notification_type: "ToolPermission"}: urgent;
//   - AfterAgent {cwd, prompt_response}: "Finished".
func geminiEvent(event []byte) (wire.Message, bool, error) {
	var e struct {
		Event            string `json:"hook_event_name"`
		Cwd              string `json:"cwd"`
		Message          string `json:"message"`
		NotificationType string `json:"notification_type"`
		Response         string `json:"prompt_response"`
	}
	if err := decode(event, &e); err != nil {
		return wire.Message{}, false, err
	}
	project := projectOf(e.Cwd)
	switch e.Event {
	case "Notification":
		return attention(project, "", e.Message, "Gemini CLI needs your attention.", e.NotificationType == "ToolPermission"), true, nil
	case "AfterAgent":
		return finished(project, e.Response, "Gemini CLI finished and waits for you."), true, nil
	}
	return wire.Message{}, false, nil
}

// codexEvent reads the argument of Codex's notify program:
// {"type": "agent-turn-complete", "cwd", "last-assistant-message"}.
func codexEvent(event []byte) (wire.Message, bool, error) {
	var e struct {
		Type        string  `json:"type"`
		Cwd         string  `json:"cwd"`
		LastMessage *string `json:"last-assistant-message"`
	}
	if err := decode(event, &e); err != nil {
		return wire.Message{}, false, err
	}
	if e.Type != "agent-turn-complete" {
		return wire.Message{}, false, nil
	}
	last := ""
	if e.LastMessage != nil {
		last = *e.LastMessage
	}
	return finished(projectOf(e.Cwd), last, "Codex finished its turn and waits for you."), true, nil
}

// cursorEvent reads a Cursor hook event: stop {status, workspace_roots}.
func cursorEvent(event []byte) (wire.Message, bool, error) {
	var e struct {
		Event  string   `json:"hook_event_name"`
		Status string   `json:"status"`
		Roots  []string `json:"workspace_roots"`
	}
	if err := decode(event, &e); err != nil {
		return wire.Message{}, false, err
	}
	if e.Event != "stop" {
		return wire.Message{}, false, nil
	}
	project := ""
	if len(e.Roots) > 0 {
		project = projectOf(e.Roots[0])
	}
	switch e.Status {
	case "aborted":
		return wire.Message{Project: project, Title: "Stopped", Text: "The agent was stopped."}, true, nil
	case "error":
		return wire.Message{Project: project, Title: "Stopped", Text: "The agent stopped on an error.", Urgent: true}, true, nil
	}
	return wire.Message{Project: project, Title: "Finished", Text: "Cursor's agent finished and waits for you."}, true, nil
}
