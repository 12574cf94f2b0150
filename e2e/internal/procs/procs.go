// Package procs finds the resident app's UI processes for the end-to-end
// tests and the benchmark, from /proc (Linux).
package procs

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// UI returns the pids of the UI processes (`feedback ui`) whose parent is
// the app with pid app.
func UI(app int) []int {
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || !strings.HasSuffix(string(cmdline), "\x00ui\x00") {
			continue
		}
		if parent(pid) == app {
			pids = append(pids, pid)
		}
	}
	return pids
}

// parent is pid's parent pid, or 0.
func parent(pid int) int {
	stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return 0
	}
	// pid (comm) state ppid …: comm may hold spaces, so split after ')'.
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	if len(fields) < 2 {
		return 0
	}
	ppid, _ := strconv.Atoi(fields[1])
	return ppid
}

// State is pid's state letter from /proc/PID/stat ('R', 'S', 'T' when
// stopped…), or 0 when it does not exist.
func State(pid int) byte {
	stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return 0
	}
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	if len(fields) < 1 || fields[0] == "" {
		return 0
	}
	return fields[0][0]
}
