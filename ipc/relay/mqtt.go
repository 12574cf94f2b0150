package relay

import (
	"crypto/tls"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"
)

// clientOptions are the MQTT options both sides share: MQTT 3.1.1, QoS 1
// everywhere, automatic reconnection within a few seconds, and handlers
// called in order on one goroutine (each returns at once).
func clientOptions(b Broker, password, clientID string, clean bool) *mqtt.ClientOptions {
	o := mqtt.NewClientOptions().
		AddBroker(b.URL).
		SetClientID(clientID).
		SetUsername(b.User).
		SetPassword(password).
		SetCleanSession(clean).
		SetProtocolVersion(4).
		SetKeepAlive(30 * time.Second).
		SetPingTimeout(10 * time.Second).
		SetConnectTimeout(10 * time.Second).
		SetAutoReconnect(true).
		SetMaxReconnectInterval(5 * time.Second).
		SetOrderMatters(true).
		// Messages in flight when the connection broke are sent again in
		// the order they were published (the default store is a map).
		SetStore(mqtt.NewOrderedMemoryStore()).
		SetTLSConfig(&tls.Config{MinVersion: tls.VersionTLS12})
	return o
}
