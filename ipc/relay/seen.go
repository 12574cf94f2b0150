package relay

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"sync"
	"time"

	"feedback/internal/atomicfile"
	"feedback/internal/safefile"
)

// A question's frames, captured on the broker, can be published again by
// anyone there. The guard refuses them as replays while it remembers their
// stream, but it lives in memory: after the app restarts, a captured
// question still within its caller's wait would open again. So the desktop
// writes down each question it takes (its pairing and stream, and until
// when a copy of it could still be taken) in SeenFile before it opens it,
// and its guards start from that record.
//
// The other way, refusing every frame dated before the app started, would
// refuse the questions the broker queued while the desktop slept, which
// must open when it wakes; a handshake per connection would need the
// desktop awake before any question is asked. A record is the one way
// that keeps both.

// SeenFile is the desktop's record of the questions it took, in feedback's
// state directory (mode 0600).
const SeenFile = "relay-seen.json"

// Bounds on the record: questions whose caller may still wait, per pairing
// and in all. A pairing at its bound has its next questions refused until
// the oldest are over (a token holder can only stop its own pairing so).
const (
	maxSeenPerPairing = 4096
	maxSeen           = 16384
)

// ErrSeenFull: a question was refused, as the record of the questions its
// pairing (or the relay) took while their callers may wait is full.
var ErrSeenFull = fmt.Errorf("%w: too many questions of this pairing are still within their wait", ErrRefused)

// seenLog is the record of SeenFile; safe for concurrent use.
type seenLog struct {
	path string

	mu sync.Mutex // guards byTopic
	// byTopic: pairing question topic → stream → until (Unix ms).
	byTopic map[string]map[string]int64
}

// seenJSON is SeenFile's content.
type seenJSON struct {
	Version int                         `json:"v"`
	Seen    map[string]map[string]int64 `json:"seen"` // topic → stream → until, Unix ms
}

// loadSeen reads the record at path ("": none, kept in memory). A missing
// file is an empty record; one that cannot be read is an error, with an
// empty record that writes over it.
func loadSeen(path string, now time.Time) (*seenLog, error) {
	s := &seenLog{path: path, byTopic: map[string]map[string]int64{}}
	if path == "" {
		return s, nil
	}
	b, err := safefile.ReadFile(path, 8<<20)
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return s, err
	}
	var f seenJSON
	if err := json.Unmarshal(b, &f); err != nil {
		return s, fmt.Errorf("%s: %w", path, err)
	}
	for topic, streams := range f.Seen {
		for stream, until := range streams {
			if until > now.UnixMilli() {
				s.addLocked(topic, stream, until)
			}
		}
	}
	return s, nil
}

func (s *seenLog) addLocked(topic, stream string, until int64) {
	m := s.byTopic[topic]
	if m == nil {
		m = map[string]int64{}
		s.byTopic[topic] = m
	}
	m[stream] = until
}

// streams returns the streams of topic still recorded, with until when.
func (s *seenLog) streams(topic string, now time.Time) map[string]time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]time.Time{}
	for stream, until := range s.byTopic[topic] {
		if until > now.UnixMilli() {
			out[stream] = time.UnixMilli(until)
		}
	}
	return out
}

// mark records that the question of stream on topic was taken, until
// until, and writes the record to its file before it returns: an error
// (the record full, ErrSeenFull, or not written) means the question must
// not open.
func (s *seenLog) mark(topic, stream string, until, now time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for t, m := range s.byTopic {
		for st, u := range m {
			if u <= now.UnixMilli() {
				delete(m, st)
			}
		}
		if len(m) == 0 {
			delete(s.byTopic, t)
		}
		n += len(m)
	}
	if len(s.byTopic[topic]) >= maxSeenPerPairing || n >= maxSeen {
		return ErrSeenFull
	}
	s.addLocked(topic, stream, until.UnixMilli())
	if s.path == "" {
		return nil
	}
	b, err := json.Marshal(seenJSON{Version: 1, Seen: s.byTopic})
	if err == nil {
		err = atomicfile.WriteFile(s.path, b, atomicfile.Options{Perm: 0o600})
	}
	if err != nil {
		delete(s.byTopic[topic], stream)
		return fmt.Errorf("the record of the questions taken (%s) cannot be written: %w", s.path, err)
	}
	return nil
}
