//go:build !windows && !darwin && !js && !plan9

package xgrab

import (
	"errors"
	"os"
	"testing"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"

	"feedback/internal/hotkey"
)

// On a real X server (the test's DISPLAY, say scripts/xsession.sh's): a
// chord held by one client is refused to another (what doctor reports as
// taken), and free again once let go.
func TestTakeReleaseProbe(t *testing.T) {
	if os.Getenv("DISPLAY") == "" {
		t.Skip("needs an X server (DISPLAY)")
	}
	sc, _, err := hotkey.Parse("Ctrl+Alt+Shift+F12")
	if err != nil {
		t.Fatal(err)
	}
	c, err := xgb.NewConn()
	if err != nil {
		t.Skipf("no X server: %v", err)
	}
	defer c.Close()
	root := xproto.Setup(c).DefaultScreen(c).Root
	g, err := Take(c, root, sc)
	if err != nil {
		t.Fatalf("Take: %v", err)
	}
	if err := Probe(sc); !errors.Is(err, ErrTaken) {
		t.Errorf("Probe while another client holds it = %v, want ErrTaken", err)
	}
	if !g.Matches(xproto.KeyPressEvent{Detail: g.Keycode, State: xproto.ModMaskControl | xproto.ModMask1 | xproto.ModMaskShift | xproto.ModMask2}) {
		t.Error("a press with Num Lock on is not the chord")
	}
	if g.Matches(xproto.KeyPressEvent{Detail: g.Keycode, State: xproto.ModMaskControl}) {
		t.Error("Ctrl alone with the key matched")
	}
	g.Release(c, root)
	if err := Probe(sc); err != nil {
		t.Errorf("Probe once let go = %v, want nil", err)
	}
}
