// Package ipc is the local protocol between the feedback app and its callers
// (the MCP shim and `feedback ask`): HTTP/1.1 over a per-user Unix domain
// socket, versioned paths (/v2/…, ProtocolVersion), and one long-lived POST
// per question, its body a wire.Ask, whose response streams Events as
// newline-delimited JSON. It is the transport only: starting the app when
// nothing listens (NotListening) is launch's job.
//
// protocol.go holds the protocol's types (Hello, Event, Asker); the
// endpoint, server and client are built on the standard library only (plus
// golang.org/x/sys and, on Windows, github.com/Microsoft/go-winio), so the
// package can be used by a headless shim without pulling in the GUI toolkit.
//
// # Who is at the other end (Unix)
//
// The socket is SocketPath: $FEEDBACK_SOCKET, else
// $XDG_RUNTIME_DIR/feedback/feedback.sock, else
// <user cache dir>/feedback/run/feedback.sock (~/.cache on Linux,
// ~/Library/Caches on macOS). The fallback is under the user's home, which
// no other user can write to, and never in the shared /tmp, where another
// user could create the directory first and answer every question asked
// there.
//
// Listen (the app) creates the socket's directory 0700 and refuses one that
// is a symbolic link, is owned by another user, or is shared with everyone
// (world-writable or sticky); it makes its own directory private with fchmod
// on a descriptor opened with O_NOFOLLOW, so it never changes the mode of a
// link's target. Where the system tells (SO_PEERCRED on Linux,
// LOCAL_PEERCRED on macOS and FreeBSD), it closes connections from other
// users.
//
// A Client (the shim, `feedback ask`) sends nothing until it has checked,
// on every new connection: that the socket's directory is a real directory
// (lstat: not a symbolic link), owned by the current user, with no
// permission bits for group or others (0700, as Listen makes it); that the
// socket is a socket (not a symbolic link or another file) owned by the
// current user; and, once connected, that the process listening runs as the
// current user (the peer credentials above; on OpenBSD, NetBSD and
// DragonFly, which golang.org/x/sys gives none, the directory and socket
// checks are the only guard). A missing directory or socket means the app
// is not running (the caller may start it, and the app fixes the mode of
// its own directory). A refusal is an *EndpointError, matching
// ErrUntrustedEndpoint, naming the path and its owner's uid; the caller
// neither starts the app nor waits for one. The ancestors of the directory
// are trusted: set the variables above to paths under directories only you
// can change.
//
// # Windows
//
// On Windows the endpoint is a named pipe, \\.\pipe\feedback-<user SID>
// (endpoint_windows.go), carrying the same HTTP protocol (/v2/…). A pipe rather
// than AF_UNIX in a private directory, because a pipe is per-user by
// construction: it is created with a security descriptor whose DACL grants
// the user's SID alone (pipeSDDL), so the kernel refuses everyone else when
// they open it, with no moment where the endpoint exists under a looser ACL.
// An AF_UNIX socket would need a directory ACL set and kept right by us, the
// per-user directory can be pre-created by someone else, and Windows has no
// SO_PEERCRED to check afterwards. A pipe also vanishes with the last handle,
// so there is no stale endpoint to clean up, and creating it as the first
// instance is atomic, which gives single-instance without a lock file.
// What a pipe lacks is a reserved name: any user can create any free name.
// So the client checks, on every connection, that the pipe's owner is the
// current user (dialEndpoint), and an app that finds its name taken by
// another user's pipe reports an *EndpointError instead of running. The
// implementation is github.com/Microsoft/go-winio, the library Docker,
// containerd and tailscale use for pipes (overlapped I/O, deadlines,
// net.Listener and net.Conn), rather than a hand-written CreateNamedPipe
// loop.
package ipc
