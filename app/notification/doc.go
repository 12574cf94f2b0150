// Package notification sends desktop notifications for the resident process: a
// question whose window could not take the focus, and a question that timed
// out or was withdrawn before the user saw it.
//
// On Linux it speaks the freedesktop Notifications protocol over the session
// D-Bus (github.com/godbus/dbus/v5): Notify with the app name, an icon, a
// "default" action whose click calls the caller's callback, urgency, expiry,
// replaces_id and an optional sound; the ActionInvoked and NotificationClosed
// signals; CloseNotification. On other systems every call reports
// errors.ErrUnsupported: Windows toasts and the macOS notification centre are
// not implemented yet.
//
// The package imports no toolkit (no Fyne, no GL) and does no I/O until the
// first notification. Every call is bounded by Config.Timeout; a slow or
// absent bus, or no notification server, is an error (ErrNoBus, ErrNoServer,
// ErrTimeout), never a hang. Texts are hostile: the summary and body are
// capped (MaxSummaryRunes, MaxBodyRunes, MaxBodyLines), stripped of control
// and bidi-override characters, and the body is escaped when the server
// parses markup, so it always shows as plain text.
package notification
