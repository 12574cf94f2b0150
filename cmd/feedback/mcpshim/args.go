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

// strArg says how to read one string argument (see readString).
type strArg struct {
	// field names the argument in errors, as a JSON path
	// ("questions[1].header"); "" is the key itself.
	field string
	// required: absent, null and blank are errors.
	required bool
	// trim removes the surrounding white space (before the length check).
	trim bool
	// max bounds the value in characters (runes); 0 is no bound. A longer
	// value is an error, unless clamp.
	max int
	// clamp cuts a value longer than max to max characters instead.
	clamp bool
}

// readString is the shim's one reader of string arguments: it returns the
// string at m[key], made valid UTF-8 and read as r says. present is false
// when the key is absent or null. A value of another type, a missing or
// blank required value, and a value over r.max are *ArgErrors naming the
// field and the rule.
func readString(m map[string]any, key string, r strArg) (s string, present bool, err error) {
	if r.field == "" {
		r.field = key
	}
	v, ok := m[key]
	if !ok || v == nil {
		if r.required {
			return "", false, argErrorf(r.field, "required: pass a non-empty string%s", maxNote(r.max))
		}
		return "", false, nil
	}
	s, err = stringValue(v, r)
	return s, err == nil, err
}

// stringValue is readString for a value already looked up (an item of an
// array): v must be a string; r.field names it.
func stringValue(v any, r strArg) (string, error) {
	s, ok := v.(string)
	if !ok {
		return "", argErrorf(r.field, "must be a string, got %s", jsonType(v))
	}
	s = strings.ToValidUTF8(s, "\uFFFD")
	if r.trim {
		s = strings.TrimSpace(s)
	}
	if r.required && strings.TrimSpace(s) == "" {
		return "", argErrorf(r.field, "required: must not be blank")
	}
	if r.max > 0 && r.clamp {
		s, _ = clampRunes(s, r.max)
	} else if r.max > 0 {
		if n := utf8.RuneCountInString(s); n > r.max {
			return "", argErrorf(r.field, "at most %d characters, got %d; shorten it", r.max, n)
		}
	}
	return s, nil
}

// maxNote is " of at most n characters", or "" for n == 0.
func maxNote(n int) string {
	if n <= 0 {
		return ""
	}
	return fmt.Sprintf(" of at most %d characters", n)
}

// firstNonBlank returns the first of keys whose value is a string that is
// not blank, and that key. Absent, null and blank values fall through to the
// next alias; a value of another type is an *ArgError.
func firstNonBlank(args map[string]any, keys ...string) (s, key string, err error) {
	for _, k := range keys {
		s, present, err := readString(args, k, strArg{})
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
