package mcpshim

import (
	"context"
	"net/url"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"feedback/ipc/wire"
)

// The project a question comes from, shown in the window's context bar
// (Question.Project): the basename of interactive_feedback's
// project_directory when given, else the name of the first root the MCP
// client lists (roots/list, asked only of a client that declared the roots
// capability). A question never waits long for the roots: the first call
// waits at most rootsWait, later calls use what the last answer said and
// ask again in the background once it is older than rootsFresh.

// rootsWait bounds how long a tool call waits for the client's roots.
const rootsWait = 300 * time.Millisecond

// rootsTimeout bounds a roots/list request, in the background too.
const rootsTimeout = 5 * time.Second

// rootsFresh is how long a client's answer is used before it is asked again.
const rootsFresh = 30 * time.Second

// projectName is the name of the project at dir, a path (POSIX or
// Windows) or a file:// URI: its last element, trimmed and cut to
// wire.MaxProjectBytes; "" when there is none.
func projectName(dir string) string {
	dir = strings.TrimSpace(dir)
	if u, err := url.Parse(dir); err == nil && u.Scheme == "file" {
		dir = u.Path
	}
	dir = strings.TrimRight(dir, `/\`)
	if i := strings.LastIndexAny(dir, `/\`); i >= 0 {
		dir = dir[i+1:]
	}
	if len(dir) == 2 && dir[1] == ':' { // a Windows drive: no name
		dir = ""
	}
	return clampBytes(strings.TrimSpace(dir), wire.MaxProjectBytes)
}

// clampBytes cuts s to at most n bytes on a rune boundary.
func clampBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for len(s) > 0 && !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s
}

// rootsName is the project the roots name: the first root's name, else
// the last element of its URI.
func rootsName(roots []mcp.Root) string {
	for _, r := range roots {
		if n := clampBytes(strings.TrimSpace(r.Name), wire.MaxProjectBytes); n != "" && utf8.ValidString(n) {
			return n
		}
		if n := projectName(r.URI); n != "" {
			return n
		}
	}
	return ""
}

// rootsCache remembers, per client session, what the client's roots name.
type rootsCache struct {
	mu       sync.Mutex // guards sessions
	sessions map[string]*rootsEntry
}

// rootsEntry is one session's roots: the name, when it was learnt, and
// the request in flight, if any (done closes when it ends).
type rootsEntry struct {
	name    string
	learnt  time.Time
	pending chan struct{}
}

// maxRootsSessions caps the sessions remembered (a stdio shim has one).
const maxRootsSessions = 64

// clientDeclaresRoots reports whether the client said it lists roots.
func clientDeclaresRoots(ctx context.Context) bool {
	if info := server.RequestProtocolInfoFromContext(ctx); info != nil && info.ClientCapabilities != nil {
		return info.ClientCapabilities.Roots != nil
	}
	if s, ok := server.ClientSessionFromContext(ctx).(server.SessionWithClientInfo); ok {
		return s.GetClientCapabilities().Roots != nil
	}
	return false
}

// project returns the project the client's roots name, asking the client
// when it has not been asked lately (see rootsWait); "" when the client
// lists no roots or does not answer in time.
func (c *rootsCache) project(ctx context.Context) string {
	srv := server.ServerFromContext(ctx)
	session := server.ClientSessionFromContext(ctx)
	// A stateless client (revision.go) may not be sent roots/list.
	if srv == nil || session == nil || modernRequest(ctx) || !clientDeclaresRoots(ctx) {
		return ""
	}
	id := session.SessionID()
	c.mu.Lock()
	if c.sessions == nil {
		c.sessions = map[string]*rootsEntry{}
	}
	e := c.sessions[id]
	if e == nil {
		if len(c.sessions) >= maxRootsSessions {
			for k := range c.sessions { // forget one: it is asked again if it comes back
				delete(c.sessions, k)
				break
			}
		}
		e = &rootsEntry{}
		c.sessions[id] = e
	}
	name, learnt, pending := e.name, e.learnt, e.pending
	if pending == nil && time.Since(learnt) >= rootsFresh {
		pending = make(chan struct{})
		e.pending = pending
		// The request outlives the call that started it (its answer serves
		// the next calls), but not the session: ctx's values, not its end.
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), rootsTimeout)
		go func() {
			defer cancel()
			res, err := srv.RequestRoots(rctx, mcp.ListRootsRequest{})
			c.mu.Lock()
			if err == nil && res != nil {
				e.name, e.learnt = rootsName(res.Roots), time.Now()
			} else if e.learnt.IsZero() {
				e.learnt = time.Now() // no answer: not asked again at every call
			}
			e.pending = nil
			c.mu.Unlock()
			close(pending)
		}()
	}
	c.mu.Unlock()
	if !learnt.IsZero() || pending == nil {
		return name
	}
	t := time.NewTimer(rootsWait) // never asked before: wait a little
	defer t.Stop()
	select {
	case <-pending:
	case <-t.C:
	case <-ctx.Done():
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return e.name
}
