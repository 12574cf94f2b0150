package mcpshim

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"feedback/internal/settings"
	"feedback/ipc/wire"
)

func TestSelectTools(t *testing.T) {
	names := func(ds []dialect) []string {
		var out []string
		for _, d := range ds {
			out = append(out, d.tool.Name)
		}
		return out
	}
	for _, tc := range []struct {
		name          string
		flag, setting []string
		want, unknown []string
	}{
		{name: "default is every tool", want: ToolNames()},
		{name: "flag", flag: []string{"user_interact", "interactive_feedback"}, want: []string{"interactive_feedback", "user_interact"}},
		{name: "setting", setting: []string{"user_interact"}, want: []string{"user_interact"}},
		{name: "flag wins over setting", flag: []string{"interactive_feedback"}, setting: []string{"user_interact"}, want: []string{"interactive_feedback"}},
		{name: "ask_human brings its companion", flag: []string{"ask_human"}, want: []string{"ask_human", "ask_human_result"}},
		{name: "companion alone", flag: []string{"ask_human_result"}, want: []string{"ask_human_result"}},
		{name: "blanks and repeats", flag: []string{" user_interact ", "", "user_interact"}, want: []string{"user_interact"}},
		{name: "only blanks is the default", flag: []string{" "}, want: ToolNames()},
		{name: "unknown", flag: []string{"ask_humans", "user_interact", "AskUserQuestion"}, unknown: []string{"ask_humans", "AskUserQuestion"}},
		{name: "unknown in the setting", setting: []string{"nope"}, unknown: []string{"nope"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := selectTools(tc.flag, tc.setting)
			if tc.unknown != nil {
				var ue *UnknownToolError
				if !errors.As(err, &ue) || !slices.Equal(ue.Names, tc.unknown) {
					t.Fatalf("err = %v, want unknown %v", err, tc.unknown)
				}
				return
			}
			if err != nil || !slices.Equal(names(got), tc.want) {
				t.Errorf("tools = %v, %v; want %v", names(got), err, tc.want)
			}
		})
	}
}

func TestUnknownToolErrorMessage(t *testing.T) {
	err := (&UnknownToolError{Names: []string{"nope"}}).Error()
	want := `unknown tool "nope"; valid tools are: ` + joinNames(ToolNames())
	if err != want {
		t.Errorf("message = %q\nwant %q", err, want)
	}
}

func joinNames(n []string) string {
	s := ""
	for i, x := range n {
		if i > 0 {
			s += ", "
		}
		s += x
	}
	return s
}

func TestNewServerAndServeStdioRefuseUnknownTools(t *testing.T) {
	var ue *UnknownToolError
	if _, err := NewServer(Options{Tools: []string{"nope"}}); !errors.As(err, &ue) {
		t.Errorf("NewServer: %v", err)
	}
	s := settings.Default()
	s.Tools = []string{"nope"}
	if err := ServeStdio(context.Background(), Options{Settings: s}, nil, nil); !errors.As(err, &ue) {
		t.Errorf("ServeStdio: %v", err)
	}
}

func TestE2EToolSelection(t *testing.T) {
	c := startShim(t, Options{Tools: []string{"ask_human"}})
	res, err := c.ListTools(context.Background(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tool := range res.Tools {
		got = append(got, tool.Name)
	}
	if !slices.Equal(got, []string{"ask_human", "ask_human_result"}) {
		t.Errorf("tools = %v", got)
	}
}

// The list the Settings window offers (wire.ToolNames, which does not link
// the MCP server) is the shim's own table, in its order.
func TestToolNamesAreTheWireList(t *testing.T) {
	if got, want := ToolNames(), wire.ToolNames(); !slices.Equal(got, want) {
		t.Errorf("mcpshim.ToolNames() = %q, wire.ToolNames() = %q: add the tool to both", got, want)
	}
}
