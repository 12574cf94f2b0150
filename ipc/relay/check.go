package relay

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"
	"github.com/eclipse/paho.mqtt.golang/packets"
)

// CheckBroker logs in to the broker at url (mqtt[s]://user@host:port) with
// password, over TLS for mqtts://, and sends itself a message on a topic
// of the relay's (fbr/…): nil when the broker took the login and passed
// the message. It uses a clean session under a client id
// of its own, so no session of the app's is touched, and disconnects
// before it returns. Its error matches ErrBrokerDown and says what to fix
// (BrokerHint).
func CheckBroker(ctx context.Context, url, password string, timeout time.Duration) error {
	b, err := BrokerAddress(url)
	if err != nil {
		return err
	}
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	o := clientOptions(b, password, "fbc-"+newStreamID()[:20], true).
		SetAutoReconnect(false).SetConnectRetry(false).SetConnectTimeout(timeout)
	c := mqtt.NewClient(o)
	t := c.Connect()
	if !waitToken(ctx, t, timeout+time.Second) {
		c.Disconnect(0)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return brokerError(b, fmt.Errorf("no answer within %v", timeout))
	}
	if err := t.Error(); err != nil {
		return brokerError(b, err)
	}
	defer c.Disconnect(250)
	// A message there and back on a topic of the relay's: mosquitto grants
	// any subscription and drops what its ACL denies without a word.
	topic := TopicsOf(randomKey()).Questions
	got := make(chan struct{}, 1)
	sub := c.Subscribe(topic, 1, func(mqtt.Client, mqtt.Message) {
		select {
		case got <- struct{}{}:
		default:
		}
	})
	if !waitToken(ctx, sub, timeout) || sub.Error() != nil {
		return brokerError(b, fmt.Errorf("subscribing to %s: %v", topic, sub.Error()))
	}
	pub := c.Publish(topic, 1, false, []byte("feedback relay broker check"))
	if !waitToken(ctx, pub, timeout) || pub.Error() != nil {
		return brokerError(b, fmt.Errorf("publishing to %s: %v", topic, pub.Error()))
	}
	select {
	case <-got:
	case <-time.After(min(timeout, 3*time.Second)):
		return fmt.Errorf("%w: %s: the broker took user %q's login but did not pass its message on %s back to it: "+
			"give the user readwrite on fbr/# in the broker's ACL (topic readwrite fbr/#)", ErrBrokerDown, b.Display, b.User, topic)
	case <-ctx.Done():
		return ctx.Err()
	}
	return nil
}

// ErrLoginRefused is matched, with ErrBrokerDown, by the error of a
// broker that refused the user or its password.
var ErrLoginRefused = errors.New("relay: the broker refused the login")

// brokerError is the error of a failed connection to b, with its hint.
func brokerError(b Broker, err error) error {
	if errors.Is(err, packets.ErrorRefusedBadUsernameOrPassword) || errors.Is(err, packets.ErrorRefusedNotAuthorised) {
		return fmt.Errorf("%w (%w): %s: %v; %s", ErrBrokerDown, ErrLoginRefused, b.Display, err, BrokerHint(b, err))
	}
	return fmt.Errorf("%w: %s: %v; %s", ErrBrokerDown, b.Display, err, BrokerHint(b, err))
}

// BrokerHint says what to fix for the connection error err to b.
func BrokerHint(b Broker, err error) string {
	tlsURL := strings.HasPrefix(b.URL, "ssl://")
	var rec tls.RecordHeaderError
	var unknownCA x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	var certErr *tls.CertificateVerificationError
	switch {
	case errors.Is(err, packets.ErrorRefusedBadUsernameOrPassword), errors.Is(err, packets.ErrorRefusedNotAuthorised):
		if b.User == "" {
			return "the broker wants a user: put it in the URL (mqtts://USER@host:port)"
		}
		return fmt.Sprintf("the broker refused user %q with this password: check the user in the URL and the password (mosquitto_passwd on the broker)", b.User)
	case errors.As(err, &rec), tlsURL && (errors.Is(err, io.EOF) || errors.Is(err, syscall.ECONNRESET)):
		return "the broker's port does not speak TLS (it answered mqtts:// without it, or closed the connection): " +
			"use mqtt:// for a plain listener, or give the broker a TLS listener (certfile, keyfile) for mqtts://"
	case errors.As(err, &unknownCA) || errors.As(err, &hostErr) || errors.As(err, &certErr):
		return "the broker's TLS certificate is not trusted here, or not for this host name: use the name its certificate is for, and a certificate from a CA this machine trusts (on Linux, SSL_CERT_FILE names another CA file)"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "nothing listens at that host and port: check the port, and that the broker runs"
	case errors.Is(err, io.EOF) || errors.Is(err, syscall.ECONNRESET):
		return "the broker closed the connection: is that port a TLS listener (then mqtts://)?"
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return "the broker's host name does not resolve here: check it"
	}
	return "check the broker's address and port, that it runs, and the firewall between"
}
