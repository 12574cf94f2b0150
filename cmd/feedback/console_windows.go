//go:build windows

package main

import (
	"os"
	"path/filepath"

	"feedback/ipc/launch"

	"golang.org/x/sys/windows"
)

// The Windows GUI build is linked with -H windowsgui, so starting the app
// never opens a console window. Such a program gets no console of its own,
// and its standard handles are only those its parent passed. MCP clients
// pass pipes, so `feedback mcp` needs nothing here. Run by hand from cmd.exe
// or PowerShell, `feedback ask` or `feedback version` would write to nowhere;
// so a command other than the app attaches to the console of the process
// that started it and writes there. (cmd.exe does not wait for a GUI program
// typed at its prompt, though it does inside a .bat script: see the README.)
func init() {
	if len(os.Args) < 2 || os.Args[1] == "app" {
		logWithoutStderr() // the app itself: no console wanted
		return
	}
	attachParentConsole()
}

// logWithoutStderr gives the app started with no standard error (from the
// Run key at login, Explorer, a shortcut: a GUI program gets no handles
// there) its log file, launch.LogPath (%LOCALAPPDATA%\feedback\app.log),
// the file every message that names the app's log points to. Started by
// feedback mcp or ask (launch.StartDetached) or from a console, it has one.
func logWithoutStderr() {
	if h, err := windows.GetStdHandle(windows.STD_ERROR_HANDLE); err == nil && h != 0 && h != windows.InvalidHandle {
		return
	}
	path := launch.LogPath()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return
	}
	windows.SetStdHandle(windows.STD_ERROR_HANDLE, windows.Handle(f.Fd())) // the UI process inherits it
	os.Stderr = f
}

var procAttachConsole = windows.NewLazySystemDLL("kernel32.dll").NewProc("AttachConsole")

// attachParentProcess is ATTACH_PARENT_PROCESS, (DWORD)-1.
const attachParentProcess = ^uint32(0)

// attachParentConsole gives each standard stream that has no handle the
// console of the parent process, if it has one.
func attachParentConsole() {
	type stream struct {
		id   uint32
		file **os.File
		name string
		flag int
	}
	streams := []stream{
		{windows.STD_INPUT_HANDLE, &os.Stdin, "CONIN$", os.O_RDWR},
		{windows.STD_OUTPUT_HANDLE, &os.Stdout, "CONOUT$", os.O_RDWR},
		{windows.STD_ERROR_HANDLE, &os.Stderr, "CONOUT$", os.O_RDWR},
	}
	missing := false
	for _, s := range streams {
		if h, err := windows.GetStdHandle(s.id); err != nil || h == 0 || h == windows.InvalidHandle {
			missing = true
		}
	}
	if !missing {
		return
	}
	if r, _, _ := procAttachConsole.Call(uintptr(attachParentProcess)); r == 0 {
		return // the parent has no console
	}
	for _, s := range streams {
		if h, err := windows.GetStdHandle(s.id); err == nil && h != 0 && h != windows.InvalidHandle {
			continue // keep a redirection the parent set up
		}
		f, err := os.OpenFile(s.name, s.flag, 0)
		if err != nil {
			continue
		}
		windows.SetStdHandle(s.id, windows.Handle(f.Fd()))
		*s.file = f
	}
}
