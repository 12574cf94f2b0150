package cliflags

import (
	"flag"
	"io"
	"slices"
	"testing"
)

// Flags go before or after the arguments; "--" ends them.
func TestParseInterspersed(t *testing.T) {
	for _, tc := range []struct {
		args     []string
		rest     []string
		urgent   bool
		priority string
	}{
		{[]string{"done"}, []string{"done"}, false, ""},
		{[]string{"--urgent", "done"}, []string{"done"}, true, ""},
		{[]string{"done", "--urgent"}, []string{"done"}, true, ""},
		{[]string{"a", "--priority", "high", "b"}, []string{"a", "b"}, false, "high"},
		{[]string{"--", "-x", "--urgent"}, []string{"-x", "--urgent"}, false, ""},
		{[]string{"a", "--", "--urgent"}, []string{"a", "--urgent"}, false, ""},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		urgent := fs.Bool("urgent", false, "")
		priority := fs.String("priority", "", "")
		rest, err := ParseInterspersed(fs, tc.args)
		if err != nil || !slices.Equal(rest, tc.rest) || *urgent != tc.urgent || *priority != tc.priority {
			t.Errorf("%q: rest %q urgent %v priority %q, %v; want %q %v %q", tc.args, rest, *urgent, *priority, err, tc.rest, tc.urgent, tc.priority)
		}
	}
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if _, err := ParseInterspersed(fs, []string{"a", "--nope"}); err == nil {
		t.Error("an unknown flag after the arguments was accepted")
	}
}
