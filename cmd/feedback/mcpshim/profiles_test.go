package mcpshim

import (
	"testing"
	"time"

	"feedback/internal/settings"
)

// The clients added to the wait profiles: each waits under the tool-call
// timeout its documentation or tracker gives (see waitProfiles).
func TestNewClientProfiles(t *testing.T) {
	for _, tc := range []struct {
		client string
		limit  time.Duration // the client's own timeout
		want   time.Duration
	}{
		{"Zed", 60 * time.Second, defaultWait},
		{"opencode", 60 * time.Second, defaultWait},
		{"goose", 30 * time.Second, 25 * time.Second},
		{"Roo Code", 60 * time.Second, defaultWait},
	} {
		got := clientWait(tc.client, settings.Default())
		if got != tc.want || got >= tc.limit {
			t.Errorf("clientWait(%q) = %v, want %v (under the client's %v)", tc.client, got, tc.want, tc.limit)
		}
	}
}
