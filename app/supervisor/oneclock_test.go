package supervisor

import (
	"testing"

	"feedback/app/clock/clocktest"
)

// One clock: the heartbeat, the linger time, the restarts and Close's wait
// run on Options.Clock, never on the wall clock.
func TestOneClock(t *testing.T) { clocktest.OneClock(t) }
