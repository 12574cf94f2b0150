package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Every fuzz target the Makefile names (make fuzz) exists: a package path
// from the module's root and a Fuzz function in one of its test files (5
// of its 6 targets named paths that had moved).
func TestFuzzTargetsExist(t *testing.T) {
	mk, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?s)FUZZ_TARGETS := (.*?)\n\n`).FindSubmatch(mk)
	if m == nil {
		t.Fatal("the Makefile has no FUZZ_TARGETS")
	}
	targets := strings.Fields(strings.ReplaceAll(string(m[1]), "\\", " "))
	if len(targets) == 0 {
		t.Fatal("FUZZ_TARGETS is empty")
	}
	for _, tg := range targets {
		dir, fn, ok := strings.Cut(tg, ":")
		if !ok {
			t.Errorf("%q is not package:FuzzTarget", tg)
			continue
		}
		files, _ := filepath.Glob(filepath.Join("../..", dir, "*_test.go"))
		found := false
		for _, f := range files {
			b, _ := os.ReadFile(f)
			if strings.Contains(string(b), "func "+fn+"(f *testing.F)") {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("make fuzz names %s, but %s has no %s", tg, dir, fn)
		}
	}
}
