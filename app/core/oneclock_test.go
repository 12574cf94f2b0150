package core

import (
	"testing"

	"feedback/app/clock/clocktest"
)

// One clock: nothing in the core reads the time or arms a timer but
// through its clock (Options.Clock): holds, deadlines, kept answers and
// the recorder's waits alike, so that one fake clock, or synctest's
// bubble, moves them all and no test has to sleep. (Each feature keeps to
// the clock its Host gives it, and the supervisor to its own option: each
// package has the same test.)
func TestOneClock(t *testing.T) { clocktest.OneClock(t) }
