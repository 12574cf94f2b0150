package settingsfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"feedback/internal/atomicfile"
	"feedback/internal/safefile"
	"feedback/internal/settings"
)

// Save writes s to the settings file at path, the file Load reads (the app,
// `feedback mcp`, the commands; the UI process gets the settings from the
// app, which alone writes the file), after checking it: values out of range
// are refused with the joined *FieldError of Validate and nothing is written.
//
// Keys of the file that Settings does not know (a "$comment", a key of a
// newer version) are kept, and so are unknown keys inside "images"; every
// known key is written, defaults included, so the file shows what can be
// set. A file that is not a JSON object cannot be merged into: it is moved
// aside to <path>.invalid-<UTC timestamp> (returned as movedAside) and a new
// one is written. The write is atomic (a temporary file in the same
// directory, synced, then renamed over path), so a reader, or Watch, never
// sees half a file; the directory is created (0700) if missing, and an
// existing file keeps its permission bits (a new one gets 0600).
func Save(path string, s settings.Settings) (movedAside string, err error) {
	if fes := s.Validate(); len(fes) > 0 {
		errs := make([]error, len(fes))
		for i, fe := range fes {
			errs[i] = fe
		}
		return "", errors.Join(errs...)
	}
	mode := fs.FileMode(0o600)
	merged := map[string]json.RawMessage{}
	old, err := readBounded(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return "", fmt.Errorf("saving settings: %w", err)
	default:
		if fi, err := os.Stat(path); err == nil {
			mode = fi.Mode().Perm()
		}
		if len(bytes.TrimSpace(old)) > 0 {
			if err := json.Unmarshal(old, &merged); err != nil {
				movedAside = fmt.Sprintf("%s.invalid-%s", path, time.Now().UTC().Format("20060102T150405Z"))
				if err := os.Rename(path, movedAside); err != nil {
					return "", fmt.Errorf("saving settings: moving the malformed %s aside: %w", path, err)
				}
				merged = map[string]json.RawMessage{}
			}
		}
	}
	if merged == nil { // the file held "null"
		merged = map[string]json.RawMessage{}
	}
	if s.ResubmitPrompt == settings.DefaultResubmitPrompt {
		s.ResubmitPrompt = "" // the built-in text (Decode gives it back): never written out in English
	}
	known, err := json.Marshal(s)
	if err != nil {
		return movedAside, fmt.Errorf("saving settings: %w", err)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(known, &fields); err != nil {
		return movedAside, fmt.Errorf("saving settings: %w", err)
	}
	for k, v := range fields {
		if k == "images" {
			v = mergeObject(merged[k], v)
		}
		merged[k] = v
	}
	data, err := json.MarshalIndent(merged, "", "  ")
	if err != nil {
		return movedAside, fmt.Errorf("saving settings: %w", err)
	}
	return movedAside, writeAtomic(path, append(data, '\n'), mode)
}

// mergeObject lays the keys of newer over those of old when both are JSON
// objects; otherwise newer wins whole.
func mergeObject(old, newer json.RawMessage) json.RawMessage {
	var o, n map[string]json.RawMessage
	if json.Unmarshal(old, &o) != nil || o == nil || json.Unmarshal(newer, &n) != nil {
		return newer
	}
	for k, v := range n {
		o[k] = v
	}
	out, err := json.Marshal(o)
	if err != nil {
		return newer
	}
	return out
}

func readBounded(path string) ([]byte, error) {
	return safefile.ReadFile(path, MaxFileBytes)
}

// writeAtomic replaces path with data: a temporary file beside it, synced,
// then renamed over it.
func writeAtomic(path string, data []byte, mode fs.FileMode) error {
	if err := atomicfile.WriteFile(path, data, atomicfile.Options{Perm: mode}); err != nil {
		return fmt.Errorf("saving settings: %w", err)
	}
	return nil
}
