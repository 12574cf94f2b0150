package mcpshim

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// ArgError is a tool argument the agent can fix: Field names the argument
// and Rule says what is expected and how to fix it. It becomes a tool result
// with isError set, never a protocol error.
type ArgError struct {
	Field string
	Rule  string
}

func (e *ArgError) Error() string { return e.Field + ": " + e.Rule }

// argErrorf returns an *ArgError for field.
func argErrorf(field, format string, args ...any) *ArgError {
	return &ArgError{Field: field, Rule: fmt.Sprintf(format, args...)}
}

// jsonType names the JSON type of a value decoded by encoding/json, for
// error messages.
func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case bool:
		return "boolean"
	case float64, float32, int, int64, int32, uint, uint64, interface{ Int64() (int64, error) }:
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	default:
		return fmt.Sprintf("%T", v)
	}
}

// optString returns the string at args[key]. present is false when the key
// is absent or null; a value of another type is an *ArgError. The string is
// made valid UTF-8.
func optString(args map[string]any, key string) (s string, present bool, err error) {
	v, ok := args[key]
	if !ok || v == nil {
		return "", false, nil
	}
	s, ok = v.(string)
	if !ok {
		return "", false, argErrorf(key, "must be a string, got %s", jsonType(v))
	}
	return strings.ToValidUTF8(s, "\uFFFD"), true, nil
}

// firstNonBlank returns the first of keys whose value is a string that is
// not blank, and that key. Absent, null and blank values fall through to the
// next alias; a value of another type is an *ArgError.
func firstNonBlank(args map[string]any, keys ...string) (s, key string, err error) {
	for _, k := range keys {
		s, present, err := optString(args, k)
		if err != nil {
			return "", "", err
		}
		if present && strings.TrimSpace(s) != "" {
			return s, k, nil
		}
	}
	return "", "", nil
}

// clampRunes returns s cut to at most n characters (runes) and whether it
// was cut. It never splits a UTF-8 sequence.
func clampRunes(s string, n int) (string, bool) {
	if len(s) <= n { // n bytes hold at most n runes: the fast path
		return s, false
	}
	count := 0
	for i := range s {
		if count == n {
			return s[:i], true
		}
		count++
	}
	return s, false
}

// truncateMarked returns s unchanged when it has at most maxRunes characters
// and maxBytes bytes; otherwise it returns the longest prefix of s that,
// followed by marker, stays within both limits, then marker, and true. It
// never splits a UTF-8 sequence of a valid s.
func truncateMarked(s string, maxRunes, maxBytes int, marker string) (string, bool) {
	if len(s) <= maxBytes && utf8.RuneCountInString(s) <= maxRunes {
		return s, false
	}
	keepRunes := maxRunes - utf8.RuneCountInString(marker)
	keepBytes := maxBytes - len(marker)
	end, count := 0, 0
	for i := range s { // s[:i] holds count runes
		if i > keepBytes || count > keepRunes {
			break
		}
		end = i
		count++
	}
	return s[:end] + marker, true
}
