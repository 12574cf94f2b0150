//go:build !headless

package main

import (
	"testing"

	"feedback/assets"
	"feedback/notify"
	"feedback/ui"
)

// The app's id and name where packages other than assets spell them agree
// with assets.AppID and assets.AppName, which agree with FyneApp.toml
// (assets.TestMetadataIsFyneAppToml).
func TestMetadataAgrees(t *testing.T) {
	if ui.ID != assets.AppID {
		t.Errorf("ui.ID = %q, FyneApp.toml's ID is %q", ui.ID, assets.AppID)
	}
	if notify.DefaultAppName != assets.AppName {
		t.Errorf("notify.DefaultAppName = %q, FyneApp.toml's Name is %q", notify.DefaultAppName, assets.AppName)
	}
}
