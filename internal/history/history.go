// Package history is the model of the questions the app has kept and their
// outcomes: grouped by loop (its objective; each question's phase and
// iteration), then by client and project (ByLoop), written as Markdown or
// JSON. The command `feedback history` (cmd/feedback/historycmd) and the
// History window (dialogs/historywin) both show it: the command reads the
// store itself, the window gets its entries from the app (uiproto's
// HistoryPage), each as an Entry. It does no I/O of its own beyond the
// writer it is given, and imports neither the store nor flag nor any GUI
// code.
package history

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"feedback/internal/termtext"
	"feedback/ipc/wire"
)

// WriteJSON writes loops as `feedback history --json` prints them (and the
// History window exports them): {"loops": [...]}, indented. The output is
// inert, as the Markdown is: every control character (C0, DEL, C1) and
// every invisible format character (Unicode category Cf: bidi overrides
// and isolates, zero-width characters, the BOM, tag characters) is written
// as a \uXXXX escape (a surrogate pair beyond the BMP), so none reaches a
// terminal or an editor raw; decoded, the strings are unchanged.
func WriteJSON(w io.Writer, loops []Loop) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	if err := enc.Encode(struct {
		Loops []Loop `json:"loops"`
	}{loops}); err != nil {
		return err
	}
	_, err := w.Write(escapeInvisible(b.Bytes()))
	return err
}

// escapeInvisible rewrites, in valid JSON as encoding/json writes it, every
// raw control or format character as a \uXXXX escape. Outside strings such
// JSON holds only ASCII punctuation, digits, letters and the newlines and
// spaces of its indentation, so every rune rewritten is inside a string
// (encoding/json has already escaped C0 controls there, which are left as
// they are).
func escapeInvisible(js []byte) []byte {
	var out []byte
	for i := 0; i < len(js); {
		r, size := utf8.DecodeRune(js[i:])
		if r == '\n' || r == ' ' || !(unicode.Is(unicode.Cc, r) || unicode.Is(unicode.Cf, r)) {
			if out != nil {
				out = append(out, js[i:i+size]...)
			}
			i += size
			continue
		}
		if out == nil {
			out = append(make([]byte, 0, len(js)+64), js[:i]...)
		}
		if r1, r2 := utf16.EncodeRune(r); r1 != unicode.ReplacementChar {
			out = fmt.Appendf(out, `\u%04x\u%04x`, r1, r2)
		} else {
			out = fmt.Appendf(out, `\u%04x`, r)
		}
		i += size
	}
	if out == nil {
		return js
	}
	return out
}

// Entry is one ask the app kept: its fields are store.Entry's and
// uiproto.HistoryEntry's, in the same order, so that either converts to it
// (history.Entry(e)).
type Entry struct {
	// Record identifies this ask among all entries: Question.ID for the
	// latest ask of a question, "<Question.ID>#<n>" for its earlier ones.
	Record   string
	Question wire.Question
	AskedAt  time.Time
	// State is "open", "withdrawn", "message", "away" or the Status of
	// the answer.
	State string
	// Answer is nil while the question is open or withdrawn; its images
	// are not loaded (Images counts them).
	Answer     *wire.Answer
	AnsweredAt time.Time
	Images     int
}

// StateMessage is the state of an agent's one-way message: nothing was
// asked (the store's StateMessage).
const StateMessage = "message"

// StateWithdrawn is the state of a question every caller went away from
// before it was answered (the store's StateWithdrawn).
const StateWithdrawn = "withdrawn"

// LoopID is the value of q's "Loop" context line (the loop_id of
// interactive_feedback), or "".
func LoopID(q wire.Question) string { return field(q, "Loop") }

// Loop is the questions of one loop_id ("" for questions asked outside a loop).
type Loop struct {
	ID        string  `json:"loop_id"`
	Objective string  `json:"objective,omitempty"` // of its newest question that has one
	Groups    []Group `json:"groups"`
}

// Group is the questions of one client and project within a loop.
type Group struct {
	Client    string     `json:"client"`
	Project   string     `json:"project,omitempty"`
	Questions []Question `json:"questions"`
}

// Question is one ask of a question and its outcome: a question asked
// again under the same id is listed once per ask.
type Question struct {
	ID string `json:"id"`
	// Record identifies this ask (Entry.Record): ID for the latest
	// ask, "<ID>#<n>" for an earlier one.
	Record    string       `json:"record"`
	Title     string       `json:"title"`
	Phase     string       `json:"phase,omitempty"`
	Iteration string       `json:"iteration,omitempty"`
	AskedAt   time.Time    `json:"asked_at"`
	Outcome   string       `json:"outcome"` // answered, dismissed, timed out, withdrawn, open
	Auto      bool         `json:"auto,omitempty"`
	EndedAt   *time.Time   `json:"answered_at,omitempty"`
	Prompts   []string     `json:"prompts"`
	Replies   []wire.Reply `json:"replies,omitempty"`
	// RecommendedTaken: a yes/no prompt was submitted without choosing, so
	// the caller's recommended answer stood (ask_confirm's default); its
	// reply's Text is that answer, as the agent received it.
	RecommendedTaken bool `json:"recommended_taken,omitempty"`
	Images           int  `json:"images,omitempty"`
	// Call, for a tool-call approval, names the call in brief (its prompt
	// shows it whole).
	Call *wire.ToolCall `json:"call,omitempty"`
	// Decision, for an approval that ended, is what it decided as its
	// agent was told: allowed, always allowed (with the rule), denied (with
	// the reason), timed out, denied while away (wire.Question.Verdict).
	Decision *wire.Verdict `json:"decision,omitempty"`
}

// Outcome names a store state for people.
func Outcome(state string) string {
	switch state {
	case string(wire.StatusTimeout):
		return "timed out"
	case "":
		return "unknown"
	}
	return state
}

func field(q wire.Question, label string) string {
	for _, f := range q.Context {
		if strings.EqualFold(strings.TrimSpace(f.Label), label) {
			return strings.TrimSpace(f.Value)
		}
	}
	return ""
}

// ByLoop groups entries (newest first, as the store lists them) by loop, in
// the order of each loop's newest question, then by client and project;
// within a group the questions read oldest first.
func ByLoop(entries []Entry) []Loop {
	var loops []Loop
	loopAt := map[string]int{}
	for _, e := range entries {
		q := e.Question
		id := LoopID(q)
		li, ok := loopAt[id]
		if !ok {
			li = len(loops)
			loopAt[id] = li
			loops = append(loops, Loop{ID: id})
		}
		l := &loops[li]
		if l.Objective == "" {
			l.Objective = field(q, "Objective")
		}
		client := q.Client
		if client == "" {
			client = q.Source
		}
		project := q.Project // the shim's (project_directory, the client's roots)
		if project == "" {
			project = field(q, "Project") // a caller's own context line
		}
		gi := -1
		for i, g := range l.Groups {
			if g.Client == client && g.Project == project {
				gi = i
			}
		}
		if gi < 0 {
			gi = len(l.Groups)
			l.Groups = append(l.Groups, Group{Client: client, Project: project})
		}
		hq := question(e)
		g := &l.Groups[gi]
		g.Questions = append([]Question{hq}, g.Questions...) // oldest first
	}
	return loops
}

// question is entry e as listed.
func question(e Entry) Question {
	q := e.Question
	hq := Question{ID: q.ID, Record: e.Record, Title: q.Summary(120), Phase: field(q, "Phase"), Iteration: field(q, "Iteration"),
		AskedAt: e.AskedAt.UTC(), Outcome: Outcome(e.State), Images: e.Images}
	if hq.Record == "" {
		hq.Record = q.ID
	}
	for _, p := range q.Prompts {
		hq.Prompts = append(hq.Prompts, p.Markdown)
	}
	if q.IsApproval() {
		hq.Call = q.Call
	}
	if e.Answer != nil {
		hq.Replies, hq.Auto = Replies(q, *e.Answer)
		hq.RecommendedTaken = len(hq.Replies) > 0 && !sameReplies(hq.Replies, e.Answer.Replies)
		t := e.AnsweredAt.UTC()
		hq.EndedAt = &t
		if v, ok := q.Verdict(*e.Answer); ok {
			hq.Decision = &v
		}
	}
	if q.IsApproval() && e.State == StateWithdrawn {
		// Every caller of an approval went away before anyone chose: its
		// client stopped waiting (the hook saw it go, the permission
		// prompt tool's call was cancelled), so the call was settled in
		// the client — not denied, not timed out here.
		hq.Decision = &wire.Verdict{Kind: wire.VerdictElsewhere}
	}
	return hq
}

// Replies are the replies of a as the caller received them: a yes/no
// prompt submitted without choosing carries the caller's recommended
// answer ("Recommended: No" → "no"), which the window left for the caller
// to apply. auto is a.Auto. a.Replies is not changed.
func Replies(q wire.Question, a wire.Answer) (replies []wire.Reply, auto bool) {
	if a.Status != wire.StatusAnswered || len(a.Replies) == 0 {
		return a.Replies, a.Auto
	}
	rec := strings.ToLower(field(q, "Recommended"))
	if rec != "yes" && rec != "no" {
		return a.Replies, a.Auto
	}
	replies = a.Replies
	for i, p := range q.Prompts {
		if i < len(replies) && p.Kind == wire.KindYesNo && replies[i].Text == "" {
			if &replies[0] == &a.Replies[0] {
				replies = append([]wire.Reply(nil), a.Replies...)
			}
			replies[i].Text = rec
		}
	}
	return replies, a.Auto
}

func sameReplies(a, b []wire.Reply) bool {
	for i := range a {
		if i >= len(b) || a[i].Text != b[i].Text {
			return false
		}
	}
	return len(a) == len(b)
}

// Markdown renders loops for reading in a terminal or a Markdown viewer.
// Question and reply text is quoted ("> ") so that its own headings cannot
// pass for the report's. The whole text is inert (termtext.Inert): the
// agent-controlled question, client, project and loop id cannot carry a
// terminal escape (a window title, a cleared screen, the clipboard, a
// disguised link) into a terminal or into the exported file.
func Markdown(loops []Loop) string {
	var b strings.Builder
	if len(loops) == 0 {
		b.WriteString("No questions.\n")
		return b.String()
	}
	for _, l := range loops {
		if l.ID == "" {
			b.WriteString("# Outside any loop\n\n")
		} else {
			fmt.Fprintf(&b, "# Loop %s\n\n", oneLine(l.ID))
		}
		if l.Objective != "" {
			fmt.Fprintf(&b, "Objective: %s\n\n", oneLine(l.Objective))
		}
		for _, g := range l.Groups {
			fmt.Fprintf(&b, "## %s", oneLine(orDash(g.Client)))
			if g.Project != "" {
				fmt.Fprintf(&b, " · %s", oneLine(g.Project))
			}
			b.WriteString("\n\n")
			for _, q := range g.Questions {
				fmt.Fprintf(&b, "### %s — %s\n\n", oneLine(q.Title), outcomeLine(q))
				fmt.Fprintf(&b, "- asked %s", q.AskedAt.Format("2006-01-02 15:04 UTC"))
				if q.EndedAt != nil {
					fmt.Fprintf(&b, ", ended %s", q.EndedAt.Format("2006-01-02 15:04 UTC"))
				}
				if q.Phase != "" {
					fmt.Fprintf(&b, "; phase %s", oneLine(q.Phase))
				}
				if q.Iteration != "" {
					fmt.Fprintf(&b, "; iteration %s", oneLine(q.Iteration))
				}
				fmt.Fprintf(&b, "; id `%s`", strings.ReplaceAll(oneLine(q.ID), "`", "'"))
				if q.Record != q.ID && q.Record != "" {
					fmt.Fprintf(&b, " (an earlier ask: record `%s`)", strings.ReplaceAll(oneLine(q.Record), "`", "'"))
				}
				b.WriteString("\n\n")
				if q.Call != nil {
					fmt.Fprintf(&b, "Call: %s\n\n", q.Call.Brief(200))
				}
				for _, p := range q.Prompts {
					quote(&b, p)
				}
				if q.Decision != nil {
					decision(&b, *q.Decision)
					continue
				}
				for i, r := range q.Replies {
					if len(q.Replies) > 1 {
						fmt.Fprintf(&b, "Reply %d:\n\n", i+1)
					} else {
						b.WriteString("Reply:\n\n")
					}
					if len(r.Selected) > 0 {
						fmt.Fprintf(&b, "- selected: %s\n\n", oneLine(strings.Join(r.Selected, ", ")))
					}
					if r.Text != "" {
						quote(&b, r.Text)
					}
				}
				if q.Images > 0 {
					fmt.Fprintf(&b, "(%d image(s) attached)\n\n", q.Images)
				}
			}
		}
	}
	return termtext.Inert(b.String())
}

// decision writes what an approval decided, in words for people.
func decision(b *strings.Builder, v wire.Verdict) {
	switch {
	case v.Kind == wire.VerdictAlways && v.Rule != "":
		fmt.Fprintf(b, "Decision: always allowed in this project, rule `%s`.\n\n", strings.ReplaceAll(oneLine(v.Rule), "`", "'"))
	case v.Kind == wire.VerdictAlways:
		b.WriteString("Decision: always allowed in this project.\n\n")
	case v.Kind == wire.VerdictAllowed:
		b.WriteString("Decision: allowed (this call only).\n\n")
	case v.Kind == wire.VerdictDenied && v.Closed:
		b.WriteString("Decision: denied (the window was closed without a choice).\n\n")
	case v.Kind == wire.VerdictDenied && v.Reason != "":
		b.WriteString("Decision: denied. The reason the agent was given:\n\n")
		quote(b, v.Reason)
	case v.Kind == wire.VerdictDenied:
		b.WriteString("Decision: denied (no reason given).\n\n")
	case v.Kind == wire.VerdictTimedOut:
		b.WriteString("Decision: not allowed: nobody answered in time.\n\n")
	case v.Kind == wire.VerdictAway:
		b.WriteString("Decision: denied while you were away (no window was shown).\n\n")
	case v.Kind == wire.VerdictElsewhere:
		b.WriteString("Decision: none here: answered elsewhere. The client stopped waiting for this window (the user answered in the client's own prompt, or it was interrupted or quit).\n\n")
	}
}

func outcomeLine(q Question) string {
	if q.Decision != nil {
		return string(q.Decision.Kind)
	}
	switch {
	case q.Auto:
		return q.Outcome + " (unfinished draft sent at timeout)"
	case q.RecommendedTaken:
		return q.Outcome + " (submitted without choosing: the recommended answer)"
	}
	return q.Outcome
}

func quote(b *strings.Builder, text string) {
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		b.WriteString(strings.TrimRight("> "+line, " ") + "\n")
	}
	b.WriteString("\n")
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}
