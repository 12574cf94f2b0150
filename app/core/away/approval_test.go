package away

import (
	"reflect"
	"testing"

	"feedback/app/core/coretest"
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
	var back []Item
	in, c, ui, _ := awayInbox(t, func(items []Item) { back = items })
	c.SetMode(settings.AwayProceed)
	c.SetAway(true)
	if r := coretest.Wait(t, coretest.Ask(t.Context(), in, approvalAsk("a1", "rm -rf build"))); r.A.Status != wire.StatusAway {
		t.Fatalf("away approval: %+v %v", r.A, r.Err)
	}
	long := "rsync -av --delete ./dist/ deploy@example.com:/srv/www/site/ && ssh deploy@example.com systemctl restart site\nrm -rf /tmp/x"
	coretest.Wait(t, coretest.Ask(t.Context(), in, approvalAsk("a2", long)))
	coretest.Wait(t, coretest.Ask(t.Context(), in, coretest.Q("plain")))
	c.SetMode(settings.AwayWait)
	waiting := coretest.Ask(t.Context(), in, approvalAsk("a3", "make deploy"))
	ui.WaitShown(t, "a3")
	c.SetAway(false)
	ui.Answer("a3", wire.Answer{Status: wire.StatusDismissed})
	coretest.Wait(t, waiting)

	// What the tray and the notification that greet the user back say of
	// them (traymenu.AwayLine): what became of which call.
	type noted struct {
		call, title string
		proceeded   bool
		verdict     wire.VerdictKind
	}
	var got []noted
	for _, it := range back {
		got = append(got, noted{it.Call, it.Title, it.Proceeded, it.Verdict})
	}
	want := []noted{
		{"Bash `rm -rf build`", "Run a command?", true, wire.VerdictAway},
		{"Bash `rsync -av --delete ./dist/ deploy@example.com:/srv/w…`", "Run a command?", true, wire.VerdictAway},
		{"", "question plain", true, ""},
		{"Bash `make deploy`", "Run a command?", false, ""},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("noted while away:\n%+v\nwant\n%+v", got, want)
	}
}
