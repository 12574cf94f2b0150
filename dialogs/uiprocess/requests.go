package uiprocess

import (
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"feedback/dialogs/historywin"
	"feedback/dialogs/settingswin"
	"feedback/internal/settings"
	"feedback/ipc/uiproto"
)

// requestWait bounds the wait for the app's answer to a request: the app
// answers at once, or after a read of its database.
var requestWait = 30 * time.Second

// errNoAnswer: the app did not answer a request within requestWait.
var errNoAnswer = errors.New("the app did not answer")

// requests are the app windows' requests (uiproto.Request) waiting for
// the app's answer.
type requests struct {
	mu      sync.Mutex // guards next and waiting
	next    uint64
	waiting map[uint64]chan uiproto.Response
}

// deliver hands resp to the request it answers; false when none waits for
// it (it came too late).
func (r *requests) deliver(resp uiproto.Response) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	ch, ok := r.waiting[resp.RequestID()]
	if ok {
		delete(r.waiting, resp.RequestID())
		ch <- resp // buffered: never blocks the reader
	}
	return ok
}

// ask sends the request that newReq numbers and waits for its answer, at
// most requestWait. It blocks: never on the Fyne goroutine.
func ask[R uiproto.Response](s *server, newReq func(req uint64) uiproto.Request) (R, error) {
	var zero R
	r := &s.reqs
	r.mu.Lock()
	r.next++
	id := r.next
	ch := make(chan uiproto.Response, 1)
	if r.waiting == nil {
		r.waiting = map[uint64]chan uiproto.Response{}
	}
	r.waiting[id] = ch
	r.mu.Unlock()
	forget := func() {
		r.mu.Lock()
		delete(r.waiting, id)
		r.mu.Unlock()
	}
	req := newReq(id)
	if err := s.conn.Send(req); err != nil {
		forget()
		return zero, fmt.Errorf("asking the app: %w", err)
	}
	t := time.NewTimer(requestWait)
	defer t.Stop()
	select {
	case resp := <-ch:
		got, ok := resp.(R)
		if !ok {
			return zero, fmt.Errorf("the app answered %s with %s", req.Type(), resp.Type())
		}
		return got, nil
	case <-t.C:
		forget()
		return zero, errNoAnswer
	}
}

// historySource is the History window's Source: the app, asked over the
// channel.
type historySource struct{ s *server }

func (h historySource) Page(search string, offset, limit int) (uiproto.HistoryPage, error) {
	return ask[uiproto.HistoryPage](h.s, func(req uint64) uiproto.Request {
		return uiproto.HistoryQuery{Req: req, Search: search, Offset: offset, Limit: limit}.Bounded()
	})
}

func (h historySource) Images(record string) (uiproto.HistoryImages, error) {
	return ask[uiproto.HistoryImages](h.s, func(req uint64) uiproto.Request {
		return uiproto.HistoryImagesQuery{Req: req, Record: record}
	})
}

var _ historywin.Source = historySource{}

// readSettings asks the app for the settings file's values (the Settings
// window shows and edits them): the values and why the file could not be
// read, the relay's broker connection, or an error when the app did not answer.
func readSettings(s *server) (values settings.Settings, readErr error, relay settingswin.RelayState, err error) {
	f, err := ask[uiproto.SettingsFile](s, func(req uint64) uiproto.Request { return uiproto.SettingsQuery{Req: req} })
	if err != nil {
		return settings.Default(), nil, relay, err
	}
	values, err = settings.Decode(f.Values, "from the app")
	if err != nil {
		return settings.Default(), nil, relay, err
	}
	if f.ReadError != "" {
		readErr = errors.New(f.ReadError)
	}
	r := f.Relay
	return values, readErr, settingswin.RelayState{Broker: r.Broker, Connected: r.Connected, Since: r.Since, LastError: r.LastError}, nil
}

// saveSettings has the app save the Settings window's edits
// (settingswin.Options.Save).
func saveSettings(s *server, values settings.Settings, changes map[string]json.RawMessage) (settings.Settings, string, error) {
	data, err := json.Marshal(values)
	if err != nil {
		return values, "", err
	}
	saved, err := ask[uiproto.SettingsSaved](s, func(req uint64) uiproto.Request {
		return uiproto.SaveSettings{Req: req, Values: data, Changes: changes}
	})
	if err != nil {
		return values, "", err
	}
	if saved.Error != "" {
		return values, "", errors.New(saved.Error)
	}
	if written, err := settings.Decode(saved.Values, "from the app"); err == nil && len(saved.Values) > 0 {
		values = written
	}
	return values, saved.MovedAside, nil
}
