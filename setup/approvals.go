package setup

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/tailscale/hujson"
)

// LocalSettings is Claude Code's project file for what one person allows
// there (not committed): "always allow in this project" goes in it, as
// Claude Code's own "don't ask again" does.
const LocalSettings = ".claude/settings.local.json"

// AllowRule adds rule ("Bash(npm test)") to permissions.allow of the
// project's LocalSettings in dir, keeping everything else in the file and
// a backup of it; nothing changes when the rule is there already. It
// returns the file's path and whether it changed.
func AllowRule(dir, rule string, now time.Time) (string, bool, error) {
	path := filepath.Join(dir, filepath.FromSlash(LocalSettings))
	for range configureAttempts {
		data, err := readConfig(path)
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
		_, err = writeConfig(path, data, out, 0o600, now)
		if errors.Is(err, ErrChangedMeanwhile) {
			continue
		}
		return path, err == nil, err
	}
	return path, false, fmt.Errorf("%s %w %d times", path, ErrChangedMeanwhile, configureAttempts)
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
		raw, _ := json.Marshal(rule)
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
