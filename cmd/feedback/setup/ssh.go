package setup

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"os/exec"
	"path"
	"strings"
	"time"
	"unicode"
)

// RemoteSocketName is the forwarded socket's file name on the remote host,
// in the remote user's ~/.ssh: a directory that exists wherever ssh keys
// are used, belongs to that user and is private (0700), as the shim's
// endpoint checks require.
const RemoteSocketName = "feedback.sock"

// SSHRecipe is the configuration that lets a remote host's shim ask
// through this desktop's app.
type SSHRecipe struct {
	Host         string
	RemoteUser   string
	RemoteSocket string // where sshd on Host creates the forwarded socket
	LocalSocket  string // this desktop's app socket
}

// ClientConfig is the ~/.ssh/config block for this desktop.
func (r SSHRecipe) ClientConfig() string {
	return fmt.Sprintf("Host %s\n    RemoteForward %s %s\n", r.Host, r.RemoteSocket, r.LocalSocket)
}

// runSSH is `feedback setup ssh HOST`.
func runSSH(args []string, e Env) int {
	fs := flag.NewFlagSet("feedback setup ssh", flag.ContinueOnError)
	fs.SetOutput(e.Stderr)
	user := fs.String("remote-user", "", "your user name on HOST (default: what ssh -G HOST says)")
	socket := fs.String("remote-socket", "", "the socket's path on HOST (default: ~/.ssh/"+RemoteSocketName+" of the remote user)")
	host := ""
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		host, args = args[0], args[1:]
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if host == "" && fs.NArg() > 0 {
		host = fs.Arg(0)
	} else if fs.NArg() > 0 {
		fmt.Fprintf(e.Stderr, "feedback setup ssh: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if host == "" {
		fmt.Fprintln(e.Stderr, "feedback setup ssh: name the remote host: feedback setup ssh HOST")
		return 2
	}
	if strings.IndexFunc(host, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) || strings.ContainsRune(`"'#`, r) }) >= 0 {
		fmt.Fprintf(e.Stderr, "feedback setup ssh: %q is not a host name or ~/.ssh/config Host alias\n", host)
		return 2
	}
	if *socket != "" && !path.IsAbs(*socket) {
		fmt.Fprintf(e.Stderr, "feedback setup ssh: --remote-socket %q: want an absolute path on %s\n", *socket, host)
		return 2
	}
	if e.GOOS == "windows" {
		fmt.Fprintln(e.Stderr, "feedback setup ssh: on Windows the app listens on a named pipe, which ssh cannot forward; "+
			"run the app on a Linux or macOS desktop for remote use")
		return 1
	}
	if e.Socket == "" {
		fmt.Fprintln(e.Stderr, "feedback setup ssh: cannot tell where this desktop's app listens")
		return 1
	}
	r := SSHRecipe{Host: host, RemoteUser: *user, RemoteSocket: *socket, LocalSocket: e.Socket}
	if r.RemoteUser == "" {
		r.RemoteUser = sshUser(host)
	}
	if r.RemoteUser == "" {
		r.RemoteUser = e.Getenv("USER")
	}
	guessed := false
	if r.RemoteSocket == "" {
		if r.RemoteUser == "" {
			fmt.Fprintln(e.Stderr, "feedback setup ssh: cannot tell your user name on the host; pass --remote-user or --remote-socket")
			return 2
		}
		home := "/home/" + r.RemoteUser
		if r.RemoteUser == "root" {
			home = "/root"
		}
		r.RemoteSocket = path.Join(home, ".ssh", RemoteSocketName)
		guessed = true
	}
	printSSH(e, r, guessed)
	return 0
}

// sshUser asks the local ssh which user it logs in as on host (ssh -G
// prints the effective configuration without connecting).
func sshUser(host string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "ssh", "-G", "--", host).Output()
	if err != nil {
		return ""
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if u, ok := strings.CutPrefix(sc.Text(), "user "); ok {
			return strings.TrimSpace(u)
		}
	}
	return ""
}

func printSSH(e Env, r SSHRecipe, guessed bool) {
	w := e.Stdout
	fmt.Fprintf(w, `Answer on this desktop the questions asked by agents on %[1]s.

1. On this desktop, add to ~/.ssh/config:

%[2]s
   RemoteForward makes sshd on %[1]s listen on %[3]s for as long as you are
   connected, and carries each connection to this desktop's app at
   %[4]s.
`, r.Host, indent(r.ClientConfig(), "    "), r.RemoteSocket, r.LocalSocket)
	if guessed {
		fmt.Fprintf(w, `   (%[1]s assumes that your home on %[2]s is %[3]s; if it is not,
   run: feedback setup ssh %[2]s --remote-socket "$(ssh %[2]s 'echo $HOME')/.ssh/%[4]s")
`, r.RemoteSocket, r.Host, path.Dir(path.Dir(r.RemoteSocket)), RemoteSocketName)
	}
	fmt.Fprintf(w, `
2. On %[1]s, once, as root: add this line to /etc/ssh/sshd_config, then reload
   sshd (systemctl reload ssh, or sshd on some systems):

    StreamLocalBindUnlink yes

   When a connection ends, sshd leaves the socket file %[2]s behind.
   On the next connection sshd refuses to listen over it ("remote port forwarding
   failed for listen path"; ssh only warns) and there is no forward, unless the
   sshd_config of %[1]s says StreamLocalBindUnlink yes: it is sshd on the remote
   side that creates, and must replace, a RemoteForward socket. The same option in
   your own ~/.ssh/config applies only to sockets your ssh client creates
   (LocalForward), so it does not help here. Without root on %[1]s, remove the
   stale socket before you reconnect:  ssh %[1]s rm -f %[2]s

3. On %[1]s, install the headless shim (no window toolkit needed) and point your
   MCP client at the socket, e.g. for Claude Code:

    scp bin/feedback-headless %[1]s:.local/bin/feedback      (a build for %[1]s's OS)
    ssh %[1]s '.local/bin/feedback setup claude-code --socket %[2]s'

   which writes into %[1]s's ~/.claude.json (every client has its own shape;
   feedback setup CLIENT --socket PATH --print shows it):

    "feedback": {
      "type": "stdio",
      "command": "%[3]s/.local/bin/feedback",
      "args": ["mcp"],
      "env": {"FEEDBACK_SOCKET": "%[2]s"}
    }

4. Check it: keep the feedback app running here, connect with ssh %[1]s, and there run

    FEEDBACK_SOCKET=%[2]s .local/bin/feedback ask --yesno "Does it work?"

   A window opens on this desktop. When the connection is down, the shim on
   %[1]s says so at once and the agent asks in its own chat instead.
`, r.Host, r.RemoteSocket, path.Dir(path.Dir(r.RemoteSocket)))
}

// indent prefixes every non-empty line of s.
func indent(s, prefix string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = prefix + l
		}
	}
	return strings.Join(lines, "\n") + "\n"
}
