package mcpshim

import (
	"sync"
	"time"
)

// alwaysHold is how long an "Always allow" the user just gave through the
// permission prompt tool decides an identical call by itself: Claude Code
// loads the rule saved in settings.local.json about a second after it is
// written, and asked for the identical call meanwhile, so the user, who
// had just said "always", was asked again. After the hold the file's rule
// decides, as Claude Code reads it (or the user, if they took it out).
var alwaysHold = 5 * time.Second

// grants are the rules the user chose to always allow, by project, while
// they hold.
type grants struct {
	mu    sync.Mutex // guards until
	until map[[2]string]time.Time
}

// add holds rule for the project dir from now.
func (g *grants) add(dir, rule string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.until == nil {
		g.until = map[[2]string]time.Time{}
	}
	now := time.Now()
	for k, t := range g.until {
		if now.After(t) {
			delete(g.until, k)
		}
	}
	g.until[[2]string{dir, rule}] = now.Add(alwaysHold)
}

// holds reports whether rule was allowed always in dir within the hold.
func (g *grants) holds(dir, rule string) bool {
	if g == nil || rule == "" {
		return false
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	t, ok := g.until[[2]string{dir, rule}]
	return ok && time.Now().Before(t)
}
