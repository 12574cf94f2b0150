package clocktest

import (
	"testing"
	"time"
)

// The fake clock fires what falls due, in order, and nothing early.
func TestClock(t *testing.T) {
	c := New()
	var got []string
	c.AfterFunc(2*time.Second, func() { got = append(got, "2s") })
	c.AfterFunc(time.Second, func() { got = append(got, "1s") })
	stopped := c.AfterFunc(time.Second, func() { got = append(got, "stopped") })
	stopped.Stop()
	tk := c.NewTicker(500 * time.Millisecond)
	c.Advance(999 * time.Millisecond)
	if len(got) != 0 {
		t.Fatalf("fired early: %v", got)
	}
	if len(tk.C()) != 1 {
		t.Fatal("the ticker did not tick")
	}
	<-tk.C()
	c.Advance(2 * time.Second)
	if len(got) != 2 || got[0] != "1s" || got[1] != "2s" {
		t.Errorf("fired %v, want [1s 2s]", got)
	}
}
