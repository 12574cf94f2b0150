//go:build !headless

package main

import (
	"os"
	"os/exec"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// processEntries are, for each kind of process, the packages that run
// calls for its commands: the process runs them and whatever they import.
var processEntries = map[string][]string{
	// feedback: app.Run; setup.ApplyStartAtLogin; launch.Starter; the
	// settings file (loadSettings, settingsfile.Path).
	"app": {"feedback/app", "feedback/cmd/feedback/setup", "feedback/ipc/launch", "feedback/internal/settings/settingsfile"},
	// feedback ui: uiprocess.Serve.
	"ui": {"feedback/dialogs/uiprocess"},
	// feedback mcp: mcpshim.ServeStdio over launch.Connect (a wire.Asker)
	// and launch.Greet; the settings file (loadSettings).
	// With FEEDBACK_RELAY, connect asks through the broker (relay.go).
	"shim": {"feedback/cmd/feedback/mcpshim", "feedback/ipc/launch", "feedback/ipc", "feedback/internal/settings/settingsfile", "feedback/ipc/relay", "feedback/internal/userdirs"},
	// feedback ask, approve, notify, doctor, setup, history; ask's question
	// ids (wire.NewID) and its connection (a wire.Asker); the settings
	// file (loadSettings).
	"cli": {"feedback/internal/settings/settingsfile", "feedback/cmd/feedback/ask", "feedback/cmd/feedback/approvecmd", "feedback/cmd/feedback/notifycmd", "feedback/cmd/feedback/doctor", "feedback/cmd/feedback/setup", "feedback/cmd/feedback/historycmd", "feedback/cmd/feedback/relaycmd", "feedback/ipc/launch", "feedback/ipc/wire", "feedback/ipc", "feedback/ipc/relay", "feedback/internal/userdirs"},
}

// everyProcess are the packages run calls in every process: the settings'
// schema and their language, and Fyne's quiet locale (an init). (`feedback
// ui` reads no settings file: the app sends it the settings.)
var everyProcess = []string{"feedback/internal/settings", "feedback/internal/i18n"}

// processRow is a row of the README's package table.
type processRow struct {
	packages []string // import paths; "x/..." for x and everything under it
	runsIn   []string // sorted; none for build- or test-only packages
	job      string
}

// The README's development table says which processes each package runs
// in. Here that is computed from the imports: a package runs in a process
// when one of the process's entries reaches it. Every package has a row
// and every row is true; Fyne is linked by the UI process only; a package
// said to be toolkit- or GUI-free links no Fyne, and one said to import
// only a package imports no other of ours.
func TestProcessTable(t *testing.T) {
	rows := readProcessTable(t, "../../README.md")
	module := goList(t, "feedback/...")
	imports := goList(t, "-f", `{{join .Imports "\n"}}`, ".")
	var known []string
	for _, e := range processEntries {
		known = append(known, e...)
	}
	for _, p := range imports {
		if strings.HasPrefix(p, "feedback/") && !slices.Contains(known, p) && !slices.Contains(everyProcess, p) {
			t.Errorf("cmd/feedback imports %s: say in processEntries or everyProcess which processes call it", p)
		}
	}

	reaches := map[string][]string{} // package → the processes that reach it
	for proc, entries := range processEntries {
		deps := goList(t, append([]string{"-deps"}, append(slices.Clone(entries), everyProcess...)...)...)
		for _, d := range deps {
			if strings.HasPrefix(d, "fyne.io/fyne/") || strings.HasPrefix(d, "github.com/go-gl/") {
				if proc != "ui" {
					t.Errorf("the %s process links %s: Fyne belongs to the UI process", proc, d)
				}
			}
			reaches[d] = append(reaches[d], proc)
		}
	}
	reaches["feedback/cmd/feedback"] = []string{"app", "cli", "shim", "ui"}

	for _, p := range module {
		row := findRow(rows, p)
		if row == nil {
			t.Errorf("README's package table has no row for %s", p)
			continue
		}
		if got := slices.Sorted(slices.Values(reaches[p])); !slices.Equal(got, row.runsIn) {
			t.Errorf("%s: the README says it runs in %v; by its imports it runs in %v", p, row.runsIn, got)
		}
	}
	for _, row := range rows {
		for _, p := range row.packages {
			if !slices.ContainsFunc(module, func(m string) bool { return matches(p, m) }) {
				t.Errorf("README's package table lists %s, which does not exist", p)
				continue
			}
			checkClaims(t, p, row.job)
		}
	}
}

var onlyImports = regexp.MustCompile("imports only `([a-z/]+)`")

// checkClaims checks what the job of package p says of its imports.
func checkClaims(t *testing.T, p, job string) {
	t.Helper()
	free := false
	for _, claim := range []string{"no toolkit", "toolkit-free", "no GUI imports", "GUI-free"} {
		free = free || strings.Contains(job, claim)
	}
	m := onlyImports.FindStringSubmatch(job)
	if !free && m == nil {
		return
	}
	if strings.HasSuffix(p, "/...") {
		return
	}
	for _, d := range goList(t, "-deps", p) {
		if free && (strings.HasPrefix(d, "fyne.io/fyne/") || strings.HasPrefix(d, "github.com/go-gl/")) {
			t.Errorf("%s is said to be free of the toolkit but links %s", p, d)
			free = false // once
		}
		if m != nil && strings.HasPrefix(d, "feedback/") && d != p && d != "feedback/"+m[1] {
			t.Errorf("%s is said to import only %s but links %s", p, m[1], d)
			m = nil
		}
	}
}

// findRow returns the row naming p, nil if none does.
func findRow(rows []processRow, p string) *processRow {
	for i := range rows {
		if slices.ContainsFunc(rows[i].packages, func(name string) bool { return matches(name, p) }) {
			return &rows[i]
		}
	}
	return nil
}

// matches reports whether the row's name, a package or "x/..." (x and the
// packages under it), names package p.
func matches(name, p string) bool {
	if base, ok := strings.CutSuffix(name, "/..."); ok {
		return p == base || strings.HasPrefix(p, base+"/")
	}
	return p == name
}

// readProcessTable reads the table whose header is "| package | runs in |
// its one job |" from the README at file.
func readProcessTable(t *testing.T, file string) []processRow {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(data), "| package | runs in | its one job |\n|---|---|---|\n")
	if !ok {
		t.Fatal("the README has no package table (| package | runs in | its one job |)")
	}
	var rows []processRow
	for _, line := range strings.Split(table, "\n") {
		if !strings.HasPrefix(line, "|") {
			break
		}
		cells := strings.Split(strings.Trim(line, "|"), " | ")
		if len(cells) != 3 {
			t.Fatalf("a package table row without three cells: %q", line)
		}
		var row processRow
		for _, name := range strings.Split(strings.TrimSpace(cells[0]), ", ") {
			row.packages = append(row.packages, path.Join("feedback", strings.Trim(name, "`")))
		}
		if in := strings.TrimSpace(cells[1]); in != "—" {
			row.runsIn = slices.Sorted(slices.Values(strings.Split(in, ", ")))
		}
		row.job = cells[2]
		rows = append(rows, row)
	}
	return rows
}

// goList runs go list with args and returns its lines.
func goList(t *testing.T, args ...string) []string {
	t.Helper()
	out, err := exec.Command("go", append([]string{"list"}, args...)...).Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			t.Fatalf("go list %v: %v\n%s", args, err, ee.Stderr)
		}
		t.Fatalf("go list %v: %v", args, err)
	}
	return strings.Fields(string(out))
}
