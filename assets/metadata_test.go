package assets

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/pelletier/go-toml/v2"
)

// fyneApp is what FyneApp.toml says of the app (the fields fyne package reads).
type fyneApp struct {
	Details struct {
		Icon, Name, ID, Version string
		Build                   int
	}
}

// FyneApp.toml at the repository root is the one source of the app's
// metadata: the constants the code uses and the icon it embeds agree with it.
func TestMetadataIsFyneAppToml(t *testing.T) {
	root := ".."
	data, err := os.ReadFile(filepath.Join(root, "FyneApp.toml"))
	if err != nil {
		t.Fatalf("FyneApp.toml belongs at the repository root: %v", err)
	}
	var meta fyneApp
	if err := toml.Unmarshal(data, &meta); err != nil {
		t.Fatalf("FyneApp.toml: %v", err)
	}
	d := meta.Details
	if d.Name != AppName || d.ID != AppID {
		t.Errorf("FyneApp.toml: Name %q, ID %q; the code says %q, %q", d.Name, d.ID, AppName, AppID)
	}
	if d.Version == "" {
		t.Error("FyneApp.toml has no Version (scripts/version.sh reads it)")
	}
	icon, err := os.ReadFile(filepath.Join(root, d.Icon))
	if err != nil {
		t.Fatalf("FyneApp.toml's Icon: %v", err)
	}
	if !bytes.Equal(icon, IconPNG) {
		t.Errorf("FyneApp.toml's Icon %s is not the icon the app embeds (assets/icon.png)", d.Icon)
	}
}

// No second FyneApp.toml: fyne package reads the one it finds next to the
// main package, so a copy there would be the metadata a package gets.
func TestOneFyneAppToml(t *testing.T) {
	err := filepath.WalkDir("..", func(p string, e os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() && (e.Name() == ".git" || e.Name() == "bin" || e.Name() == "dist" || e.Name() == "testdata") {
			return filepath.SkipDir
		}
		if e.Name() == "FyneApp.toml" && p != filepath.Join("..", "FyneApp.toml") {
			t.Errorf("a second FyneApp.toml: %s (the one source is the repository root's)", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
