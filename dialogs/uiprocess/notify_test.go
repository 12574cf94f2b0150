package uiprocess

import (
	"log/slog"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"feedback/dialogs"
	"feedback/ipc/uiproto"
)

// The core's notify command is shown through the toolkit (Fyne's
// SendNotification): the app's notifications where it has no notifier of
// its own (Windows, macOS).
func TestNotifyCommandSendsANotification(t *testing.T) {
	a := test.NewTempApp(t)
	s := &server{win: newWindows(a, dialogs.Options{}), app: a, log: slog.New(slog.DiscardHandler), appWins: map[uiproto.WindowName]fyne.Window{}}
	want := fyne.NewNotification("claude-code asks", "shop — Shall I refactor?")
	test.AssertNotificationSent(t, want, func() {
		s.apply(uiproto.Notify{Title: want.Title, Body: want.Content})
	})
}
