package core

import (
	"context"
	"strings"
	"testing"

	"feedback/internal/i18n"
	"feedback/internal/settings"
	"feedback/ipc/wire"
)

// approvalAsk is a tool-call approval of command, as package approval asks it.
func approvalAsk(id, command string) wire.Ask {
	return wire.Ask{Question: wire.Question{ID: id, Source: wire.SourceApproval, Client: "claude-code", Title: "Run a command?",
		Call: &wire.ToolCall{Tool: "Bash", Subject: command},
		Prompts: []wire.Prompt{{Markdown: "```sh\n" + command + "\n```", Single: true,
			Options: []wire.Option{{Label: "Allow", Allows: true}, {Label: "Deny"}}}}}}
}

// An approval asked while the user is away with "agents proceed" is
// denied (its agent is told not to go ahead): the tray and the
// notification that greets the user back say so and name the call, never
// "told to proceed" under the window's generic title. With "wait" it says
// the call waited. Other questions keep their lines.
func TestAwayApprovalSaysWhatBecameOfTheCall(t *testing.T) {
	in, ui := inboxWith(newFakeStore())
	var back []AwayItem
	in.OnBack(func(items []AwayItem) { back = items })
	in.SetAwayMode(settings.AwayProceed)
	in.SetAway(true)
	if r := result(t, ask(context.Background(), in, approvalAsk("a1", "rm -rf build"))); r.a.Status != wire.StatusAway {
		t.Fatalf("away approval: %+v %v", r.a, r.err)
	}
	long := "rsync -av --delete ./dist/ deploy@example.com:/srv/www/site/ && ssh deploy@example.com systemctl restart site\nrm -rf /tmp/x"
	result(t, ask(context.Background(), in, approvalAsk("a2", long)))
	result(t, ask(context.Background(), in, q("plain")))
	in.SetAwayMode(settings.AwayWait)
	waiting := ask(context.Background(), in, approvalAsk("a3", "make deploy"))
	ui.waitShown(t, "a3")
	in.SetAway(false)
	ui.answer("a3", wire.Answer{Status: wire.StatusDismissed})
	result(t, waiting)

	en := i18n.For(i18n.English)
	var lines []string
	for _, it := range back {
		lines = append(lines, it.Line(en))
	}
	want := []string{
		"Denied while you were away: Bash `rm -rf build`",
		"Denied while you were away: Bash `rsync -av --delete ./dist/ deploy@example.com:/srv/w…`",
		"question plain — told to proceed",
		"Waited for you: Bash `make deploy`",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("back at the desk:\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	e := find(t, Tray(TrayInput{Now: noon, Away: in.Away(), History: true}).Menu, "Asked while you were away (4)")
	if len(e.Children) != 4 || e.Children[0].Label != want[0] || e.Children[3].Label != want[3] {
		t.Errorf("tray entry %+v", e.Children)
	}
	if got := back[0].Line(i18n.For(i18n.SimplifiedChinese)); got != "你离开期间已拒绝：Bash `rm -rf build`" {
		t.Errorf("in Chinese: %q", got)
	}
}
