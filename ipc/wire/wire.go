package wire

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// Limits that the server enforces on every Question.
const (
	MaxPrompts       = 4       // prompts in one question (one window)
	MaxOptions       = 25      // options in one prompt
	MaxMarkdownBytes = 1 << 20 // the Markdown of one prompt
	MaxIDBytes       = 128
	MaxProjectBytes  = 256 // Question.Project
	// MaxCallerDataBytes bounds Question.CallerData.
	MaxCallerDataBytes = 64 << 10
	// MaxOpenQuestions is how many questions the app keeps open at once,
	// those kept open for a caller to come back included; another is
	// refused with CodeTooMany.
	MaxOpenQuestions = 64
	// MaxTimeoutSeconds bounds Question.TimeoutSeconds and Ask.Wait
	// (MaxWait): 24 hours, the longest a tool's timeout may be; a bigger
	// one would overflow a time.Duration.
	MaxTimeoutSeconds = 86400
)

// Question is the normalised form of every tool dialect: one window, with
// optional context lines above one or more prompts.
type Question struct {
	// ID is chosen by the caller and identifies the question across retries:
	// asking again with an ID that is still open attaches to the same window.
	ID string `json:"id"`
	// Source names the dialect or front end that asked ("interactive_feedback", "ask").
	Source string `json:"source,omitempty"`
	// Client names the agent's MCP client, when known (from initialize's clientInfo).
	Client string `json:"client,omitempty"`
	// Title is added to the window title (header_label in interactive_feedback).
	Title string `json:"title,omitempty"`
	// Project names the project the agent works in (the basename of
	// interactive_feedback's project_directory, or of the client's first
	// root), shown in the window's context bar. At most MaxProjectBytes.
	Project string `json:"project,omitempty"`
	// Context lines are shown above the prompts (loop id, phase, objective…).
	Context []Field `json:"context,omitempty"`
	// Prompts are shown top to bottom in the one window; at least one.
	Prompts []Prompt `json:"prompts"`
	// TimeoutSeconds is the countdown: 0 means the app's default setting,
	// a negative value means no countdown.
	TimeoutSeconds int `json:"timeout_seconds,omitempty"`
	// CallerData is opaque to the app: kept with the question (across app
	// restarts too) and returned in its Answer and its EventPending, so a
	// caller that was restarted can still render the outcome (ask_human's
	// choice ids). At most MaxCallerDataBytes.
	CallerData json.RawMessage `json:"caller_data,omitempty"`
	// Call, on an approval (IsApproval), names the tool call it asks about
	// in brief; the prompt's Markdown shows it whole.
	Call *ToolCall `json:"call,omitempty"`
}

// Field is a labelled line of context.
type Field struct {
	Label string `json:"label"`
	Value string `json:"value"`
}

// PromptKind says which controls a prompt shows.
type PromptKind string

const (
	// KindText shows the options (if any) and a multi-line reply box.
	KindText PromptKind = "text"
	// KindYesNo shows Yes and No buttons and no reply box; the reply is "yes" or "no".
	KindYesNo PromptKind = "yesno"
	// KindChoice shows the options only; an option with FreeText reveals a text field.
	KindChoice PromptKind = "choice"
)

// Prompt is one question inside the window.
type Prompt struct {
	Kind PromptKind `json:"kind,omitempty"` // "" means KindText
	// Header is a short chip shown above the prompt.
	Header string `json:"header,omitempty"`
	// Markdown is the question text (GitHub-flavoured Markdown).
	Markdown string   `json:"markdown"`
	Options  []Option `json:"options,omitempty"`
	// Single makes the options exclusive (radio buttons) instead of checkboxes.
	Single bool `json:"single,omitempty"`
	// Placeholder is shown in the empty reply box.
	Placeholder string `json:"placeholder,omitempty"`
	// Prefill is the reply box's initial text (KindText): the suggested
	// answer, which the user edits or submits as it is.
	Prefill string `json:"prefill,omitempty"`
	// MinSelected and MaxSelected bound how many options a reply may
	// select (ask_multi_select's min and max); 0 is no bound. Required: a
	// reply must answer something (CheckReply says what). The caller
	// refuses a reply that breaks them; the window says so in place and
	// holds Submit back until the reply keeps them, so that what the user
	// sends is never refused. A peer that predates them ignores them, as
	// it ignores any field it does not know: an older window lets such a
	// reply through and its caller refuses it, as before.
	MinSelected int  `json:"min_selected,omitempty"`
	MaxSelected int  `json:"max_selected,omitempty"`
	Required    bool `json:"required,omitempty"`
}

// Option is one choice of a prompt.
type Option struct {
	Label       string `json:"label"`
	Description string `json:"description,omitempty"`
	// Default options are pre-selected (recommended).
	Default bool `json:"default,omitempty"`
	// FreeText options reveal a text field when selected ("Other").
	FreeText bool `json:"free_text,omitempty"`
	// Allows marks an option that approves a tool call (an approval's
	// Allow and Always allow): the window offers it only once the whole
	// call has been seen, and nothing outside the window (a notification's
	// button, a client's form) ever chooses it.
	Allows bool `json:"allows,omitempty"`
	// Rule, on an option that Allows calls like this one from now on
	// (an approval's Always allow), is the permission rule it adds
	// ("Bash(npm test)"), as the window names it; "" for an option that
	// allows this call only.
	Rule string `json:"rule,omitempty"`
}

// SourceApproval is Question.Source of a tool-call approval (package
// approval): the window shows it as a decision, with no attachments, quick
// replies or snooze, and a notification never offers its allowing options.
const SourceApproval = "approval"

// IsApproval reports whether q asks to approve a tool call.
func (q Question) IsApproval() bool { return q.Source == SourceApproval }

// Status is how a question ended.
type Status string

const (
	// StatusAnswered: the user submitted; Replies hold what they chose and typed.
	StatusAnswered Status = "answered"
	// StatusDismissed: the user closed the window or pressed Dismiss.
	StatusDismissed Status = "dismissed"
	// StatusTimeout: the countdown reached zero; the user has not answered.
	// It never carries a reply.
	StatusTimeout Status = "timeout"
	// StatusAway: the user is away, and chose (the away setting) that
	// agents proceed without them: no window opened. Not an answer.
	StatusAway Status = "away"
)

// ReasonQuit is Answer.Reason when the user quit the app while the
// question was open: it ends as StatusDismissed, by the user.
const ReasonQuit = "quit"

// Snooze is the user's "not now" for a question: its window closes and it
// comes back at Until, or, with UntilBack, when the user is back after
// being away. Its callers hear it (Answer.Snooze on a pending outcome).
type Snooze struct {
	Until     time.Time `json:"until,omitzero"`
	UntilBack bool      `json:"until_back,omitempty"`
}

// ViaNotification is Answer.Via for an answer chosen in the question's
// desktop notification.
const ViaNotification = "notification"

// Answer is the outcome of a Question.
type Answer struct {
	QuestionID string `json:"question_id"`
	Status     Status `json:"status"`
	// Auto is set when nobody pressed Submit: the countdown reached zero and,
	// with the submit_draft_on_timeout setting, the user's unfinished draft
	// was sent for them. Status is then StatusAnswered and Replies hold the
	// draft as it stood. A caller must tell the agent it is an unfinished
	// draft, not a considered answer. An empty draft is never sent.
	Auto bool `json:"auto,omitempty"`
	// Reason, when set, says why a question ended that the user did not
	// end in its own window: ReasonQuit.
	Reason string `json:"reason,omitempty"`
	// Snooze, on the pending outcome of a call whose wait ended (the
	// question stays open), says that the user snoozed the question and
	// until when. Never on an answer.
	Snooze *Snooze `json:"snooze,omitempty"`
	// Via says where the user answered when it was not the question's
	// window: ViaNotification. Empty for the window.
	Via string `json:"via,omitempty"`
	// Replies has one entry per prompt, in order, when Status is StatusAnswered.
	Replies []Reply `json:"replies,omitempty"`
	// ElapsedMS is the time from the window being shown to the outcome.
	ElapsedMS int64 `json:"elapsed_ms"`
	// Images the user attached, in order, when Status is StatusAnswered.
	Images []Image `json:"images,omitempty"`
	// CallerData is the question's CallerData, returned as it was given.
	CallerData json.RawMessage `json:"caller_data,omitempty"`
	// Notes are notes the user wrote for this client on their own ("Note
	// for an agent…" in the tray), oldest first: not an answer to this
	// question. The app attaches the pending notes of the asking client to
	// the first outcome it delivers to it, then forgets them. A caller must
	// show them to the agent apart from the answer, marked as unsolicited.
	Notes []string `json:"notes,omitempty"`
}

// Image is an attachment, already re-encoded by the app.
type Image struct {
	MIME string `json:"mime"` // "image/png" or "image/jpeg"
	Data []byte `json:"data"` // base64 in JSON
	Name string `json:"name,omitempty"`
}

// Reply is the user's answer to one prompt.
type Reply struct {
	// Selected are the labels of the chosen options, in option order.
	Selected []string `json:"selected,omitempty"`
	// Text is what the user typed (the reply box, or an option's free-text field),
	// or "yes"/"no" for KindYesNo.
	Text string `json:"text,omitempty"`
}

// ErrorCode classifies an Error so callers can react without parsing text.
type ErrorCode string

const (
	CodeInvalid   ErrorCode = "invalid"    // the question is malformed; the message says what to fix
	CodeTooMany   ErrorCode = "too_many"   // too many open questions
	CodeNoDisplay ErrorCode = "no_display" // the app cannot show windows
	CodeProtocol  ErrorCode = "protocol"   // version mismatch or a malformed request
	CodeInternal  ErrorCode = "internal"
	CodeNotFound  ErrorCode = "not_found" // an Ask.AttachOnly for a question that is neither open nor kept
	// CodeRateLimited: a client sent more messages than the app shows; the
	// message says when it may send again.
	CodeRateLimited ErrorCode = "rate_limited"
	// CodeRevoked: the relay pairing the question came through was
	// revoked on the desktop (docs/remote.md); only pairing again helps.
	// Never CodeNoDisplay: the desktop can show windows, just not to it.
	CodeRevoked ErrorCode = "revoked"
)

// Error is the body of a non-2xx response and of an EventError.
type Error struct {
	Code    ErrorCode `json:"code"`
	Message string    `json:"message"`
}

func (e *Error) Error() string { return string(e.Code) + ": " + e.Message }

// Is makes errors.Is match on the code: errors.Is(err, &Error{Code: CodeTooMany}).
func (e *Error) Is(target error) bool {
	var t *Error
	return errors.As(target, &t) && t.Code == e.Code
}

// Validate reports the first problem that makes q unusable, as an *Error
// with CodeInvalid whose message names the field and the rule.
func (q *Question) Validate() error {
	if err := q.validateFields(); err != nil {
		return err
	}
	return q.validatePrompts()
}

func invalid(format string, args ...any) error {
	return &Error{Code: CodeInvalid, Message: fmt.Sprintf(format, args...)}
}

// validateFields checks everything but the prompts.
func (q *Question) validateFields() error {
	if q.ID == "" {
		return invalid("id: must not be empty")
	}
	if len(q.ID) > MaxIDBytes {
		return invalid("id: at most %d bytes", MaxIDBytes)
	}
	if len(q.Project) > MaxProjectBytes {
		return invalid("project: at most %d bytes, got %d", MaxProjectBytes, len(q.Project))
	}
	if q.TimeoutSeconds > MaxTimeoutSeconds {
		return invalid("timeout_seconds: at most %d (24 hours), got %d", MaxTimeoutSeconds, q.TimeoutSeconds)
	}
	if len(q.CallerData) > MaxCallerDataBytes {
		return invalid("caller_data: at most %d bytes, got %d", MaxCallerDataBytes, len(q.CallerData))
	}
	if q.Call != nil {
		return q.Call.validate()
	}
	return nil
}

// validatePrompts checks the prompts.
func (q *Question) validatePrompts() error {
	if len(q.Prompts) == 0 {
		return invalid("prompts: at least one prompt is required")
	}
	if len(q.Prompts) > MaxPrompts {
		return invalid("prompts: at most %d prompts, got %d", MaxPrompts, len(q.Prompts))
	}
	for i, p := range q.Prompts {
		switch p.Kind {
		case "", KindText, KindYesNo, KindChoice:
		default:
			return invalid("prompts[%d].kind: %q is not one of text, yesno, choice", i, p.Kind)
		}
		if strings.TrimSpace(p.Markdown) == "" {
			return invalid("prompts[%d].markdown: must not be empty", i)
		}
		if len(p.Markdown) > MaxMarkdownBytes {
			return invalid("prompts[%d].markdown: at most %d bytes", i, MaxMarkdownBytes)
		}
		if !utf8.ValidString(p.Markdown) {
			return invalid("prompts[%d].markdown: must be valid UTF-8", i)
		}
		if len(p.Prefill) > MaxMarkdownBytes {
			return invalid("prompts[%d].prefill: at most %d bytes", i, MaxMarkdownBytes)
		}
		if len(p.Options) > MaxOptions {
			return invalid("prompts[%d].options: at most %d options, got %d", i, MaxOptions, len(p.Options))
		}
		if p.Kind == KindChoice && len(p.Options) == 0 {
			return invalid("prompts[%d].options: a choice prompt needs at least one option", i)
		}
		if err := p.validateRule(i); err != nil {
			return err
		}
		seen := make(map[string]bool, len(p.Options))
		for j, o := range p.Options {
			if strings.TrimSpace(o.Label) == "" {
				return invalid("prompts[%d].options[%d].label: must not be empty", i, j)
			}
			if seen[o.Label] {
				return invalid("prompts[%d].options[%d].label: %q appears twice", i, j, o.Label)
			}
			seen[o.Label] = true
		}
	}
	return nil
}

// EffectiveKind returns p.Kind with the default applied.
func (p *Prompt) EffectiveKind() PromptKind {
	if p.Kind == "" {
		return KindText
	}
	return p.Kind
}
