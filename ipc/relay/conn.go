package relay

import (
	"bufio"
	"crypto/tls"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"

	mqtt "github.com/eclipse/paho.mqtt.golang"
	"golang.org/x/net/proxy"
)

// maxPacket is the largest MQTT packet the relay reads whole: a frame of
// MaxFrameBytes, its topic (at most 64 KiB in MQTT) and headers.
const maxPacket = MaxFrameBytes + 66<<10

// MQTT 3.1.1 cannot tell the broker the largest packet a client takes (that
// is MQTT 5's Maximum Packet Size) and paho reads each packet whole, up to
// the protocol's 256 MiB, before the relay sees it: anyone with a login on
// the broker could make the desktop (or a remote) allocate that much per
// message it publishes on a question or reply topic. openConn puts a
// reader between paho and the network that never lets such a packet
// through whole.

// openConn dials the broker as paho does (tcp, or TLS with the client's TLS
// configuration, through a proxy named by ALL_PROXY when set) and returns a
// connection on which a PUBLISH over maxPacket reaches paho with its
// payload left out: the payload is skipped on the wire as it arrives, never
// kept, oversize is told its topic and size, and paho acknowledges an empty
// message (so the broker does not send it again), which the relay drops.
func openConn(oversize func(topic string, n int)) mqtt.OpenConnectionFunc {
	return func(uri *url.URL, o mqtt.ClientOptions) (net.Conn, error) {
		dialer := o.Dialer
		if dialer == nil {
			dialer = &net.Dialer{Timeout: o.ConnectTimeout}
		}
		var conn net.Conn
		var err error
		switch uri.Scheme {
		case "tcp", "mqtt":
			conn, err = proxy.FromEnvironmentUsing(dialer).Dial("tcp", uri.Host)
		case "ssl", "tls", "mqtts":
			if os.Getenv("all_proxy") == "" && os.Getenv("ALL_PROXY") == "" {
				conn, err = tls.DialWithDialer(dialer, "tcp", uri.Host, o.TLSConfig)
				break
			}
			if conn, err = proxy.FromEnvironmentUsing(dialer).Dial("tcp", uri.Host); err != nil {
				break
			}
			cfg := o.TLSConfig.Clone()
			if cfg.ServerName == "" {
				cfg.ServerName = uri.Hostname()
			}
			tc := tls.Client(conn, cfg)
			if err = tc.Handshake(); err != nil {
				conn.Close()
				break
			}
			conn = tc
		default:
			return nil, fmt.Errorf("relay: unknown broker scheme %q", uri.Scheme)
		}
		if err != nil {
			return nil, err
		}
		return newLimitConn(conn, oversize), nil
	}
}

// limitConn is a connection whose reads leave out the payload of every
// PUBLISH packet over maxPacket (see openConn).
type limitConn struct {
	net.Conn
	r        *bufio.Reader
	out      []byte // bytes ready for the reader: a packet's header
	pass     int    // bytes of the current packet to pass on as they come
	oversize func(topic string, n int)
}

func newLimitConn(c net.Conn, oversize func(string, int)) *limitConn {
	if oversize == nil {
		oversize = func(string, int) {}
	}
	return &limitConn{Conn: c, r: bufio.NewReaderSize(c, 32<<10), oversize: oversize}
}

// errPacket: the broker sent bytes that are not an MQTT packet.
var errPacket = errors.New("relay: malformed MQTT packet from the broker")

func (c *limitConn) Read(p []byte) (int, error) {
	for {
		switch {
		case len(p) == 0:
			return 0, nil
		case len(c.out) > 0:
			n := copy(p, c.out)
			c.out = c.out[n:]
			return n, nil
		case c.pass > 0:
			n, err := c.r.Read(p[:min(len(p), c.pass)])
			c.pass -= n
			return n, err
		}
		if err := c.next(); err != nil {
			return 0, err
		}
	}
}

// next reads the next packet's fixed header and sets what to pass on.
func (c *limitConn) next() error {
	first, err := c.r.ReadByte()
	if err != nil {
		return err
	}
	header := []byte{first}
	remaining, shift := 0, 0
	for {
		b, err := c.r.ReadByte()
		if err != nil {
			return err
		}
		header = append(header, b)
		remaining |= int(b&0x7f) << shift
		if b&0x80 == 0 {
			break
		}
		if shift += 7; shift > 21 {
			return errPacket
		}
	}
	const publish = 3
	if remaining <= maxPacket {
		c.out, c.pass = header, remaining
		return nil
	}
	if first>>4 != publish { // no broker sends another packet this large
		return errPacket
	}
	// A PUBLISH too large: its variable header (topic, packet id) is
	// kept, its payload skipped.
	var tl [2]byte
	if _, err := io.ReadFull(c.r, tl[:]); err != nil {
		return err
	}
	vh := 2 + int(binary.BigEndian.Uint16(tl[:]))
	if first>>1&3 > 0 {
		vh += 2
	}
	if vh > remaining {
		return errPacket
	}
	rest := make([]byte, vh)
	copy(rest, tl[:])
	if _, err := io.ReadFull(c.r, rest[2:]); err != nil {
		return err
	}
	if _, err := io.CopyN(io.Discard, c.r, int64(remaining-vh)); err != nil {
		return err
	}
	topic := rest[2 : 2+int(binary.BigEndian.Uint16(tl[:]))]
	c.oversize(string(topic), remaining-vh)
	c.out = append(append([]byte{first}, packetLength(vh)...), rest...)
	return nil
}

// packetLength is n as an MQTT remaining length.
func packetLength(n int) []byte {
	var out []byte
	for {
		b := byte(n & 0x7f)
		if n >>= 7; n > 0 {
			b |= 0x80
		}
		out = append(out, b)
		if n == 0 {
			return out
		}
	}
}
