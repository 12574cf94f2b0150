package relay

import (
	"crypto/tls"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"
	"github.com/eclipse/paho.mqtt.golang/packets"
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
		SetStore(copyingStore{mqtt.NewOrderedMemoryStore()}).
		SetTLSConfig(&tls.Config{MinVersion: tls.VersionTLS12})
	return o
}

// copyingStore is paho's ordered store keeping a copy of each publish it
// is given and handing out copies. After a reconnect paho re-sends what
// its store holds, setting the DUP flag of each packet it gets from the
// store, while a publish made as the connection came back is still being
// written (which sets its length) from the packet it stored (paho v1.5.1
// stores a publish and then sends it): a data race seen with -race when a
// remote says it is back, and possible for any message sent during a
// reconnect. With copies, the worst is the same message sent twice, which
// QoS 1 allows and the receiving guard drops.
type copyingStore struct{ *mqtt.OrderedMemoryStore }

func (s copyingStore) Put(key string, p packets.ControlPacket) {
	s.OrderedMemoryStore.Put(key, copyPublish(p))
}

func (s copyingStore) Get(key string) packets.ControlPacket {
	return copyPublish(s.OrderedMemoryStore.Get(key))
}

// copyPublish returns a copy of p when it is a publish (its payload
// shared: nothing writes it), else p.
func copyPublish(p packets.ControlPacket) packets.ControlPacket {
	if pub, ok := p.(*packets.PublishPacket); ok {
		c := *pub
		return &c
	}
	return p
}
