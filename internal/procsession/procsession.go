// Package procsession names the session a process serves — the client
// process that started it — and tells, from another process of the same
// user on the same machine, whether such a session has ended.
//
// A session is "pid@starttime" where /proc tells the parent's start time
// (Linux), else "pid". Only the first form can be told ended: a pid alone
// may have been reused, so Ended never says so of it.
package procsession

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
)

// Parent returns the session of this process: its parent process, as its
// pid and, where /proc tells it, that process's start time (so a reused
// pid is another session).
func Parent() string {
	ppid := os.Getppid()
	if start := StartTime(ppid); start != "" {
		return fmt.Sprintf("%d@%s", ppid, start)
	}
	return fmt.Sprint(ppid)
}

// Ended reports whether session s (as Parent returns it) has certainly
// ended: it names a pid and a start time, /proc is there, and that process
// is gone or the pid now belongs to a process started at another time. It
// is false for every session it cannot tell about (no start time, no /proc,
// a malformed s), and for a live one.
//
// A session checked from another pid namespace than its own looks ended:
// the caller checks a session it is told about while that session is
// asking (alive then), and trusts Ended of it later only if it was false
// then.
func Ended(s string) bool {
	p, start, ok := strings.Cut(s, "@")
	if !ok || start == "" {
		return false
	}
	pid, err := strconv.Atoi(p)
	if err != nil || pid <= 0 {
		return false
	}
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		return false // no /proc here: nothing to tell
	}
	now, err := readStartTime(pid)
	if errors.Is(err, fs.ErrNotExist) {
		return true // the process is gone
	}
	if err != nil || now == "" {
		return false
	}
	return now != start
}

// StartTime returns field 22 (starttime) of /proc/pid/stat, "" where there
// is no such file (not Linux, no such process) or it cannot be read.
func StartTime(pid int) string {
	s, _ := readStartTime(pid)
	return s
}

func readStartTime(pid int) (string, error) {
	if pid <= 0 {
		return "", fs.ErrInvalid
	}
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return "", err
	}
	// The command name (field 2) is in parentheses and may hold spaces:
	// the fields after it start at the last ')'.
	i := strings.LastIndexByte(string(data), ')')
	if i < 0 {
		return "", nil
	}
	fields := strings.Fields(string(data[i+1:]))
	const starttime = 22 - 3 // fields[0] is field 3 (state)
	if len(fields) <= starttime {
		return "", nil
	}
	return fields[starttime], nil
}
