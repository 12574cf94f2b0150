package settingswin

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// The window says on a line of its own how the relay's broker connection
// stands, as the app sent it (#33): not set up, connected since a time,
// not connected with the last error (in the danger colour), connecting.
func TestRelayStateLine(t *testing.T) {
	since := time.Date(2026, 12, 4, 22, 10, 0, 0, time.Local)
	for _, tc := range []struct {
		name   string
		st     RelayState
		want   []string
		danger bool
	}{
		{"not set up", RelayState{}, []string{"no relay set up", "docs/remote.md"}, false},
		{"connected", RelayState{Broker: "mqtt://desk@broker:1883", Connected: true, Since: since},
			[]string{"relay connected to mqtt://desk@broker:1883 since 2026-12-04 22:10"}, false},
		{"last error", RelayState{Broker: "mqtts://desk@broker:8883", LastError: "not Authorized"},
			[]string{"relay not connected to mqtts://desk@broker:8883: not Authorized"}, true},
		{"connecting", RelayState{Broker: "mqtt://desk@broker:1883"}, []string{"relay connecting to mqtt://desk@broker:1883"}, false},
		{"hostile length", RelayState{Broker: "mqtt://b:1", LastError: strings.Repeat("x", 5000)}, []string{"relay not connected to mqtt://b:1: xxx"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := test.NewTempApp(t)
			o := fileOptions(filepath.Join(t.TempDir(), "settings.json"))
			o.Tools, o.Getenv, o.Relay = tools, func(string) string { return "" }, tc.st
			w := New(a, o)
			w.Fyne().Show()
			defer w.Fyne().Close()
			if !w.relay.Visible() {
				t.Fatal("the relay's line is hidden")
			}
			for _, s := range tc.want {
				if !strings.Contains(w.relay.Text, s) {
					t.Errorf("the relay's line %q lacks %q", w.relay.Text, s)
				}
			}
			if len([]rune(w.relay.Text)) > 500 {
				t.Errorf("the relay's line is %d runes long", len([]rune(w.relay.Text)))
			}
			if got := w.relay.Importance == widget.DangerImportance; got != tc.danger {
				t.Errorf("danger colour %v, want %v", got, tc.danger)
			}
		})
	}
}
