//go:build !headless

package main

import (
	"testing"

	"feedback/app/notification"
	"feedback/assets"
	"feedback/dialogs"
	"feedback/dialogs/uiprocess"
	"feedback/ipc/wire"
)

// The app's id and name where packages other than assets spell them agree
// with assets.AppID and assets.AppName, which agree with FyneApp.toml
// (assets.TestMetadataIsFyneAppToml).
func TestMetadataAgrees(t *testing.T) {
	if uiprocess.ID != assets.AppID {
		t.Errorf("uiprocess.ID = %q, FyneApp.toml's ID is %q", uiprocess.ID, assets.AppID)
	}
	if notification.DefaultAppName != assets.AppName {
		t.Errorf("notification.DefaultAppName = %q, FyneApp.toml's Name is %q", notification.DefaultAppName, assets.AppName)
	}
	if got := dialogs.WindowTitle(wire.Question{}); got != assets.AppName {
		t.Errorf("an untitled question's window is titled %q, FyneApp.toml's Name is %q", got, assets.AppName)
	}
}
