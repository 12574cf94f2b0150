package mcpshim

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"feedback/ipc/wire"
)

func TestProjectName(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"/home/ann/src/feedback", "feedback"},
		{"/home/ann/src/feedback/", "feedback"},
		{"  /srv/my app  ", "my app"},
		{`C:\Users\ann\src\website`, "website"},
		{`C:\`, ""},
		{"file:///home/ann/src/with%20space", "with space"},
		{"relative/dir", "dir"},
		{"/", ""},
		{"", ""},
		{"/x/" + strings.Repeat("é", 200), strings.Repeat("é", 128)}, // cut to 256 bytes on a rune boundary
	} {
		if got := projectName(tc.in); got != tc.want {
			t.Errorf("projectName(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestRootsName(t *testing.T) {
	for _, tc := range []struct {
		roots []mcp.Root
		want  string
	}{
		{nil, ""},
		{[]mcp.Root{{URI: "file:///home/ann/feedback"}, {URI: "file:///home/ann/other"}}, "feedback"},
		{[]mcp.Root{{URI: "file:///home/ann/fb", Name: "Feedback app"}}, "Feedback app"},
		{[]mcp.Root{{URI: "file:///"}, {URI: "file:///srv/second"}}, "second"},
	} {
		if got := rootsName(tc.roots); got != tc.want {
			t.Errorf("rootsName(%v) = %q, want %q", tc.roots, got, tc.want)
		}
	}
}

// rootsFunc is a client's roots/list handler.
type rootsFunc func(ctx context.Context) (*mcp.ListRootsResult, error)

func (f rootsFunc) ListRoots(ctx context.Context, _ mcp.ListRootsRequest) (*mcp.ListRootsResult, error) {
	return f(ctx)
}

// recordingAsker answers every question at once and keeps the last one.
func recordingAsker(got chan<- wire.Question) wire.Asker {
	return askFunc(func(ctx context.Context, q wire.Question, onEvent func(wire.Event)) (wire.Answer, error) {
		got <- q
		return wire.Answer{QuestionID: q.ID, Status: wire.StatusAnswered, Replies: []wire.Reply{{Text: "ok"}}}, nil
	})
}

// interactive_feedback's project_directory names the project: its last
// element, in the question the app gets.
func TestE2EProjectFromProjectDirectory(t *testing.T) {
	got := make(chan wire.Question, 4)
	c := startShim(t, Options{Connect: connectTo(recordingAsker(got))})
	callTool(t, c, map[string]any{"message": "m", "project_directory": "/home/ann/src/feedback/"})
	if q := <-got; q.Project != "feedback" {
		t.Errorf("Project = %q, want feedback", q.Project)
	}
}

// A client that lists roots names the project by its first root; it is
// asked once, not at every call; project_directory wins over it.
func TestE2EProjectFromRoots(t *testing.T) {
	got := make(chan wire.Question, 4)
	var asked atomic.Int32
	roots := rootsFunc(func(context.Context) (*mcp.ListRootsResult, error) {
		asked.Add(1)
		return &mcp.ListRootsResult{Roots: []mcp.Root{{URI: "file:///home/ann/src/website"}}}, nil
	})
	c, _ := startShimLogged(t, Options{Connect: connectTo(recordingAsker(got))}, client.WithRootsHandler(roots))
	callTool(t, c, map[string]any{"message": "first"})
	if q := <-got; q.Project != "website" {
		t.Errorf("first call: Project = %q, want website (from the roots)", q.Project)
	}
	callTool(t, c, map[string]any{"message": "second"})
	if q := <-got; q.Project != "website" {
		t.Errorf("second call: Project = %q, want website", q.Project)
	}
	callTool(t, c, map[string]any{"message": "third", "project_directory": "/elsewhere/feedback"})
	if q := <-got; q.Project != "feedback" {
		t.Errorf("with project_directory: Project = %q, want feedback", q.Project)
	}
	if n := asked.Load(); n != 1 {
		t.Errorf("roots/list asked %d times in three calls, want 1", n)
	}
}

// A client that declares roots but never answers delays a call by
// rootsWait at most; the question goes without a project.
func TestE2ERootsNeverAnsweredDoNotHoldTheCall(t *testing.T) {
	got := make(chan wire.Question, 4)
	release := make(chan struct{})
	defer close(release)
	roots := rootsFunc(func(ctx context.Context) (*mcp.ListRootsResult, error) {
		select {
		case <-release:
		case <-ctx.Done():
		}
		return nil, context.Canceled
	})
	c, _ := startShimLogged(t, Options{Connect: connectTo(recordingAsker(got))}, client.WithRootsHandler(roots))
	start := time.Now()
	callTool(t, c, map[string]any{"message": "m"})
	if d := time.Since(start); d > rootsWait+time.Second {
		t.Errorf("the call took %v with a client that never lists its roots", d)
	}
	if q := <-got; q.Project != "" {
		t.Errorf("Project = %q, want none", q.Project)
	}
}
