package ipc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"sync"
	"time"

	"feedback/ipc/wire"
)

// ErrProtocolMismatch is returned (wrapped, with both versions in the message)
// when the app speaks another ProtocolVersion than this program.
var ErrProtocolMismatch = errors.New("ipc: protocol version mismatch")

// ErrAppGone is returned (wrapped) by Client.Ask when the stream ends without
// a final event: the app quit or crashed while the question was open.
var ErrAppGone = errors.New("ipc: the feedback app closed the connection before answering (did it crash?)")

// baseURL prefixes every request; the host is ignored, the socket is dialled.
const baseURL = "http://feedback"

// Client talks to the app over the socket at Path. The zero value with Path
// set is ready to use; a Client is safe for concurrent use and must not be
// copied after first use.
//
// Before it sends a byte on a new connection, a Client makes sure that only
// the current user controls the endpoint (see the package doc): the socket's
// directory and the socket itself (verifyEndpoint), then the uid of the
// process listening (checkPeer on the connected socket). A refusal is an
// *EndpointError, which matches ErrUntrustedEndpoint; it names the path and
// the owner's uid.
type Client struct {
	// Path is the socket, usually from SocketPath.
	Path string

	uid *int // the user the endpoint must belong to; nil means os.Getuid() (a field for tests)

	once sync.Once
	hc   *http.Client
}

func (c *Client) httpClient() *http.Client {
	c.once.Do(func() {
		c.hc = &http.Client{Transport: &http.Transport{
			DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
				return c.dial(ctx)
			},
			DisableCompression: true,
			IdleConnTimeout:    time.Minute,
		}}
	})
	return c.hc
}

// dial connects to the app once the endpoint has passed every check.
func (c *Client) dial(ctx context.Context) (net.Conn, error) {
	uid := os.Getuid()
	if c.uid != nil {
		uid = *c.uid
	}
	if err := verifyEndpoint(c.Path, uid); err != nil {
		return nil, err
	}
	conn, err := dialEndpoint(ctx, c.Path)
	if err != nil {
		return nil, err
	}
	if err := checkPeer(conn, uid); err != nil {
		conn.Close()
		var pe *peerError
		if errors.As(err, &pe) {
			return nil, &EndpointError{Path: c.Path, Owner: pe.UID,
				Reason: fmt.Sprintf("the program listening on it runs as uid %d, not as you (uid %d); %s", pe.UID, uid, untrustedHint)}
		}
		return nil, &EndpointError{Path: c.Path, Owner: -1,
			Reason: fmt.Sprintf("cannot tell who listens on it: %v", err)}
	}
	return conn, nil
}

// Close releases the client's idle connections. Each tool call of the shim
// makes a client; without Close its kept-alive connection would stay open,
// in the caller and in the app, until the idle timeout. The client remains
// usable.
func (c *Client) Close() error {
	c.httpClient().CloseIdleConnections()
	return nil
}

// Hello asks who is listening. It fails with ErrProtocolMismatch if the app
// speaks another protocol version.
func (c *Client) Hello(ctx context.Context) (Hello, error) {
	return c.hello(ctx, "")
}

// Greet is Hello from an MCP server (shim) whose client has just
// initialized: an app set to (ui_prewarm) may start its windows' process.
func (c *Client) Greet(ctx context.Context) (Hello, error) {
	return c.hello(ctx, "?"+greetQuery)
}

// greetQuery marks a hello as Greet's.
const greetQuery = "greet=1"

func (c *Client) hello(ctx context.Context, query string) (Hello, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, baseURL+PathHello+query, nil)
	if err != nil {
		return Hello{}, err
	}
	resp, err := c.do(req)
	if err != nil {
		return Hello{}, err
	}
	defer resp.Body.Close()
	var h Hello
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&h); err != nil {
		return Hello{}, fmt.Errorf("ipc: malformed hello from %s: %w", c.Path, err)
	}
	if h.Protocol != ProtocolVersion {
		return h, c.mismatch(strconv.Itoa(h.Protocol))
	}
	return h, nil
}

// Ask asks a.Question as a says and blocks until the app answers. onEvent,
// if not nil, is called for every event in order, the final one included.
// It returns the Answer, or the app's *Error (when the app refuses or fails
// the question), or ErrPending (a.Wait ran out; the question stays open),
// or an error wrapping ErrAppGone when the app goes away first. Cancelling
// ctx withdraws the question: the app closes its window, and Ask returns
// ctx's error. A *Client is an Asker.
func (c *Client) Ask(ctx context.Context, a wire.Ask, onEvent func(wire.Event)) (wire.Answer, error) {
	body, err := json.Marshal(a)
	if err != nil {
		return wire.Answer{}, fmt.Errorf("ipc: encode question: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, baseURL+PathQuestions, bytes.NewReader(body))
	if err != nil {
		return wire.Answer{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.do(req)
	if err != nil {
		return wire.Answer{}, err
	}
	defer resp.Body.Close()

	dec := json.NewDecoder(resp.Body)
	for {
		var ev wire.Event
		if err := dec.Decode(&ev); err != nil {
			return wire.Answer{}, c.streamError(ctx, err)
		}
		if onEvent != nil {
			onEvent(ev)
		}
		switch ev.Type {
		case wire.EventAnswer:
			if ev.Answer == nil {
				return wire.Answer{}, fmt.Errorf("ipc: malformed stream from %s: an answer event without an answer", c.Path)
			}
			return *ev.Answer, nil
		case wire.EventPending:
			return wire.Answer{QuestionID: a.Question.ID, CallerData: ev.CallerData, Snooze: ev.Snooze}, wire.ErrPending
		case wire.EventError:
			if ev.Error == nil {
				return wire.Answer{}, fmt.Errorf("ipc: malformed stream from %s: an error event without an error", c.Path)
			}
			return wire.Answer{}, ev.Error
		}
	}
}

// do sends req and returns a 2xx response from a server of our protocol
// version; otherwise an error, the app's *Error when it sent one.
func (c *Client) do(req *http.Request) (*http.Response, error) {
	resp, err := c.httpClient().Do(req)
	if err != nil {
		if ctxErr := req.Context().Err(); ctxErr != nil {
			return nil, ctxErr
		}
		if ue, ok := err.(*url.Error); ok {
			err = ue.Err // its "Get http://feedback/…" names no real place
		}
		if errors.Is(err, ErrUntrustedEndpoint) {
			return nil, err // names the place and the owner: nothing to add
		}
		return nil, fmt.Errorf("ipc: cannot reach the feedback app: %w", err)
	}
	if v := resp.Header.Get(HeaderProtocol); v != "" && v != strconv.Itoa(ProtocolVersion) {
		resp.Body.Close()
		return nil, c.mismatch(v)
	}
	if resp.StatusCode/100 == 2 {
		return resp, nil
	}
	defer resp.Body.Close()
	var e wire.Error
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&e); err != nil || e.Code == "" {
		return nil, fmt.Errorf("ipc: %s %s: the app at %s answered %s", req.Method, req.URL.Path, c.Path, resp.Status)
	}
	return nil, &e
}

// streamError explains why reading the event stream failed.
func (c *Client) streamError(ctx context.Context, err error) error {
	if ctxErr := ctx.Err(); ctxErr != nil {
		return ctxErr
	}
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se), errors.As(err, &te):
		return fmt.Errorf("ipc: malformed stream from %s: %w", c.Path, err)
	case err == io.EOF:
		return ErrAppGone
	default:
		return fmt.Errorf("%w: %w", ErrAppGone, err)
	}
}

func (c *Client) mismatch(server string) error {
	return fmt.Errorf("%w: the app at %s speaks protocol %s, this program speaks %d; restart the app, or update the older one",
		ErrProtocolMismatch, c.Path, server, ProtocolVersion)
}
