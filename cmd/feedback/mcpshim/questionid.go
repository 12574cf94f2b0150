package mcpshim

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"feedback/ipc/wire"
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

// questionKey is the session-independent key of q (wire.Ask.Key) when
// its ID is stable (stableQuestionID of this session, with its Project as
// the dialect left it or as the client's roots set it afterwards): the
// SHA-256 of the tool name, the client name, the project and the
// normalised question with its ID and Client cleared, as 32 hex digits —
// the same for the identical question asked by the same client in the
// same project from any session, so a one-shot client's next session can
// collect the answer its ended session left. A question with a random ID
// (ask_human, permission_prompt) has none: "".
func questionKey(tool, client, session string, q wire.Question) string {
	bare := q
	bare.Project = ""
	if q.ID == "" || (q.ID != stableQuestionID(tool, client, session, q) && q.ID != stableQuestionID(tool, client, session, bare)) {
		return ""
	}
	q.ID, q.Client = "", ""
	content, err := json.Marshal(q)
	if err != nil { // not reached, as in stableQuestionID
		return ""
	}
	h := sha256.New()
	for _, part := range [][]byte{[]byte("key"), []byte(tool), []byte(client), []byte(q.Project), content} {
		h.Write(part)
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}
