package store

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.db")
	s, err := Open(good, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	before, _ := os.ReadFile(good)
	h, err := Check(context.Background(), good)
	if err != nil || len(h.Problem) != 0 || h.Schema != h.Current || h.Size == 0 {
		t.Fatalf("healthy database: %+v, %v", h, err)
	}
	if after, _ := os.ReadFile(good); string(after) != string(before) {
		t.Error("Check changed the file")
	}

	junk := filepath.Join(dir, "junk.db")
	os.WriteFile(junk, []byte("this is not a database, only some text that goes on for a while............"), 0o600)
	if _, err := Check(context.Background(), junk); err == nil {
		t.Error("a text file passed")
	}
	if _, err := os.Stat(junk); err != nil {
		t.Errorf("Check moved the corrupt file: %v", err)
	}
	if _, err := Check(context.Background(), filepath.Join(dir, "missing.db")); err == nil {
		t.Error("a missing file passed")
	}
	if _, err := os.Stat(filepath.Join(dir, "missing.db")); err == nil {
		t.Error("Check created the missing file")
	}
}
