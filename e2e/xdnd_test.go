package e2e

import (
	"fmt"
	"image"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
)

// dropFiles drags paths onto the window win (an xdotool id) and drops them,
// speaking XDND version 5 as the drag source — what a file manager does.
func dropFiles(t *testing.T, win string, paths ...string) {
	t.Helper()
	id, err := strconv.ParseUint(win, 10, 32)
	if err != nil {
		t.Fatalf("window id %q: %v", win, err)
	}
	target := xproto.Window(id)
	x, err := xgb.NewConn()
	if err != nil {
		t.Fatalf("X: %v", err)
	}
	defer x.Close()
	root := xproto.Setup(x).DefaultScreen(x).Root
	atom := func(name string) xproto.Atom {
		r, err := xproto.InternAtom(x, false, uint16(len(name)), name).Reply()
		if err != nil {
			t.Fatalf("atom %s: %v", name, err)
		}
		return r.Atom
	}
	enter, position, status, drop, finished := atom("XdndEnter"), atom("XdndPosition"), atom("XdndStatus"), atom("XdndDrop"), atom("XdndFinished")
	selection, copyAction, uriList := atom("XdndSelection"), atom("XdndActionCopy"), atom("text/uri-list")

	src, err := xproto.NewWindowId(x)
	if err != nil {
		t.Fatal(err)
	}
	if err := xproto.CreateWindowChecked(x, 0, src, root, 0, 0, 1, 1, 0, xproto.WindowClassInputOnly, 0, 0, nil).Check(); err != nil {
		t.Fatalf("source window: %v", err)
	}
	defer xproto.DestroyWindow(x, src)
	if err := xproto.SetSelectionOwnerChecked(x, src, selection, xproto.TimeCurrentTime).Check(); err != nil {
		t.Fatalf("owning XdndSelection: %v", err)
	}
	send := func(typ xproto.Atom, data ...uint32) {
		for len(data) < 5 {
			data = append(data, 0)
		}
		ev := xproto.ClientMessageEvent{Format: 32, Window: target, Type: typ,
			Data: xproto.ClientMessageDataUnionData32New(data)}
		if err := xproto.SendEventChecked(x, false, target, 0, string(ev.Bytes())).Check(); err != nil {
			t.Fatalf("sending an XDND message: %v", err)
		}
	}

	events := make(chan xgb.Event, 16)
	go func() {
		for {
			ev, err := x.WaitForEvent()
			if ev == nil && err == nil {
				close(events)
				return
			}
			if ev != nil {
				events <- ev
			}
		}
	}()
	await := func(what string, match func(xgb.Event) bool) xgb.Event {
		timeout := time.After(5 * time.Second)
		for {
			select {
			case ev, ok := <-events:
				if !ok {
					t.Fatalf("X connection closed waiting for %s", what)
				}
				if match(ev) {
					return ev
				}
			case <-timeout:
				t.Fatalf("no %s from the window within 5 s", what)
			}
		}
	}
	clientMessage := func(typ xproto.Atom) func(xgb.Event) bool {
		return func(ev xgb.Event) bool {
			cm, ok := ev.(xproto.ClientMessageEvent)
			return ok && cm.Type == typ
		}
	}

	geo, err := xproto.TranslateCoordinates(x, target, root, 100, 100).Reply()
	if err != nil {
		t.Fatalf("window position: %v", err)
	}
	send(enter, uint32(src), 5<<24, uint32(uriList))
	send(position, uint32(src), 0, uint32(geo.DstX)<<16|uint32(uint16(geo.DstY)), xproto.TimeCurrentTime, uint32(copyAction))
	st := await("XdndStatus", clientMessage(status)).(xproto.ClientMessageEvent)
	if st.Data.Data32[1]&1 == 0 {
		t.Fatal("the window refused the drop (XdndStatus without accept)")
	}
	send(drop, uint32(src), 0, xproto.TimeCurrentTime)

	req := await("the request for the dropped data", func(ev xgb.Event) bool {
		_, ok := ev.(xproto.SelectionRequestEvent)
		return ok
	}).(xproto.SelectionRequestEvent)
	var list strings.Builder
	for _, p := range paths {
		fmt.Fprintf(&list, "%s\r\n", (&url.URL{Scheme: "file", Path: p}).String())
	}
	prop := req.Property
	if prop == xproto.AtomNone {
		prop = req.Target
	}
	data := []byte(list.String())
	xproto.ChangeProperty(x, xproto.PropModeReplace, req.Requestor, prop, uriList, 8, uint32(len(data)), data)
	notify := xproto.SelectionNotifyEvent{Time: req.Time, Requestor: req.Requestor, Selection: req.Selection,
		Target: req.Target, Property: prop}
	if err := xproto.SendEventChecked(x, false, req.Requestor, 0, string(notify.Bytes())).Check(); err != nil {
		t.Fatalf("answering the data request: %v", err)
	}
	await("XdndFinished", clientMessage(finished))
}

// Dropping image files on the window attaches them.
func TestDropImages(t *testing.T) {
	requireSession(t)
	a, b := writePNG(t, 640, 480), writePNG(t, 3000, 500)
	c := newMCP(t, "drop")
	res := call(c, "interactive_feedback", map[string]any{"message": "Drop the screenshots here", "header_label": "Drop"})
	win := findWindow(t, "Drop — feedback")
	activate(t, win)
	dropFiles(t, win, a, b)
	typeText(t, "two files")
	r := submitAttached(t, "Drop", 2, "drop-thumbnails", res)
	got := imageSizes(t, r)
	if len(got) != 2 || got[0].X != 640 || got[0].Y != 480 || got[1].X != 1568 || got[1].Y != 261 {
		t.Fatalf("image blocks = %v, want 640×480 and 1568×261", got)
	}
	if !strings.Contains(text(r), "Attached images: 2") {
		t.Errorf("text = %q", text(r))
	}
}

// The Attach… picker (Ctrl+O) attaches the chosen file. The app runs with
// a home holding one picture, where the picker opens; a double click on it
// chooses it.
func TestPickImage(t *testing.T) {
	requireSession(t)
	home := t.TempDir()
	src := writePNG(t, 900, 700)
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "shot.png"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	stopApp()
	t.Cleanup(stopApp) // the next tests get an app with the usual home
	c := newMCP(t, "pick", "HOME="+home)
	res := call(c, "interactive_feedback", map[string]any{"message": "Pick a file", "header_label": "Pick"})
	win := findWindow(t, "Pick — feedback")
	activate(t, win)
	// "shot" is the second item of the picker's grid, after (Parent), in a
	// 680×640 window (see the screenshot): wait until the picker is drawn
	// there.
	scr := openScreen(t)
	item := image.Rect(260, 100, 360, 190)
	before := scr.pixels(t, win, item)
	key(t, "ctrl+o")
	scr.waitRedrawn(t, win, item, before)
	screenshot(t, "picker")
	xdotool(t, "mousemove", "--window", win, "310", "143", "click", "--repeat", "2", "--delay", "80", "1")
	activate(t, win)
	r := submitAttached(t, "Pick", 1, "picked", res)
	if got := imageSizes(t, r); len(got) != 1 || got[0] != image.Pt(900, 700) {
		t.Fatalf("image blocks = %v, want one of 900×700", got)
	}
}
