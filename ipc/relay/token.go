package relay

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// TokenPrefix starts every pairing token: the format's name and version.
const TokenPrefix = "fbr1."

// ErrBadToken is matched (errors.Is) by every error of ParseToken.
var ErrBadToken = errors.New("relay: bad pairing token")

// Token is what the remote host needs to ask the desktop: printed once by
// `feedback relay pair`, given to the remote shim as FEEDBACK_RELAY. It
// never carries the broker's password: the remote reads its own from a
// file (see PasswordFile).
type Token struct {
	// Name is the pairing's name on the desktop (informative: the
	// desktop names the pairing from its own store, never from this).
	Name string `json:"n"`
	// ID is the random pairing id; the topics derive from it.
	ID Key `json:"i"`
	// DesktopPublic is the desktop's public key of this pairing.
	DesktopPublic Key `json:"d"`
	// RemotePrivate is the remote's private key of this pairing: the
	// pairing secret. Whoever holds the token can ask as this pairing,
	// until it is revoked.
	RemotePrivate Key `json:"r"`
	// Broker is the broker's URL with its user name but no password
	// (mqtt://user@host:1883, mqtts://user@host:8883).
	Broker string `json:"b"`
}

// String encodes t: TokenPrefix, then base64url of its JSON followed by
// the first 8 bytes of its SHA-256, so a damaged token is told apart from
// a wrong one.
func (t Token) String() string {
	body, _ := json.Marshal(t)
	sum := sha256.Sum256(body)
	return TokenPrefix + base64.RawURLEncoding.EncodeToString(append(body, sum[:8]...))
}

// ParseToken decodes a token made by Token.String. Any change to it (a
// character altered, cut or added) is refused with an error matching
// ErrBadToken that says what is wrong.
func ParseToken(s string) (Token, error) {
	s = strings.TrimSpace(s)
	rest, ok := strings.CutPrefix(s, TokenPrefix)
	if !ok {
		return Token{}, fmt.Errorf("%w: it does not start with %q (make one with `feedback relay pair` on the desktop)", ErrBadToken, TokenPrefix)
	}
	raw, err := base64.RawURLEncoding.DecodeString(rest)
	if err != nil || len(raw) < 9 {
		return Token{}, fmt.Errorf("%w: it is not valid base64url (was it cut or wrapped?)", ErrBadToken)
	}
	body, sum := raw[:len(raw)-8], raw[len(raw)-8:]
	want := sha256.Sum256(body)
	if string(want[:8]) != string(sum) {
		return Token{}, fmt.Errorf("%w: its checksum does not match (the token was altered or damaged)", ErrBadToken)
	}
	var t Token
	if err := json.Unmarshal(body, &t); err != nil {
		return Token{}, fmt.Errorf("%w: %v", ErrBadToken, err)
	}
	if t.ID.IsZero() || t.DesktopPublic.IsZero() || t.RemotePrivate.IsZero() {
		return Token{}, fmt.Errorf("%w: a key or the pairing id is missing", ErrBadToken)
	}
	if _, err := BrokerAddress(t.Broker); err != nil {
		return Token{}, fmt.Errorf("%w: %v", ErrBadToken, err)
	}
	return t, nil
}

// Broker is a broker's address, parsed.
type Broker struct {
	// URL is for the MQTT client: tcp://host:port or ssl://host:port.
	URL  string
	User string
	// Display is the address to show and to put in a token:
	// scheme://user@host:port, never a password.
	Display string
}

// BrokerAddress parses a broker URL: mqtt:// (or tcp://) for plain TCP,
// mqtts:// (or ssl://, tls://) for TLS; the port defaults to 1883 and
// 8883. A password in it is ignored here (ParseBrokerPassword takes it).
func BrokerAddress(s string) (Broker, error) {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		return Broker{}, fmt.Errorf("broker %q: want mqtt://[user@]host[:port] or mqtts://…", redact(s))
	}
	scheme, port := "", ""
	switch u.Scheme {
	case "mqtt", "tcp":
		scheme, port = "tcp", "1883"
	case "mqtts", "ssl", "tls":
		scheme, port = "ssl", "8883"
	default:
		return Broker{}, fmt.Errorf("broker %q: the scheme must be mqtt or mqtts", redact(s))
	}
	if u.Path != "" && u.Path != "/" {
		return Broker{}, fmt.Errorf("broker %q: no path expected", redact(s))
	}
	host := u.Host
	if u.Port() == "" {
		host += ":" + port
	}
	b := Broker{URL: scheme + "://" + host, User: u.User.Username()}
	disp := url.URL{Scheme: map[string]string{"tcp": "mqtt", "ssl": "mqtts"}[scheme], Host: host}
	if b.User != "" {
		disp.User = url.User(b.User)
	}
	b.Display = disp.String()
	return b, nil
}

// WithUser returns the broker URL s (without a password) for user.
func WithUser(s, user string) (string, error) {
	if user == "" || strings.ContainsAny(user, "@:/ ") {
		return "", fmt.Errorf("broker user %q: want a plain name", user)
	}
	u, err := url.Parse(s)
	if err != nil {
		return "", err
	}
	u.User = url.User(user)
	b, err := BrokerAddress(u.String())
	return b.Display, err
}

// ParseBrokerPassword returns the password written in a broker URL, if any.
func ParseBrokerPassword(s string) (string, bool) {
	u, err := url.Parse(s)
	if err != nil || u.User == nil {
		return "", false
	}
	return u.User.Password()
}

// redact hides a URL's password.
func redact(s string) string {
	if u, err := url.Parse(s); err == nil && u.User != nil {
		if _, ok := u.User.Password(); ok {
			u.User = url.UserPassword(u.User.Username(), "xxxxx")
			return u.String()
		}
	}
	return s
}
