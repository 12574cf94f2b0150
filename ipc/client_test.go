package ipc

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
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
		{"newer app without this version's paths", "3", `{"code":"protocol","message":"no such path"}`, 404},
		{"older app without this version's paths", "1", `{"code":"protocol","message":"no such path: /v2/hello"}`, 404},
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

// A shim and an app of different builds (an upgrade replaced the binary
// under a running app) refuse each other with an error that names both
// versions and says what to do; the question is not taken as another
// one, nor its wait, attach-only or keep-open dropped on the way.
func TestAskOfAnotherProtocolIsRefused(t *testing.T) {
	var asked []string
	path := serveFake(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked = append(asked, r.Method+" "+r.URL.Path)
		w.Header().Set(HeaderProtocol, "1") // an app of protocol 1: no /v2/ paths
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, `{"code":"protocol","message":"no such path"}`)
	}))
	_, err := (&Client{Path: path}).Ask(context.Background(), question("q"), nil)
	if !errors.Is(err, ErrProtocolMismatch) {
		t.Fatalf("Ask() error = %v, want ErrProtocolMismatch", err)
	}
	for _, want := range []string{"speaks protocol 1", fmt.Sprintf("this program speaks %d", ProtocolVersion), "restart the app"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Ask() error %q does not say %q", err, want)
		}
	}
	if len(asked) != 1 || asked[0] != "POST "+PathQuestions {
		t.Errorf("requests = %v, want one POST %s", asked, PathQuestions)
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
				w.Header().Set(HeaderProtocol, strconv.Itoa(ProtocolVersion))
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
