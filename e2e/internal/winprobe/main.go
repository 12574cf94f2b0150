//go:build windows

// Command winprobe is the Windows end of the end-to-end tests that run the
// Windows app under wine (e2e/windows_test.go); it is never shipped. The
// tests cross-build it and run it under wine beside the app:
//
//	winprobe pipe            prints the current user's pipe name (\\.\pipe\feedback-<SID>)
//	winprobe sddl PIPE       connects to PIPE and prints its owner and DACL as SDDL
//	winprobe squat PIPE SDDL creates PIPE with the security descriptor SDDL,
//	                         prints "listening", accepts connections and never
//	                         answers, until its standard input closes
//	winprobe draft DB TITLE  prints the draft of the open question titled TITLE
//	                         in the app's database DB as JSON (replies, image
//	                         count); fails when there is none
//
// The database is read here, under wine, rather than from Linux: SQLite's
// locks under wine are the wineserver's, which a Linux process cannot see.
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"

	"github.com/Microsoft/go-winio"
	"golang.org/x/sys/windows"

	"feedback/app/store"
	"feedback/ipc/wire"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "winprobe:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	switch {
	case len(args) == 1 && args[0] == "pipe":
		tu, err := windows.GetCurrentProcessToken().GetTokenUser()
		if err != nil {
			return err
		}
		fmt.Printf(`\\.\pipe\feedback-%s`+"\n", tu.User.Sid)
		return nil
	case len(args) == 2 && args[0] == "sddl":
		return printSDDL(args[1])
	case len(args) == 3 && args[0] == "squat":
		return squat(args[1], args[2])
	case len(args) == 3 && args[0] == "draft":
		return printDraft(args[1], args[2])
	}
	return fmt.Errorf("usage: winprobe pipe | sddl PIPE | squat PIPE SDDL | draft DB TITLE")
}

// printSDDL prints the owner and DACL of the pipe at path, as the app's
// clients see them through their connection.
func printSDDL(path string) error {
	c, err := winio.DialPipe(path, nil)
	if err != nil {
		return err
	}
	defer c.Close()
	fd := c.(interface{ Fd() uintptr }).Fd()
	sd, err := windows.GetSecurityInfo(windows.Handle(fd), windows.SE_KERNEL_OBJECT,
		windows.OWNER_SECURITY_INFORMATION|windows.DACL_SECURITY_INFORMATION)
	if err != nil {
		return err
	}
	fmt.Println(sd.String())
	return nil
}

// squat holds the pipe name path with the descriptor sddl: connections are
// accepted and left unanswered until stdin closes.
func squat(path, sddl string) error {
	l, err := winio.ListenPipe(path, &winio.PipeConfig{SecurityDescriptor: sddl})
	if err != nil {
		return err
	}
	defer l.Close()
	fmt.Println("listening")
	var held []net.Conn
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			held = append(held, c) // never answered; only this goroutine touches held
		}
	}()
	io.Copy(io.Discard, os.Stdin)
	return nil
}

// printDraft prints the draft of the open question titled title in the
// database at db.
func printDraft(db, title string) error {
	s, err := store.Open(db, nil)
	if err != nil {
		return err
	}
	defer s.Close()
	open, err := s.Open()
	if err != nil {
		return err
	}
	for _, q := range open {
		if q.Title != title {
			continue
		}
		d, found, err := s.Draft(q.ID)
		if err != nil || !found {
			return fmt.Errorf("no draft for %q (%v)", title, err)
		}
		return json.NewEncoder(os.Stdout).Encode(struct {
			Replies []wire.Reply
			Images  int
		}{d.Replies, len(d.Images)})
	}
	return errors.New("no open question titled " + title)
}
