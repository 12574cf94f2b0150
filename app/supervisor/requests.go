package supervisor

import "feedback/ipc/uiproto"

// Requests answers what the app's own windows in the UI process ask of
// the app (uiproto.Request: History's pages and images, the settings to
// edit and their save): it returns the Response of the request's number.
// It may block (it reads the database, writes the settings file): each
// call runs on a goroutine of its own, never under the UIProcess's lock.
type Requests func(uiproto.Request) uiproto.Response

// answer has req answered (Options.Requests) off the event loop,
// and sends the response to p if it still runs; with no Requests the
// request is logged and left unanswered (the window says it got no
// answer).
func (u *UIProcess) answer(p *uiProc, req uiproto.Request) {
	answer := u.opts.Requests
	if answer == nil {
		u.log.Warn("a request from the UI process that nothing answers", "type", req.Type())
		return
	}
	go func() {
		resp := answer(req)
		if resp == nil {
			return
		}
		u.mu.Lock()
		defer u.mu.Unlock()
		if u.proc != p || u.stopped {
			return // its window went with its process
		}
		u.sendLocked(p, resp)
	}()
}
