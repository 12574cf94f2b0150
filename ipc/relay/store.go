package relay

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"regexp"
	"strings"
	"time"

	"feedback/internal/atomicfile"
	"feedback/internal/safefile"
)

// Files of the desktop's relay, in feedback's config directory. Each is
// written with mode 0600.
const (
	StoreFile    = "relay.json"            // the broker's address and the pairings (their keys)
	PasswordFile = "relay-broker-password" // the broker's password, alone
	StatusFile   = "relay-status.json"     // the app's connection state (doctor reads it)
)

// maxFileBytes bounds the files read.
const maxFileBytes = 4 << 20

// State is the desktop's relay: the broker and the pairings.
type State struct {
	// Broker is the broker's URL without its password (Broker.Display).
	Broker string `json:"broker"`
	// ClientID names the desktop's persistent MQTT session.
	ClientID string    `json:"client_id"`
	Pairings []Pairing `json:"pairings"`
	// Revoked keeps the ids of revoked pairings (no keys), so their
	// messages are refused with a reason instead of being lost.
	Revoked []Revoked `json:"revoked,omitempty"`
}

// Pairing is one remote host the desktop answers.
type Pairing struct {
	Name           string    `json:"name"`
	ID             Key       `json:"id"`
	DesktopPrivate Key       `json:"desktop_private"`
	RemotePublic   Key       `json:"remote_public"`
	Created        time.Time `json:"created"`
}

// Revoked is a revoked pairing.
type Revoked struct {
	Name    string    `json:"name"`
	ID      Key       `json:"id"`
	Revoked time.Time `json:"revoked"`
	// Created is when it was paired (zero for one revoked by an older
	// release): `feedback relay list` tells pairings of one name apart.
	Created time.Time `json:"created,omitzero"`
	// RefusalKey authenticates the refusals sent to the pairing's remote
	// (refusal, refusalKeyOf): the pairing's keys are gone, and it makes
	// nothing else. Zero for a pairing revoked by an older release.
	RefusalKey Key `json:"refusal_key"`
}

var nameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$`)

// ErrNoPairing is returned by Revoke for a name no pairing has.
var ErrNoPairing = errors.New("relay: no pairing of that name")

// LoadState reads the state at path; a missing file is the empty state.
func LoadState(path string) (State, error) {
	b, err := safefile.ReadFile(path, maxFileBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return State{}, nil
	}
	if err != nil {
		return State{}, err
	}
	var s State
	if err := json.Unmarshal(b, &s); err != nil {
		return State{}, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// Save writes s to path atomically, mode 0600.
func (s State) Save(path string) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	return writeSecret(path, append(b, '\n'))
}

// writeSecret writes data to path through a temporary file synced, then
// renamed over it (atomicfile.WriteFile: the private keys survive a crash
// whole), mode 0600 in a directory of mode 0700 (created if missing).
func writeSecret(path string, data []byte) error {
	return atomicfile.WriteFile(path, data, atomicfile.Options{Perm: 0o600})
}

// WritePassword stores the broker's password at path, mode 0600.
func WritePassword(path, password string) error { return writeSecret(path, []byte(password)) }

// ReadPassword reads a password file: its first line. A file that others
// may read is refused: the broker's password must stay the user's.
func ReadPassword(path string) (string, error) {
	if fi, err := os.Stat(path); err == nil && fi.Mode().Perm()&0o077 != 0 {
		return "", fmt.Errorf("%s: mode %04o lets others read the broker's password; chmod 600 it", path, fi.Mode().Perm())
	}
	b, err := safefile.ReadFile(path, 64<<10)
	if err != nil {
		return "", err
	}
	line, _, _ := strings.Cut(string(b), "\n")
	return strings.TrimRight(line, "\r"), nil
}

// Pair adds a pairing named name (a new one replaces nothing: the name
// must be free) and returns its token for the remote host.
func (s *State) Pair(name string) (Token, error) {
	if !nameRE.MatchString(name) {
		return Token{}, fmt.Errorf("pairing name %q: use letters, digits, '.', '_' and '-' (at most 63)", name)
	}
	if s.Broker == "" {
		return Token{}, errors.New("no broker set")
	}
	for _, p := range s.Pairings {
		if p.Name == name {
			return Token{}, fmt.Errorf("a pairing named %q exists; revoke it first or choose another --name", name)
		}
	}
	s.ensureClientID()
	dpriv, rpriv := randomKey(), randomKey()
	p := Pairing{Name: name, ID: randomKey(), DesktopPrivate: dpriv, RemotePublic: publicOf(rpriv), Created: time.Now().UTC().Truncate(time.Second)}
	s.Pairings = append(s.Pairings, p)
	return Token{Name: name, ID: p.ID, DesktopPublic: publicOf(dpriv), RemotePrivate: rpriv, Broker: s.Broker}, nil
}

// SetBroker sets the broker (its URL without the password) and names the
// desktop's session if it has no name yet.
func (s *State) SetBroker(url string) error {
	b, err := BrokerAddress(url)
	if err != nil {
		return err
	}
	s.Broker = b.Display
	s.ensureClientID()
	return nil
}

func (s *State) ensureClientID() {
	if s.ClientID == "" {
		var b [8]byte
		rand.Read(b[:])
		s.ClientID = "fbd-" + hex.EncodeToString(b[:])
	}
}

// Revoke deletes the pairing named name, keeping its id among the
// revoked; ErrNoPairing when there is none.
func (s *State) Revoke(name string) error {
	for i, p := range s.Pairings {
		if p.Name == name {
			s.Pairings = append(s.Pairings[:i:i], s.Pairings[i+1:]...)
			s.Revoked = append(s.Revoked, Revoked{Name: p.Name, ID: p.ID, Revoked: time.Now().UTC().Truncate(time.Second), Created: p.Created,
				RefusalKey: refusalKeyOf(p.ID, publicOf(p.DesktopPrivate))})
			return nil
		}
	}
	return fmt.Errorf("%w: %q", ErrNoPairing, name)
}

// Status is the desktop's connection to the broker, as the app last
// wrote it (StatusFile).
type Status struct {
	Broker    string    `json:"broker"`
	Connected bool      `json:"connected"`
	Since     time.Time `json:"since,omitzero"`
	LastError string    `json:"last_error,omitempty"`
	Pairings  int       `json:"pairings"`
	PID       int       `json:"pid"`
	Updated   time.Time `json:"updated"`
}

// Running reports whether the app that wrote st still runs: a status
// left by an app that has gone says nothing of the broker now.
func (st Status) Running() bool { return alive(st.PID) }

// LoadStatus reads a status file.
func LoadStatus(path string) (Status, error) {
	b, err := safefile.ReadFile(path, 64<<10)
	if err != nil {
		return Status{}, err
	}
	var st Status
	err = json.Unmarshal(b, &st)
	return st, err
}

func (st Status) save(path string) error {
	b, _ := json.MarshalIndent(st, "", "  ")
	return writeSecret(path, append(b, '\n'))
}
