package mcpshim

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"feedback/internal/atomicfile"
	"feedback/internal/safefile"
	"feedback/internal/userdirs"
)

// The key that signs the requestState of the no-GUI form
// (fallback_mrtr.go): 32 random bytes in a file of the user's own, made
// by the first shim that needs it and read by every later one, so a retry
// served by a restarted shim, or by another shim of the same user, is
// verified, and nothing else can mint a state the shim accepts.
//
// It is a file and not a secret the app hands out over its socket because
// the form is the fallback for when no app can be reached (no display, a
// container, SSH): the shim must sign and verify with no app running. It
// lives in the data directory (beside feedback.db, never synced like the
// settings), mode 0600 in a directory of mode 0700; a key readable by
// other users, a link or a special file is refused, and the form with it.
// Processes of the same user can read it, as they can the database: the
// key guards against a client that replays or edits a state, not against
// the user's own programs.

// formKeyFile is the key's name in the data directory.
const formKeyFile = "form-state.key"

// formKeySize is the key's length in bytes (HMAC-SHA256's block is 64;
// 32 is its output and plenty).
const formKeySize = 32

// formKeys is this process's key, loaded (or made) on first use.
var formKeys = &keyFile{}

// keyFile is a key kept in a file; path "" is formKeyFile in the user's
// data directory.
type keyFile struct {
	path string

	mu  sync.Mutex // guards key
	key []byte     // nil until loaded
}

// errBadFormKey: the key file exists but is not one the shim made.
var errBadFormKey = errors.New("the form key file is not a key of this user")

// get returns the key, reading the file or, when there is none, making it.
// A failure is retried on the next call.
func (k *keyFile) get() ([]byte, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.key != nil {
		return k.key, nil
	}
	path := k.path
	if path == "" {
		d, err := userdirs.Current()
		if err != nil {
			return nil, err
		}
		path = filepath.Join(d.Data, formKeyFile)
	}
	key, err := readFormKey(path)
	if errors.Is(err, fs.ErrNotExist) {
		key, err = makeFormKey(path)
	}
	if err != nil {
		return nil, fmt.Errorf("the key that signs the form's state: %w", err)
	}
	k.key = key
	return key, nil
}

// readFormKey reads the key at path: a regular file of formKeySize bytes
// that only its owner can read (on systems with Unix permissions).
func readFormKey(path string) ([]byte, error) {
	if err := safefile.Check(path); err != nil {
		return nil, err
	}
	if runtime.GOOS != "windows" {
		fi, err := os.Lstat(path)
		if err != nil {
			return nil, err
		}
		if fi.Mode().Perm()&0o077 != 0 {
			return nil, fmt.Errorf("%w: %s has mode %v, want 0600 (remove it: a new key is made)", errBadFormKey, path, fi.Mode().Perm())
		}
	}
	key, err := safefile.ReadFile(path, formKeySize)
	if err != nil {
		return nil, err
	}
	if len(key) != formKeySize {
		return nil, fmt.Errorf("%w: %s holds %d bytes, want %d (remove it: a new key is made)", errBadFormKey, path, len(key), formKeySize)
	}
	return key, nil
}

// makeFormKey makes a new key at path, where there was none: written in
// full to a file of its own, then linked to path, so another shim making
// one at the same moment either wins (and both read its key) or loses;
// no reader ever sees half a key.
func makeFormKey(path string) ([]byte, error) {
	key := make([]byte, formKeySize)
	rand.Read(key) // never fails (crypto/rand)
	// Exclusive: linked to path, never replacing a key made meanwhile
	// (without hard links, a rename: the key read back is the one kept).
	if err := atomicfile.WriteFile(path, key, atomicfile.Options{Perm: 0o600, Exclusive: true}); err != nil {
		return nil, err
	}
	return readFormKey(path)
}
