// Package relay carries questions between a remote headless shim and the
// desktop app through an MQTT broker the user chooses, sealed end to end:
// the broker sees opaque topic names and ciphertext only.
//
// A pairing (Pair) makes two X25519 key pairs and a random pairing id. The
// desktop keeps its private key and the remote's public key (Store, a 0600
// file); the remote gets a Token carrying the desktop's public key, its
// own private key, the pairing id and the broker's address (never the
// broker's password). Those static keys seal nothing themselves: each
// stream (one call) has keys of its own, agreed by a Noise KK handshake
// (github.com/flynn/noise) whose first message travels with the question
// and whose second with the desktop's first event, with ephemeral keys on
// both sides (channel.go): what the desktop sent stays closed when a key
// leaks later. Each frame is XChaCha20-Poly1305 under its stream's key
// around a header that names the pairing, the direction, the stream, a
// sequence number and a timestamp; a guard refuses a replayed, reordered,
// stale or misdirected message, the desktop's record of the questions it
// took (seen.go) refuses a replay after a restart, and a message of a
// revoked or unknown pairing is refused before any window opens.
//
// Topics are derived from a hash of the pairing id (Topics): the
// desktop's persistent session (CleanSession=false, QoS 1) subscribes to
// each pairing's question topic, so a question asked while it was offline
// arrives when it reconnects; each remote shim process listens on a
// random reply topic of its pairing.
//
// The desktop side is a Desktop, which hands each question to a
// wire.Asker (the app's inbox) and sends its events back; the remote side
// is a Remote, itself a wire.Asker for the shim. No toolkit here: the
// headless build (CGO_ENABLED=0) links it.
package relay
