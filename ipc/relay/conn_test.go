package relay

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/eclipse/paho.mqtt.golang/packets"
)

// publishPacket is a PUBLISH of payload to topic, as a broker sends it.
func publishPacket(t *testing.T, topic string, qos byte, id uint16, payload []byte) []byte {
	t.Helper()
	p := packets.NewControlPacket(packets.Publish).(*packets.PublishPacket)
	p.TopicName, p.Qos, p.MessageID, p.Payload = topic, qos, id, payload
	var b bytes.Buffer
	if err := p.Write(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// What the broker sends passes to paho as it was, but for a PUBLISH over
// maxPacket: paho gets its topic and packet id with no payload (it
// acknowledges it, and the relay drops it), and the payload is never
// kept. Packets around it are unchanged, whatever the reads' sizes.
func TestLimitConnLeavesOutOversizedPayloads(t *testing.T) {
	var stream bytes.Buffer
	stream.Write(publishPacket(t, "fbr/a/q", 1, 7, []byte("small frame")))
	stream.Write(publishPacket(t, "fbr/a/q", 1, 8, bytes.Repeat([]byte("x"), maxPacket+1)))
	stream.Write(publishPacket(t, "fbr/a/r/b", 0, 0, bytes.Repeat([]byte("y"), 3*maxPacket)))
	stream.Write(publishPacket(t, "fbr/a/q", 1, 9, bytes.Repeat([]byte("z"), maxPacket-64)))
	stream.Write([]byte{0xd0, 0}) // PINGRESP
	server, client := net.Pipe()
	go func() { server.Write(stream.Bytes()); server.Close() }()
	var told []string
	c := newLimitConn(client, func(topic string, n int) { told = append(told, fmt.Sprintf("%s %d", topic, n)) })
	var got []string
	for {
		cp, err := packets.ReadPacket(c)
		if err != nil {
			break
		}
		switch p := cp.(type) {
		case *packets.PublishPacket:
			got = append(got, fmt.Sprintf("%s q%d #%d %d bytes", p.TopicName, p.Qos, p.MessageID, len(p.Payload)))
		default:
			got = append(got, fmt.Sprintf("%T", cp))
		}
	}
	want := []string{"fbr/a/q q1 #7 11 bytes", "fbr/a/q q1 #8 0 bytes", "fbr/a/r/b q0 #0 0 bytes",
		fmt.Sprintf("fbr/a/q q1 #9 %d bytes", maxPacket-64), "*packets.PingrespPacket"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("paho read\n%q\nwant\n%q", got, want)
	}
	if want := fmt.Sprint([]string{fmt.Sprintf("fbr/a/q %d", maxPacket+1), fmt.Sprintf("fbr/a/r/b %d", 3*maxPacket)}); fmt.Sprint(told) != want {
		t.Errorf("told %q, want %q", told, want)
	}
}

// allocated is how many bytes the test's process allocated so far.
func allocated() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.TotalAlloc
}

// Anyone with a login on the broker publishes a 48 MiB message on a
// pairing's question topic and on a remote's reply topic: neither the
// desktop nor the remote reads it whole (MQTT 3.1.1 cannot ask the broker
// to keep it away, and paho reads a whole packet before the relay sees it).
func TestRelayOversizedFrameIsNeverReadWhole(t *testing.T) {
	b := startBroker(t)
	ds := startDesk(t, b, &fakeAsker{answer: echo})
	tok := ds.pair(t, "box")
	r := dial(t, b, tok)
	const size = 48 << 20
	big := filepath.Join(t.TempDir(), "big")
	if err := os.WriteFile(big, bytes.Repeat([]byte{1, frameSealed, 0}, size/3), 0o600); err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	before := allocated()
	for _, topic := range []string{TopicsOf(tok.ID).Questions, r.reply} {
		cmd := exec.Command("mosquitto_pub", "-h", "127.0.0.1", "-p", fmt.Sprint(b.Port), "-u", "desk", "-P", b.Password("desk"),
			"-q", "1", "-t", topic, "-f", big)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("mosquitto_pub: %v: %s", err, out)
		}
	}
	// Answered, the question after the large messages (on both topics)
	// shows that both sides have taken them.
	if _, err := r.Ask(context.Background(), question("q", "still there?", time.Minute), nil); err != nil {
		t.Fatal(err)
	}
	if got := allocated() - before; got > size/2 {
		t.Errorf("the test's process allocated %d MiB while two messages of %d MiB went by: they were read whole", got>>20, size>>20)
	}
}
