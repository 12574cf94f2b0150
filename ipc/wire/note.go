package wire

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// Limits of the notes the user writes for an agent (Answer.Notes).
const (
	// MaxNoteBytes bounds the text of one note.
	MaxNoteBytes = 4 << 10
	// MaxNoteClientBytes bounds the client name a note is for.
	MaxNoteClientBytes = 256
	// MaxPendingNotes bounds the notes waiting for their client, all
	// clients together: another is refused until one is delivered.
	MaxPendingNotes = 32
)

// ClientAsk is the client name of a question asked by `feedback ask`,
// which has no MCP client: the name a note for it is addressed to.
const ClientAsk = "feedback ask"

// NoteClient is the client name that notes for the asker of q are
// addressed to: q.Client (the MCP client's name), or ClientAsk for a
// question of `feedback ask`; "" when unknown.
func NoteClient(q Question) string {
	if c := strings.TrimSpace(q.Client); c != "" {
		return c
	}
	if q.Source == "ask" {
		return ClientAsk
	}
	return ""
}

// Note is a note the user wrote for an agent: it waits in the app until the next
// outcome delivered to a question of Client (and of Project, unless "")
// takes it.
type Note struct {
	ID      int64     `json:"id,omitempty"`
	Client  string    `json:"client"`
	Project string    `json:"project,omitempty"`
	Text    string    `json:"text"`
	Created time.Time `json:"created"`
}

// NoteTarget is a client, and a project of it ("" when its questions named
// none), that has asked questions: a choice for the note window.
type NoteTarget struct {
	Client  string `json:"client"`
	Project string `json:"project,omitempty"`
}

// CheckNote says what is wrong with a note before it is kept: an empty or
// overlong client name or text, a project over MaxProjectBytes, or
// text that is not UTF-8. Client and project are compared trimmed.
func CheckNote(n Note) error {
	client, project := strings.TrimSpace(n.Client), strings.TrimSpace(n.Project)
	switch {
	case client == "":
		return errors.New("choose the agent's client the note is for")
	case len(client) > MaxNoteClientBytes:
		return fmt.Errorf("the client name is %d bytes, at most %d", len(client), MaxNoteClientBytes)
	case len(project) > MaxProjectBytes:
		return fmt.Errorf("the project name is %d bytes, at most %d", len(project), MaxProjectBytes)
	case strings.TrimSpace(n.Text) == "":
		return errors.New("the note is empty")
	case len(n.Text) > MaxNoteBytes:
		return fmt.Errorf("the note is %d bytes, at most %d (4 KiB)", len(n.Text), MaxNoteBytes)
	case !utf8.ValidString(n.Text) || !utf8.ValidString(client) || !utf8.ValidString(project):
		return errors.New("the note is not valid UTF-8")
	}
	return nil
}
