package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
)

// The README's size of the headless build is what `make build-headless`
// makes: built here with the Makefile's flags, within 10 %.
func TestReadmeHeadlessSize(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the headless binary")
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`pure Go, no C toolkit, (?:about )?(\d+(?:\.\d+)?) MB`).FindSubmatch(readme)
	if m == nil {
		t.Fatal("the README does not say how big the headless build is")
	}
	said, _ := strconv.ParseFloat(string(m[1]), 64)
	bin := filepath.Join(t.TempDir(), "feedback-headless")
	build := exec.Command("go", "build", "-tags", "headless", "-trimpath", "-ldflags", "-s -w -X main.version=v0.0.0-test", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	fi, err := os.Stat(bin)
	if err != nil {
		t.Fatal(err)
	}
	if size := float64(fi.Size()) / 1e6; size < said*0.9 || size > said*1.1 {
		t.Errorf("the README says %s MB; make build-headless makes %.1f MB", m[1], size)
	}
}
