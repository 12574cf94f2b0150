// Package settings is the schema of the user's preferences, shared by the
// app, the MCP shim and the UI process's Settings window: the fields and
// their defaults, the environment variables that override them (Resolve),
// the checks of every value (Validate) and the window's edits (Changes,
// Overlay). It does no I/O: reading, saving and watching settings.json is
// package settingsfile's, which only the app and the commands link (the UI
// process gets the settings from the app, over package uiproto). It
// imports no GUI code.
package settings

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"feedback/internal/hotkey"
)

// Settings are the user's preferences, read from Path at start. Every
// field has a default, so a missing file or field changes nothing. The
// environment variable named beside a field overrides the file.
type Settings struct {
	// TimeoutSeconds is the countdown of a question that does not set one.
	// 0 disables the countdown. FEEDBACK_TIMEOUT.
	TimeoutSeconds int `json:"timeout_seconds"`
	// Language of the windows, the tray and the notifications, and of the
	// fixed phrases returned to agents: "en", "zh-Hans" or "zh-Hant"; "auto"
	// (the default) shows the OS locale's language (package i18n) and
	// returns English phrases to agents. FEEDBACK_LANGUAGE.
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
	// RetentionDays: the app deletes questions that ended more than this
	// many days ago (open ones never), at start and daily. Default 30.
	RetentionDays int `json:"retention_days"`
	// RetentionImageMiB bounds the attached images the database keeps: past
	// it, the ended questions with images go, oldest first. Default 256.
	RetentionImageMiB int `json:"retention_image_mib"`
	// Sound: the desktop notifications the app sends ask for a sound (none
	// is sent under do not disturb). Default false.
	Sound bool `json:"sound"`
	// UILingerSeconds is how long the UI process stays up after its last
	// window closes, so the next question opens fast; 0 quits at once.
	// Default 120.
	UILingerSeconds int `json:"ui_linger_seconds"`
	// UIPrewarm: when an agent's MCP server (the shim) starts and its
	// client has initialized, the shim starts the app if none runs, and
	// the app starts its UI process, which prepares its first window
	// without showing it, so the first question opens warm. It costs the
	// UI process's memory (~175 MiB; ~160 once it sleeps: ui_sleep) from
	// the agent's start rather than from its first question
	// (BENCHMARKS.md). Default true. FEEDBACK_UI_PREWARM (true or false),
	// say in one MCP client's entry for its shim alone.
	UIPrewarm bool `json:"ui_prewarm"`
	// UISleep: once the linger time has passed, the UI process is paused
	// (SIGSTOP: no CPU, its memory kept) rather than ended, so the next
	// question opens as fast as in a running one; where it cannot be
	// (not Linux, not X11, a window of it holds the clipboard) it ends.
	// Default true.
	UISleep bool `json:"ui_sleep"`
	// DNDSchedule is daily quiet hours, local time: "22:00-08:00" (the end
	// before the start crosses midnight); "" is none (the default). Inside
	// them do not disturb is on as the tray's "On" makes it (package core).
	// FEEDBACK_DND_SCHEDULE.
	DNDSchedule string `json:"dnd_schedule"`
	// Away is what a new question gets while the user is away (the
	// session locked, the screen saver on, or no input for
	// AwayAfterMinutes): AwayOff (the default: nothing changes), AwayWait
	// (it waits, and the user is told what was asked when back) or
	// AwayProceed (the agent is told at once to proceed with its best
	// judgment and record what it decided).
	Away string `json:"away"`
	// AwayAfterMinutes is how long without input makes the user away.
	// Default 10.
	AwayAfterMinutes int `json:"away_after_minutes"`
	// QuickReplies are the user's saved replies: put in a reply box from
	// its Quick replies menu (Alt+R) or the chips above it (only Submit
	// sends). Unset (null) is the defaults in the windows' language (i18n
	// "quick.default.*"); [] is none.
	QuickReplies []string `json:"quick_replies"`
	// FocusShortcut is the global shortcut that brings the keyboard to a
	// waiting question from any application, held while a question is
	// open: modifiers and a key, "Ctrl+Alt+F" (hotkey.Default) unless set;
	// "" turns it off (a click, the tray or the notification still do).
	FocusShortcut string `json:"focus_shortcut"`
}

// Limits of QuickReplies.
const (
	MaxQuickReplies    = 20
	MaxQuickReplyRunes = 500
)

// The choices of Settings.Away.
const (
	AwayOff     = "off"
	AwayWait    = "wait"
	AwayProceed = "proceed"
)

// ImageSettings bound attachments; every image is downscaled and
// re-encoded before it counts.
type ImageSettings struct {
	MaxCount    int `json:"max_count"`     // images per answer, default 8
	MaxEdge     int `json:"max_edge"`      // longest edge in pixels, default 1568
	MaxMiB      int `json:"max_mib"`       // one image, default 4
	MaxTotalMiB int `json:"max_total_mib"` // all images of an answer, default 16
}

// Languages the fixed phrases exist in, and Auto: the OS locale's for what
// the user reads, English for agents.
const (
	Auto               = "auto"
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
		Language:           Auto,
		ResubmitPrompt:     DefaultResubmitPrompt,
		PendingWaitSeconds: 30,
		Images:             ImageSettings{MaxCount: 8, MaxEdge: 1568, MaxMiB: 4, MaxTotalMiB: 16},
		ExtendSeconds:      300,
		RetentionDays:      30,
		RetentionImageMiB:  256,
		UILingerSeconds:    120,
		UISleep:            true,
		UIPrewarm:          true,
		Away:               AwayOff,
		AwayAfterMinutes:   10,
		FocusShortcut:      hotkey.Default,
	}
}

// Upper bounds of the settings, so that no value overflows a duration or
// makes a count unbounded (Validate reports a value beyond them).
const (
	MaxSeconds       = 86400 // every duration in seconds: 24 hours, the longest a tool's timeout may be
	MaxImageCount    = 64    // images.max_count
	MaxImageEdge     = 16384 // images.max_edge, pixels
	MaxImageMiB      = 256   // images.max_mib
	MaxImageTotalMiB = 1024  // images.max_total_mib
	MaxWaitClients   = 256   // keys of wait_seconds
	MaxTools         = 64    // names in tools
)

// DefaultTimeout is the countdown as a duration (0: none).
func (s Settings) DefaultTimeout() time.Duration {
	return time.Duration(s.TimeoutSeconds) * time.Second
}

// Decode reads the content of a settings file (name, for errors) over the
// defaults, without the environment and without checking the values
// (Validate does). Empty content gives the defaults.
func Decode(data []byte, name string) (Settings, error) {
	s := Default()
	if len(data) == 0 {
		return s, nil
	}
	if err := json.Unmarshal(data, &s); err != nil {
		return Default(), fmt.Errorf("settings file %s: %w", name, err)
	}
	return s, nil
}

// Resolve applies the environment (getenv, usually os.Getenv) over s, read
// from file (named in the errors), and checks every value. The check is
// total: every bad value is reported (errors joined), each naming its field
// and where it came from (the file or an environment variable), and a
// malformed environment variable does not skip the check of the rest. On
// any error the defaults are returned.
func (s Settings) Resolve(file string, getenv func(string) string) (Settings, error) {
	src := sources{file: "settings file " + file, env: map[string]string{}}
	errs := s.applyEnv(getenv, src.env)
	for _, fe := range s.check(src) {
		errs = append(errs, fe)
	}
	if len(errs) > 0 {
		return Default(), errors.Join(errs...)
	}
	return s, nil
}

// FieldError is one value out of range: Field is its JSON name
// ("images.max_mib", `wait_seconds["claude-code"]`), Source where it came
// from (the settings file or an environment variable; "" from Validate) and
// Problem what is wrong and what to write instead ("must be 0 (no
// countdown) or more, not -5"). Format and Args are Problem before
// formatting: a window translates Format (an English id) and formats Args.
// Every error of Load's that names a field is one.
type FieldError struct {
	Field, Source, Problem string
	Format                 string
	Args                   []any
	// Env is the environment variable that set the value ("" when the
	// file did, or from Validate): the one to fix or unset.
	Env string
}

// EnvError is an environment variable Load could not parse.
type EnvError struct {
	Name, Value, Problem string
}

func (e *EnvError) Error() string { return fmt.Sprintf("%s=%q: %s", e.Name, e.Value, e.Problem) }

// EnvVars returns the environment variables at fault in an error of Load
// (a *FieldError whose value came from one, an *EnvError), in order, and
// whether a fault lies in the file too: so a fix names the variable to
// unset instead of the file.
func EnvVars(err error) (vars []string, file bool) {
	var walk func(error)
	walk = func(err error) {
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			for _, e := range j.Unwrap() {
				walk(e)
			}
			return
		}
		var fe *FieldError
		var ee *EnvError
		switch {
		case err == nil:
		case errors.As(err, &ee):
			vars = append(vars, ee.Name)
		case errors.As(err, &fe) && fe.Env != "":
			vars = append(vars, fe.Env)
		default:
			file = true
		}
	}
	walk(err)
	return vars, file
}

func (e *FieldError) Error() string {
	if e.Source == "" {
		return e.Field + " " + e.Problem
	}
	return fmt.Sprintf("%s (%s) %s", e.Field, e.Source, e.Problem)
}

// ProblemError is a problem with a value, its message kept unformatted
// (Format, an English id to translate, and Args) as FieldError keeps it.
type ProblemError struct {
	Format string
	Args   []any
}

func (e *ProblemError) Error() string { return fmt.Sprintf(e.Format, e.Args...) }

func problem(format string, args ...any) error { return &ProblemError{Format: format, Args: args} }

// Validate reports every value of s out of range, the same checks Resolve
// (settingsfile.Load) makes, so that the file, the environment and the
// Settings window agree.
func (s Settings) Validate() []*FieldError {
	return s.check(sources{})
}

// sources names where each field's value came from: the environment
// variable that set it (env, by JSON field name), else the file.
type sources struct {
	file string
	env  map[string]string
}

func (src sources) of(field string) string {
	if v, ok := src.env[field]; ok {
		return v
	}
	return src.file
}

// applyEnv applies the environment over s, recording in fromEnv which field
// each variable set; it reports every malformed variable and goes on.
func (s *Settings) applyEnv(getenv func(string) string, fromEnv map[string]string) []error {
	var errs []error
	ints := []struct {
		name, field string
		dst         *int
	}{{"FEEDBACK_TIMEOUT", "timeout_seconds", &s.TimeoutSeconds},
		{"FEEDBACK_PENDING_WAIT", "pending_wait_seconds", &s.PendingWaitSeconds},
		{"FEEDBACK_MAX_WAIT", "max_wait_seconds", &s.MaxWaitSeconds}}
	for _, f := range ints {
		if v := getenv(f.name); v != "" {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				errs = append(errs, &EnvError{Name: f.name, Value: v, Problem: "want a whole number of seconds"})
				continue
			}
			*f.dst = n
			fromEnv[f.field] = f.name
		}
	}
	strs := []struct {
		name, field string
		dst         *string
	}{{"FEEDBACK_LANGUAGE", "language", &s.Language}, {"FEEDBACK_PROMPT_SUFFIX", "prompt_suffix", &s.PromptSuffix},
		{"FEEDBACK_RESUBMIT_PROMPT", "resubmit_prompt", &s.ResubmitPrompt},
		{"FEEDBACK_DND_SCHEDULE", "dnd_schedule", &s.DNDSchedule}}
	for _, f := range strs {
		if v := getenv(f.name); v != "" {
			*f.dst = v
			fromEnv[f.field] = f.name
		}
	}
	if v := getenv("FEEDBACK_UI_PREWARM"); v != "" {
		b, err := strconv.ParseBool(strings.TrimSpace(v))
		if err != nil {
			errs = append(errs, &EnvError{Name: "FEEDBACK_UI_PREWARM", Value: v, Problem: "want true or false (1 or 0)"})
		} else {
			s.UIPrewarm = b
			fromEnv["ui_prewarm"] = "FEEDBACK_UI_PREWARM"
		}
	}
	if v := getenv("FEEDBACK_TOOLS"); v != "" {
		s.Tools = nil
		for _, name := range strings.Split(v, ",") {
			if name = strings.TrimSpace(name); name != "" {
				s.Tools = append(s.Tools, name)
			}
		}
		fromEnv["tools"] = "FEEDBACK_TOOLS"
	}
	return errs
}

// check reports every value out of range, each naming its field and source.
func (s *Settings) check(src sources) []*FieldError {
	var errs []*FieldError
	bad := func(field, format string, args ...any) {
		errs = append(errs, &FieldError{Field: field, Source: src.of(field), Env: src.env[field],
			Problem: fmt.Sprintf(format, args...), Format: format, Args: args})
	}
	tooBig := func(field string, v, hi int) {
		if v > hi {
			bad(field, "must be at most %d, not %d", hi, v)
		}
	}
	if s.TimeoutSeconds < 0 {
		bad("timeout_seconds", "must be 0 (no countdown) or more, not %d", s.TimeoutSeconds)
	}
	tooBig("timeout_seconds", s.TimeoutSeconds, MaxSeconds)
	i := s.Images
	if i.MaxCount < 1 {
		bad("images.max_count", "must be 1 or more, not %d", i.MaxCount)
	}
	tooBig("images.max_count", i.MaxCount, MaxImageCount)
	if i.MaxEdge < 16 {
		bad("images.max_edge", "must be 16 (pixels) or more, not %d", i.MaxEdge)
	}
	tooBig("images.max_edge", i.MaxEdge, MaxImageEdge)
	if i.MaxMiB < 1 {
		bad("images.max_mib", "must be 1 or more, not %d", i.MaxMiB)
	}
	tooBig("images.max_mib", i.MaxMiB, MaxImageMiB)
	if i.MaxTotalMiB < i.MaxMiB {
		bad("images.max_total_mib", "must be at least images.max_mib (%d), not %d", i.MaxMiB, i.MaxTotalMiB)
	}
	tooBig("images.max_total_mib", i.MaxTotalMiB, MaxImageTotalMiB)
	if s.ExtendSeconds < 1 {
		bad("extend_seconds", "must be 1 or more, not %d", s.ExtendSeconds)
	}
	tooBig("extend_seconds", s.ExtendSeconds, MaxSeconds)
	if s.MaxWaitSeconds < 0 {
		bad("max_wait_seconds", "must be 0 (the per-client table) or more, not %d", s.MaxWaitSeconds)
	}
	tooBig("max_wait_seconds", s.MaxWaitSeconds, MaxSeconds)
	clients := make([]string, 0, len(s.WaitSeconds))
	for client := range s.WaitSeconds {
		clients = append(clients, client)
	}
	sort.Strings(clients)
	for _, client := range clients {
		n := s.WaitSeconds[client]
		if n < 1 || n > MaxSeconds {
			format, args := "must be 1 or more, not %d", []any{n}
			if n > MaxSeconds {
				format, args = "must be at most %d, not %d", []any{MaxSeconds, n}
			}
			errs = append(errs, &FieldError{Field: fmt.Sprintf("wait_seconds[%q]", client), Source: src.file,
				Problem: fmt.Sprintf(format, args...), Format: format, Args: args})
		}
	}
	if len(s.WaitSeconds) > MaxWaitClients {
		const format = "must list at most %d clients, not %d"
		errs = append(errs, &FieldError{Field: "wait_seconds", Source: src.file,
			Problem: fmt.Sprintf(format, MaxWaitClients, len(s.WaitSeconds)), Format: format, Args: []any{MaxWaitClients, len(s.WaitSeconds)}})
	}
	if s.PendingWaitSeconds < 1 {
		bad("pending_wait_seconds", "must be 1 or more, not %d", s.PendingWaitSeconds)
	}
	tooBig("pending_wait_seconds", s.PendingWaitSeconds, MaxSeconds)
	if len(s.Tools) > MaxTools {
		bad("tools", "must list at most %d tools, not %d", MaxTools, len(s.Tools))
	}
	if s.RetentionDays < 1 || s.RetentionDays > 36500 {
		bad("retention_days", "must be 1 to 36500 (days the history of ended questions is kept), not %d", s.RetentionDays)
	}
	if s.RetentionImageMiB < 1 || s.RetentionImageMiB > 1<<20 {
		bad("retention_image_mib", "must be 1 to 1048576 (MiB of images the database keeps), not %d", s.RetentionImageMiB)
	}
	if s.UILingerSeconds < 0 || s.UILingerSeconds > 86400 {
		bad("ui_linger_seconds", "must be 0 (quit at once) to 86400 seconds, not %d", s.UILingerSeconds)
	}
	switch s.Language {
	case Auto, English, SimplifiedChinese, TraditionalChinese:
	default:
		bad("language", "must be one of auto, en, zh-Hans, zh-Hant, not %q", s.Language)
	}
	if _, err := ParseQuietHours(s.DNDSchedule); err != nil {
		var pe *ProblemError
		if errors.As(err, &pe) {
			bad("dnd_schedule", pe.Format, pe.Args...)
		} else {
			bad("dnd_schedule", "%v", err)
		}
	}
	switch s.Away {
	case "":
		s.Away = AwayOff
	case AwayOff, AwayWait, AwayProceed:
	default:
		bad("away", "must be off, wait or proceed, not %q", s.Away)
	}
	if len(s.QuickReplies) > MaxQuickReplies {
		bad("quick_replies", "must list at most %d replies, not %d", MaxQuickReplies, len(s.QuickReplies))
	}
	for i, r := range s.QuickReplies {
		if strings.TrimSpace(r) == "" || utf8.RuneCountInString(r) > MaxQuickReplyRunes {
			bad("quick_replies", "reply %d must be 1 to %d characters", i+1, MaxQuickReplyRunes)
			break
		}
	}
	if _, _, err := hotkey.Parse(s.FocusShortcut); err != nil {
		bad("focus_shortcut", "%v", err)
	}
	if s.AwayAfterMinutes < 1 || s.AwayAfterMinutes > 1440 {
		bad("away_after_minutes", "must be 1 to 1440 minutes without input, not %d", s.AwayAfterMinutes)
	}
	if s.ResubmitPrompt == "" {
		s.ResubmitPrompt = DefaultResubmitPrompt
	}
	return errs
}
