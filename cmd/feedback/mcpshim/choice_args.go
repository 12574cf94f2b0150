package mcpshim

import (
	"math"
	"strconv"
)

// Argument readers shared by ask_user_question and the ask_choice family.
// Each names the offending field by its JSON path ("questions[1].header")
// and states the rule, so the agent can fix the call.

// Limits shared by the ask_user_question and ask_choice dialects, in
// characters (runes).
const (
	// maxQuestionRunes bounds a question's text: far above any sensible
	// question, far below ipc.MaxMarkdownBytes.
	maxQuestionRunes = 20_000
	// maxLabelRunes bounds an option label.
	maxLabelRunes = 200
	// maxTimeoutMS is the longest timeout_ms: 24 hours.
	maxTimeoutMS = 86_400_000
)

// boolField returns the boolean at m[key]; absent or null is false.
func boolField(m map[string]any, key, field string) (b, present bool, err error) {
	v, ok := m[key]
	if !ok || v == nil {
		return false, false, nil
	}
	b, ok = v.(bool)
	if !ok {
		return false, false, argErrorf(field, "must be a boolean (true or false), got %s", jsonType(v))
	}
	return b, true, nil
}

// arrayField returns the array at m[key] with min to max items; absent or
// null is nil (an error when min > 0).
func arrayField(m map[string]any, key, field string, min, max int) ([]any, error) {
	v, ok := m[key]
	if !ok || v == nil {
		if min > 0 {
			return nil, argErrorf(field, "required: pass an array of %d to %d items", min, max)
		}
		return nil, nil
	}
	items, ok := v.([]any)
	if !ok {
		return nil, argErrorf(field, "must be an array, got %s", jsonType(v))
	}
	if len(items) < min {
		return nil, argErrorf(field, "at least %d items, got %d", min, len(items))
	}
	if len(items) > max {
		return nil, argErrorf(field, "at most %d items, got %d; drop some, or ask in several calls", max, len(items))
	}
	return items, nil
}

// timeoutField converts the optional timeout_ms (whole milliseconds, 1 to
// maxTimeoutMS) into the window's countdown in whole seconds, rounded up;
// absent or null is 0 (the app's default).
func timeoutField(m map[string]any) (int, error) {
	v, ok := m["timeout_ms"]
	if !ok || v == nil {
		return 0, nil
	}
	f, ok := v.(float64)
	if !ok {
		return 0, argErrorf("timeout_ms", "must be a number of milliseconds, got %s", jsonType(v))
	}
	if f != math.Trunc(f) || f < 1 || f > maxTimeoutMS {
		return 0, argErrorf("timeout_ms", "must be a whole number from 1 to %d (24 hours), got %v; omit it for the default", maxTimeoutMS, f)
	}
	return int((int64(f) + 999) / 1000), nil
}

// countField returns the optional whole number at m[key], from lo to hi;
// absent or null is given false.
func countField(m map[string]any, key string, lo, hi int) (n int, given bool, err error) {
	v, ok := m[key]
	if !ok || v == nil {
		return 0, false, nil
	}
	f, ok := v.(float64)
	if !ok {
		return 0, false, argErrorf(key, "must be a whole number from %d to %d, got %s", lo, hi, jsonType(v))
	}
	if f != math.Trunc(f) || f < float64(lo) || f > float64(hi) {
		return 0, false, argErrorf(key, "must be a whole number from %d to %d, got %v", lo, hi, f)
	}
	return int(f), true, nil
}

// indexed returns "key[i]".
func indexed(key string, i int) string {
	return key + "[" + strconv.Itoa(i) + "]"
}
