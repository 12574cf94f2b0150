package historycmd

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"feedback/app/store"
	"feedback/internal/history"
	"feedback/internal/history/historytest"
	"feedback/ipc/wire"
)

var t0 = historytest.T0

// fill writes one question of each outcome through the store's own API
// (historytest.Outcomes); the answer's reply holds a line that Markdown
// would take for a heading.
func fill(t *testing.T) string {
	t.Helper()
	return historytest.Outcomes{First: "How should I integrate main?", FirstAnswer: wire.Answer{
		Replies: []wire.Reply{{Selected: []string{"Rebase"}, Text: "keep history linear\n# not a heading"}}}}.Fill(t)
}

func run(t *testing.T, path string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Run(args, Env{Stdout: &out, Stderr: &errb, Now: func() time.Time { return t0.Add(time.Hour) },
		Getenv:      func(k string) string { return map[string]string{"FEEDBACK_DB": path}[k] },
		DefaultPath: func() (string, error) { return "", os.ErrNotExist }})
	return out.String(), errb.String(), code
}

// runOK runs feedback history as run does and returns what it printed;
// the test fails when it does not exit 0.
func runOK(t *testing.T, path string, args ...string) string {
	t.Helper()
	out, errs, code := run(t, path, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	return out
}

// wantIn fails the test for each of want that out does not contain.
func wantIn(t *testing.T, out string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("no %q in:\n%s", w, out)
		}
	}
}

func TestMarkdown(t *testing.T) {
	path := fill(t)
	out := runOK(t, path)
	wantIn(t, out,
		"# Loop L2\n\nObjective: Ship L2\n\n## claude-code\n\n### Still there? — open\n",
		"# Loop L1\n\nObjective: Ship L1\n\n## cursor\n\n### Drop the old table? — timed out\n",
		"## claude-code\n\n### How should I integrate main? — answered\n",
		"phase plan; iteration 2/5",
		"> How should I integrate main?\n",
		"- selected: Rebase\n",
		"> keep history linear\n> # not a heading\n",
		"### Deploy to staging? — dismissed",
		"# Outside any loop\n\n## cursor\n\n### Which name? — withdrawn",
	)
	// Loops in the order of their newest question; L1's questions oldest first.
	if !(strings.Index(out, "# Outside") < strings.Index(out, "# Loop L1") &&
		strings.Index(out, "# Loop L2") < strings.Index(out, "# Outside") &&
		strings.Index(out, "How should I") < strings.Index(out, "Deploy to staging")) {
		t.Errorf("order:\n%s", out)
	}
}

func TestJSONAndFilters(t *testing.T) {
	path := fill(t)
	out := runOK(t, path, "--json", "--loop", "L1")
	var got struct{ Loops []history.Loop }
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	if len(got.Loops) != 1 || got.Loops[0].ID != "L1" || len(got.Loops[0].Groups) != 2 {
		t.Fatalf("loops = %+v", got.Loops)
	}
	// Groups in the order of their newest question: cursor asked last.
	cc := got.Loops[0].Groups[1]
	if cc.Client != "claude-code" || len(cc.Questions) != 2 || cc.Questions[0].Outcome != "answered" ||
		cc.Questions[0].Replies[0].Text == "" || cc.Questions[0].Phase != "plan" || cc.Questions[1].Outcome != "dismissed" {
		t.Errorf("claude-code group = %+v", cc)
	}
	if c := got.Loops[0].Groups[0]; c.Client != "cursor" || c.Questions[0].Outcome != "timed out" || c.Questions[0].EndedAt == nil {
		t.Errorf("cursor group = %+v", c)
	}

	// --since 45m: asked at or after t0+15m.
	if out, _, _ := run(t, path, "--since", "45m"); strings.Contains(out, "Loop L1") || !strings.Contains(out, "Which name?") || !strings.Contains(out, "Still there?") {
		t.Errorf("--since 45m:\n%s", out)
	}
	// --search finds reply text, case-insensitively.
	if out, _, _ := run(t, path, "--search", "LINEAR"); !strings.Contains(out, "How should I") || strings.Contains(out, "Deploy") {
		t.Errorf("--search LINEAR:\n%s", out)
	}
	if out, _, _ := run(t, path, "--search", "nothing like it"); out != "No questions.\n" {
		t.Errorf("no match: %q", out)
	}
}

func TestErrors(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "none.db")
	if _, errs, code := run(t, missing); code != 1 || !strings.Contains(errs, "no database") {
		t.Errorf("missing db: %d %q", code, errs)
	}
	if _, err := os.Stat(missing); err == nil {
		t.Error("history created a database")
	}
	if _, errs, code := run(t, missing, "--since", "soon"); code != 2 || !strings.Contains(errs, "--since") {
		t.Errorf("bad --since: %d %q", code, errs)
	}
	if _, errs, code := run(t, missing, "extra"); code != 2 || !strings.Contains(errs, "extra") {
		t.Errorf("extra arg: %d %q", code, errs)
	}
	if d, err := ParseSince("7d"); err != nil || d != 7*24*time.Hour {
		t.Errorf("7d = %v, %v", d, err)
	}
}

// Reading leaves the database as it was (no write, no migration).
func TestReadOnly(t *testing.T) {
	path := fill(t)
	before, _ := os.ReadFile(path)
	if _, errs, code := run(t, path); code != 0 {
		t.Fatal(errs)
	}
	after, _ := os.ReadFile(path)
	if !bytes.Equal(before, after) {
		t.Error("feedback history changed the database file")
	}
}

// The app holds the database open (WAL mode, rows not yet checkpointed)
// while feedback history reads it.
func TestReadsBesideTheApp(t *testing.T) {
	path := fill(t)
	s, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.SaveQuestion(historytest.Q("live", "codex", "", "", "Asked while the app runs"), t0.Add(50*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if out, errs, code := run(t, path); code != 0 || !strings.Contains(out, "Asked while the app runs — open") {
		t.Fatalf("exit %d %s:\n%s", code, errs, out)
	}
}

// The same ask_confirm asked twice under one id (Recommended: No): the
// first answered Yes, the second submitted without choosing, which the
// caller took as its recommended No. `feedback history --json` lists both
// asks, each with its own answer, the second as "no".
func TestAskedAgainListsEveryAsk(t *testing.T) {
	path := filepath.Join(t.TempDir(), "feedback.db")
	s, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	confirm := wire.Question{ID: "c", Source: "ask_confirm", Client: "claude-code",
		Context: []wire.Field{{Label: "Recommended", Value: "No"}},
		Prompts: []wire.Prompt{{Kind: wire.KindYesNo, Markdown: "Force-push?"}}}
	for i, text := range []string{"yes", ""} {
		at := t0.Add(time.Duration(2*i) * time.Minute)
		if err := s.SaveQuestion(confirm, at); err != nil {
			t.Fatal(err)
		}
		a := wire.Answer{QuestionID: "c", Status: wire.StatusAnswered, Replies: []wire.Reply{{Text: text}}}
		if err := s.SaveAnswer(a, at.Add(time.Minute), true); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	out, _, code := run(t, path, "--json")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var got struct {
		Loops []history.Loop `json:"loops"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	qs := got.Loops[0].Groups[0].Questions
	if len(qs) != 2 {
		t.Fatalf("%d asks listed, want 2:\n%s", len(qs), out)
	}
	if qs[0].Record != "c#1" || qs[0].Replies[0].Text != "yes" || qs[0].RecommendedTaken {
		t.Errorf("first ask = %+v, want c#1 answered yes", qs[0])
	}
	if qs[1].Record != "c" || qs[1].Replies[0].Text != "no" || !qs[1].RecommendedTaken {
		t.Errorf("second ask = %+v, want c answered no (the recommended answer)", qs[1])
	}
	md, _, _ := run(t, path)
	if !strings.Contains(md, "recommended answer") || !strings.Contains(md, "> no") {
		t.Errorf("Markdown does not say the recommended no stood:\n%s", md)
	}
}

// -h names the database history reads when FEEDBACK_DB is unset — in the
// data directory it finds (XDG_DATA_HOME) — not ~/.local/share.
func TestHelpNamesTheDatabase(t *testing.T) {
	var out bytes.Buffer
	db := filepath.Join(t.TempDir(), "xdg-data", "feedback", "feedback.db")
	code := Run([]string{"-h"}, Env{Stdout: &out, Stderr: &out, Now: time.Now, Getenv: func(string) string { return "" },
		DefaultPath: func() (string, error) { return db, nil }})
	if code != 0 || !strings.Contains(out.String(), "else "+db+".") || strings.Contains(out.String(), "~/.local/share") {
		t.Errorf("-h: exit %d\n%s", code, out.String())
	}
}
