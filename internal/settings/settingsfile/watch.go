package settingsfile

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"time"

	"github.com/fsnotify/fsnotify"

	"feedback/internal/settings"
)

// pollEvery is the backstop of Watch: how often it looks at the file's
// modification time and size in case no file-system event came (the
// directory did not exist yet, a network file system, fsnotify unavailable).
var pollEvery = 2 * time.Second

// settleFor lets a burst of events (an editor's truncate, write, chmod)
// settle into one reload.
const settleFor = 100 * time.Millisecond

// Watch notices changes of the settings file at path, whether the app saved
// it for the Settings window or the user edited it by hand, so that the
// resident app applies them (and sends them to its UI process) without a
// restart. It reads the file with Load
// (getenv still overrides) once before it returns, as the baseline, and from
// then on calls fn on its own goroutine, one call at a time, until ctx ends:
//
//   - fn(s, nil) when the file now gives valid settings that differ from the
//     last ones reported (or from the baseline);
//   - fn(settings.Default(), err) when the file turned malformed or a value out of
//     range (err is Load's, naming every field at fault), once per distinct
//     error; the caller keeps the settings it has.
//
// fn must not block for long; a UI hands the settings to fyne.Do. When Watch
// returns, a change made from then on is reported.
//
// It watches the file's directory with fsnotify (editors and Save replace the
// file by a rename, which a watch on the file itself would lose) and, as a
// backstop, compares the file's modification time and size every 2 s: one
// stat, off every UI goroutine. A directory that does not exist yet is
// watched from the poll that first sees it.
func Watch(ctx context.Context, path string, getenv func(string) string, fn func(settings.Settings, error)) {
	path = filepath.Clean(path)
	dir := filepath.Dir(path)
	last, lastErr := Load(path, getenv)
	lastStat := statOf(path)
	w, err := fsnotify.NewWatcher()
	watching := false
	if err == nil {
		watching = w.Add(dir) == nil
	}
	var events chan fsnotify.Event
	var errs chan error
	if w != nil {
		events, errs = w.Events, w.Errors
	}
	go func() {
		if w != nil {
			defer w.Close()
		}
		poll := time.NewTicker(pollEvery)
		defer poll.Stop()
		settle := time.NewTimer(time.Hour)
		settle.Stop()
		reload := func() {
			lastStat = statOf(path)
			s, err := Load(path, getenv)
			switch {
			case err != nil:
				if lastErr == nil || lastErr.Error() != err.Error() {
					lastErr = err
					fn(settings.Default(), err)
				}
			case lastErr != nil || !reflect.DeepEqual(s, last):
				last, lastErr = s, nil
				fn(s, nil)
			}
		}
		for {
			select {
			case <-ctx.Done():
				return
			case ev, ok := <-events:
				if !ok {
					events = nil
					continue
				}
				if filepath.Clean(ev.Name) == path {
					settle.Reset(settleFor)
				}
			case _, ok := <-errs:
				if !ok {
					errs = nil
				}
				// An overflow or a lost watch: the poll below catches up.
			case <-settle.C:
				reload()
			case <-poll.C:
				if w != nil && !watching {
					watching = w.Add(dir) == nil
				}
				if statOf(path) != lastStat {
					reload()
				}
			}
		}
	}()
}

// fileStat is what the poll compares.
type fileStat struct {
	exists  bool
	modTime time.Time
	size    int64
}

func statOf(path string) fileStat {
	fi, err := os.Stat(path)
	if err != nil {
		return fileStat{}
	}
	return fileStat{exists: true, modTime: fi.ModTime(), size: fi.Size()}
}
