package core

import (
	"os/exec"
	"strings"
	"testing"
)

// The resident process links no toolkit: core, app (the resident wiring)
// and the fake app of the end-to-end tests import neither Fyne nor GL, and
// all three build without cgo.
func TestCoreIsToolkitFree(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go tool")
	}
	out, err := exec.Command("go", "list", "-deps", "feedback/app/core", "feedback/app", "feedback/e2e/internal/fakeapp").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.HasPrefix(dep, "fyne.io/fyne") || strings.Contains(dep, "go-gl") || dep == "feedback/dialogs" || dep == "feedback/dialogs/uiprocess" {
			t.Errorf("the resident process depends on %s", dep)
		}
	}
	build := exec.Command("go", "build", "feedback/app/core", "feedback/app", "feedback/e2e/internal/fakeapp")
	build.Env = append(build.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Errorf("CGO_ENABLED=0 go build of core, app and the fake app: %v\n%s", err, out)
	}
}

// The domain imports no transport: the inbox is an Asker of package wire,
// which the transport (package ipc) carries; nothing in core's dependencies
// speaks HTTP or opens sockets for it.
func TestCoreImportsNoTransport(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go tool")
	}
	out, err := exec.Command("go", "list", "-deps", "feedback/app/core").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		if dep == "feedback/ipc" || dep == "feedback/ipc/launch" || dep == "net/http" {
			t.Errorf("core depends on %s", dep)
		}
	}
}

// The core defines the Store it records in and is handed one: it links
// neither the database (package store, SQLite) nor the files it would be
// kept in.
func TestCoreImportsNoDatabase(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go tool")
	}
	out, err := exec.Command("go", "list", "-deps", "feedback/app/core").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		if dep == "feedback/app/store" || dep == "database/sql" || strings.HasPrefix(dep, "modernc.org/sqlite") {
			t.Errorf("core depends on %s", dep)
		}
	}
}
