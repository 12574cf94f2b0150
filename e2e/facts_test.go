package e2e

import (
	"database/sql"
	"fmt"
	"image"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jezek/xgb/xproto"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	_ "modernc.org/sqlite"

	"feedback/app/store"
	"feedback/e2e/internal/procs"
	"feedback/ipc/wire"
)

// The waits of the end-to-end tests, on facts instead of time and never
// on the app's log (its wording is for people): what the app wrote to its
// database, which windows are on screen and what they show, the app's UI
// processes, and what the MCP client is told. The focus (activate,
// keepsFocus) and the tray (waitTray) are waited on beside the code that
// drives them.

// waitFor polls ok until it holds; after within the test fails, saying
// what it waited for.
func waitFor(t *testing.T, what string, within time.Duration, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(within); !ok(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited %v for %s", within, what)
		}
	}
}

// sessionDB is the database of the session's app (XDG_DATA_HOME of env).
func sessionDB() string {
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "XDG_DATA_HOME="); ok {
			return filepath.Join(v, "feedback", "feedback.db")
		}
	}
	return ""
}

// waitDraft waits until the app's database at path holds, for an open
// question titled title, a draft that ok accepts, and returns it. A draft
// is written once the window has the user's edit (typed text, an attached
// image that has been processed).
func waitDraft(t *testing.T, path, title string, ok func(wire.Draft) bool) wire.Draft {
	t.Helper()
	s, err := store.Open(path, nil)
	if err != nil {
		t.Fatalf("opening the app's database: %v", err)
	}
	defer s.Close()
	var last wire.Draft
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		open, err := s.Open()
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range open {
			if q.Title != title {
				continue
			}
			d, found, err := s.Draft(q.ID)
			if err != nil {
				t.Fatal(err)
			}
			if found {
				last = d
				if ok(d) {
					return d
				}
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no draft as wanted for %q within 20 s; the last: %+v", title, last)
		}
	}
}

// waitStore waits until ok, given the app's database at path, holds: a
// fact the app recorded (ok's error fails the test).
func waitStore(t *testing.T, path, what string, ok func(*store.Store) (bool, error)) {
	t.Helper()
	s, err := store.Open(path, nil)
	if err != nil {
		t.Fatalf("opening the app's database: %v", err)
	}
	defer s.Close()
	waitFor(t, what+" in the app's database", 10*time.Second, func() bool {
		done, err := ok(s)
		if err != nil {
			t.Fatal(err)
		}
		return done
	})
}

// keptAnswer is the fact that question id's answer is kept for a caller
// that comes back (answered while nobody waited).
func keptAnswer(id string) func(*store.Store) (bool, error) {
	return func(s *store.Store) (bool, error) {
		_, ok, err := s.Undelivered(id)
		return ok, err
	}
}

// keptOpen is the fact that the open question titled title is kept open
// for its caller to come back (its caller's wait ran out).
func keptOpen(title string) func(*store.Store) (bool, error) {
	return func(s *store.Store) (bool, error) {
		left, err := s.LeftOpen()
		return slices.ContainsFunc(left, func(l store.Left) bool { return l.Question.Title == title && l.KeptOpen }), err
	}
}

// noteKept is the fact that a note with text waits for its agent.
func noteKept(text string) func(*store.Store) (bool, error) {
	return func(s *store.Store) (bool, error) {
		notes, err := s.Notes()
		return slices.ContainsFunc(notes, func(n wire.Note) bool { return n.Text == text }), err
	}
}

// queryDB reads the one value of query (with args) from the database at
// path into dest, read-only as another program would: it creates nothing,
// and waits at most 200 ms for a lock.
func queryDB(path string, dest any, query string, args ...any) error {
	u := url.URL{Scheme: "file", Path: path, RawQuery: "mode=ro&_pragma=busy_timeout(200)"}
	db, err := sql.Open("sqlite", u.String())
	if err != nil {
		return err
	}
	defer db.Close()
	return db.QueryRow(query, args...).Scan(dest)
}

// schemaVersion is the schema version of the database at path (0: none
// yet, or unreadable): the app's store has set it up once it is above 0.
func schemaVersion(path string) int {
	var v int
	queryDB(path, &v, "PRAGMA user_version")
	return v
}

// readable reports whether another program can read the database at path.
func readable(path string) bool {
	var n int
	return queryDB(path, &n, "SELECT count(*) FROM sqlite_master") == nil
}

// recorded reports whether the question id is in the app's database at
// path, read as another program would (through a writer's lock).
func recorded(t *testing.T, path, id string) bool {
	t.Helper()
	var n int
	if err := queryDB(path, &n, "SELECT count(*) FROM questions WHERE id = ?", id); err != nil {
		t.Fatalf("reading the app's database: %v", err)
	}
	return n > 0
}

// windowsTitled lists the visible windows titled exactly title.
func windowsTitled(title string) []string {
	out, _ := xdo("search", "--onlyvisible", "--name", "^"+regexp.QuoteMeta(title)+"$").Output()
	return strings.Fields(string(out))
}

// visibleWindows counts the visible windows titled exactly title.
func visibleWindows(title string) int { return len(windowsTitled(title)) }

// findWindow waits until exactly one visible window is titled title and returns its id.
func findWindow(t *testing.T, title string) string {
	t.Helper()
	return findWindowWithin(t, title, 20*time.Second)
}

// findWindowWithin is findWindow waiting at most within.
func findWindowWithin(t *testing.T, title string, within time.Duration) string {
	t.Helper()
	var ids []string
	waitFor(t, fmt.Sprintf("one window titled %q", title), within, func() bool {
		ids = windowsTitled(title)
		return len(ids) == 1
	})
	return ids[0]
}

// windowOtherThan waits for the one visible window titled title whose id is
// not old, and returns its id.
func windowOtherThan(t *testing.T, title, old string) string {
	t.Helper()
	var ids []string
	waitFor(t, fmt.Sprintf("one window titled %q other than %s", title, old), 20*time.Second, func() bool {
		ids = windowsTitled(title)
		return len(ids) == 1 && ids[0] != old
	})
	return ids[0]
}

// windowGone waits until no visible window is titled title.
func windowGone(t *testing.T, title string, within time.Duration) {
	t.Helper()
	waitFor(t, fmt.Sprintf("the windows titled %q to close", title), within, func() bool { return visibleWindows(title) == 0 })
}

// noWindow checks that no visible window is titled title now.
func noWindow(t *testing.T, title string) {
	t.Helper()
	if n := visibleWindows(title); n > 0 {
		t.Fatalf("%d windows %q are open", n, title)
	}
}

// windowOpens is how long a question's window takes at most, here, from
// the app's deciding to show it to its being on screen when a UI process
// runs (starting one takes longer: see uiPIDs).
const windowOpens = 2 * time.Second

// noWindowOpens checks that no window titled title opens: after a fact
// saying the app has the question (its tray entry), nothing shows for as
// long as a window takes to open. This wait proves a negative: nothing
// outside the app marks a question it decided not to show.
func noWindowOpens(t *testing.T, title string) {
	t.Helper()
	for deadline := time.Now().Add(windowOpens); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		noWindow(t, title)
	}
}

// uiPIDs returns the pids of app's UI processes.
func uiPIDs(app int) []int { return procs.UI(app) }

// waitUIPIDs waits until the app has n UI processes and returns them.
func waitUIPIDs(t *testing.T, app, n int, within time.Duration) []int {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		pids := uiPIDs(app)
		if len(pids) == n {
			return pids
		}
		if time.Now().After(deadline) {
			t.Fatalf("the app has UI processes %v, want %d", pids, n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// progressOf records the progress messages an MCP client is sent, by
// progress token.
type progressOf struct {
	mu   sync.Mutex
	msgs map[string][]string
}

// watchProgress records c's progress notifications (it takes c's
// notification handler).
func watchProgress(c *client.Client) *progressOf {
	p := &progressOf{msgs: map[string][]string{}}
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method != "notifications/progress" {
			return
		}
		token := fmt.Sprint(n.Params.AdditionalFields["progressToken"])
		m, _ := n.Params.AdditionalFields["message"].(string)
		p.mu.Lock()
		p.msgs[token] = append(p.msgs[token], m)
		p.mu.Unlock()
	})
	return p
}

// waitShown waits until the call with token is told that its window is
// on screen: the app's "shown", which the shim's heartbeat passes on
// ("window open"; run the shim with a short FEEDBACK_PROGRESS_INTERVAL).
// The app tells it once the window the caller waits on is shown: a new
// one is visible by then.
func (p *progressOf) waitShown(t *testing.T, token string) {
	t.Helper()
	waitFor(t, "progress telling call "+token+" that its window is open", 10*time.Second, func() bool {
		p.mu.Lock()
		defer p.mu.Unlock()
		return slices.ContainsFunc(p.msgs[token], func(m string) bool { return strings.HasPrefix(m, "waiting for the user — window open ") })
	})
}

// hasImages accepts a draft with n images.
func hasImages(n int) func(wire.Draft) bool {
	return func(d wire.Draft) bool { return len(d.Images) == n }
}

// hasText accepts a draft whose first reply is text.
func hasText(text string) func(wire.Draft) bool {
	return func(d wire.Draft) bool { return len(d.Replies) > 0 && d.Replies[0].Text == text }
}

// waitDraftOf is waitDraft for a question id at path.
func waitDraftOf(t *testing.T, path, id string, ok func(wire.Draft) bool) wire.Draft {
	t.Helper()
	s, err := store.Open(path, nil)
	if err != nil {
		t.Fatalf("opening the app's database: %v", err)
	}
	defer s.Close()
	var last wire.Draft
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		d, found, err := s.Draft(id)
		if err != nil {
			t.Fatal(err)
		}
		if found {
			last = d
			if ok(d) {
				return d
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no draft as wanted for %s within 20 s; the last: %+v", id, last)
		}
	}
}

// pixels grabs the rectangle r of the window win (an xdotool id).
func (s *xscreen) pixels(t *testing.T, win string, r image.Rectangle) []byte {
	t.Helper()
	id, err := strconv.ParseUint(win, 10, 32)
	if err != nil {
		t.Fatalf("window id %q: %v", win, err)
	}
	img, err := xproto.GetImage(s.x, xproto.ImageFormatZPixmap, xproto.Drawable(id),
		int16(r.Min.X), int16(r.Min.Y), uint16(r.Dx()), uint16(r.Dy()), 0xffffffff).Reply()
	if err != nil {
		t.Fatalf("GetImage: %v", err)
	}
	return img.Data
}

// warningBands are the colours of the band a question's window shows
// behind its countdown in the last minute (dialogs.WarningBand: dark and
// light theme), and nowhere else.
var warningBands = [][3]byte{{0xff, 0x98, 0x00}, {0xa8, 0x4f, 0x00}}

// warningBand reports whether win shows the countdown's last-minute band:
// a few hundred pixels of its colour in the top rows, where the countdown
// is (a small read: the X server also draws the windows).
func (s *xscreen) warningBand(t *testing.T, win string) bool {
	t.Helper()
	id, err := strconv.ParseUint(win, 10, 32)
	if err != nil {
		t.Fatalf("window id %q: %v", win, err)
	}
	g, err := xproto.GetGeometry(s.x, xproto.Drawable(id)).Reply()
	if err != nil {
		return false // gone or going: no band
	}
	img, err := xproto.GetImage(s.x, xproto.ImageFormatZPixmap, xproto.Drawable(id), 0, 0, g.Width, min(g.Height, 120), 0xffffffff).Reply()
	if err != nil {
		return false
	}
	n := 0
	for i := 0; i+3 < len(img.Data); i += 4 { // BGRX
		if slices.Contains(warningBands, [3]byte{img.Data[i+2], img.Data[i+1], img.Data[i]}) {
			n++
		}
	}
	return n >= 300
}

// waitWarningBand waits until win shows its countdown's last-minute band.
func (s *xscreen) waitWarningBand(t *testing.T, win string, within time.Duration) {
	t.Helper()
	for deadline := time.Now().Add(within); !s.warningBand(t, win); time.Sleep(250 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited %v for the last minute's band in window %s", within, win)
		}
	}
}

// waitRedrawn waits until the rectangle r of win differs from before and
// then holds still for a few frames: what was asked for is drawn there.
func (s *xscreen) waitRedrawn(t *testing.T, win string, r image.Rectangle, before []byte) {
	t.Helper()
	var prev []byte
	same := 0
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		now := s.pixels(t, win, r)
		switch {
		case string(now) == string(before):
			same = 0
		case string(now) == string(prev):
			same++
		default:
			same = 0
		}
		if same >= 3 {
			return
		}
		prev = now
		if time.Now().After(deadline) {
			t.Fatalf("the window was not redrawn at %v within 20 s", r)
		}
	}
}
