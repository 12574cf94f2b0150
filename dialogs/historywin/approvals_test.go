package historywin

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"feedback/internal/history/historytest"
	"feedback/ipc/wire"
)

// longCommand is a call of many lines: History shows it whole.
var longCommand = func() string {
	var b strings.Builder
	b.WriteString("set -e")
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&b, "\nrm -rf build/part-%02d", i)
	}
	return b.String()
}()

// fillApprovals keeps one approval of each decision, newest last: allowed,
// always allowed, denied with a reason, timed out, denied while away
// (historytest.Approvals), closed (longCommand).
func fillApprovals(t *testing.T) string {
	t.Helper()
	return historytest.FillApprovals(t, append(historytest.Approvals(),
		historytest.Approval{ID: "closed", Command: longCommand, Answer: wire.Answer{Status: wire.StatusDismissed}}))
}

// Each approval is listed by its call with a badge that says what it
// decided, in its colour: allowed and always allowed green (success),
// denied red (error), a timeout and the away outcome neutral — never the
// green "answered" of a denial.
func TestApprovalsListedByDecision(t *testing.T) {
	h := open(t, fillApprovals(t))
	h.wait(t, "list")
	h.wantRows(t,
		"[denied] Bash `set -e …` · 55 min · claude-code · shop",
		"[away] Bash `make deploy` · 56 min · claude-code · shop",
		"[timed out] Bash `git push --force` · 57 min · claude-code · shop",
		"[denied] Bash `rm -rf build` · 58 min · claude-code · shop",
		"[always allowed] Bash `npm test` · 59 min · claude-code · shop",
		"[allowed] Bash `go test ./...` · 1 h · claude-code · shop",
	)
	tones := []tone{toneError, toneNeutral, toneNeutral, toneError, toneSuccess, toneSuccess}
	names := map[tone]string{toneError: "error", toneNeutral: "neutral", toneSuccess: "success"}
	colorNames := map[tone]fyne.ThemeColorName{toneError: theme.ColorNameError, toneNeutral: theme.ColorNameInputBorder, toneSuccess: theme.ColorNameSuccess}
	for i, wantTone := range tones {
		o := h.w.newListRow()
		h.w.updateListRow(i, o)
		b := o.(*rowHolder).row.badge
		if b.tone != wantTone {
			t.Errorf("row %d (%s): tone %s, want %s", i, b.Text(), names[b.tone], names[wantTone])
		}
		fill, _ := b.colors()
		v := fyne.CurrentApp().Settings().ThemeVariant()
		if want := mix(theme.Current().Color(colorNames[wantTone], v), theme.Current().Color(theme.ColorNameBackground, v), badgeTint); fill != want {
			t.Errorf("row %d (%s): fill %v, want %v", i, b.Text(), fill, want)
		}
	}
}

// A denied approval opens as the call, the option chosen, the decision
// and the reason the agent was given; a call of many lines is shown whole.
func TestDeniedApprovalShowsCallDecisionAndReason(t *testing.T) {
	h := open(t, fillApprovals(t))
	h.wait(t, "list")
	h.w.list.Select(3)
	got := texts(h.w.detail)
	for _, want := range []string{"Run a command?", "rm -rf build", "Denied.", "The reason the agent was given", "use make clean instead"} {
		if !strings.Contains(got, want) {
			t.Errorf("detail lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "\nReply\n") {
		t.Errorf("the reason is shown as a plain reply:\n%s", got)
	}
	if c := chosen(h.w.detail); strings.Join(c, ",") != "Deny — the agent is told your reason" {
		t.Errorf("chosen %q, want Deny", c)
	}
	test.AssertImageMatches(t, "history-approval-denied.png", h.w.Fyne().Canvas().Capture())

	h.w.list.Select(0)
	got = texts(h.w.detail)
	for _, line := range strings.Split(longCommand, "\n") {
		if !strings.Contains(got, line+"\n") {
			t.Errorf("the call's line %q is not shown:\n%s", line, got)
		}
	}
}

// Each decision is said in the detail in words: allowed, always allowed
// with its rule, timed out, denied while away, closed.
func TestApprovalDetailSaysTheDecision(t *testing.T) {
	h := open(t, fillApprovals(t))
	h.wait(t, "list")
	for i, want := range map[int]string{
		5: "Allowed: this call only.",
		4: "Always allowed in this project: Bash(npm test)",
		2: "Not allowed: nobody answered in time.",
		1: "Denied while you were away: no window was shown.",
		0: "Denied: the window was closed without a choice.",
	} {
		h.w.list.Select(i)
		if got := texts(h.w.detail); !strings.Contains(got, want) || strings.Contains(got, "The reason the agent was given") {
			t.Errorf("row %d: detail lacks %q (or shows a reason):\n%s", i, want, got)
		}
	}
	h.w.list.Select(4)
	test.AssertImageMatches(t, "history-approval-always.png", h.w.Fyne().Canvas().Capture())
}
