package ipc

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"
)

func TestProtocolMismatch(t *testing.T) {
	tests := []struct {
		name, header, body string
		status             int
	}{
		{"header and body", "99", `{"protocol":99,"app":"feedback"}`, 200},
		{"body only", "", `{"protocol":99,"app":"feedback"}`, 200},
		{"not a feedback app", "", `{}`, 200},
		{"newer app without v1 paths", "2", `{"code":"protocol","message":"no such path"}`, 404},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := serveFake(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if tt.header != "" {
					w.Header().Set(HeaderProtocol, tt.header)
				}
				w.WriteHeader(tt.status)
				fmt.Fprint(w, tt.body)
			}))
			c := &Client{Path: path}
			if _, err := c.Hello(context.Background()); !errors.Is(err, ErrProtocolMismatch) {
				t.Errorf("Hello() error = %v, want ErrProtocolMismatch", err)
			}
		})
	}
}

func TestAskAppGone(t *testing.T) {
	tests := []struct {
		name  string
		serve func(w http.ResponseWriter)
	}{
		{"stream ends after queued", func(w http.ResponseWriter) {
			fmt.Fprintln(w, `{"type":"queued"}`)
		}},
		{"connection dropped", func(w http.ResponseWriter) {
			fmt.Fprintln(w, `{"type":"queued"}`)
			http.NewResponseController(w).Flush()
			panic(http.ErrAbortHandler)
		}},
		{"line cut short", func(w http.ResponseWriter) {
			fmt.Fprint(w, `{"type":"queued"}`+"\n"+`{"type":"ans`)
			http.NewResponseController(w).Flush()
			panic(http.ErrAbortHandler)
		}},
		{"empty stream", func(w http.ResponseWriter) {}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := serveFake(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set(HeaderProtocol, "1")
				tt.serve(w)
			}))
			_, err := (&Client{Path: path}).Ask(context.Background(), question("q"), nil)
			if !errors.Is(err, ErrAppGone) {
				t.Errorf("Ask() error = %v, want ErrAppGone", err)
			}
		})
	}
}

func TestAskMalformedStream(t *testing.T) {
	path := serveFake(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintln(w, `{"type":"queued"}`)
		fmt.Fprintln(w, `{"type":"answer"}`)
	}))
	_, err := (&Client{Path: path}).Ask(context.Background(), question("q"), nil)
	if err == nil || errors.Is(err, ErrAppGone) {
		t.Errorf("Ask() error = %v, want a malformed-stream error", err)
	}
}
