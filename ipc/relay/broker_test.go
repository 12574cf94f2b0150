package relay

import (
	"testing"

	"feedback/internal/mqtttest"
)

// startBroker starts a real mosquitto for the test (mqtttest.Start), as the
// e2e tests do, with the desktop's user "desk" and its sessions saved every
// second; Stop and Start restart it on the same port and data. The test is
// skipped, saying why, when the binary is missing (make test installs it).
func startBroker(t *testing.T, extra ...string) *mqtttest.Broker {
	t.Helper()
	return mqtttest.Start(t, []string{"desk"}, append([]string{"autosave_interval 1"}, extra...)...)
}
