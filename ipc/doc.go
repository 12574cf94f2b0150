// Package ipc is the local protocol between the feedback app and its callers
// (the MCP shim and `feedback ask`): HTTP/1.1 over a per-user Unix domain
// socket, versioned paths (/v1/…), and one long-lived POST per question whose
// response streams Events as newline-delimited JSON.
//
// wire.go holds the wire types and nothing else; the endpoint, server and
// client are built on the standard library only, so the package can be used
// by a headless shim without pulling in the GUI toolkit.
package ipc
