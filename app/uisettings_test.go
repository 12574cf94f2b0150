package app

import (
	"reflect"
	"testing"
	"time"

	"feedback/internal/settings"
	"feedback/ipc/uiproto"
)

// The UI process gets from the app what it used to read from the settings
// file itself: the language and the question windows' options, images in
// bytes, the quick replies.
func TestUISettings(t *testing.T) {
	s := settings.Default()
	s.Language = "zh-Hant"
	s.ExtendSeconds = 90
	s.TimeoutSeconds = 300
	s.SubmitDraftOnTimeout = true
	s.Images = settings.ImageSettings{MaxCount: 3, MaxEdge: 1000, MaxMiB: 2, MaxTotalMiB: 5}
	s.QuickReplies = []string{"ship it"}
	s.FocusShortcut = "Super+Q"
	want := uiproto.Settings{Language: "zh-Hant", DefaultTimeout: s.DefaultTimeout(), Extend: 90 * time.Second,
		SubmitDraftOnTimeout: true, Images: uiproto.ImageLimits{MaxCount: 3, MaxEdge: 1000, MaxImageBytes: 2 << 20, MaxTotalBytes: 5 << 20},
		QuickReplies: []string{"ship it"}, FocusShortcut: "Super+Q"}
	if got := *uiSettings(s); !reflect.DeepEqual(got, want) {
		t.Errorf("uiSettings = %+v, want %+v", got, want)
	}
}
