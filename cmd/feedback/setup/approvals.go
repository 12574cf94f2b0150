package setup

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"feedback/internal/safefile"

	"github.com/tailscale/hujson"
)

// LocalSettings is Claude Code's project file for what one person allows
// there (not committed): "always allow in this project" goes in it, as
// Claude Code's own "don't ask again" does.
const LocalSettings = ".claude/settings.local.json"

// maxLocalSettings bounds the LocalSettings file AllowRule edits.
const maxLocalSettings = 1 << 20

// AllowRule adds rule ("Bash(npm test)") to permissions.allow of the
// project's LocalSettings in dir, keeping everything else in the file and
// a backup of it; nothing changes when the rule is there already. It
// returns the file's path and whether it changed.
//
// It writes inside dir only, and only into dir as it is: dir must be an
// existing directory (it is never created again); .claude in it must be a
// directory, not a link (it is created when missing), and the file a
// regular file, not a link, a FIFO or a directory, of at most 1 MiB, that
// parses as JSON with comments. Anything else is an error that says what
// is wrong, and nothing is written.
func AllowRule(dir, rule string, now time.Time) (string, bool, error) {
	path := filepath.Join(dir, filepath.FromSlash(LocalSettings))
	if fi, err := os.Stat(dir); err != nil {
		return path, false, fmt.Errorf("the project directory %s: %w", dir, err)
	} else if !fi.IsDir() {
		return path, false, fmt.Errorf("the project directory %s is not a directory", dir)
	}
	claude := filepath.Dir(path)
	fi, err := os.Lstat(claude)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.Mkdir(claude, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return path, false, err
		}
	case err != nil:
		return path, false, err
	case fi.Mode()&fs.ModeSymlink != 0:
		return path, false, &safefile.Error{Path: claude, Err: safefile.ErrSymlink, Detail: "a link out of the project's own files"}
	case !fi.IsDir():
		return path, false, fmt.Errorf("%s is not a directory", claude)
	}
	for range configureAttempts {
		data, err := readLocalSettings(path)
		if err != nil {
			return path, false, err
		}
		out, changed, err := addAllowRule(data, rule)
		if err != nil {
			return path, false, fmt.Errorf("%s: %w", path, err)
		}
		if !changed {
			return path, false, nil
		}
		if err := safefile.Check(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return path, false, err // a link made meanwhile: writeConfig would follow it
		}
		_, err = writeConfig(path, data, out, 0o600, now)
		if errors.Is(err, ErrChangedMeanwhile) {
			continue
		}
		return path, err == nil, err
	}
	return path, false, fmt.Errorf("%s %w %d times", path, ErrChangedMeanwhile, configureAttempts)
}

// readLocalSettings reads the LocalSettings file at path without following
// a link there and without blocking on a FIFO: nil when there is none.
func readLocalSettings(path string) ([]byte, error) {
	f, err := safefile.OpenFile(path, os.O_RDONLY, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxLocalSettings+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxLocalSettings {
		return nil, &safefile.Error{Path: path, Err: safefile.ErrTooLarge, Detail: "more than 1 MiB"}
	}
	return data, nil
}

// addAllowRule appends rule to permissions.allow of a settings document.
func addAllowRule(data []byte, rule string) ([]byte, bool, error) {
	data, v, root, err := parseJSONC(data)
	if err != nil {
		return nil, false, err
	}
	standard := v.IsStandard() // a plain JSON file stays plain JSON
	e := jsonEditor{indent: detectIndent(root)}
	perms, err := e.object(root, []string{"permissions"}, 1)
	if err != nil {
		return nil, false, err
	}
	m, err := find(perms, []string{"permissions", "allow"})
	if err != nil {
		return nil, false, err
	}
	if m == nil {
		if err := e.set(perms, []string{"permissions", "allow"}, []string{rule}, 2); err != nil {
			return nil, false, err
		}
	} else {
		arr, ok := m.Value.Value.(*hujson.Array)
		if !ok {
			return nil, false, errors.New("permissions.allow is not a JSON array; fix it by hand")
		}
		for _, el := range arr.Elements {
			var s string
			c := el.Clone()
			c.Standardize()
			if json.Unmarshal(c.Pack(), &s) == nil && s == rule {
				return data, false, nil
			}
		}
		raw, err := jsonText(rule, "", "")
		if err != nil {
			return nil, false, err
		}
		nv, err := hujson.Parse(raw)
		if err != nil {
			return nil, false, err
		}
		nv.BeforeExtra = hujson.Extra(" ")
		if n := len(arr.Elements); n > 0 {
			if b := arr.Elements[n-1].BeforeExtra; bytes.Contains(b, []byte("\n")) {
				nv.BeforeExtra = slices.Clone(b)
			}
			if arr.Elements[n-1].AfterExtra != nil {
				nv.AfterExtra = hujson.Extra{}
			}
		} else {
			nv.BeforeExtra = nil
		}
		arr.Elements = append(arr.Elements, nv)
	}
	if standard && !v.IsStandard() {
		v.Standardize()
	}
	return v.Pack(), true, nil
}
