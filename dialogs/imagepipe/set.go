package imagepipe

import "sync"

// Set holds the attachments of one answer, in the order added, and
// enforces the count and total-size budgets as they are added. An image
// that does not fit is refused with an error for the user; nothing is ever
// dropped silently. A Set is safe for concurrent use.
type Set struct {
	limits Limits

	mu     sync.Mutex // guards images and total
	images []Image
	total  int // sum of len(Data) over images
}

// NewSet returns an empty Set with limits l (zero fields mean the
// defaults).
func NewSet(l Limits) *Set {
	return &Set{limits: l.withDefaults()}
}

// Add appends img, or returns an [*Error] (ErrTooMany, ErrImageTooLarge or
// ErrTotalTooLarge) and leaves the Set unchanged. The per-image limit is
// checked again here so that an Image processed under other limits cannot
// slip past this Set's.
func (s *Set) Add(img Image) error {
	who := displayName(img.Name)
	n := len(img.Data)

	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.limits
	if len(s.images) >= l.MaxCount {
		return newError(ErrTooMany, who, nil,
			"%s was not attached: an answer can carry at most %d images; remove one to make room", who, l.MaxCount)
	}
	if n > l.MaxImageBytes {
		return tooLarge(who, n, l.MaxImageBytes)
	}
	if s.total+n > l.MaxTotalBytes {
		total, lim := formatOver(s.total+n, l.MaxTotalBytes)
		return newError(ErrTotalTooLarge, who, nil,
			"%s (%s) was not attached: the attachments would come to %s; the limit for one answer is %s",
			who, formatBytes(n), total, lim)
	}
	s.images = append(s.images, img)
	s.total += n
	return nil
}

// Remove removes the i-th image (in the order of [Set.Images]). An index
// out of range is ignored: the window may hold a stale index after a double
// click.
func (s *Set) Remove(i int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if i < 0 || i >= len(s.images) {
		return
	}
	s.total -= len(s.images[i].Data)
	s.images = append(s.images[:i:i], s.images[i+1:]...)
}

// Images returns the attachments in order. The slice is a copy; the image
// data is shared and must not be modified.
func (s *Set) Images() []Image {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Image(nil), s.images...)
}

// Len returns the number of attachments.
func (s *Set) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.images)
}

// TotalBytes returns the total size of the attachments' data.
func (s *Set) TotalBytes() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.total
}
