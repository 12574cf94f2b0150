package mcpshim

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"feedback/wire"
)

// stableQuestionID derives a question's ID from what it asks and who
// asks: the SHA-256 of the tool name, the client name, the session
// (Options.Session) and the canonical JSON of the normalised question
// with its ID and Client cleared, as 32 hex digits. The same call made
// again by the same session — after a "call again" result, after the
// client restarted the shim, or after the app was restarted — maps to the
// same ID, so it reattaches to the window that is still open (or collects
// its kept answer); another session of the same client asking the
// identical question gets another ID, so it never receives an answer
// given to the first. Once answered, the ID is free and asking again
// opens a new window. encoding/json writes struct fields in declaration order, and a
// Question holds no maps, so the JSON is canonical.
func stableQuestionID(tool, client, session string, q wire.Question) string {
	q.ID, q.Client = "", ""
	content, err := json.Marshal(q)
	if err != nil { // strings, ints and bools only: not reached
		return wire.NewID()
	}
	h := sha256.New()
	for _, part := range [][]byte{[]byte(tool), []byte(client), []byte(session), content} {
		h.Write(part)
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}
