package wire

import "strings"

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
