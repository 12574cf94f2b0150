// Package relaycmd is `feedback relay pair|list|revoke`: it manages the
// desktop's pairings with remote hosts that ask through an MQTT broker
// (package relay). It writes the relay's files; the running app follows
// them within half a second, connecting to the broker and dropping a
// revoked pairing's questions.
package relaycmd

import (
	"context"
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
        log in to the broker as the app will (TLS for mqtts://, the password),
        then keep it (relay.json; the password in relay-broker-password, mode
        0600) and print a pairing token for one remote host: on that host,
        feedback-headless relay password, then
        feedback-headless setup CLIENT --relay TOKEN.
        The password is asked for on the terminal (not echoed), or read with
        --broker-password-file FILE ("-": standard input); a password in the
        URL is refused, as every user sees a command line in ps. When the
        broker refuses the login, nothing is kept and no token is printed.
        The token never holds a password: the remote logs in as USER (default:
        the desktop's user) with the password in its own 0600 file.
        --broker may be left out once set
  feedback relay broker [URL]
        check the broker with the saved password (or, with URL, log in to that
        one, then keep it: the app moves to it; the pairings stay)
  feedback relay token --broker URL TOKEN
        print TOKEN for another broker address: the same pairing, the same keys
        (after feedback relay broker URL, for each remote host)
  feedback relay password
        keep this machine's broker password (asked for, not echoed; or one line
        on standard input) in relay-broker-password, mode 0600, where the shim
        and the app read it
  feedback relay list
        the broker, its state, the pairings and the revoked ones
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
	// CheckBroker logs in to a broker as the app will (relay.CheckBroker
	// when nil).
	CheckBroker func(ctx context.Context, url, password string) error
}

// checkBroker is env.CheckBroker, or relay.CheckBroker with a 10 s bound.
func (env Env) checkBroker(url, password string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if env.CheckBroker != nil {
		return env.CheckBroker(ctx, url, password)
	}
	return relay.CheckBroker(ctx, url, password, 10*time.Second)
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
	case "broker":
		err = brokerCmd(args[1:], env)
	case "token":
		err = tokenCmd(args[1:], env)
	case "password":
		if len(args) != 1 {
			fmt.Fprint(env.Stderr, usage)
			return 2
		}
		err = passwordCmd(env)
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
	if err := setBroker(&st, *broker); err != nil {
		return err
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
	// The broker must take the app's login before anything is kept: a
	// token for a broker the app cannot reach would only wait.
	if err := checkAndKeep(st, *broker, *pwFile, env); err != nil {
		return err
	}
	waitForApp(env, len(st.Pairings))
	fmt.Fprintln(env.Stdout, tok.String())
	return nil
}

// setBroker sets st's broker to url, when given; a password in it is
// refused (a usage error).
func setBroker(st *relay.State, url string) error {
	if url == "" {
		return nil
	}
	if _, ok := relay.ParseBrokerPassword(url); ok {
		// Every user of this machine reads a command line (ps,
		// /proc/PID/cmdline): a password there is no secret.
		return usageError{errors.New("--broker holds a password, which every user of this machine sees in the process list; " +
			"give the URL without it (mqtts://user@host:8883) and the password at the prompt, on standard input " +
			"(--broker-password-file -) or in a file (--broker-password-file FILE). Nothing was saved; " +
			"the password was on a command line, so consider changing it")}
	}
	if err := st.SetBroker(url); err != nil {
		return usageError{err}
	}
	return nil
}

// checkAndKeep logs in to st's broker with the password given (broker,
// pwFile: brokerPassword) or else the saved one, and only when the broker
// takes it saves the password and st.
func checkAndKeep(st relay.State, broker, pwFile string, env Env) error {
	pw, given, err := brokerPassword(broker, st.Broker, pwFile, env)
	if err != nil {
		return err
	}
	if !given {
		pw, err = relay.ReadPassword(env.passwordPath())
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	if err := env.checkBroker(st.Broker, pw); err != nil {
		return fmt.Errorf("%v\nNothing was saved and no token made: fix that, then run the command again", err)
	}
	fmt.Fprintf(env.Stderr, "feedback relay: %s took the login\n", st.Broker)
	if given {
		if err := relay.WritePassword(env.passwordPath(), pw); err != nil {
			return err
		}
	}
	return st.Save(env.storePath())
}

// maxPasswordBytes bounds a password read from standard input.
const maxPasswordBytes = 64 << 10

// brokerPassword is the broker password pair saves, ok false when none is
// given (the saved one, if any, stays): from file, "-" being standard
// input; else, when a broker URL is given (current is it, parsed) with a
// user and a terminal to ask on, the password typed at a prompt (not
// echoed), empty keeping the saved one.
func brokerPassword(broker, current, file string, env Env) (string, bool, error) {
	switch {
	case file == "-":
		line, err := stdinPassword(env)
		if err != nil {
			return "", false, fmt.Errorf("--broker-password-file -: %w", err)
		}
		return line, true, nil
	case file != "":
		pw, err := relay.ReadPassword(file)
		return pw, err == nil, err
	case broker == "" || env.ReadSecret == nil:
		return "", false, nil
	}
	u, err := url.Parse(current)
	if err != nil || u.User == nil || u.User.Username() == "" {
		return "", false, nil // no user: the broker takes no password
	}
	pw, err := env.ReadSecret(fmt.Sprintf("Broker password for %s@%s (Enter: keep the saved one, if any): ", u.User.Username(), u.Host))
	if err != nil {
		return "", false, fmt.Errorf("reading the broker password: %w", err)
	}
	return pw, pw != "", nil
}

// stdinPassword is the first line of standard input.
func stdinPassword(env Env) (string, error) {
	if env.Stdin == nil {
		return "", errors.New("no standard input")
	}
	b, err := io.ReadAll(io.LimitReader(env.Stdin, maxPasswordBytes))
	if err != nil {
		return "", fmt.Errorf("reading the broker password from standard input: %w", err)
	}
	line, _, _ := strings.Cut(string(b), "\n")
	if line = strings.TrimRight(line, "\r"); line == "" {
		return "", errors.New("standard input holds no password")
	}
	return line, nil
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

// brokerCmd is `feedback relay broker [URL]`: with URL, log in to that
// broker and keep it for the app (the pairings stay; their remotes' tokens
// name the old address until feedback relay token); without, check the
// saved one.
func brokerCmd(args []string, env Env) error {
	fs := flag.NewFlagSet("feedback relay broker", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	pwFile := fs.String("broker-password-file", "", "read the broker's password from this file (-: standard input)")
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return usageError{err}
	}
	if len(rest) > 1 {
		return usageError{fmt.Errorf("unexpected argument %q", rest[1])}
	}
	st, err := relay.LoadState(env.storePath())
	if err != nil {
		return err
	}
	old := st.Broker
	url := ""
	if len(rest) == 1 {
		url = rest[0]
		if err := setBroker(&st, url); err != nil {
			return err
		}
	}
	if st.Broker == "" {
		return usageError{errors.New("no broker yet: feedback relay broker mqtts://user@host:8883")}
	}
	if url == "" && *pwFile == "" {
		pw, err := relay.ReadPassword(env.passwordPath())
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		if err := env.checkBroker(st.Broker, pw); err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "%s took the app's login and passed a message on fbr/…\n", st.Broker)
		return nil
	}
	if err := checkAndKeep(st, url, *pwFile, env); err != nil {
		return err
	}
	waitForApp(env, len(st.Pairings))
	if old != "" && old != st.Broker && len(st.Pairings) > 0 {
		fmt.Fprintf(env.Stdout, "The app now uses %s. The tokens of its %d pairing(s) still name %s: on each remote host,\n"+
			"  feedback-headless relay token --broker mqtts://THEIR-USER@HOST:PORT TOKEN\n"+
			"prints that host's token for the new address (the same pairing and keys); give it to feedback-headless setup CLIENT --relay.\n",
			st.Broker, len(st.Pairings), old)
	}
	return nil
}

// tokenCmd is `feedback relay token --broker URL TOKEN`: TOKEN for
// another broker address. The address in a token is not one of its
// secrets (the broker is not trusted with anything): the keys stay.
func tokenCmd(args []string, env Env) error {
	fs := flag.NewFlagSet("feedback relay token", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	broker := fs.String("broker", "", "the broker's new address: mqtt[s]://[user@]host[:port] (without a user: the token's)")
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return usageError{err}
	}
	if len(rest) != 1 || *broker == "" {
		return usageError{errors.New("want --broker URL and one token")}
	}
	tok, err := relay.ParseToken(rest[0])
	if err != nil {
		return err
	}
	var st relay.State
	if err := setBroker(&st, *broker); err != nil {
		return err
	}
	b, err := relay.BrokerAddress(st.Broker)
	if err != nil {
		return usageError{err}
	}
	if ob, _ := relay.BrokerAddress(tok.Broker); b.User == "" && ob.User != "" {
		b.Display, err = relay.WithUser(b.Display, ob.User) // the remote's user stays
		if err != nil {
			return usageError{err}
		}
	}
	tok.Broker = b.Display
	fmt.Fprintln(env.Stdout, tok.String())
	return nil
}

// passwordCmd is `feedback relay password`: it keeps this machine's broker
// password where the app and the shim read it (relay.PasswordFile in the
// config directory), written whole (a temporary file renamed over it) with
// mode 0600 in a 0700 directory it creates if missing.
func passwordCmd(env Env) error {
	var pw string
	var err error
	if env.ReadSecret != nil {
		pw, err = env.ReadSecret("This machine's broker password (not echoed): ")
		if err == nil && pw == "" {
			err = errors.New("no password typed; nothing was changed")
		}
	} else {
		pw, err = stdinPassword(env)
	}
	if err != nil {
		return err
	}
	if err := relay.WritePassword(env.passwordPath(), pw); err != nil {
		return err
	}
	fmt.Fprintf(env.Stderr, "feedback relay: the broker password is in %s (mode 0600)\n", env.passwordPath())
	return nil
}

// parseInterspersed parses flags before and after the positional
// arguments, which it returns.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return rest, nil
		}
		rest = append(rest, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

func list(env Env) error {
	st, err := relay.LoadState(env.storePath())
	if err != nil {
		return err
	}
	if st.Broker == "" {
		fmt.Fprintln(env.Stdout, "no broker: feedback relay pair --broker mqtts://user@host:8883 --name NAME")
		return nil
	}
	fmt.Fprintf(env.Stdout, "broker   %s  (%s)\n", st.Broker, describe(env))
	// Each line names its pairing's topic, which tells two pairings of one
	// name apart and is what the broker's log shows.
	var b strings.Builder
	for _, p := range st.Pairings {
		fmt.Fprintf(&b, "paired   %-20s %s  since %s\n", p.Name, topicOf(p.ID), p.Created.Local().Format(time.DateTime))
	}
	for _, r := range st.Revoked {
		paired := ""
		if !r.Created.IsZero() {
			paired = ", paired " + r.Created.Local().Format(time.DateTime)
		}
		fmt.Fprintf(&b, "revoked  %-20s %s  on %s%s: its remote is told so\n", r.Name, topicOf(r.ID), r.Revoked.Local().Format(time.DateTime), paired)
	}
	fmt.Fprint(env.Stdout, b.String())
	return nil
}

// topicOf is the start of a pairing's topics: fbr/ and 8 hex digits.
func topicOf(id relay.Key) string {
	return relay.TopicsOf(id).Questions[:len("fbr/")+8] + "…"
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
