// Package settings holds the user's preferences, shared by the app and the
// MCP shim: read from a JSON file, then overridden by the environment.
// It imports no GUI code.
package settings

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"feedback/userdirs"
)

// Settings are the user's preferences, read from Path at start. Every
// field has a default, so a missing file or field changes nothing. The
// environment variable named beside a field overrides the file.
type Settings struct {
	// TimeoutSeconds is the countdown of a question that does not set one.
	// 0 disables the countdown. FEEDBACK_TIMEOUT.
	TimeoutSeconds int `json:"timeout_seconds"`
	// Language of the fixed phrases returned to agents and, later, of the
	// window: "en", "zh-Hans" or "zh-Hant". FEEDBACK_LANGUAGE.
	Language string `json:"language"`
	// PromptSuffix is appended to every interactive_feedback answer, e.g. a
	// standing instruction for the agent. FEEDBACK_PROMPT_SUFFIX.
	PromptSuffix string `json:"prompt_suffix"`
	// ResubmitPrompt is returned by interactive_feedback when the window
	// could not be shown or answered; "{error}" is replaced by the cause.
	// FEEDBACK_RESUBMIT_PROMPT.
	ResubmitPrompt string `json:"resubmit_prompt"`
	// PendingWaitSeconds is how long tools that may answer "pending" wait for
	// the human before they do. FEEDBACK_PENDING_WAIT.
	PendingWaitSeconds int `json:"pending_wait_seconds"`
	// Tools lists the MCP tools `feedback mcp` exposes; empty means the
	// default set. FEEDBACK_TOOLS (comma-separated).
	Tools []string `json:"tools"`
	// Images bounds the images attached to one answer.
	Images ImageSettings `json:"images"`
	// WaitSeconds overrides, per MCP client name (initialize's clientInfo),
	// the longest a tool call waits before returning "not answered yet, call
	// again" while the window stays open. FEEDBACK_MAX_WAIT (seconds) applies
	// to every client.
	WaitSeconds map[string]int `json:"wait_seconds"`
	// MaxWaitSeconds, when positive, bounds every client's wait
	// (FEEDBACK_MAX_WAIT); 0 uses the per-client table.
	MaxWaitSeconds int `json:"max_wait_seconds"`
	// ExtendSeconds is what the window's "+ time" button adds. Default 300.
	ExtendSeconds int `json:"extend_seconds"`
	// SubmitDraftOnTimeout: at zero, a non-empty draft is submitted as the
	// answer (marked as such) instead of ending as timed out. Default false.
	SubmitDraftOnTimeout bool `json:"submit_draft_on_timeout"`
	// StartAtLogin, when set, is applied each time the app starts: true
	// installs the start-at-login entry for the running binary (what
	// `feedback setup autostart` does), false removes it. Unset (null)
	// leaves the entry to `feedback setup autostart`.
	StartAtLogin *bool `json:"start_at_login"`
}

// ImageSettings bound attachments; every image is downscaled and
// re-encoded before it counts.
type ImageSettings struct {
	MaxCount    int `json:"max_count"`     // images per answer, default 8
	MaxEdge     int `json:"max_edge"`      // longest edge in pixels, default 1568
	MaxMiB      int `json:"max_mib"`       // one image, default 4
	MaxTotalMiB int `json:"max_total_mib"` // all images of an answer, default 16
}

// Languages the fixed phrases exist in.
const (
	English            = "en"
	SimplifiedChinese  = "zh-Hans"
	TraditionalChinese = "zh-Hant"
)

// DefaultResubmitPrompt is the default ResubmitPrompt.
const DefaultResubmitPrompt = "The feedback window could not collect the user's answer ({error}). " +
	"Nothing was answered. Call interactive_feedback again to ask the user."

// Default returns the settings used where the file and environment are silent.
func Default() Settings {
	return Settings{
		TimeoutSeconds:     600,
		Language:           English,
		ResubmitPrompt:     DefaultResubmitPrompt,
		PendingWaitSeconds: 30,
		Images:             ImageSettings{MaxCount: 8, MaxEdge: 1568, MaxMiB: 4, MaxTotalMiB: 16},
		ExtendSeconds:      300,
	}
}

// DefaultTimeout is the countdown as a duration (0: none).
func (s Settings) DefaultTimeout() time.Duration {
	return time.Duration(s.TimeoutSeconds) * time.Second
}

// Path is where the settings live: settings.json in the config directory of
// userdirs: $XDG_CONFIG_HOME/feedback (~/.config/feedback) on Linux,
// ~/Library/Application Support/feedback on macOS, %APPDATA%\feedback on
// Windows.
func Path() (string, error) {
	d, err := userdirs.Current()
	if err != nil {
		return "", err
	}
	return filepath.Join(d.Config, "settings.json"), nil
}

// Load reads the settings file at path over the defaults, then
// applies the environment (getenv, usually os.Getenv). A missing file is not
// an error; a malformed one or a bad value is, and names what to fix.
func Load(path string, getenv func(string) string) (Settings, error) {
	s := Default()
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return s, fmt.Errorf("reading settings: %w", err)
	default:
		if err := json.Unmarshal(data, &s); err != nil {
			return Default(), fmt.Errorf("settings file %s: %w", path, err)
		}
	}
	if err := s.applyEnv(getenv); err != nil {
		return s, err
	}
	if err := s.check(); err != nil {
		return Default(), err
	}
	return s, nil
}

func (s *Settings) applyEnv(getenv func(string) string) error {
	ints := []struct {
		name string
		dst  *int
	}{{"FEEDBACK_TIMEOUT", &s.TimeoutSeconds}, {"FEEDBACK_PENDING_WAIT", &s.PendingWaitSeconds},
		{"FEEDBACK_MAX_WAIT", &s.MaxWaitSeconds}}
	for _, f := range ints {
		if v := getenv(f.name); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil {
				return fmt.Errorf("%s=%q: want a whole number of seconds", f.name, v)
			}
			*f.dst = n
		}
	}
	strs := []struct {
		name string
		dst  *string
	}{{"FEEDBACK_LANGUAGE", &s.Language}, {"FEEDBACK_PROMPT_SUFFIX", &s.PromptSuffix}, {"FEEDBACK_RESUBMIT_PROMPT", &s.ResubmitPrompt}}
	for _, f := range strs {
		if v := getenv(f.name); v != "" {
			*f.dst = v
		}
	}
	if v := getenv("FEEDBACK_TOOLS"); v != "" {
		s.Tools = nil
		for _, name := range strings.Split(v, ",") {
			if name = strings.TrimSpace(name); name != "" {
				s.Tools = append(s.Tools, name)
			}
		}
	}
	return nil
}

// check reports the first value out of range, naming the setting.
func (s *Settings) check() error {
	if s.TimeoutSeconds < 0 {
		return fmt.Errorf("timeout_seconds is %d: want 0 (no countdown) or more", s.TimeoutSeconds)
	}
	if i := s.Images; i.MaxCount < 1 || i.MaxEdge < 16 || i.MaxMiB < 1 || i.MaxTotalMiB < i.MaxMiB {
		return fmt.Errorf("images is %+v: want max_count ≥ 1, max_edge ≥ 16, max_mib ≥ 1 and max_total_mib ≥ max_mib", i)
	}
	if s.ExtendSeconds < 1 || s.MaxWaitSeconds < 0 {
		return fmt.Errorf("extend_seconds (%d) must be 1 or more and max_wait_seconds (%d) 0 or more", s.ExtendSeconds, s.MaxWaitSeconds)
	}
	for client, n := range s.WaitSeconds {
		if n < 1 {
			return fmt.Errorf("wait_seconds[%q] is %d: want 1 or more", client, n)
		}
	}
	if s.PendingWaitSeconds < 1 {
		return fmt.Errorf("pending_wait_seconds is %d: want 1 or more", s.PendingWaitSeconds)
	}
	switch s.Language {
	case English, SimplifiedChinese, TraditionalChinese:
	default:
		return fmt.Errorf("language is %q: want one of en, zh-Hans, zh-Hant", s.Language)
	}
	if s.ResubmitPrompt == "" {
		s.ResubmitPrompt = DefaultResubmitPrompt
	}
	return nil
}
