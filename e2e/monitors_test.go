package e2e

import (
	"fmt"
	"image"
	"strconv"
	"testing"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/randr"
	"github.com/jezek/xgb/xproto"
)

// On the screen where the user works: with two monitors, a question opens
// on the monitor under the pointer, and the cascade of the next ones stays
// within that monitor.

// twoMonitors splits the screen into two RandR 1.5 monitors, one above the
// other (the session's screen is one output: Xvfb), and returns them, the
// top one primary. The monitors go at the end of the test: the screen's own
// (automatic) monitor comes back.
func twoMonitors(t *testing.T) (top, bottom image.Rectangle) {
	t.Helper()
	return twoMonitorsAt(t, 0)
}

// twoMonitorsAt is twoMonitors with the top one split rows tall (0: half
// the screen).
func twoMonitorsAt(t *testing.T, split int) (top, bottom image.Rectangle) {
	t.Helper()
	c, err := xgb.NewConn()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	if err := randr.Init(c); err != nil {
		t.Skipf("no RandR: %v", err)
	}
	if v, err := randr.QueryVersion(c, 1, 5).Reply(); err != nil || v.MajorVersion < 1 || v.MajorVersion == 1 && v.MinorVersion < 5 {
		t.Skipf("no RandR 1.5 monitors: %+v %v", v, err)
	}
	s := xproto.Setup(c).DefaultScreen(c)
	res, err := randr.GetScreenResources(c, s.Root).Reply()
	if err != nil || len(res.Outputs) == 0 {
		t.Fatalf("RandR screen resources: %v", err)
	}
	w, h := int(s.WidthInPixels), int(s.HeightInPixels)
	if split <= 0 {
		split = h / 2
	}
	top, bottom = image.Rect(0, 0, w, split), image.Rect(0, split, w, h)
	for i, m := range []image.Rectangle{top, bottom} {
		name := fmt.Sprintf("E2E-%d", i)
		a, err := xproto.InternAtom(c, false, uint16(len(name)), name).Reply()
		if err != nil {
			t.Fatal(err)
		}
		info := randr.MonitorInfo{Name: a.Atom, Primary: i == 0, X: int16(m.Min.X), Y: int16(m.Min.Y),
			Width: uint16(m.Dx()), Height: uint16(m.Dy()), WidthInMillimeters: 340, HeightInMillimeters: 135}
		if i == 0 { // the screen's output belongs to the first: its automatic monitor goes
			info.NOutput, info.Outputs = 1, res.Outputs[:1]
		}
		if err := randr.SetMonitorChecked(c, s.Root, info).Check(); err != nil {
			t.Fatalf("RandR SetMonitor %s: %v", name, err)
		}
		t.Cleanup(func() { randr.DeleteMonitorChecked(c, s.Root, a.Atom).Check() })
	}
	return top, bottom
}

// settledFrame waits until window win's frame has settled (the same two
// reads 100 ms apart) and returns it.
func settledFrame(t *testing.T, scr *xscreen, win string) image.Rectangle {
	t.Helper()
	var last, f image.Rectangle
	waitFor(t, "window "+win+"'s frame to settle", 5*time.Second, func() bool {
		f = scr.frame(t, win)
		if f == last && !f.Empty() {
			return true
		}
		last = f
		time.Sleep(100 * time.Millisecond)
		return false
	})
	return f
}

func TestQuestionsOpenOnTheMonitorUnderThePointer(t *testing.T) {
	requireSession(t)
	startApp(t)
	scr := openScreen(t)
	top, bottom := twoMonitors(t)
	for _, tc := range []struct {
		name    string
		monitor image.Rectangle
	}{
		{"second monitor", bottom},
		{"primary monitor", top},
	} {
		t.Run(tc.name, func(t *testing.T) {
			centre := tc.monitor.Min.Add(tc.monitor.Max).Div(2)
			xdotool(t, "mousemove", strconv.Itoa(centre.X), strconv.Itoa(centre.Y+tc.monitor.Dy()/3))
			var frames []image.Rectangle
			var cancels []func()
			for i := range 3 {
				q := textQuestion(fmt.Sprintf("Monitor%d", i+1))
				_, cancel := askApp(t, q)
				cancels = append(cancels, cancel)
				t.Cleanup(cancel)
				win := findWindow(t, q.Title+" — feedback")
				f := settledFrame(t, scr, win)
				if !f.In(tc.monitor) {
					screenshot(t, shotName(t, "outside"))
					t.Fatalf("window %d's frame %v is not within the monitor under the pointer %v", i+1, f, tc.monitor)
				}
				if i == 0 {
					if c := f.Min.Add(f.Max).Div(2); abs(c.X-centre.X) > 1 || abs(c.Y-centre.Y) > 1 {
						t.Errorf("the first window's frame %v is not centred on the monitor %v", f, tc.monitor)
					}
				} else if want := frames[i-1].Min.Add(image.Pt(32, 32)); f.Min != want {
					t.Errorf("window %d's frame at %v, want a cascade step from window %d's at %v", i+1, f.Min, i, want)
				}
				frames = append(frames, f)
			}
			screenshot(t, shotName(t, "cascade"))
			for i, cancel := range cancels { // the asker goes away: its question is withdrawn
				cancel()
				windowGone(t, fmt.Sprintf("Monitor%d — feedback", i+1), 10*time.Second)
			}
		})
	}
}

// The app's own windows — Settings, History — open centred on the monitor
// under the pointer too, not on the primary one (nor across both: a small
// primary monitor on top, a large one under it that holds them).
func TestAppWindowsOpenOnTheMonitorUnderThePointer(t *testing.T) {
	requireSession(t)
	openScreen(t).waitForWindowManager(t)
	startApp(t)
	scr := openScreen(t)
	_, bottom := twoMonitorsAt(t, 300)
	centre := bottom.Min.Add(bottom.Max).Div(2)
	xdotool(t, "mousemove", strconv.Itoa(centre.X), strconv.Itoa(centre.Y+bottom.Dy()/3))
	tray := openTray(t)
	ids := tray.labels(t)
	for _, tc := range []struct{ item, title string }{{"Settings…", "feedback settings"}, {"History…", "feedback history"}} {
		tray.click(t, ids[tc.item])
		win := findWindow(t, tc.title)
		f := settledFrame(t, scr, win)
		t.Logf("%s: frame %v, the monitor under the pointer %v", tc.title, f, bottom)
		if !f.In(bottom) {
			screenshot(t, shotName(t, "outside"))
			t.Errorf("%s's frame %v is not within the monitor under the pointer %v", tc.title, f, bottom)
		} else if c := f.Min.Add(f.Max).Div(2); abs(c.X-centre.X) > 1 || abs(c.Y-centre.Y) > 1 {
			t.Errorf("%s's frame %v is not centred on the monitor %v", tc.title, f, bottom)
		}
	}
}
