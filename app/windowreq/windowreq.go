// Package windowreq answers the requests of the app's own windows in the
// UI process (uiproto.Request): the History window's pages and images,
// read from the app's database through a read-only store as `feedback
// history` reads it, and the Settings window's values and saves of the
// settings file. It runs in the resident app, the only process that opens
// either: the UI process links neither the store nor the settings file's
// code.
package windowreq

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"strings"
	"sync"

	"feedback/app/store"
	"feedback/internal/settings"
	"feedback/internal/settings/settingsfile"
	"feedback/ipc/relay"
	"feedback/ipc/uiproto"
)

// Server answers the app windows' requests (supervisor.Requests): the History
// window's from the database at DB ("": the app keeps none,
// FEEDBACK_DB=off), the Settings window's from the settings file at
// SettingsPath ("": there is no config directory), with the relay's
// broker connection from its status file at RelayStatusPath (written by
// the app's relay: ipc/relay.StatusFile; "" or no file: not set up).
type Server struct {
	DB, SettingsPath, RelayStatusPath string
	Log                               *slog.Logger
	// mu serves one request at a time: a save is never read half-written
	// by the next query, and the UI process cannot pile reads up.
	mu sync.Mutex
}

// Answer answers req (nil for a request it does not know); it blocks
// while it reads or writes, and serves one request at a time.
func (w *Server) Answer(req uiproto.Request) uiproto.Response {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch r := req.(type) {
	case uiproto.HistoryQuery:
		return w.historyPage(r)
	case uiproto.HistoryImagesQuery:
		return w.historyImages(r)
	case uiproto.SettingsQuery:
		return w.settingsFile(r)
	case uiproto.SaveSettings:
		return w.saveSettings(r)
	}
	w.logger().Warn("an unknown request from the UI process", "type", req.Type())
	return nil
}

func (w *Server) logger() *slog.Logger {
	if w.Log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return w.Log
}

// withStore runs f with the database opened read-only, or says why it
// cannot be.
func (w *Server) withStore(f func(*store.Store) error) (uiproto.HistoryProblem, error) {
	if w.DB == "" {
		return uiproto.HistoryOff, nil
	}
	s, err := store.OpenReadOnly(w.DB)
	if errors.Is(err, store.ErrNoDatabase) {
		return uiproto.HistoryNone, nil
	}
	if err != nil {
		return uiproto.HistoryFailed, err
	}
	defer s.Close()
	if err := f(s); err != nil {
		return uiproto.HistoryFailed, err
	}
	return "", nil
}

// historyPage is the page q asks for, within the protocol's bounds
// (uiproto.HistoryQuery.Bounded, MaxHistoryPageBytes).
func (w *Server) historyPage(q uiproto.HistoryQuery) uiproto.HistoryPage {
	q = q.Bounded()
	page := uiproto.HistoryPage{Req: q.Req}
	var found []store.Entry
	problem, err := w.withStore(func(s *store.Store) error {
		var err error
		found, err = s.Find(store.Filter{Search: q.Search, Limit: q.Offset + q.Limit + 1})
		return err
	})
	if problem != "" {
		page.Problem = problem
		if err != nil {
			page.Error = err.Error()
		}
		return page
	}
	if q.Offset >= len(found) {
		return page
	}
	found = found[q.Offset:]
	page.More = len(found) > q.Limit
	bytes := 0
	for i, e := range found[:min(len(found), q.Limit)] {
		he := uiproto.HistoryEntry(e)
		bytes += he.TextBytes()
		if bytes > uiproto.MaxHistoryPageBytes && i > 0 {
			page.More = true
			break
		}
		page.Entries = append(page.Entries, he)
	}
	return page
}

// historyImages are the images of one ask's answer, within
// MaxHistoryImagesBytes.
func (w *Server) historyImages(q uiproto.HistoryImagesQuery) uiproto.HistoryImages {
	out := uiproto.HistoryImages{Req: q.Req}
	problem, err := w.withStore(func(s *store.Store) error {
		imgs, err := s.AnswerImages(q.Record)
		total := 0
		for i, im := range imgs {
			total += len(im.Data)
			if total > uiproto.MaxHistoryImagesBytes {
				out.Omitted = len(imgs) - i
				break
			}
			out.Images = append(out.Images, im)
		}
		return err
	})
	switch {
	case err != nil:
		out.Error = err.Error()
	case problem != "":
		out.Error = "no history"
	}
	return out
}

// settingsFile is the settings file's values for the Settings window.
func (w *Server) settingsFile(q uiproto.SettingsQuery) uiproto.SettingsFile {
	out := uiproto.SettingsFile{Req: q.Req}
	s, err := settings.Default(), error(nil)
	if w.SettingsPath == "" {
		err = errors.New("there is no settings file: no config directory")
	} else {
		s, err = settingsfile.ReadFile(w.SettingsPath)
	}
	if err != nil {
		out.ReadError = err.Error()
	}
	out.Values, _ = json.Marshal(s) // plain JSON types: cannot fail
	out.Relay = w.relayState()
	return out
}

// relayState is the relay's broker connection as its status file says:
// the zero value when no broker is set up, and not connected when the
// app that wrote the file has gone (a status left by an earlier run).
func (w *Server) relayState() uiproto.RelayState {
	if w.RelayStatusPath == "" {
		return uiproto.RelayState{}
	}
	st, err := relay.LoadStatus(w.RelayStatusPath)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			w.logger().Warn("the relay's status cannot be read", "err", err)
		}
		return uiproto.RelayState{}
	}
	if st.Broker == "" {
		return uiproto.RelayState{}
	}
	out := uiproto.RelayState{Broker: st.Broker, Connected: st.Connected && st.Running(), LastError: st.LastError}
	if out.Connected {
		out.Since = st.Since
	}
	if len(out.LastError) > uiproto.MaxRelayErrorBytes {
		out.LastError = strings.ToValidUTF8(out.LastError[:uiproto.MaxRelayErrorBytes], "") + "…"
	}
	return out
}

// saveSettings saves the Settings window's edits over the file as it is
// now, or its values whole when it sent no edits or the file cannot be
// read (settingsfile.SaveEdits, which checks them first); the app's watch
// of the file then applies them.
func (w *Server) saveSettings(q uiproto.SaveSettings) uiproto.SettingsSaved {
	out := uiproto.SettingsSaved{Req: q.Req}
	fail := func(err error) uiproto.SettingsSaved {
		out.Error = err.Error()
		w.logger().Warn("the Settings window's save failed", "err", err)
		return out
	}
	if w.SettingsPath == "" {
		return fail(errors.New("there is no settings file: no config directory"))
	}
	size := len(q.Values)
	for k, v := range q.Changes {
		size += len(k) + len(v)
	}
	if size > uiproto.MaxSettingsBytes {
		return fail(fmt.Errorf("the settings are %d bytes, over %d", size, uiproto.MaxSettingsBytes))
	}
	s, err := settings.Decode(q.Values, "from the Settings window")
	if err != nil {
		return fail(err)
	}
	s, aside, err := settingsfile.SaveEdits(w.SettingsPath, s, q.Changes)
	if err != nil {
		return fail(err)
	}
	if aside != "" {
		w.logger().Warn("the malformed settings file was kept aside", "path", aside)
	}
	out.MovedAside = aside
	out.Values, _ = json.Marshal(s)
	w.logger().Info("settings saved from the Settings window", "path", w.SettingsPath)
	return out
}
