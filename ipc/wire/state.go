package wire

import "time"

// Draft is the user's unfinished answer to a question: what the window
// reports as the user types, what the app keeps in its database and shows
// again after a restart. One type for the window, the UI protocol and the
// store.
type Draft struct {
	Replies []Reply `json:"replies,omitempty"`
	Images  []Image `json:"images,omitempty"`
	// UpdatedAt is when it was saved: UTC on the way out of the store;
	// zero on the way in means now.
	UpdatedAt time.Time `json:"updated_at,omitzero"`
}

// Countdown is a question window's countdown as it stands, to carry it
// across a restart of the process that shows the window: running to
// Deadline, held by the user's edit, pinned, or none (all zero).
type Countdown struct {
	// Deadline is when a running countdown reaches zero.
	Deadline time.Time `json:"deadline,omitzero"`
	// Held: an edit stopped the countdown for good; Deadline means nothing.
	Held bool `json:"held,omitzero"`
	// Pinned: the user removed the deadline; Deadline means nothing.
	Pinned bool `json:"pinned,omitzero"`
	// Left is, while Pinned, the time that was left when the user pinned,
	// given back when they unpin. Zero (a state saved without it) gives
	// back the question's whole time limit instead.
	Left time.Duration `json:"left,omitzero"`
}

// Running reports whether the countdown runs to a deadline.
func (c Countdown) Running() bool { return !c.Deadline.IsZero() && !c.Held && !c.Pinned }
