package mcpshim

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// A client of the stateless revision never sends initialize: the app is
// greeted (its windows warmed up) at its first request, once.
func TestGreetWithoutInitialize(t *testing.T) {
	var greets atomic.Int32
	greeted := make(chan struct{}, 8)
	greet := func() { greets.Add(1); greeted <- struct{}{} }
	c, _ := startShimAt(t, Options{Greet: greet}, "2026-07-28", "stateless-client")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for range 3 {
		if _, err := c.ListTools(ctx, mcp.ListToolsRequest{}); err != nil {
			t.Fatal(err)
		}
	}
	select {
	case <-greeted:
	case <-ctx.Done():
		t.Fatal("the app was never greeted")
	}
	time.Sleep(50 * time.Millisecond) // room for a wrong second greeting to show
	if n := greets.Load(); n != 1 {
		t.Errorf("greeted %d times, want 1", n)
	}
}
