package mqtttest

import (
	"fmt"
	"io"
	"net"
	"sync"
	"testing"
)

// Proxy is one side's network to the broker: a TCP relay on a loopback port
// of its own that a client dials instead of the broker's. Cut is an outage of
// that side alone: its connections drop without a goodbye (the broker
// publishes their wills) and new ones are refused until Restore. The broker
// itself may stop and start meanwhile.
type Proxy struct {
	Port int
	b    *Broker
	l    net.Listener

	mu    sync.Mutex // guards cut and conns
	cut   bool
	conns map[net.Conn]bool
}

// Proxy starts a proxy to b until the test ends.
func (b *Broker) Proxy(t testing.TB) *Proxy {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &Proxy{Port: l.Addr().(*net.TCPAddr).Port, b: b, l: l, conns: map[net.Conn]bool{}}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go p.serve(c)
		}
	}()
	t.Cleanup(func() { l.Close(); <-done; p.Cut() })
	return p
}

// URL is the proxy's URL with userinfo, as Broker.URL.
func (p *Proxy) URL(userinfo string) string {
	return fmt.Sprintf("mqtt://%s@127.0.0.1:%d", userinfo, p.Port)
}

func (p *Proxy) serve(c net.Conn) {
	p.mu.Lock()
	if p.cut {
		p.mu.Unlock()
		c.Close()
		return
	}
	p.mu.Unlock()
	up, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", p.b.Port))
	if err != nil { // the broker is down
		c.Close()
		return
	}
	p.mu.Lock()
	if p.cut {
		p.mu.Unlock()
		c.Close()
		up.Close()
		return
	}
	p.conns[c], p.conns[up] = true, true
	p.mu.Unlock()
	var wg sync.WaitGroup
	pipe := func(dst, src net.Conn) {
		defer wg.Done()
		io.Copy(dst, src)
		dst.Close()
		src.Close()
	}
	wg.Add(2)
	go pipe(up, c)
	go pipe(c, up)
	wg.Wait()
	p.mu.Lock()
	delete(p.conns, c)
	delete(p.conns, up)
	p.mu.Unlock()
}

// Cut drops every connection through the proxy and refuses new ones until
// Restore.
func (p *Proxy) Cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cut = true
	for c := range p.conns {
		c.Close()
	}
}

// Restore lets connections through again.
func (p *Proxy) Restore() {
	p.mu.Lock()
	p.cut = false
	p.mu.Unlock()
}
