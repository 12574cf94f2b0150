package dnd

import (
	"testing"

	"feedback/app/clock/clocktest"
)

// One clock: the feature reads the time and arms its timers on the clock
// of the inbox it extends (core.Host.Clock), never on the wall clock.
func TestOneClock(t *testing.T) { clocktest.OneClock(t) }
