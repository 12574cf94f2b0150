package e2e

import (
	"testing"

	"feedback/internal/mqtttest"
)

// startMQTTBroker starts a real mosquitto for the test (mqtttest.Start)
// with the relay's two users: the desktop's ("desk") and the remote
// host's ("remote"). It skips, saying so, when the binary is missing (make
// e2e installs it, so CI never skips).
func startMQTTBroker(t *testing.T, extraConf ...string) *mqtttest.Broker {
	t.Helper()
	return mqtttest.Start(t, []string{"desk", "remote"}, extraConf...)
}
