// Package relaycmd is `feedback relay pair|list|revoke`: it manages the
// desktop's pairings with remote hosts that ask through an MQTT broker
// (package relay). It writes the relay's files; the running app follows
// them within half a second, connecting to the broker and dropping a
// revoked pairing's questions.
package relaycmd

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/term"

	"feedback/internal/userdirs"
	"feedback/ipc/relay"
)

const usage = `usage:
  feedback relay pair --broker mqtts://user@host:8883 [--name NAME] [--remote-user USER]
        connect the app to the broker (kept in relay.json; the password in
        relay-broker-password, mode 0600) and print a pairing token for one
        remote host: on that host, feedback setup CLIENT --relay TOKEN.
        The password is asked for on the terminal (not echoed), or read with
        --broker-password-file FILE ("-": standard input); a password in the
        URL is refused, as every user sees a command line in ps.
        The token never holds a password: the remote logs in as USER (default:
        the desktop's user) with the password in its own 0600 file
        (~/.config/feedback/relay-broker-password, or FEEDBACK_RELAY_PASSWORD_FILE).
        --broker may be left out once set
  feedback relay list
        the broker, its state and the pairings
  feedback relay revoke NAME
        delete a pairing: the app refuses its questions at once
`

// Env is where the command reads and writes.
type Env struct {
	Stdin          io.Reader // --broker-password-file -
	Stdout, Stderr io.Writer
	// ReadSecret prompts for a secret on the terminal without echoing it;
	// nil when standard input is not a terminal.
	ReadSecret func(prompt string) (string, error)
	// Config and State are feedback's directories (userdirs).
	Config, State string
	// Wait bounds how long pair waits for the app to connect; 0 means 10 s.
	Wait time.Duration
}

// StdEnv is the process's Env.
func StdEnv() (Env, error) {
	d, err := userdirs.Current()
	if err != nil {
		return Env{}, err
	}
	env := Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Config: d.Config, State: d.State}
	if fd := int(os.Stdin.Fd()); term.IsTerminal(fd) {
		env.ReadSecret = func(prompt string) (string, error) {
			fmt.Fprint(os.Stderr, prompt)
			b, err := term.ReadPassword(fd)
			fmt.Fprintln(os.Stderr)
			return string(b), err
		}
	}
	return env, nil
}

// Paths of the relay's files in env.
func (env Env) storePath() string    { return filepath.Join(env.Config, relay.StoreFile) }
func (env Env) passwordPath() string { return filepath.Join(env.Config, relay.PasswordFile) }

// StatusPath is where the app writes the broker's state.
func StatusPath(state string) string { return filepath.Join(state, relay.StatusFile) }

// Run runs `feedback relay` with args (without "relay") and returns the
// exit code: 0, 1 on failure, 2 on a usage error.
func Run(args []string, env Env) int {
	if len(args) == 0 {
		fmt.Fprint(env.Stderr, usage)
		return 2
	}
	var err error
	switch args[0] {
	case "pair":
		err = pair(args[1:], env)
	case "list":
		err = list(env)
	case "revoke":
		if len(args) != 2 {
			fmt.Fprint(env.Stderr, usage)
			return 2
		}
		err = revoke(args[1], env)
	case "-h", "--help", "help":
		fmt.Fprint(env.Stdout, usage)
		return 0
	default:
		fmt.Fprintf(env.Stderr, "feedback relay: unknown command %q\n%s", args[0], usage)
		return 2
	}
	var ue usageError
	switch {
	case errors.As(err, &ue):
		fmt.Fprintf(env.Stderr, "feedback relay: %v\n%s", err, usage)
		return 2
	case err != nil:
		fmt.Fprintf(env.Stderr, "feedback relay: %v\n", err)
		return 1
	}
	return 0
}

type usageError struct{ error }

func pair(args []string, env Env) error {
	fs := flag.NewFlagSet("feedback relay pair", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	broker := fs.String("broker", "", "the broker: mqtt[s]://user@host[:port]")
	pwFile := fs.String("broker-password-file", "", "read the broker's password from this file (-: standard input)")
	name := fs.String("name", "", "the pairing's name (default: remote-N)")
	remoteUser := fs.String("remote-user", "", "the broker user the remote host logs in as (default: the desktop's)")
	if err := fs.Parse(args); err != nil {
		return usageError{err}
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Errorf("unexpected argument %q", fs.Arg(0))}
	}
	st, err := relay.LoadState(env.storePath())
	if err != nil {
		return err
	}
	if *broker != "" {
		if _, ok := relay.ParseBrokerPassword(*broker); ok {
			// Every user of this machine reads a command line (ps,
			// /proc/PID/cmdline): a password there is no secret.
			return usageError{errors.New("--broker holds a password, which every user of this machine sees in the process list; " +
				"give the URL without it (mqtts://user@host:8883) and the password at the prompt, on standard input " +
				"(--broker-password-file -) or in a file (--broker-password-file FILE). Nothing was saved; " +
				"the password was on a command line, so consider changing it")}
		}
		if err := st.SetBroker(*broker); err != nil {
			return usageError{err}
		}
	}
	pw, ok, err := brokerPassword(*broker, *pwFile, env)
	if err != nil {
		return err
	}
	if ok {
		if err := relay.WritePassword(env.passwordPath(), pw); err != nil {
			return err
		}
	}
	if st.Broker == "" {
		return usageError{errors.New("no broker yet: give --broker mqtts://user@host:8883")}
	}
	if *name == "" {
		for i := len(st.Pairings) + 1; ; i++ {
			*name = fmt.Sprintf("remote-%d", i)
			if !has(st, *name) {
				break
			}
		}
	}
	tok, err := st.Pair(*name)
	if err != nil {
		return usageError{err}
	}
	if *remoteUser != "" {
		if tok.Broker, err = relay.WithUser(tok.Broker, *remoteUser); err != nil {
			return usageError{err}
		}
	}
	if err := st.Save(env.storePath()); err != nil {
		return err
	}
	waitForApp(env, len(st.Pairings))
	fmt.Fprintln(env.Stdout, tok.String())
	return nil
}

// maxPasswordBytes bounds a password read from standard input.
const maxPasswordBytes = 64 << 10

// brokerPassword is the broker password pair saves, ok false when none is
// given (the saved one, if any, stays): from file, "-" being standard
// input; else, for a broker URL with a user and a terminal to ask on, the
// password typed at a prompt (not echoed), empty keeping the saved one.
func brokerPassword(broker, file string, env Env) (string, bool, error) {
	switch {
	case file == "-":
		b, err := io.ReadAll(io.LimitReader(env.Stdin, maxPasswordBytes))
		if err != nil {
			return "", false, fmt.Errorf("reading the broker password from standard input: %w", err)
		}
		line, _, _ := strings.Cut(string(b), "\n")
		if line = strings.TrimRight(line, "\r"); line == "" {
			return "", false, errors.New("--broker-password-file -: standard input holds no password")
		}
		return line, true, nil
	case file != "":
		pw, err := relay.ReadPassword(file)
		return pw, err == nil, err
	case broker == "" || env.ReadSecret == nil:
		return "", false, nil
	}
	u, err := url.Parse(broker)
	if err != nil || u.User == nil || u.User.Username() == "" {
		return "", false, nil // no user: the broker takes no password
	}
	pw, err := env.ReadSecret(fmt.Sprintf("Broker password for %s@%s (Enter: keep the saved one, if any): ", u.User.Username(), u.Host))
	if err != nil {
		return "", false, fmt.Errorf("reading the broker password: %w", err)
	}
	return pw, pw != "", nil
}

func has(st relay.State, name string) bool {
	for _, p := range st.Pairings {
		if p.Name == name {
			return true
		}
	}
	return false
}

// waitForApp waits (bounded) for the running app to connect with n
// pairings, and says on stderr what it found: the token is printed
// either way (the app connects when it starts).
func waitForApp(env Env, n int) {
	wait := env.Wait
	if wait <= 0 {
		wait = 10 * time.Second
	}
	start := time.Now()
	deadline := start.Add(wait)
	var st relay.Status
	var err error
	for time.Now().Before(deadline) {
		st, err = relay.LoadStatus(StatusPath(env.State))
		if err == nil && st.Connected && st.Running() && st.Pairings >= n && st.Updated.After(start.Add(-time.Second)) {
			fmt.Fprintf(env.Stderr, "feedback relay: the app is connected to %s with %d pairing(s)\n", st.Broker, st.Pairings)
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	switch {
	case err != nil:
		fmt.Fprintln(env.Stderr, "feedback relay: the app did not report a broker connection (is it running? it connects when it starts)")
	case st.LastError != "":
		fmt.Fprintf(env.Stderr, "feedback relay: the app is not connected to %s: %s\n", st.Broker, st.LastError)
	default:
		fmt.Fprintf(env.Stderr, "feedback relay: the app has not connected to %s yet\n", st.Broker)
	}
}

func list(env Env) error {
	st, err := relay.LoadState(env.storePath())
	if err != nil {
		return err
	}
	if st.Broker == "" {
		fmt.Fprintln(env.Stdout, "no broker: feedback relay pair --broker mqtts://user:password@host:8883")
		return nil
	}
	fmt.Fprintf(env.Stdout, "broker  %s  (%s)\n", st.Broker, describe(env))
	var b strings.Builder
	for _, p := range st.Pairings {
		fmt.Fprintf(&b, "paired  %-20s since %s\n", p.Name, p.Created.Format(time.DateTime))
	}
	for _, r := range st.Revoked {
		fmt.Fprintf(&b, "revoked %-20s on %s\n", r.Name, r.Revoked.Format(time.DateTime))
	}
	fmt.Fprint(env.Stdout, b.String())
	return nil
}

// describe says what the app last reported of the broker.
func describe(env Env) string {
	st, err := relay.LoadStatus(StatusPath(env.State))
	switch {
	case err != nil:
		return "the app has not reported on it"
	case !st.Running():
		return "the app is not running"
	case st.Connected:
		return "connected since " + st.Since.Local().Format(time.DateTime)
	case st.LastError != "":
		return "not connected: " + st.LastError
	default:
		return "not connected"
	}
}

func revoke(name string, env Env) error {
	st, err := relay.LoadState(env.storePath())
	if err != nil {
		return err
	}
	if err := st.Revoke(name); err != nil {
		return err
	}
	if err := st.Save(env.storePath()); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "revoked %s: the app refuses its questions from now on\n", name)
	return nil
}
