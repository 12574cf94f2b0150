package uiproto

import (
	"fmt"
	"time"

	"feedback/ipc/wire"
)

// Version is the protocol's version, sent in Hello. Change it with any
// change of a message that an older or newer peer would misread.
const Version = 5

// Command is a message from the app to the UI process: one of Settings,
// Show, Withdraw, Focus, ConfirmQuit, OpenWindow, Notify, Ping, Warm, Sleep,
// Exit, or a Response (HistoryPage, HistoryImages, SettingsFile,
// SettingsSaved: requests.go).
type Command interface {
	// Type is the message's name on the wire ("show", …).
	Type() string
	command()
}

// Event is a message from the UI process to the app: one of Hello, Shown,
// DraftChanged, CountdownChanged, Done, Closed, Found, Snooze, QuitAnswer,
// AppWindows, Note, Pong, Sleeping, or a Request (HistoryQuery,
// HistoryImagesQuery, SettingsQuery, SaveSettings: requests.go).
type Event interface {
	// Type is the message's name on the wire ("hello", …).
	Type() string
	event()
}

// Commands.
type (
	// Settings are what the UI process takes from the user's settings:
	// the language of its words and the options of the question windows
	// opened from now on. The app sends them first to each UI process and
	// again whenever the settings change: the app alone reads, watches and
	// writes the settings file (the Settings window's edits reach it as
	// SaveSettings).
	Settings struct {
		// Language is the settings' choice ("": the system's).
		Language string `json:"language,omitempty"`
		// DefaultTimeout is the countdown of a question that sets none
		// (zero: none).
		DefaultTimeout time.Duration `json:"default_timeout,omitempty"`
		// Extend is what "+ time" adds to a countdown.
		Extend               time.Duration `json:"extend,omitempty"`
		SubmitDraftOnTimeout bool          `json:"submit_draft_on_timeout,omitempty"`
		Images               ImageLimits   `json:"images"`
		// QuickReplies are the user's saved replies; nil: the defaults
		// in the UI process's language.
		QuickReplies []string `json:"quick_replies,omitempty"`
		// FocusShortcut brings the keyboard to a waiting question from
		// any application ("": none).
		FocusShortcut string `json:"focus_shortcut,omitempty"`
	}
	// Show opens the window of Question, with Draft and Countdown where
	// they were (after a restart of the UI process; nil: fresh); Quiet: it
	// does not take the focus (a window shown again after a restart).
	Show struct {
		Question  wire.Question   `json:"question"`
		Draft     *wire.Draft     `json:"draft,omitempty"`
		Countdown *wire.Countdown `json:"countdown,omitempty"`
		Quiet     bool            `json:"quiet,omitempty"`
	}
	// Withdraw closes window ID without an answer; its unreported draft
	// is reported first (DraftChanged), then Closed.
	Withdraw struct {
		ID string `json:"id"`
	}
	// Focus raises window ID.
	Focus struct {
		ID string `json:"id"`
	}
	// ConfirmQuit asks the user whether to quit with Open questions open;
	// QuitAnswer answers.
	ConfirmQuit struct {
		Open int `json:"open"`
	}
	// OpenWindow opens one of the app's own windows. Note is the note
	// window's choices (WindowNote). The History and Settings windows ask
	// the app for what they show (requests.go).
	OpenWindow struct {
		Window WindowName   `json:"window"`
		Note   *NoteChoices `json:"note,omitempty"`
	}
	// Notify shows a desktop notification through the toolkit (where the
	// app has no notifier of its own).
	Notify struct {
		Title string `json:"title"`
		Body  string `json:"body,omitempty"`
	}
	// Ping asks for a Pong at once: the app's heartbeat.
	Ping struct{}
	// Warm has the UI process, with no window open, prepare its first
	// question window without showing it (ui_prewarm): the native window,
	// its GL context and a first frame of a sample question drawn off
	// screen, so that the first question opens as fast as the next ones.
	Warm struct{}
	// Sleep asks the UI process, with no window open, whether it may be
	// stopped (SIGSTOP) until the next command: it answers Sleeping.
	Sleep struct{}
	// Exit ends the UI process: every window closes (each reports its
	// unreported draft first), then its end of the channel.
	Exit struct{}
)

// Events.
type (
	// Hello is the UI process's first event: the protocol version it
	// speaks and the build it is (what `feedback version` prints).
	Hello struct {
		Protocol int    `json:"protocol"`
		Build    string `json:"build"`
	}
	// Shown: window ID is on screen; Unfocused: it did not take the focus
	// (the user was typing in another window).
	Shown struct {
		ID        string `json:"id"`
		Unfocused bool   `json:"unfocused,omitempty"`
	}
	// DraftChanged is the user's draft in window ID: its replies, and its
	// images by reference (draft.go: DraftEncoder, DraftImages).
	DraftChanged struct {
		ID      string       `json:"id"`
		Replies []wire.Reply `json:"replies,omitempty"`
		Images  []DraftImage `json:"images,omitempty"`
	}
	// CountdownChanged: window ID's countdown is now Countdown.
	CountdownChanged struct {
		ID        string         `json:"id"`
		Countdown wire.Countdown `json:"countdown"`
	}
	// Done: window ID ended with Answer (its QuestionID is ID's).
	Done struct {
		ID     string      `json:"id"`
		Answer wire.Answer `json:"answer"`
	}
	// Closed: window ID, withdrawn, is closed: nothing more comes for it.
	Closed struct {
		ID string `json:"id"`
	}
	// Found: the user first typed in window ID, edited it or came to it.
	Found struct {
		ID string `json:"id"`
	}
	// Snooze: the user snoozed window ID for Minutes, or UntilBack (until
	// they are back after being away). The window stays until the app
	// withdraws it.
	Snooze struct {
		ID        string `json:"id"`
		Minutes   int    `json:"minutes,omitempty"`
		UntilBack bool   `json:"until_back,omitempty"`
	}
	// QuitAnswer answers ConfirmQuit.
	QuitAnswer struct {
		Confirmed bool `json:"confirmed"`
	}
	// AppWindows: Open of the app's own windows are open.
	AppWindows struct {
		Open int `json:"open"`
	}
	// Note is a note the user sent from the note window, for Client (and
	// Project; "": any project of it).
	Note struct {
		Client  string `json:"client"`
		Project string `json:"project,omitempty"`
		Text    string `json:"text"`
	}
	// Pong answers Ping.
	Pong struct{}
	// Sleeping answers Sleep: the UI process may be stopped now, unless
	// Refused says why not (say, one of its windows holds the clipboard:
	// a stopped owner would hang every program that pastes).
	Sleeping struct {
		Refused string `json:"refused,omitempty"`
	}
)

// ImageLimits bound the images the user attaches in a question window.
type ImageLimits struct {
	MaxCount      int `json:"max_count"`
	MaxEdge       int `json:"max_edge"`
	MaxImageBytes int `json:"max_image_bytes"`
	MaxTotalBytes int `json:"max_total_bytes"`
}

// WindowName names one of the app's own windows (OpenWindow).
type WindowName string

// The app's own windows.
const (
	WindowHistory  WindowName = "history"
	WindowSettings WindowName = "settings"
	WindowNote     WindowName = "note"
)

// NoteChoices is what the note window offers: the clients and projects
// that asked questions, most recent first, and the notes still waiting,
// oldest first.
type NoteChoices struct {
	Targets []wire.NoteTarget `json:"targets,omitempty"`
	Waiting []wire.Note       `json:"waiting,omitempty"`
}

func (Settings) Type() string    { return "settings" }
func (Show) Type() string        { return "show" }
func (Withdraw) Type() string    { return "withdraw" }
func (Focus) Type() string       { return "focus" }
func (ConfirmQuit) Type() string { return "confirm_quit" }
func (OpenWindow) Type() string  { return "open_window" }
func (Notify) Type() string      { return "notify" }
func (Ping) Type() string        { return "ping" }
func (Warm) Type() string        { return "warm" }
func (Sleep) Type() string       { return "sleep" }
func (Exit) Type() string        { return "exit" }

func (Settings) command()    {}
func (Show) command()        {}
func (Withdraw) command()    {}
func (Focus) command()       {}
func (ConfirmQuit) command() {}
func (OpenWindow) command()  {}
func (Notify) command()      {}
func (Ping) command()        {}
func (Warm) command()        {}
func (Sleep) command()       {}
func (Exit) command()        {}

func (Hello) Type() string            { return "hello" }
func (Shown) Type() string            { return "shown" }
func (DraftChanged) Type() string     { return "draft" }
func (CountdownChanged) Type() string { return "countdown" }
func (Done) Type() string             { return "done" }
func (Closed) Type() string           { return "closed" }
func (Found) Type() string            { return "found" }
func (QuitAnswer) Type() string       { return "quit" }
func (Snooze) Type() string           { return "snooze" }
func (AppWindows) Type() string       { return "app_windows" }
func (Note) Type() string             { return "note" }
func (Pong) Type() string             { return "pong" }
func (Sleeping) Type() string         { return "sleeping" }

func (Hello) event()            {}
func (Shown) event()            {}
func (DraftChanged) event()     {}
func (CountdownChanged) event() {}
func (Done) event()             {}
func (Closed) event()           {}
func (Found) event()            {}
func (QuitAnswer) event()       {}
func (Snooze) event()           {}
func (AppWindows) event()       {}
func (Note) event()             {}
func (Pong) event()             {}
func (Sleeping) event()         {}

// MismatchError is CheckHello's error: the UI process speaks another
// protocol, or is another build, than the app (its binary was replaced
// under the running app, by an upgrade).
type MismatchError struct {
	App, UI Hello
}

func (e *MismatchError) Error() string {
	return fmt.Sprintf("the UI process is build %q (UI protocol %d), the app build %q (UI protocol %d)",
		e.UI.Build, e.UI.Protocol, e.App.Build, e.App.Protocol)
}

// CheckHello checks the UI process's Hello against the app's own (Version
// and the app's build): a *MismatchError when they differ.
func CheckHello(app, ui Hello) error {
	if app != ui {
		return &MismatchError{App: app, UI: ui}
	}
	return nil
}
