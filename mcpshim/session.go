package mcpshim

import (
	"fmt"
	"os"
	"strings"
)

// ParentSession identifies the session this shim serves: the client
// process that started it, as its process id and, where /proc tells it,
// that process's start time (so a reused pid is another session). A client
// that restarts its shim starts the new one from the same process, so the
// session survives the restart; two sessions of one client (two agent
// processes) differ. It is Options.Session of `feedback mcp`.
func ParentSession() string {
	ppid := os.Getppid()
	if start := procStartTime(ppid); start != "" {
		return fmt.Sprintf("%d@%s", ppid, start)
	}
	return fmt.Sprint(ppid)
}

// procStartTime returns field 22 (starttime) of /proc/pid/stat, "" where
// there is no such file (not Linux) or it cannot be read.
func procStartTime(pid int) string {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return ""
	}
	// The command name (field 2) is in parentheses and may hold spaces:
	// the fields after it start at the last ')'.
	i := strings.LastIndexByte(string(data), ')')
	if i < 0 {
		return ""
	}
	fields := strings.Fields(string(data[i+1:]))
	const starttime = 22 - 3 // fields[0] is field 3 (state)
	if len(fields) <= starttime {
		return ""
	}
	return fields[starttime]
}
