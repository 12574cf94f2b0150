//go:build (linux || freebsd || netbsd || openbsd) && cgo && !ci && !wayland

package native

/*
#include <X11/Xlib.h>
#include <X11/Xlibint.h>

extern void feedbackXFault(unsigned long resource, unsigned char code, unsigned char request, unsigned char minor);

static XErrorHandler feedbackPrevHandler;

// feedbackXError survives an error on a resource: a window, drawable,
// pixmap, GC… that another client destroyed, or any extension's error
// (GLX's, MIT-SHM's on a drawable gone). It reports it to Go and returns.
// Other core errors (BadAlloc, BadValue, BadAccess…) still go to the
// handler it replaced, Xlib's default: it ends the process.
static int feedbackXError(Display *dpy, XErrorEvent *e) {
	switch (e->error_code) {
	case BadWindow: case BadPixmap: case BadAtom: case BadCursor: case BadFont:
	case BadMatch: case BadDrawable: case BadColor: case BadGC:
		break;
	default:
		if (e->error_code < FirstExtensionError && feedbackPrevHandler != NULL) {
			return feedbackPrevHandler(dpy, e);
		}
	}
	feedbackXFault(e->resourceid, e->error_code, e->request_code, e->minor_code);
	return 0;
}

typedef Bool (*feedbackWireProc)(Display *, XEvent *, xEvent *);
static feedbackWireProc feedbackPrevWire;

// feedbackWire converts a DestroyNotify as Xlib did, and reports the
// window the server destroyed (not one another client sent as an event).
static Bool feedbackWire(Display *dpy, XEvent *re, xEvent *ev) {
	Bool ok = feedbackPrevWire(dpy, re, ev);
	if (ok && re->type == DestroyNotify && !re->xany.send_event) {
		feedbackXFault(re->xdestroywindow.window, 0, 0, 0);
	}
	return ok;
}

// feedbackWatchX installs both. (XESetWireToEvent locks the display
// itself.)
static void feedbackWatchX(void *dpy) {
	XErrorHandler prev = XSetErrorHandler(feedbackXError);
	if (prev != feedbackXError) {
		feedbackPrevHandler = prev;
	}
	feedbackWireProc w = XESetWireToEvent((Display *)dpy, DestroyNotify, feedbackWire);
	if (w != feedbackWire) {
		feedbackPrevWire = w;
	}
}
*/
import "C"

// installed: the handler is in place; on the Fyne goroutine only.
var installed bool

// reportFault receives what feedbackXFault records; set once, by the
// first WatchXErrors that installs the handler.
var reportFault func(Fault)

// WatchXErrors makes feedbackXError Xlib's error handler, once GLFW has
// opened its display (GLFW saves and restores the handler it finds around
// its own checks, so it stays ours), and has Xlib report the DestroyNotify
// events GLFW's connection reads (GLFW ignores them); report receives
// both, on whatever thread Xlib runs the handler: it must only record
// them. The I/O error handler is left alone: a display lost still ends the
// process. Call it on the Fyne goroutine after a window was shown; it
// does nothing once installed.
func WatchXErrors(report func(Fault)) {
	if installed {
		return
	}
	dpy := glfwDisplay()
	if dpy == nil {
		return
	}
	installed = true
	reportFault = report
	C.feedbackWatchX(dpy)
}

// feedbackXFault is called by feedbackXError and feedbackWire, inside
// Xlib, on whatever thread made the request: it only records the fault.
//
//export feedbackXFault
func feedbackXFault(resource C.ulong, code, request, minor C.uchar) {
	reportFault(Fault{Resource: uint32(resource), Code: uint8(code), Request: uint8(request), Minor: uint8(minor)})
}
