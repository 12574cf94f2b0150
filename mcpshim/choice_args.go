package mcpshim

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
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

// textField returns the string at m[key]. present is false when the key is
// absent or null. A value of another type, a blank string when required or
// given, or more than maxRunes characters is an *ArgError naming field.
func textField(m map[string]any, key, field string, required bool, maxRunes int) (s string, present bool, err error) {
	v, ok := m[key]
	if !ok || v == nil {
		if required {
			return "", false, argErrorf(field, "required: pass a non-empty string")
		}
		return "", false, nil
	}
	s, ok = v.(string)
	if !ok {
		return "", false, argErrorf(field, "must be a string, got %s", jsonType(v))
	}
	s = strings.ToValidUTF8(s, "\uFFFD")
	if required && strings.TrimSpace(s) == "" {
		return "", false, argErrorf(field, "must not be blank")
	}
	if n := utf8.RuneCountInString(s); n > maxRunes {
		return "", false, argErrorf(field, "at most %d characters, got %d; shorten it", maxRunes, n)
	}
	return s, true, nil
}

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

// labelList returns the option labels at m[key]: min to max strings, each
// non-blank, at most maxLabelRunes characters, and all different. Labels
// are kept exactly as given (the answer repeats them).
func labelList(m map[string]any, key string, min, max int) ([]string, error) {
	items, err := arrayField(m, key, key, min, max)
	if err != nil {
		return nil, err
	}
	labels := make([]string, 0, len(items))
	seen := make(map[string]int, len(items))
	for i, item := range items {
		field := indexed(key, i)
		s, ok := item.(string)
		if !ok {
			return nil, argErrorf(field, "must be a string (the option's label), got %s", jsonType(item))
		}
		s = strings.ToValidUTF8(s, "\uFFFD")
		if strings.TrimSpace(s) == "" {
			return nil, argErrorf(field, "must not be blank")
		}
		if n := utf8.RuneCountInString(s); n > maxLabelRunes {
			return nil, argErrorf(field, "at most %d characters, got %d; shorten the label", maxLabelRunes, n)
		}
		if j, dup := seen[s]; dup {
			return nil, argErrorf(field, "%q repeats %s; every option must be different", s, indexed(key, j))
		}
		seen[s] = i
		labels = append(labels, s)
	}
	return labels, nil
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

// indexed returns "key[i]".
func indexed(key string, i int) string {
	return key + "[" + strconv.Itoa(i) + "]"
}
