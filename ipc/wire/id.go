package wire

import (
	"crypto/rand"
	"encoding/hex"
)

// NewID returns a fresh random question id (32 hex digits).
func NewID() string {
	var b [16]byte
	rand.Read(b[:]) // never fails (crypto/rand panics rather than return an error)
	return hex.EncodeToString(b[:])
}
