package ipc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"runtime/debug"
	"strconv"
	"sync"
	"time"

	"feedback/ipc/wire"
)

// ServerOptions configures a Server. The zero value is usable.
type ServerOptions struct {
	Version string       // the app's build version, reported by PathHello
	Logger  *slog.Logger // nil discards
	// OnGreet, if set, is called (on the request's goroutine; it must not
	// block) when a shim greets the app as its MCP client initializes
	// (Client.Greet).
	OnGreet func()
	// Messenger, if set, takes one-way messages (PathMessages); without
	// one they are refused.
	Messenger Messenger
	// Quit, if set, ends the app (PathQuit): it ends what must end and
	// returns what it ended, and then, which is called once the reply
	// is written (it stops the app).
	Quit func() (q Quitting, then func())
}

// Server serves the protocol on a listener, handing each request to an
// Asker. It bounds the size of a request and the time its body takes to
// arrive; how many questions may be open is the Asker's to say (the app's
// inbox refuses one too many with wire.CodeTooMany).
type Server struct {
	asker   wire.Asker
	version string
	onGreet func()
	// messenger takes messages, or nil.
	messenger Messenger
	quit      func() (Quitting, func()) // PathQuit, or nil
	log       *slog.Logger
	hs        *http.Server
	cancel    context.CancelFunc // ends every request's context, on Shutdown

	bodyTimeout time.Duration // bounds reading a question's body: bodyReadTimeout (a field, for tests)

	mu    sync.Mutex            // guards fresh
	fresh map[net.Conn]struct{} // connections that have not sent a request yet
}

// NewServer returns a Server that hands questions to a.
func NewServer(a wire.Asker, opts ServerOptions) *Server {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{
		asker:     a,
		version:   opts.Version,
		onGreet:   opts.OnGreet,
		messenger: opts.Messenger,
		quit:      opts.Quit,
		log:       log,
		cancel:    cancel,
		fresh:     make(map[net.Conn]struct{}),

		bodyTimeout: bodyReadTimeout,
	}
	s.hs = &http.Server{
		Handler:           s.routes(),
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
		BaseContext:       func(net.Listener) context.Context { return ctx },
		ConnState:         s.trackConn,
		// No ReadTimeout or WriteTimeout: an answer streams for as long as
		// the user takes, and a ReadTimeout would cancel the request context.
	}
	return s
}

// Serve accepts connections on l until Shutdown, then returns nil; or until l
// fails, and returns that error. Connections refused by a Listen listener are
// logged to the server's logger.
func (s *Server) Serve(l net.Listener) error {
	if sl, ok := l.(interface{ setLogger(*slog.Logger) }); ok {
		sl.setLogger(s.log)
	}
	if err := s.hs.Serve(l); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// Shutdown closes the listeners and withdraws every open question: their Ask
// contexts end, and their callers see the stream end without a final event
// (ErrAppGone). It waits for the handlers to return or ctx to end, then
// closes any connection left.
func (s *Server) Shutdown(ctx context.Context) error {
	s.cancel()
	// net/http counts a connection that never sent a request as idle only
	// after 5 s, so Shutdown would wait for it: it has nothing in flight.
	s.mu.Lock()
	for c := range s.fresh {
		c.Close()
	}
	s.mu.Unlock()
	err := s.hs.Shutdown(ctx)
	if err != nil {
		s.hs.Close()
	}
	return err
}

// trackConn remembers the connections that have not sent a request yet.
func (s *Server) trackConn(c net.Conn, state http.ConnState) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if state == http.StateNew {
		s.fresh[c] = struct{}{}
	} else {
		delete(s.fresh, c)
	}
}

// routes returns the server's handler: every route, behind the checks every
// request goes through.
func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+PathHello, s.handleHello)
	mux.HandleFunc(PathHello, methodNotAllowed(http.MethodGet))
	mux.HandleFunc("POST "+PathQuestions, s.handleQuestion)
	mux.HandleFunc(PathQuestions, methodNotAllowed(http.MethodPost))
	mux.HandleFunc("POST "+PathMessages, s.handleMessage)
	mux.HandleFunc(PathMessages, methodNotAllowed(http.MethodPost))
	mux.HandleFunc("POST "+PathQuit, s.handleQuit)
	mux.HandleFunc(PathQuit, methodNotAllowed(http.MethodPost))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, &wire.Error{Code: wire.CodeProtocol,
			Message: fmt.Sprintf("no such path: %s (this app speaks protocol %d)", r.URL.Path, ProtocolVersion)})
	})
	return s.guard(mux)
}

// guard sets the protocol header, refuses browsers and turns a panic into a
// logged 500.
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set(HeaderProtocol, strconv.Itoa(ProtocolVersion))
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				s.log.Error("ipc: handler panicked", "path", r.URL.Path, "panic", p, "stack", string(debug.Stack()))
				writeError(w, http.StatusInternalServerError, &wire.Error{Code: wire.CodeInternal, Message: "internal error (see the app's log)"})
			}
		}()
		if _, ok := r.Header["Origin"]; ok {
			writeError(w, http.StatusForbidden, &wire.Error{Code: wire.CodeProtocol, Message: "requests from web pages (with an Origin header) are refused"})
			return
		}
		next.ServeHTTP(w, r)
	})
}

func (s *Server) handleHello(w http.ResponseWriter, r *http.Request) {
	if s.onGreet != nil && r.URL.RawQuery == greetQuery {
		s.onGreet()
	}
	writeJSON(w, http.StatusOK, Hello{Protocol: ProtocolVersion, App: "feedback", Version: s.version, PID: os.Getpid()})
}

func methodNotAllowed(allow string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", allow)
		writeError(w, http.StatusMethodNotAllowed, &wire.Error{Code: wire.CodeProtocol, Message: r.Method + " " + r.URL.Path + ": use " + allow})
	}
}

func writeError(w http.ResponseWriter, status int, e *wire.Error) { writeJSON(w, status, e) }

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v) // the client may be gone; nothing to do about it
}
