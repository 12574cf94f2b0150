// Package ipc is the local protocol between the feedback app and its callers
// (the MCP shim and `feedback ask`): HTTP/1.1 over a per-user Unix domain
// socket, versioned paths (/v1/…), and one long-lived POST per question whose
// response streams Events as newline-delimited JSON.
//
// wire.go holds the wire types and nothing else; the endpoint, server and
// client are built on the standard library only (plus golang.org/x/sys and,
// on Windows, github.com/Microsoft/go-winio), so the package can be used by a
// headless shim without pulling in the GUI toolkit.
//
// # Windows
//
// On Windows the endpoint is a named pipe, \\.\pipe\feedback-<user SID>
// (endpoint_windows.go), carrying the same HTTP /v1 protocol. A pipe rather
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
