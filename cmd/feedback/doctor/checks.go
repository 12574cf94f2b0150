package doctor

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"

	"github.com/godbus/dbus/v5"

	"feedback/app/store"
	"feedback/cmd/feedback/setup"
	"feedback/internal/display"
	"feedback/internal/safefile"
	"feedback/internal/settings"
	"feedback/internal/settings/settingsfile"
	"feedback/ipc"
	"feedback/ipc/launch"
)

// desktopOS reports whether the OS runs an X11/Wayland desktop with a
// session bus (Linux and the BSDs), where the display, bus, tray and
// notification checks apply.
func desktopOS(goos string) bool {
	switch goos {
	case "linux", "freebsd", "openbsd", "netbsd", "dragonfly":
		return true
	}
	return false
}

// remote reports whether questions go to a socket named by
// FEEDBACK_SOCKET: say, one forwarded over SSH from a desktop.
func remote(e Env) bool { return e.Getenv(ipc.EnvSocket) != "" }

func checkDisplay(_ context.Context, e Env) []Result {
	r := Result{Check: "display"}
	x, w := e.Getenv("DISPLAY"), e.Getenv("WAYLAND_DISPLAY")
	var dead error // DISPLAY names no live X server (the X11 build's)
	if x != "" && !display.NativeWayland && !e.Headless && desktopOS(e.GOOS) && e.ProbeDisplay != nil {
		dead = e.ProbeDisplay(x)
	}
	switch {
	case e.Headless:
		r.Msg = "not needed: this is the headless build (no window app); questions go to an app elsewhere or to the client's form or chat"
	case !desktopOS(e.GOOS):
		r.Msg = "the system's own (" + e.GOOS + ")"
	case (x != "" || w != "") && display.EnvError() != nil:
		// A session of the other protocol than this build's: the app exits at once.
		r.Level, r.Msg = Fail, display.EnvError().Error()
	case dead != nil:
		r.Level, r.Msg = Fail, dead.Error()
		r.Fix = "run feedback inside your desktop session, or set DISPLAY to its display (echo $DISPLAY in a terminal there)"
	case x != "" && w != "":
		r.Msg = fmt.Sprintf("Wayland (WAYLAND_DISPLAY=%s) with XWayland (DISPLAY=%s)", w, x)
	case x != "":
		r.Msg = fmt.Sprintf("X11 (DISPLAY=%s)", x)
	case w != "":
		r.Msg = fmt.Sprintf("Wayland (WAYLAND_DISPLAY=%s)", w)
	case remote(e):
		r.Level, r.Msg = Warn, "none here, as on a server"
		r.Fix = fmt.Sprintf("fine when %s points at a socket forwarded from your desktop (feedback setup ssh HOST, run on the desktop); windows open there", ipc.EnvSocket)
	default:
		r.Level, r.Msg = Fail, "none: neither DISPLAY nor WAYLAND_DISPLAY is set, so the app cannot open windows"
		r.Fix = "run feedback inside your desktop session; over SSH, forward the desktop's socket instead (feedback setup ssh HOST, on the desktop).\n" +
			"Without an app the shim asks through the MCP client's form or in the chat."
	}
	return []Result{r}
}

// sessionBus connects to the session bus named by DBUS_SESSION_BUS_ADDRESS,
// never launching one (godbus would, when the variable is unset).
func sessionBus(ctx context.Context, e Env) (*dbus.Conn, error) {
	addr := e.Getenv("DBUS_SESSION_BUS_ADDRESS")
	if addr == "" {
		if rt := e.Getenv("XDG_RUNTIME_DIR"); rt != "" {
			if fi, err := os.Stat(filepath.Join(rt, "bus")); err == nil && fi.Mode().Type() == fs.ModeSocket {
				addr = "unix:path=" + filepath.Join(rt, "bus")
			}
		}
	}
	if addr == "" {
		return nil, errors.New("DBUS_SESSION_BUS_ADDRESS is not set and there is no $XDG_RUNTIME_DIR/bus")
	}
	ctx, cancel := context.WithTimeout(ctx, e.Timeout)
	defer cancel()
	type res struct {
		c   *dbus.Conn
		err error
	}
	ch := make(chan res, 1)
	go func() {
		c, err := dbus.Connect(addr) // not WithContext: that context ending would close the connection
		ch <- res{c, err}
	}()
	select {
	case r := <-ch:
		return r.c, r.err
	case <-ctx.Done():
		go func() {
			if r := <-ch; r.c != nil {
				r.c.Close()
			}
		}()
		return nil, fmt.Errorf("no answer from %s within %v", addr, e.Timeout)
	}
}

func checkBus(ctx context.Context, e Env) []Result {
	if !desktopOS(e.GOOS) || e.Headless {
		return nil
	}
	c, err := sessionBus(ctx, e)
	if err != nil {
		return []Result{{Level: Warn, Check: "session bus", Msg: "not reachable: " + err.Error(),
			Fix: "without a session D-Bus the app runs without a tray icon and notifications; run it inside your desktop session (dbus-run-session for a bare one)"}}
	}
	c.Close()
	return []Result{{Check: "session bus", Msg: "reachable"}}
}

// nameOwned asks the session bus whether name has an owner, or else can be
// started on demand.
func nameOwned(ctx context.Context, e Env, name string) (owned, activatable bool, err error) {
	c, err := sessionBus(ctx, e)
	if err != nil {
		return false, false, err
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(ctx, e.Timeout)
	defer cancel()
	bus := c.BusObject()
	if err := bus.CallWithContext(ctx, "org.freedesktop.DBus.NameHasOwner", 0, name).Store(&owned); err != nil {
		return false, false, err
	}
	var names []string
	if err := bus.CallWithContext(ctx, "org.freedesktop.DBus.ListActivatableNames", 0).Store(&names); err == nil {
		activatable = slices.Contains(names, name)
	}
	return owned, activatable, nil
}

// hostRegistered reports whether the StatusNotifierWatcher says a host is
// registered with it (its IsStatusNotifierHostRegistered property); a
// watcher that cannot tell is taken at its word that it serves one.
func hostRegistered(ctx context.Context, e Env) bool {
	c, err := sessionBus(ctx, e)
	if err != nil {
		return true
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(ctx, e.Timeout)
	defer cancel()
	var v dbus.Variant
	err = c.Object("org.kde.StatusNotifierWatcher", "/StatusNotifierWatcher").CallWithContext(ctx,
		"org.freedesktop.DBus.Properties.Get", 0, "org.kde.StatusNotifierWatcher", "IsStatusNotifierHostRegistered").Store(&v)
	if err != nil {
		return true
	}
	registered, ok := v.Value().(bool)
	return !ok || registered
}

func checkTray(ctx context.Context, e Env) []Result {
	if !desktopOS(e.GOOS) || e.Headless {
		return nil
	}
	r := Result{Check: "tray"}
	owned, activatable, err := nameOwned(ctx, e, "org.kde.StatusNotifierWatcher")
	switch {
	case err != nil:
		r.Level, r.Msg = Warn, "cannot tell: "+err.Error()
		r.Fix = "the app runs without a tray icon"
	case owned && !hostRegistered(ctx, e):
		// A watcher alone shows nothing: a host (the panel's tray) draws
		// the icons it lists.
		r.Level, r.Msg = Warn, "a StatusNotifierWatcher runs, but no tray host is registered with it: the app's icon shows nowhere"
		r.Fix = "start a panel with a StatusNotifierItem tray (KDE, XFCE with xfce4-statusnotifier-plugin, waybar's tray, snixembed for XEmbed trays),\n" +
			"or on GNOME enable the AppIndicator extension; until then Quit is feedback quit"
	case owned || activatable:
		r.Msg = "a StatusNotifierItem host is running (org.kde.StatusNotifierWatcher)"
	case strings.Contains(strings.ToUpper(e.Getenv("XDG_CURRENT_DESKTOP")), "GNOME"):
		r.Level, r.Msg = Warn, "GNOME shows no tray icons by itself: the app runs, but you will not see it in the top bar"
		r.Fix = "install the AppIndicator extension (Debian/Ubuntu: sudo apt install gnome-shell-extension-appindicator; Fedora: gnome-shell-extension-appindicator),\n" +
			"enable it (gnome-extensions enable appindicatorsupport@rgcjonas.gmail.com, or ubuntu-appindicators@ubuntu.com on Ubuntu), then log out and in"
	default:
		r.Level, r.Msg = Warn, "no tray host (nothing owns org.kde.StatusNotifierWatcher): the app runs without a tray icon"
		r.Fix = "use a panel with a StatusNotifierItem tray (KDE, XFCE with xfce4-statusnotifier-plugin, waybar's tray, snixembed for XEmbed trays),\n" +
			"and start it before feedback"
	}
	return []Result{r}
}

func checkNotifications(ctx context.Context, e Env) []Result {
	if !desktopOS(e.GOOS) || e.Headless {
		return nil
	}
	r := Result{Check: "notifications"}
	owned, activatable, err := nameOwned(ctx, e, "org.freedesktop.Notifications")
	switch {
	case err != nil:
		r.Level, r.Msg, r.Fix = Warn, "cannot tell: "+err.Error(), "the app shows no desktop notifications"
	case owned:
		r.Msg = "a notification daemon is running (org.freedesktop.Notifications)"
	case activatable:
		r.Msg = "a notification daemon starts on demand (org.freedesktop.Notifications)"
	default:
		r.Level, r.Msg = Warn, "no notification daemon (nothing owns org.freedesktop.Notifications)"
		r.Fix = "desktop notifications will not show: install one (your desktop's, or dunst / mako)"
	}
	return []Result{r}
}

// cjkFontName matches the file names of common CJK fonts.
var cjkFontName = regexp.MustCompile(`(?i)(cjk|wqy|wenquanyi|droidsansfallback|uming|ukai|sarasa|sourcehan|source-han|notosans(sc|tc|jp|kr)|ipag|ipam|takao|nanum|arphic|simsun|msyh|pingfang|hiragino)`)

func checkCJKFont(ctx context.Context, e Env) []Result {
	if !desktopOS(e.GOOS) || e.Headless {
		return nil
	}
	r := Result{Check: "CJK font"}
	fix := "install one, e.g. sudo apt install fonts-noto-cjk (or fonts-wqy-microhei): without it Chinese, Japanese and Korean text shows as boxes"
	if e.FCList != "" {
		ctx, cancel := context.WithTimeout(ctx, e.Timeout)
		defer cancel()
		out, err := exec.CommandContext(ctx, e.FCList, ":lang=zh", "family").Output()
		if err == nil {
			fams := strings.Split(strings.TrimSpace(string(out)), "\n")
			if len(fams) > 0 && fams[0] != "" {
				r.Msg = "found: " + strings.SplitN(fams[0], ",", 2)[0]
				return []Result{r}
			}
			r.Level, r.Msg, r.Fix = Warn, "none found (fc-list :lang=zh)", fix
			return []Result{r}
		}
	}
	for _, dir := range e.FontDirs {
		found := ""
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && cjkFontName.MatchString(d.Name()) {
				found = p
				return fs.SkipAll
			}
			return nil
		})
		if found != "" {
			r.Msg = "found: " + found
			return []Result{r}
		}
	}
	r.Level, r.Msg, r.Fix = Warn, "none found in "+strings.Join(e.FontDirs, ", "), fix
	return []Result{r}
}

func checkApp(ctx context.Context, e Env) []Result {
	r := Result{Check: "app"}
	path, err := ipc.SocketPath()
	if err != nil {
		return []Result{{Level: Fail, Check: "app", Msg: "no socket path: " + err.Error()}}
	}
	ctx, cancel := context.WithTimeout(ctx, e.Timeout)
	defer cancel()
	// The sockets a shim tries from here (launch.SocketCandidates): the
	// first that answers, else every one of them in the message.
	tried := launch.SocketCandidates(path)
	var h ipc.Hello
	for _, p := range tried {
		c := &ipc.Client{Path: p}
		h, err = c.Hello(ctx)
		c.Close()
		if err == nil || !ipc.NotListening(err) {
			path = p
			break
		}
	}
	where := path
	if remote(e) {
		where = fmt.Sprintf("%s (%s)", path, ipc.EnvSocket)
	}
	switch {
	case err == nil && h.Version == e.Version:
		r.Msg = fmt.Sprintf("feedback %s (pid %d) answers at %s", h.Version, h.PID, where)
	case err == nil:
		r.Level, r.Msg = Warn, fmt.Sprintf("the running app is feedback %s, this binary is %s (at %s)", h.Version, e.Version, where)
		r.Fix = "quit the app from its tray menu (or kill " + fmt.Sprint(h.PID) + "); the next question starts this version"
	case errors.Is(err, ipc.ErrUntrustedEndpoint):
		r.Level, r.Msg = Fail, err.Error()
		r.Fix = "the shim refuses this socket too; remove what is there if it is not yours, or point " + ipc.EnvSocket + " at a socket of your own"
	case errors.Is(err, ipc.ErrProtocolMismatch):
		r.Level, r.Msg = Fail, err.Error()
		r.Fix = "quit the running app and let the next question start this version, or update the older binary"
	case (errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ECONNREFUSED)) && remote(e) && len(relayTokens(e)) > 0:
		r.Level, r.Msg = Warn, fmt.Sprintf("nothing answers at %s: questions go through the relay's broker meanwhile (relay, below)", where)
		r.Fix = "this socket is forwarded from your desktop: connect with ssh (RemoteForward, see feedback setup ssh HOST on the desktop)"
	case (errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ECONNREFUSED)) && remote(e):
		r.Level, r.Msg = Fail, fmt.Sprintf("nothing answers at %s", where)
		r.Fix = "this socket is forwarded from your desktop: connect with ssh (RemoteForward, see feedback setup ssh HOST on the desktop)\n" +
			"and keep the feedback app running there; until then agents here ask in their chat"
	case errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ECONNREFUSED):
		r.Msg = fmt.Sprintf("not running (nothing at %s); the first question starts it", strings.Join(tried, ", "))
		switch {
		case e.Headless && len(relayTokens(e)) > 0: // relay.go
			r.Msg = fmt.Sprintf("no app here (nothing at %s): questions go through the relay's broker to your desktop (relay, below)", strings.Join(tried, ", "))
		case e.Headless:
			r.Level, r.Msg = Warn, fmt.Sprintf("no app answers at %s, and this headless build cannot start one", strings.Join(tried, ", "))
			r.Fix = "run the app on a desktop and forward its socket here (feedback setup ssh HOST, on the desktop), then set " + ipc.EnvSocket
		}
	default:
		r.Level, r.Msg = Fail, fmt.Sprintf("%s does not answer properly: %v", where, err)
		r.Fix = "if the socket is forwarded over SSH, the app on the desktop may be down: start it there;\n" +
			"otherwise quit the app (tray menu) and let the next question start it"
	}
	return []Result{r}
}

func checkDatabase(ctx context.Context, e Env) []Result {
	r := Result{Check: "database"}
	path := e.Getenv("FEEDBACK_DB")
	if path == "off" {
		r.Msg = "off (FEEDBACK_DB=off): questions and drafts live in memory only"
		return []Result{r}
	}
	if path == "" {
		p, err := store.DefaultPath()
		if err != nil {
			return []Result{{Level: Warn, Check: "database", Msg: err.Error(), Fix: "the app runs without persistence"}}
		}
		path = p
	}
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		r.Msg = fmt.Sprintf("%s does not exist yet; the app creates it", path)
		return []Result{r}
	}
	h, err := store.Check(ctx, path)
	switch {
	case errors.Is(err, safefile.ErrSymlink), errors.Is(err, safefile.ErrNotRegular):
		r.Level, r.Msg = Fail, fmt.Sprintf("%s cannot be used: %v", path, err)
		r.Fix = "the app refuses it and keeps no history; quit the app, move it away (or set FEEDBACK_DB to a regular file), then start the app"
	case err != nil:
		r.Level, r.Msg = Fail, fmt.Sprintf("%s cannot be read: %v", path, err)
		r.Fix = "the app moves a corrupt database aside and starts a fresh one when it starts; to do it now, quit the app and move the file away"
	case len(h.Problem) > 0:
		r.Level, r.Msg = Fail, fmt.Sprintf("%s is damaged: %s", path, strings.Join(h.Problem, "; "))
		r.Fix = "quit the app and move the file away (drafts in it may be lost); the app starts a fresh one"
	case h.Schema > h.Current:
		r.Level, r.Msg = Warn, fmt.Sprintf("%s was written by a newer feedback (schema %d, this one knows %d)", path, h.Schema, h.Current)
		r.Fix = "this binary runs without persistence; use the newer one"
	default:
		r.Msg = fmt.Sprintf("%s, %s, integrity ok", path, size(h.Size))
	}
	return []Result{r}
}

func size(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

func checkSettings(_ context.Context, e Env) []Result {
	r := Result{Check: "settings"}
	path, err := settingsfile.Path()
	if err != nil {
		return []Result{{Level: Warn, Check: "settings", Msg: err.Error(), Fix: "the defaults are used"}}
	}
	if _, err := settingsfile.Load(path, e.Getenv); err != nil {
		r.Level, r.Msg = Fail, err.Error()
		r.Fix = settingsFix(path, err)
		return []Result{r}
	}
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		r.Msg = fmt.Sprintf("no %s: the defaults", path)
		return []Result{r}
	}
	r.Msg = path + " is valid"
	return []Result{r}
}

// settingsFix says what to fix for Load's err: the environment variables
// at fault, the file, or both.
func settingsFix(path string, err error) string {
	const after = " (see the Settings section of the README); until then the defaults are used"
	vars, file := settings.EnvVars(err)
	switch {
	case len(vars) == 0:
		return "fix " + path + after
	case !file:
		return "fix or unset " + strings.Join(vars, ", ") + " in the environment that starts feedback" + after
	}
	return "fix " + path + ", and fix or unset " + strings.Join(vars, ", ") + " in the environment" + after
}

func checkClients(_ context.Context, e Env) []Result {
	var out []Result
	for _, s := range setup.Statuses(e.Setup) {
		if s.Found == "" && !s.SetUp {
			continue
		}
		if s.Client.Name == "cursor-agent" && !onPath(e, "cursor-agent") {
			continue // it shares Cursor's file: the row is Cursor's unless the CLI is here
		}
		r := Result{Check: "client"}
		name := s.Client.Title
		switch {
		case s.Err != nil:
			r.Level, r.Msg = Warn, fmt.Sprintf("%s: cannot read its configuration: %v", name, s.Err)
			r.Fix = "fix the file, then: feedback setup " + s.Client.Name
		case !s.SetUp:
			r.Level, r.Msg = Warn, fmt.Sprintf("%s is installed but not set up", name)
			r.Fix = "feedback setup " + s.Client.Name
		case !commandExists(s.Command):
			r.Level, r.Msg = Warn, fmt.Sprintf("%s runs %s, which does not exist", name, s.Command)
			r.Fix = "feedback setup " + s.Client.Name + " (points it at this binary)"
		case s.Client.Name == "cursor-agent" && len(setup.CursorAgentApprovals(e.Setup)) == 0:
			r.Level, r.Msg = Warn, fmt.Sprintf("%s is set up (%s) but has approved feedback in no project: it leaves the server out without a word", name, s.File)
			r.Fix = "cursor-agent mcp enable feedback (in each project where you use it)"
		default:
			r.Msg = fmt.Sprintf("%s is set up (%s)", name, s.File)
		}
		out = append(out, r)
	}
	if len(out) == 0 {
		out = append(out, Result{Level: Warn, Check: "client", Msg: "no MCP client found on this machine",
			Fix: "feedback setup CLIENT (" + strings.Join(setup.ClientNames(), ", ") + ")"})
	}
	return out
}

// onPath reports whether the program name is on the PATH doctor sees.
func onPath(e Env, name string) bool {
	if e.Setup.LookPath == nil {
		return false
	}
	_, err := e.Setup.LookPath(name)
	return err == nil
}

func commandExists(cmd string) bool {
	if cmd == "" {
		return false
	}
	if filepath.IsAbs(cmd) {
		fi, err := os.Stat(cmd)
		return err == nil && !fi.IsDir()
	}
	_, err := exec.LookPath(cmd)
	return err == nil
}

func checkAutostart(_ context.Context, e Env) []Result {
	if e.Headless {
		return nil
	}
	installed, current, err := setup.AutostartState(e.Setup)
	a := setup.AutostartEntry(e.Setup)
	switch {
	case err != nil:
		return []Result{{Level: Warn, Check: "autostart", Msg: "cannot tell: " + err.Error()}}
	case current:
		return []Result{{Check: "autostart", Msg: "starts at login (" + a.Where + ")"}}
	case installed:
		return []Result{{Level: Warn, Check: "autostart", Msg: a.Where + " starts another feedback binary",
			Fix: "feedback setup autostart (points it at this binary), or feedback setup autostart --remove"}}
	}
	return []Result{{Check: "autostart", Msg: "off (feedback setup autostart starts the app at login)"}}
}
