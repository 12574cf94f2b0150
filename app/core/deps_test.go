package core

import (
	"os/exec"
	"reflect"
	"slices"
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

// The inbox keeps to questions and their windows: its exported methods are
// these, and what else the app does with questions is a feature of a
// package of its own (feature.go). A new method fails here: if it is not
// about a question or its window, it belongs to a feature, reached through
// Host and Hooks.
func TestInboxKeepsToQuestionsAndWindows(t *testing.T) {
	want := []string{
		// questions: asked, answered elsewhere, ended on quit, listed, raised
		"Ask", "AnswerFrom", "EndAll", "Items", "OnChange", "Raise",
		// the windows, as the UI process's supervisor reports them (WindowOwner)
		"Claim", "Reshow", "WindowDraft", "WindowEvent", "WindowsOpen",
		// their countdown, and the inbox's life
		"SetDefaultTimeout", "Start", "Close",
	}
	var got []string
	typ := reflect.TypeFor[*Inbox]()
	for i := range typ.NumMethod() {
		got = append(got, typ.Method(i).Name)
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("*Inbox's methods:\n%q\nwant\n%q", got, want)
	}
}

// The features are apart from the inbox and from each other: the core
// links none of them, and each links the core (its Host) and no other
// feature. So a feature reaches the inbox only through the Host it is
// given, and another feature only through the app's wiring.
func TestFeaturesAreApart(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go tool")
	}
	features := []string{"dnd", "snooze", "away", "notes", "messages"}
	deps := func(pkg string) []string {
		out, err := exec.Command("go", "list", "-deps", pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list %s: %v\n%s", pkg, err, out)
		}
		return strings.Fields(string(out))
	}
	for _, dep := range deps("feedback/app/core") {
		if strings.HasPrefix(dep, "feedback/app/core/") {
			t.Errorf("the core depends on %s", dep)
		}
	}
	for _, f := range features {
		pkg := "feedback/app/core/" + f
		for _, dep := range deps(pkg) {
			if strings.HasPrefix(dep, "feedback/app/core/") && dep != pkg {
				t.Errorf("%s depends on %s", pkg, dep)
			}
		}
	}
}

// One way to show a question: the Presenter shows windows (ShowWindow)
// whose state the inbox keeps — deadlines, drafts, whether the user saw
// them — and whose events it is told of (Bind). There is no plain Show for
// a double to take instead: the load tests' fake app, the tests and the
// app run the same path.
func TestOneWayToShowAQuestion(t *testing.T) {
	var got []string
	typ := reflect.TypeFor[Presenter]()
	for i := range typ.NumMethod() {
		got = append(got, typ.Method(i).Name)
	}
	if want := []string{"Bind", "Focus", "ShowWindow", "Withdraw"}; !slices.Equal(got, want) {
		t.Errorf("Presenter's methods: %q, want %q", got, want)
	}
}
