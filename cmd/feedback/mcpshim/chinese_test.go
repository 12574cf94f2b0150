package mcpshim

import (
	"context"
	"testing"

	"feedback/internal/i18n"
	"feedback/ipc/wire"
)

// Issue 30: on a Chinese desktop (the language setting auto, the process's
// language Chinese) the window's chrome that the shim writes is Chinese:
// the loop's context labels (循环, 阶段, not "Loop", "Phase") and
// ask_user_question's added option (其他, as the README promises, not
// "Other"). The sentences returned to the agent stay English under auto.
func TestChineseChromeFromTheShim(t *testing.T) {
	for _, tc := range []struct{ lang, loop, phase, other string }{
		{i18n.SimplifiedChinese, "循环", "阶段", "其他"},
		{i18n.TraditionalChinese, "循環", "階段", "其他"},
		{i18n.English, "Loop", "Phase", "Other"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			i18n.Use(tc.lang)
			t.Cleanup(func() { i18n.Use(i18n.English) })
			app := newFakeInbox()
			app.auto = func(wire.Question) wire.Answer { return wire.Answer{Status: wire.StatusDismissed} }
			c := startShim(t, Options{Connect: connectTo(app)})
			if _, err := callCtx(context.Background(), c, "interactive_feedback", map[string]any{"message": "Ship?", "loop_id": "L1", "loop_phase": "规划"}); err != nil {
				t.Fatal(err)
			}
			q := <-app.asked
			want := []wire.Field{{Label: tc.loop, Value: "L1"}, {Label: tc.phase, Value: "规划"}}
			if len(q.Context) != 2 || q.Context[0] != want[0] || q.Context[1] != want[1] {
				t.Errorf("context lines %+v, want %+v", q.Context, want)
			}
			args := map[string]any{"questions": []any{map[string]any{"question": "Ship?", "header": "Ship", "options": []any{
				map[string]any{"label": "Yes", "description": "y"}, map[string]any{"label": "No", "description": "n"}}, "multiSelect": false}}}
			if _, err := callCtx(context.Background(), c, "ask_user_question", args); err != nil {
				t.Fatal(err)
			}
			q = <-app.asked
			opts := q.Prompts[0].Options
			if last := opts[len(opts)-1]; last.Label != tc.other || !last.FreeText {
				t.Errorf("the added option is %+v, want %q", last, tc.other)
			}
		})
	}
}
