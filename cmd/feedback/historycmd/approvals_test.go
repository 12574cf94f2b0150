package historycmd

import (
	"encoding/json"
	"strings"
	"testing"

	"feedback/internal/history"
	"feedback/internal/history/historytest"
	"feedback/ipc/wire"
)

// fillApprovals keeps one approval of each decision through the store's
// API (historytest.Approvals).
func fillApprovals(t *testing.T) string {
	t.Helper()
	return historytest.FillApprovals(t, historytest.Approvals())
}

// feedback history says what each approval decided and which call it was:
// a denied one is not "answered" with its reply lost among the options.
func TestApprovalDecisionsInMarkdown(t *testing.T) {
	out := runOK(t, fillApprovals(t))
	wantIn(t, out,
		"### Run a command? — allowed\n",
		"Call: Bash `go test ./...`\n",
		"Decision: allowed (this call only).\n",
		"### Run a command? — always allowed\n",
		"Decision: always allowed in this project, rule `Bash(npm test)`.\n",
		"### Run a command? — denied\n",
		"Call: Bash `rm -rf build`\n",
		"> ```sh\n> rm -rf build\n> ```\n",
		"Decision: denied. The reason the agent was given:\n\n> use make clean instead\n",
		"### Run a command? — timed out\n",
		"Decision: not allowed: nobody answered in time.\n",
		"### Run a command? — denied while away\n",
		"Decision: denied while you were away (no window was shown).\n",
	)
	if strings.Contains(out, "— answered") {
		t.Errorf("an approval is listed as merely answered:\n%s", out)
	}
}

func TestApprovalDecisionsInJSON(t *testing.T) {
	out := runOK(t, fillApprovals(t), "--json")
	var got struct{ Loops []history.Loop }
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	if len(got.Loops) != 1 || len(got.Loops[0].Groups) != 1 {
		t.Fatalf("loops = %+v", got.Loops)
	}
	want := map[string]wire.Verdict{
		"allowed": {Kind: wire.VerdictAllowed},
		"always":  {Kind: wire.VerdictAlways, Rule: "Bash(npm test)"},
		"denied":  {Kind: wire.VerdictDenied, Reason: "use make clean instead"},
		"timeout": {Kind: wire.VerdictTimedOut},
		"away":    {Kind: wire.VerdictAway},
	}
	for _, q := range got.Loops[0].Groups[0].Questions {
		if q.Decision == nil || *q.Decision != want[q.ID] {
			t.Errorf("%s: decision %+v, want %+v", q.ID, q.Decision, want[q.ID])
		}
		if q.Call == nil || q.Call.Tool != "Bash" || q.Call.Subject == "" {
			t.Errorf("%s: call %+v", q.ID, q.Call)
		}
		delete(want, q.ID)
	}
	if len(want) != 0 {
		t.Errorf("not listed: %v", want)
	}
	if !strings.Contains(out, `"decision": {`) || !strings.Contains(out, `"verdict": "denied"`) || !strings.Contains(out, `"reason": "use make clean instead"`) {
		t.Errorf("the JSON names the decision otherwise:\n%s", out)
	}
}
