package mcpshim

import "feedback/internal/procsession"

// ParentSession identifies the session this shim serves: the client
// process that started it, as its process id and, where /proc tells it,
// that process's start time (so a reused pid is another session). A client
// that restarts its shim starts the new one from the same process, so the
// session survives the restart; two sessions of one client (two agent
// processes) differ. It is Options.Session of `feedback mcp`, and
// wire.Ask.Session of its asks: the app hands a kept answer to another
// session only once this one has ended (procsession.Ended).
func ParentSession() string { return procsession.Parent() }

// procStartTime returns field 22 (starttime) of /proc/pid/stat, "" where
// there is no such file (not Linux) or it cannot be read.
func procStartTime(pid int) string { return procsession.StartTime(pid) }
