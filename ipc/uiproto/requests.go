package uiproto

import (
	"encoding/json"
	"time"
	"unicode/utf8"

	"feedback/ipc/wire"
)

// The app's own windows ask the app for what only it holds: the History
// window for pages of the database, the Settings window for the settings
// file's values and to save its edits (the app alone reads and writes
// both). Each such event is a Request, numbered by the UI process (Req);
// the app answers each with the Response of the same number, in the order
// it finishes them.

// Request is an event that the app answers with a Response of the same
// RequestID: HistoryQuery, HistoryImagesQuery, SettingsQuery, SaveSettings.
type Request interface {
	Event
	RequestID() uint64
}

// Response is a command that answers the Request of its RequestID:
// HistoryPage, HistoryImages, SettingsFile, SettingsSaved.
type Response interface {
	Command
	RequestID() uint64
}

// Bounds of the History window's requests and of their answers.
const (
	// MaxHistorySearchBytes is the longest search text a HistoryQuery
	// carries (Bounded cuts a longer one at a rune boundary).
	MaxHistorySearchBytes = 256
	// MaxHistoryPage is the most entries one HistoryPage holds.
	MaxHistoryPage = 100
	// MaxHistoryOffset is the farthest a HistoryQuery pages.
	MaxHistoryOffset = 100_000
	// MaxHistoryPageBytes bounds the text of one page's entries (their
	// prompts and replies): the app ends a page early past it (always
	// with at least one entry), with More set.
	MaxHistoryPageBytes = 16 << 20
	// MaxHistoryImagesBytes bounds the image bytes of one HistoryImages
	// (well under MaxMsgBytes once in base64); the images past it are
	// counted in Omitted.
	MaxHistoryImagesBytes = 48 << 20
	// MaxSettingsBytes bounds the settings in SettingsFile and
	// SaveSettings (the settings file's own bound).
	MaxSettingsBytes = 1 << 20
	// MaxRelayErrorBytes bounds RelayState.LastError.
	MaxRelayErrorBytes = 1 << 10
)

// Requests (events).
type (
	// HistoryQuery asks for the page of the asks the app kept whose text
	// holds Search (case-insensitively; "": all), newest first: Limit of
	// them (at most MaxHistoryPage) from Offset. HistoryPage answers.
	HistoryQuery struct {
		Req    uint64 `json:"req"`
		Search string `json:"search,omitempty"`
		Offset int    `json:"offset,omitempty"`
		Limit  int    `json:"limit"`
	}
	// HistoryImagesQuery asks for the images of the answer of one ask
	// (HistoryEntry.Record). HistoryImages answers.
	HistoryImagesQuery struct {
		Req    uint64 `json:"req"`
		Record string `json:"record"`
	}
	// SettingsQuery asks for the settings file's values, for the Settings
	// window to show and edit. SettingsFile answers.
	SettingsQuery struct {
		Req uint64 `json:"req"`
	}
	// SaveSettings asks the app to save the Settings window's edits:
	// Changes (package settings' Changes: the values the user changed, by
	// key) laid over the file as it is when saved, so that an edit made
	// by hand meanwhile is kept; or, when Changes is nil or the file
	// cannot be read, Values whole. Both are package settings' schema as
	// JSON. The app checks them, writes the file and answers SettingsSaved;
	// its new settings then reach the windows as every change of the file
	// does (Settings).
	SaveSettings struct {
		Req     uint64                     `json:"req"`
		Values  json.RawMessage            `json:"values"`
		Changes map[string]json.RawMessage `json:"changes,omitempty"`
	}
)

// Responses (commands).
type (
	// HistoryPage answers HistoryQuery Req: Entries, newest first, and
	// More when more follow them (ask again from Offset+len(Entries)).
	// Problem, when set, is why there are none.
	HistoryPage struct {
		Req     uint64         `json:"req"`
		Entries []HistoryEntry `json:"entries,omitempty"`
		More    bool           `json:"more,omitempty"`
		Problem HistoryProblem `json:"problem,omitempty"`
		// Error says what failed, for HistoryFailed.
		Error string `json:"error,omitempty"`
	}
	// HistoryImages answers HistoryImagesQuery Req: the answer's images
	// in order, Omitted more past MaxHistoryImagesBytes; Error when they
	// could not be read.
	HistoryImages struct {
		Req     uint64       `json:"req"`
		Images  []wire.Image `json:"images,omitempty"`
		Omitted int          `json:"omitted,omitempty"`
		Error   string       `json:"error,omitempty"`
	}
	// SettingsFile answers SettingsQuery Req: Values are the file's
	// settings over the defaults (package settings' schema as JSON,
	// without the environment's overrides); ReadError, when the file
	// could not be read (Values are then the defaults), says why. Relay is
	// the remote relay's broker connection as the app sees it (#33).
	SettingsFile struct {
		Req       uint64          `json:"req"`
		Values    json.RawMessage `json:"values"`
		ReadError string          `json:"read_error,omitempty"`
		Relay     RelayState      `json:"relay,omitzero"`
	}
	// RelayState is the relay's broker connection (docs/remote.md) for
	// the Settings window to show: Broker "" means no broker is set up;
	// else Connected (since Since) or not, and the last error the app
	// met (LastError, at most MaxRelayErrorBytes).
	RelayState struct {
		Broker    string    `json:"broker,omitempty"`
		Connected bool      `json:"connected,omitempty"`
		Since     time.Time `json:"since,omitzero"`
		LastError string    `json:"last_error,omitempty"`
	}
	// SettingsSaved answers SaveSettings Req: Error, when set, is why
	// nothing was saved (the window stays open with the user's values);
	// Values are the settings written; MovedAside is where a malformed
	// file was kept.
	SettingsSaved struct {
		Req        uint64          `json:"req"`
		Error      string          `json:"error,omitempty"`
		Values     json.RawMessage `json:"values,omitempty"`
		MovedAside string          `json:"moved_aside,omitempty"`
	}
)

// HistoryEntry is one ask the app kept, as the History window lists it:
// the question, when it was asked, its state ("open", "withdrawn",
// "message", "away" or its answer's Status) and its answer (its images
// left out: Images counts them, HistoryImagesQuery fetches them). Its
// fields are those of package history's Entry, in the same order.
type HistoryEntry struct {
	// Record identifies this ask: Question.ID for the latest ask of a
	// question, "<Question.ID>#<n>" for an earlier one.
	Record     string        `json:"record"`
	Question   wire.Question `json:"question"`
	AskedAt    time.Time     `json:"asked_at"`
	State      string        `json:"state"`
	Answer     *wire.Answer  `json:"answer,omitempty"`
	AnsweredAt time.Time     `json:"answered_at,omitzero"`
	Images     int           `json:"images,omitempty"`
}

// HistoryProblem is why a HistoryPage holds nothing.
type HistoryProblem string

// The problems of a HistoryPage.
const (
	// HistoryOff: the app keeps no database (FEEDBACK_DB=off).
	HistoryOff HistoryProblem = "off"
	// HistoryNone: no database yet (nothing was ever kept).
	HistoryNone HistoryProblem = "none"
	// HistoryFailed: the database could not be read (HistoryPage.Error).
	HistoryFailed HistoryProblem = "failed"
)

// Bounded is q within the protocol's bounds: Search cut to
// MaxHistorySearchBytes at a rune boundary, Limit from 1 to
// MaxHistoryPage, Offset from 0 to MaxHistoryOffset.
func (q HistoryQuery) Bounded() HistoryQuery {
	if len(q.Search) > MaxHistorySearchBytes {
		s := q.Search[:MaxHistorySearchBytes]
		for len(s) > 0 && !utf8.ValidString(s) {
			s = s[:len(s)-1]
		}
		q.Search = s
	}
	q.Limit = min(max(q.Limit, 1), MaxHistoryPage)
	q.Offset = min(max(q.Offset, 0), MaxHistoryOffset)
	return q
}

// TextBytes is how much prompt and reply text e holds (what
// MaxHistoryPageBytes bounds).
func (e HistoryEntry) TextBytes() int {
	n := 0
	for _, p := range e.Question.Prompts {
		n += len(p.Markdown) + len(p.Prefill)
	}
	if e.Answer != nil {
		for _, r := range e.Answer.Replies {
			n += len(r.Text)
		}
	}
	return n
}

func (HistoryQuery) Type() string       { return "history_query" }
func (HistoryImagesQuery) Type() string { return "history_images_query" }
func (SettingsQuery) Type() string      { return "settings_query" }
func (SaveSettings) Type() string       { return "save_settings" }
func (HistoryPage) Type() string        { return "history_page" }
func (HistoryImages) Type() string      { return "history_images" }
func (SettingsFile) Type() string       { return "settings_file" }
func (SettingsSaved) Type() string      { return "settings_saved" }

func (HistoryQuery) event()       {}
func (HistoryImagesQuery) event() {}
func (SettingsQuery) event()      {}
func (SaveSettings) event()       {}
func (HistoryPage) command()      {}
func (HistoryImages) command()    {}
func (SettingsFile) command()     {}
func (SettingsSaved) command()    {}

func (m HistoryQuery) RequestID() uint64       { return m.Req }
func (m HistoryImagesQuery) RequestID() uint64 { return m.Req }
func (m SettingsQuery) RequestID() uint64      { return m.Req }
func (m SaveSettings) RequestID() uint64       { return m.Req }
func (m HistoryPage) RequestID() uint64        { return m.Req }
func (m HistoryImages) RequestID() uint64      { return m.Req }
func (m SettingsFile) RequestID() uint64       { return m.Req }
func (m SettingsSaved) RequestID() uint64      { return m.Req }
