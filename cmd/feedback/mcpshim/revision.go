package mcpshim

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Protocol revisions. The shim serves every revision mcp-go v1.6.0 speaks,
// and reads what it needs to know of the client from where each revision
// puts it:
//
//	revision      client name and capabilities          asking without a window
//	2026-07-28    _meta of every request (no initialize)  input-required result (fallback_mrtr.go)
//	2025-11-25    initialize                              elicitation/create
//	2025-06-18    initialize                              elicitation/create
//	2024-11-05    initialize                              the chat hand-off (no elicitation)
//
// clientName, clientDeclaresElicitation and clientDeclaresRoots read the
// request's _meta first (server.RequestProtocolInfoFromContext), else the
// session's initialize. A 2026-07-28 request may not be answered with a
// server-initiated request (elicitation/create, roots/list): mcp-go refuses
// them, so the shim asks its form through the result instead and does not
// ask such a client for its roots.

// modernRequest reports whether the request in ctx uses the stateless
// revision (2026-07-28 or later): its client info and capabilities came in
// its _meta, and the server may not send it requests of its own.
func modernRequest(ctx context.Context) bool {
	return server.IsModernRequest(ctx)
}

// greetOnFirstModernRequest returns an OnRequestInitialization hook that
// calls greet once, at the first request of the stateless revision: such a
// client never sends initialize, whose AfterInitialize hook greets the app
// for the older revisions. It never rejects a request.
func greetOnFirstModernRequest(greet func()) server.OnRequestInitializationFunc {
	var once sync.Once
	return func(_ context.Context, _ any, message any) error {
		raw, ok := message.(json.RawMessage)
		if !ok || !modernMessage(raw) {
			return nil
		}
		once.Do(func() { go greet() })
		return nil
	}
}

// modernMessage reports whether a JSON-RPC request declares a protocol
// version of 2026-07-28 or later in its _meta.
func modernMessage(raw json.RawMessage) bool {
	var m struct {
		Params struct {
			Meta *mcp.Meta `json:"_meta"`
		} `json:"params"`
	}
	if json.Unmarshal(raw, &m) != nil || m.Params.Meta == nil {
		return false
	}
	return mcp.IsModernProtocol(m.Params.Meta.ProtocolVersion())
}

// revisionHasElicitation reports whether the protocol revision of the
// request in ctx defines elicitation/create (2025-06-18 and later; an
// unknown version is given the benefit of the doubt). A 2024-11-05 client
// that declares it anyway is handed the question for the chat.
func revisionHasElicitation(ctx context.Context) bool {
	v := server.RequestProtocolVersion(ctx)
	return v == "" || v >= mcp.ProtocolVersion20250618
}
