//go:build linux

package notification

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/godbus/dbus/v5"
)

// The freedesktop Notifications service.
const (
	busName    = "org.freedesktop.Notifications"
	objectPath = dbus.ObjectPath("/org/freedesktop/Notifications")
	iface      = "org.freedesktop.Notifications"
)

const (
	// maxTracked bounds the notifications whose callbacks are kept (a
	// server may never report some closed); the oldest are forgotten.
	maxTracked = 256
	// maxEarly bounds the signals kept while a Show waits for its ID.
	maxEarly = 32
)

// Notifier sends desktop notifications over the session bus. It connects on
// the first Show and again after the bus connection is lost. Its methods are
// safe for concurrent use.
type Notifier struct {
	cfg  Config
	icon *imageData
	dial chan struct{} // a one-slot semaphore held while connecting
	// hung is set while a connection attempt that timed out still runs
	// (a bus that accepted and never answered): no second one starts.
	hung atomic.Bool

	mu       sync.Mutex // guards the fields below
	link     *link      // the current connection, or nil
	tracked  map[ID]*tracked
	order    []ID           // tracked's keys, oldest first
	inflight int            // Notify calls under way
	early    []*dbus.Signal // signals for IDs not yet known while inflight > 0
	closed   bool
}

// link is one connection to the bus and what it learnt of the server.
type link struct {
	conn   *dbus.Conn
	sigs   chan *dbus.Signal // from the bus, closed when conn closes
	replay chan *dbus.Signal // early signals handed back to the dispatcher
	owner  string            // the server's unique name, "" before the first Show; guarded by Notifier.mu
	caps   serverCaps        // what the server does; guarded by Notifier.mu
}

// serverCaps is what GetCapabilities told of the server.
type serverCaps struct {
	markup  bool // it parses markup in bodies ("body-markup")
	actions bool // it shows actions ("actions")
	reply   bool // it offers inline replies ("inline-reply")
}

func capsOf(list []string) serverCaps {
	return serverCaps{
		markup:  slices.Contains(list, "body-markup"),
		actions: slices.Contains(list, "actions"),
		reply:   slices.Contains(list, "inline-reply"),
	}
}

// tracked is a notification shown whose callbacks wait for its signals.
type tracked struct {
	onClick  func()
	onAction func(key string)
	onReply  func(text string)
	onClosed func(CloseReason)
}

func (t *tracked) empty() bool {
	return t.onClick == nil && t.onAction == nil && t.onReply == nil && t.onClosed == nil
}

// New returns a Notifier for cfg. It does no I/O: the bus is reached on the
// first Show. It fails only on a Config.Icon that is not a usable PNG.
func New(cfg Config) (*Notifier, error) {
	n := &Notifier{cfg: cfg, dial: make(chan struct{}, 1), tracked: map[ID]*tracked{}}
	if len(cfg.Icon) > 0 {
		icon, err := decodeIcon(cfg.Icon)
		if err != nil {
			return nil, err
		}
		n.icon = icon
	}
	return n, nil
}

// Show shows note and returns its ID. It returns within Config.Timeout (or
// ctx's deadline, if sooner) with ErrTimeout when the bus or the server is
// slow, ErrNoBus without a session bus, ErrNoServer without a notification
// server. A notification whose Show timed out may still appear; its
// callbacks are not called.
func (n *Notifier) Show(ctx context.Context, note Notification) (ID, error) {
	ctx, cancel := context.WithTimeout(ctx, n.cfg.timeout())
	defer cancel()
	l, err := n.connect(ctx)
	if err != nil {
		return 0, err
	}
	caps, err := n.meetServer(ctx, l)
	if err != nil {
		return 0, err
	}
	t := &tracked{onClick: note.OnClick, onClosed: note.OnClosed}
	actions := []string{}
	if note.OnClick != nil {
		actions = append(actions, keyDefault, "Show")
	}
	if caps.actions {
		shown := 0
		for _, a := range note.Actions {
			if a.Key == keyDefault || a.Key == keyReply || a.Key == "" {
				continue
			}
			if shown++; shown > MaxActions {
				break
			}
			actions = append(actions, a.Key, clean(a.Label, MaxActionRunes, 1))
			t.onAction = note.OnAction
		}
	}
	hints := n.hints(note)
	if caps.reply && note.OnReply != nil && note.ReplyLabel != "" {
		actions = append(actions, keyReply, clean(note.ReplyLabel, MaxActionRunes, 1))
		if p := clean(note.ReplyPlaceholder, MaxActionRunes, 1); p != "" {
			hints["x-kde-reply-placeholder-text"] = dbus.MakeVariant(p)
		}
		t.onReply = note.OnReply
	}
	body := clean(note.Body, MaxBodyRunes, MaxBodyLines)
	if caps.markup {
		body = escapeMarkup(body)
	}
	n.mu.Lock()
	n.inflight++
	n.mu.Unlock()
	var id uint32
	err = l.conn.Object(busName, objectPath).CallWithContext(ctx, iface+".Notify", 0,
		n.cfg.appName(), uint32(note.Replaces), n.appIcon(),
		inertSummary(clean(note.Summary, MaxSummaryRunes, 1)), body,
		actions, hints, expireMillis(note.Expire)).Store(&id)

	n.mu.Lock()
	n.inflight--
	var replay []*dbus.Signal
	if err == nil && n.link == l && !n.closed && !t.empty() {
		n.track(ID(id), t)
		kept := n.early[:0]
		for _, sig := range n.early {
			if sigID, ok := signalID(sig); ok && sigID == ID(id) {
				replay = append(replay, sig)
			} else {
				kept = append(kept, sig)
			}
		}
		n.early = kept
	}
	if err == nil && t.empty() {
		n.untrack(ID(id)) // it replaced one whose callbacks no longer apply
	}
	if n.inflight == 0 {
		n.early = nil
	}
	n.mu.Unlock()
	if err != nil {
		return 0, n.callError(ctx, "Notify", err)
	}
	for _, sig := range replay {
		select {
		case l.replay <- sig:
		default: // the dispatcher is far behind: the signal is lost
		}
	}
	return ID(id), nil
}

// Dismiss closes the notification id (CloseNotification); its OnClosed is
// called with ClosedByCall when the server confirms. Bounded like Show.
func (n *Notifier) Dismiss(ctx context.Context, id ID) error {
	ctx, cancel := context.WithTimeout(ctx, n.cfg.timeout())
	defer cancel()
	l, err := n.connect(ctx)
	if err != nil {
		return err
	}
	call := l.conn.Object(busName, objectPath).CallWithContext(ctx, iface+".CloseNotification", 0, uint32(id))
	if call.Err != nil {
		return n.callError(ctx, "CloseNotification", call.Err)
	}
	return nil
}

// Close disconnects from the bus. Callbacks of the notifications shown are
// forgotten: none starts after Close returns, unless one was already being
// dispatched. Show and Dismiss then return ErrClosed.
func (n *Notifier) Close() error {
	n.mu.Lock()
	l := n.link
	n.closed, n.link = true, nil
	n.tracked, n.order, n.early = map[ID]*tracked{}, nil, nil
	n.mu.Unlock()
	if l != nil {
		return l.conn.Close()
	}
	return nil
}

// connect returns the live link, connecting (again) when there is none.
func (n *Notifier) connect(ctx context.Context) (*link, error) {
	select {
	case n.dial <- struct{}{}:
		defer func() { <-n.dial }()
	case <-ctx.Done():
		return nil, n.timeoutError(ctx, "connecting to the session bus")
	}
	n.mu.Lock()
	l, closed := n.link, n.closed
	n.mu.Unlock()
	switch {
	case closed:
		return nil, ErrClosed
	case l != nil && l.conn.Connected():
		return l, nil
	}
	addr, err := n.cfg.busAddress()
	if err != nil {
		return nil, err
	}
	if n.hung.Load() {
		return nil, fmt.Errorf("%w (an earlier connection to the session bus at %s still waits for an answer)", ErrTimeout, addr)
	}
	type dialed struct {
		conn *dbus.Conn
		err  error
	}
	done := make(chan dialed, 1)
	go func() {
		conn, err := dbus.Connect(addr, dbus.WithSignalHandler(dbus.NewSequentialSignalHandler()))
		done <- dialed{conn, err}
	}()
	var conn *dbus.Conn
	select {
	case d := <-done:
		if d.err != nil {
			return nil, fmt.Errorf("%w at %s: %v", ErrNoBus, addr, d.err)
		}
		conn = d.conn
	case <-ctx.Done():
		n.hung.Store(true)
		go func() { // the dial may finish later: close what it opens
			if d := <-done; d.conn != nil {
				d.conn.Close()
			}
			n.hung.Store(false)
		}()
		return nil, n.timeoutError(ctx, "connecting to the session bus at "+addr)
	}
	err = conn.AddMatchSignalContext(ctx,
		dbus.WithMatchSender(busName), dbus.WithMatchObjectPath(objectPath), dbus.WithMatchInterface(iface))
	if err != nil {
		conn.Close()
		return nil, n.callError(ctx, "AddMatch", err)
	}
	l = &link{conn: conn, sigs: make(chan *dbus.Signal, 16), replay: make(chan *dbus.Signal, maxEarly)}
	conn.Signal(l.sigs)
	n.mu.Lock()
	if n.closed {
		n.mu.Unlock()
		conn.Close()
		return nil, ErrClosed
	}
	old := n.link
	n.link = l
	n.tracked, n.order, n.early = map[ID]*tracked{}, nil, nil // the old connection's IDs are dead
	n.mu.Unlock()
	if old != nil {
		old.conn.Close()
	}
	go n.dispatch(l)
	return l, nil
}

// meetServer makes sure a notification server runs (starting it by D-Bus
// activation if need be), learns its unique name and capabilities when it
// is new, and reports whether it parses markup in bodies. A new server
// forgets the old one's notifications.
func (n *Notifier) meetServer(ctx context.Context, l *link) (caps serverCaps, err error) {
	bus := l.conn.BusObject()
	var owner string
	err = bus.CallWithContext(ctx, "org.freedesktop.DBus.GetNameOwner", 0, busName).Store(&owner)
	if err != nil {
		if !isDBusError(err, "org.freedesktop.DBus.Error.NameHasNoOwner") {
			return serverCaps{}, n.callError(ctx, "GetNameOwner", err)
		}
		// Not running: a call to the name starts it if a .service file
		// says how.
		if err := n.capabilities(ctx, l, nil); err != nil {
			return serverCaps{}, err
		}
		if err := bus.CallWithContext(ctx, "org.freedesktop.DBus.GetNameOwner", 0, busName).Store(&owner); err != nil {
			return serverCaps{}, n.callError(ctx, "GetNameOwner", err)
		}
	}
	n.mu.Lock()
	same, caps := l.owner == owner, l.caps
	n.mu.Unlock()
	if same {
		return caps, nil
	}
	var list []string
	if err := n.capabilities(ctx, l, &list); err != nil {
		return serverCaps{}, err
	}
	caps = capsOf(list)
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.link == l && l.owner != owner { // another Show may have met it meanwhile
		if l.owner != "" {
			n.tracked, n.order, n.early = map[ID]*tracked{}, nil, nil
		}
		l.owner, l.caps = owner, caps
	}
	return caps, nil
}

// capabilities calls GetCapabilities, storing the answer in caps if not nil.
func (n *Notifier) capabilities(ctx context.Context, l *link, caps *[]string) error {
	var got []string
	if err := l.conn.Object(busName, objectPath).CallWithContext(ctx, iface+".GetCapabilities", 0).Store(&got); err != nil {
		return n.callError(ctx, "GetCapabilities", err)
	}
	if caps != nil {
		*caps = got
	}
	return nil
}

// dispatch calls the callbacks the server's signals ask for, one at a time,
// until the connection closes.
func (n *Notifier) dispatch(l *link) {
	for {
		var sig *dbus.Signal
		select {
		case s, ok := <-l.sigs:
			if !ok {
				return
			}
			sig = s
		case sig = <-l.replay:
		}
		n.handle(l, sig)
	}
}

// handle acts on one signal.
func (n *Notifier) handle(l *link, sig *dbus.Signal) {
	id, ok := signalID(sig)
	if !ok || sig.Path != objectPath {
		return
	}
	n.mu.Lock()
	if n.link != l || n.closed || sig.Sender != l.owner {
		n.mu.Unlock()
		return
	}
	t := n.tracked[id]
	if t == nil {
		if n.inflight > 0 && len(n.early) < maxEarly {
			n.early = append(n.early, sig)
		}
		n.mu.Unlock()
		return
	}
	var onClick, onClosed func()
	switch sig.Name {
	case iface + ".ActionInvoked":
		switch key, _ := sig.Body[1].(string); {
		case key == keyDefault:
			onClick = t.onClick
		case key == keyReply: // the reply itself comes in NotificationReplied
		case t.onAction != nil:
			onClick = func() { t.onAction(key) }
		}
	case iface + ".NotificationReplied":
		if text, _ := sig.Body[1].(string); t.onReply != nil {
			onClick = func() { t.onReply(text) }
		}
	case iface + ".NotificationClosed":
		reason, _ := sig.Body[1].(uint32)
		n.untrack(id)
		if t.onClosed != nil {
			onClosed = func() { t.onClosed(CloseReason(reason)) }
		}
	}
	n.mu.Unlock()
	if onClick != nil {
		onClick()
	}
	if onClosed != nil {
		onClosed()
	}
}

// signalID reads the notification ID of an ActionInvoked (u s),
// NotificationReplied (u s) or NotificationClosed (u u) signal.
func signalID(sig *dbus.Signal) (ID, bool) {
	switch sig.Name {
	case iface + ".ActionInvoked", iface + ".NotificationClosed", iface + ".NotificationReplied":
	default:
		return 0, false
	}
	if len(sig.Body) != 2 {
		return 0, false
	}
	id, ok := sig.Body[0].(uint32)
	if !ok {
		return 0, false
	}
	switch sig.Body[1].(type) {
	case string, uint32:
		return ID(id), true
	}
	return 0, false
}

// track keeps t for id, forgetting the oldest beyond maxTracked. n.mu held.
func (n *Notifier) track(id ID, t *tracked) {
	if _, ok := n.tracked[id]; !ok { // a replaced notification keeps its ID
		n.order = append(n.order, id)
	}
	n.tracked[id] = t
	for len(n.order) > maxTracked {
		delete(n.tracked, n.order[0])
		n.order = n.order[1:]
	}
}

// untrack forgets id. n.mu held.
func (n *Notifier) untrack(id ID) {
	delete(n.tracked, id)
	for i, o := range n.order {
		if o == id {
			n.order = append(n.order[:i], n.order[i+1:]...)
			break
		}
	}
}

// hints are the Notify hints for note.
func (n *Notifier) hints(note Notification) map[string]dbus.Variant {
	h := map[string]dbus.Variant{"urgency": dbus.MakeVariant(note.Urgency.level())}
	if note.Sound {
		h["sound-name"] = dbus.MakeVariant(SoundName)
	} else {
		h["suppress-sound"] = dbus.MakeVariant(true)
	}
	if n.icon != nil {
		h["image-data"] = dbus.MakeVariant(*n.icon)
	}
	if e := clean(n.cfg.DesktopEntry, MaxSummaryRunes, 1); e != "" {
		h["desktop-entry"] = dbus.MakeVariant(e)
	}
	return h
}

// appIcon is the Notify app_icon: a file:// URI for an absolute path, else
// Config.IconPath as an icon name.
func (n *Notifier) appIcon() string {
	p := strings.ToValidUTF8(n.cfg.IconPath, "")
	if filepath.IsAbs(p) {
		return (&url.URL{Scheme: "file", Path: p}).String()
	}
	return p
}

// expireMillis is Notify's expire_timeout for d: -1 the server's default,
// 0 never, else milliseconds.
func expireMillis(d time.Duration) int32 {
	switch {
	case d == 0:
		return -1
	case d < 0:
		return 0
	case d >= time.Duration(math.MaxInt32)*time.Millisecond:
		return math.MaxInt32
	}
	return int32(max(1, d.Milliseconds()))
}

// busAddress is the bus to use: Config.Address, DBUS_SESSION_BUS_ADDRESS,
// else $XDG_RUNTIME_DIR/bus when that socket exists. It never launches a
// bus (godbus's autolaunch would start one that outlives the process).
func (c Config) busAddress() (string, error) {
	if c.Address != "" {
		return c.Address, nil
	}
	if a := os.Getenv("DBUS_SESSION_BUS_ADDRESS"); a != "" && a != "autolaunch:" {
		return a, nil
	}
	if dir := os.Getenv("XDG_RUNTIME_DIR"); dir != "" {
		p := filepath.Join(dir, "bus")
		if fi, err := os.Stat(p); err == nil && fi.Mode()&os.ModeSocket != 0 {
			return "unix:path=" + dbus.EscapeBusAddressValue(p), nil
		}
	}
	return "", fmt.Errorf("%w: DBUS_SESSION_BUS_ADDRESS is not set and there is no $XDG_RUNTIME_DIR/bus", ErrNoBus)
}

// callError turns a failed call into one of the package's errors.
func (n *Notifier) callError(ctx context.Context, what string, err error) error {
	if ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded) {
		return n.timeoutError(ctx, what)
	}
	var de dbus.Error
	if errors.As(err, &de) {
		switch {
		case de.Name == "org.freedesktop.DBus.Error.ServiceUnknown",
			de.Name == "org.freedesktop.DBus.Error.NameHasNoOwner",
			strings.HasPrefix(de.Name, "org.freedesktop.DBus.Error.Spawn."):
			return fmt.Errorf("%w (%s: %v)", ErrNoServer, what, err)
		}
	}
	if errors.Is(err, dbus.ErrClosed) {
		return fmt.Errorf("%w: the connection closed during %s", ErrNoBus, what)
	}
	return fmt.Errorf("notification: %s: %w", what, err)
}

// timeoutError reports ctx ending during what: ErrTimeout for a deadline,
// ctx's own error for a cancel.
func (n *Notifier) timeoutError(ctx context.Context, what string) error {
	if errors.Is(ctx.Err(), context.Canceled) {
		return fmt.Errorf("notification: %s: %w", what, ctx.Err())
	}
	return fmt.Errorf("%w (%s, within %v)", ErrTimeout, what, n.cfg.timeout())
}

// isDBusError reports an error reply named name.
func isDBusError(err error, name string) bool {
	var de dbus.Error
	return errors.As(err, &de) && de.Name == name
}

// Supported reports whether this package shows notifications on this
// system: on Linux, through the freedesktop service.
func Supported() bool { return true }
