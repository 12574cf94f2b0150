package settings

import (
	"encoding/json"
	"maps"
	"strings"
)

// The Settings window's save writes only what the user changed in the
// window over the file as it is when saved, so that an edit made by hand
// (or by another window) while this one was open is kept: Changes lists
// the window's edits (the UI process sends them, uiproto.SaveSettings),
// Overlay lays them over the file's current values (the app, which alone
// writes the file).

// flatten is s as JSON values by key, those of images as "images.<key>".
func flatten(s Settings) (map[string]json.RawMessage, error) {
	data, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	var images map[string]json.RawMessage
	if err := json.Unmarshal(m["images"], &images); err != nil {
		return nil, err
	}
	delete(m, "images")
	for k, v := range images {
		m["images."+k] = v
	}
	return m, nil
}

// Changes returns the values of edited that differ from those of base.
func Changes(base, edited Settings) (map[string]json.RawMessage, error) {
	a, err := flatten(base)
	if err != nil {
		return nil, err
	}
	b, err := flatten(edited)
	if err != nil {
		return nil, err
	}
	maps.DeleteFunc(b, func(k string, v json.RawMessage) bool { return string(a[k]) == string(v) })
	return b, nil
}

// Overlay returns cur with the values of ch.
func Overlay(cur Settings, ch map[string]json.RawMessage) (Settings, error) {
	m, err := flatten(cur)
	if err != nil {
		return cur, err
	}
	maps.Copy(m, ch)
	images := map[string]json.RawMessage{}
	for k, v := range m {
		if rest, ok := strings.CutPrefix(k, "images."); ok {
			images[rest] = v
			delete(m, k)
		}
	}
	data, err := json.Marshal(images)
	if err != nil {
		return cur, err
	}
	m["images"] = data
	if data, err = json.Marshal(m); err != nil {
		return cur, err
	}
	var out Settings
	err = json.Unmarshal(data, &out)
	return out, err
}
