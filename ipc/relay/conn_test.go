package relay

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"fmt"
	"math/big"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"
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

// selfSigned is a certificate for 127.0.0.1 and the pool that trusts it.
func selfSigned(t *testing.T) (tls.Certificate, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "broker"}, IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, pool
}

// openConn speaks TLS as paho would (mqtts://), with the client's TLS
// configuration: a broker whose certificate it trusts is read through the
// limit, one it does not trust is refused.
func TestOpenConnTLS(t *testing.T) {
	cert, pool := selfSigned(t)
	l, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{cert}})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Write(publishPacket(t, "fbr/a/q", 0, 0, bytes.Repeat([]byte("x"), maxPacket+1)))
			c.Close()
		}
	}()
	u := &url.URL{Scheme: "ssl", Host: l.Addr().String()}
	o := mqtt.NewClientOptions().SetTLSConfig(&tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}).SetConnectTimeout(5 * time.Second)
	var told []int
	c, err := openConn(func(_ string, n int) { told = append(told, n) })(u, *o)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	cp, err := packets.ReadPacket(c)
	if err != nil {
		t.Fatal(err)
	}
	if p, ok := cp.(*packets.PublishPacket); !ok || len(p.Payload) != 0 || len(told) != 1 {
		t.Errorf("read %v, told %v: want the publish with its payload left out", cp, told)
	}
	o.SetTLSConfig(&tls.Config{MinVersion: tls.VersionTLS12}) // the system's roots: not this broker's
	if c, err := openConn(nil)(u, *o); err == nil {
		c.Close()
		t.Error("a broker with a certificate nobody trusts was not refused")
	}
}
