package wire

import (
	"strings"
	"unicode/utf8"
)

// Limits on a Message.
const (
	MaxMessageRunes      = 2000
	MaxMessageTitleRunes = 200
	MaxClientBytes       = 256
)

// Message is something an agent tells the user that needs no answer
// ("tests green, PR opened", "blocked on credentials"): a notification, a
// line in the tray and an entry in History. The app returns at once.
type Message struct {
	// ID identifies the message in History; the app sets it when empty.
	ID string `json:"id,omitempty"`
	// Client names the agent's MCP client (or the hook's), when known.
	Client string `json:"client,omitempty"`
	// Project names the project the agent works in. At most MaxProjectBytes.
	Project string `json:"project,omitempty"`
	// Title is an optional short heading. At most MaxMessageTitleRunes.
	Title string `json:"title,omitempty"`
	// Text is the message, plain text; required. At most MaxMessageRunes.
	Text string `json:"text"`
	// Urgent marks a message that needs the user soon ("blocked on
	// credentials"): its notification is critical (it stays until seen).
	Urgent bool `json:"urgent,omitempty"`
	// Hook: the client's own hook sent it (feedback notify --from: "needs
	// your attention", "finished"), not its agent; the two are rated apart.
	Hook bool `json:"hook,omitempty"`
	// Permission: the hook says the client waits for the user's
	// permission in its own prompt. When feedback's approval window asks
	// for it (feedback approve), that window is the one signal: the
	// message is recorded, and no notification of its own is shown.
	Permission bool `json:"permission,omitempty"`
}

// Validate reports the first problem that makes m unusable, as an *Error
// with CodeInvalid that names the field and the rule.
func (m *Message) Validate() error {
	invalid := func(msg string) error { return &Error{Code: CodeInvalid, Message: msg} }
	switch {
	case strings.TrimSpace(m.Text) == "":
		return invalid("text: required: say what the user should know")
	case !utf8.ValidString(m.Text) || !utf8.ValidString(m.Title) || !utf8.ValidString(m.Client) || !utf8.ValidString(m.Project):
		return invalid("text, title, client and project must be valid UTF-8")
	case utf8.RuneCountInString(m.Text) > MaxMessageRunes:
		return invalid("text: at most 2000 characters; shorten it (the details belong in your chat)")
	case utf8.RuneCountInString(m.Title) > MaxMessageTitleRunes:
		return invalid("title: at most 200 characters")
	case len(m.Client) > MaxClientBytes:
		return invalid("client: at most 256 bytes")
	case len(m.Project) > MaxProjectBytes:
		return invalid("project: at most 256 bytes")
	case len(m.ID) > MaxIDBytes:
		return invalid("id: at most 128 bytes")
	}
	return nil
}

// AsQuestion is m as History records it: a question with one prompt (its
// text) that is never asked, from the source "notify".
func (m *Message) AsQuestion() Question {
	return Question{ID: m.ID, Source: SourceMessage, Client: m.Client, Project: m.Project, Title: m.Title,
		Prompts: []Prompt{{Markdown: m.Text}}, TimeoutSeconds: -1}
}

// SourceMessage is Question.Source of a Message recorded in History.
const SourceMessage = "notify"
