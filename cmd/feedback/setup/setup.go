package setup

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"feedback/ipc/relay"

	"github.com/pelletier/go-toml/v2"
	"github.com/tailscale/hujson"
)

const usage = `usage:
  feedback setup                      list the MCP clients found here and whether each is set up
  feedback setup CLIENT [flags]       add feedback to CLIENT's configuration
      --print            show what would be written, write nothing
      --scope project    write the project's file in this directory instead of your user's
      --socket PATH      make the client's shim use the app behind PATH (FEEDBACK_SOCKET;
                         for a socket forwarded over SSH, see feedback setup ssh)
      --hooks            also have the client run feedback notify when an agent needs you
                         or has finished (claude-code, gemini, codex, cursor)
      --approvals        claude-code: answer its permission prompts in feedback's window
  feedback setup autostart [--remove] start the app when you log in (or stop doing so)
  feedback setup ssh HOST             print the SSH and remote configuration to answer
                                      from this desktop the questions asked on HOST
clients: `

// Run runs `feedback setup` with args and returns the exit status.
func Run(args []string, e Env) int {
	if len(args) == 0 {
		return list(e)
	}
	switch args[0] {
	case "-h", "--help", "help":
		fmt.Fprint(e.Stdout, usage+strings.Join(ClientNames(), ", ")+"\n")
		return 0
	case "autostart":
		return runAutostart(args[1:], e)
	case "ssh":
		return runSSH(args[1:], e)
	}
	c, ok := Lookup(args[0])
	if !ok {
		fmt.Fprintf(e.Stderr, "feedback setup: unknown client %q; known clients: %s\n", args[0], strings.Join(ClientNames(), ", "))
		return 2
	}
	fs := flag.NewFlagSet("feedback setup "+c.Name, flag.ContinueOnError)
	fs.SetOutput(e.Stderr)
	print := fs.Bool("print", false, "show what would be written, write nothing")
	scope := fs.String("scope", string(ScopeUser), "user or project")
	socket := fs.String("socket", "", "FEEDBACK_SOCKET for the client's shim")
	approvals := fs.Bool("approvals", false, "claude-code: ask its permission prompts in feedback's window (a PermissionRequest hook)")
	hooks := fs.Bool("hooks", false, "also run feedback notify on the client's \"needs attention\" and \"finished\" events")
	relayToken := fs.String("relay", "", "a pairing token from `feedback relay pair` on the desktop: the shim asks through the broker (FEEDBACK_RELAY)")
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	if *relayToken != "" {
		if err := checkRelayToken(*relayToken); err != nil {
			fmt.Fprintf(e.Stderr, "feedback setup %s: --relay: %v\n", c.Name, err)
			return 2
		}
		e.Relay = strings.TrimSpace(*relayToken)
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(e.Stderr, "feedback setup %s: unexpected argument %q\n", c.Name, fs.Arg(0))
		return 2
	}
	if *scope != string(ScopeUser) && *scope != string(ScopeProject) {
		fmt.Fprintf(e.Stderr, "feedback setup %s: --scope %q: want user or project\n", c.Name, *scope)
		return 2
	}
	if *socket != "" && !filepath.IsAbs(*socket) {
		fmt.Fprintf(e.Stderr, "feedback setup %s: --socket %q: want an absolute path\n", c.Name, *socket)
		return 2
	}
	if *approvals && c.Name != "claude-code" {
		fmt.Fprintf(e.Stderr, "feedback setup %s: --approvals: %s cannot hand its permission prompts to a hook; --approvals is for claude-code\n", c.Name, c.Title)
		return 2
	}
	if _, ok := hookSpecs[c.Name]; *hooks && !ok {
		fmt.Fprintf(e.Stderr, "feedback setup %s: --hooks: %s has no hooks feedback can use; hooks are set up for %s\n", c.Name, c.Title, strings.Join(HookClients(), ", "))
		return 2
	}
	res, err := Configure(e, c, Scope(*scope), *socket, !*print)
	if err != nil {
		fmt.Fprintf(e.Stderr, "feedback setup %s: %v\n", c.Name, err)
		return 1
	}
	res.report(e.Stdout, e)
	if c.Name == "claude-code" {
		or, err := ConfigureOwnTools(e, c, Scope(*scope), !*print)
		if err != nil {
			fmt.Fprintf(e.Stderr, "feedback setup %s: allowing feedback's tools: %v\n", c.Name, err)
			return 1
		}
		if or.reportChanges(e.Stdout, e, c.Title+" permissions") {
			fmt.Fprintf(e.Stdout, "%s calls feedback's tools without a permission prompt of its own (they are the questions to you).\n", c.Title)
		}
	}
	if c.Name == "gemini" && len(res.Changes) > 0 {
		fmt.Fprintf(e.Stdout, "%s offers feedback's tools to the model without a confirmation of its own (the server is trusted: its tools are the questions to you).\n"+
			"It connects no MCP server in a folder you have not trusted: accept its trust dialog in each project (or /permissions there); feedback doctor in a project says whether it is.\n", c.Title)
	}
	if *hooks {
		hr, err := ConfigureHooks(e, c, Scope(*scope), !*print)
		if err != nil {
			fmt.Fprintf(e.Stderr, "feedback setup %s --hooks: %v\n", c.Name, err)
			return 1
		}
		hr.reportHooks(e.Stdout, e)
	}
	if *approvals {
		ar, err := ConfigureApprovals(e, c, Scope(*scope), !*print)
		if err != nil {
			fmt.Fprintf(e.Stderr, "feedback setup %s --approvals: %v\n", c.Name, err)
			return 1
		}
		ar.reportApprovals(e.Stdout, e)
	}
	return 0
}

// reportApprovals tells what ConfigureApprovals did or would do.
func (r Result) reportApprovals(w io.Writer, e Env) {
	if r.reportChanges(w, e, r.Client.Title+" permission prompts") {
		fmt.Fprintf(w, "%s now asks for its permissions in feedback's approval window (its own prompt in the terminal still works).\n", r.Client.Title)
	}
}

// reportHooks tells what ConfigureHooks did or would do.
func (r Result) reportHooks(w io.Writer, e Env) {
	if r.reportChanges(w, e, r.Client.Title+" hooks") {
		fmt.Fprintf(w, "%s now tells you through feedback when an agent needs you or has finished.\n", r.Client.Title)
	}
}

// Result is what Configure did or, with write false, would do.
type Result struct {
	Client  Client
	File    string
	Changes []string // empty: already set up
	Backup  string   // the copy of the previous file, if one was written
	Written bool
	Doc     []byte // the new file's content (with write false: what it would be)
	Scope   Scope
}

// configureAttempts bounds how often Configure starts over when another
// program changes the file while it edits it.
const configureAttempts = 3

// Configure adds the feedback entry to c's file for scope, writing it when
// write is set. When another program changes the file between setup's
// reading and replacing it, Configure reads it again and starts over, up to
// configureAttempts times, then fails with ErrChangedMeanwhile: another
// program's newer file is never overwritten.
func Configure(e Env, c Client, scope Scope, socket string, write bool) (res Result, err error) {
	for range configureAttempts {
		res, err = configure(e, c, scope, socket, write)
		if !errors.Is(err, ErrChangedMeanwhile) {
			return res, err
		}
	}
	return res, fmt.Errorf("%w %d times; close the program that writes it (%s), then run feedback setup %s again", err, configureAttempts, c.Title, c.Name)
}

// configure is one attempt of Configure.
func configure(e Env, c Client, scope Scope, socket string, write bool) (Result, error) {
	path, err := c.File(e, scope)
	if err != nil {
		return Result{}, err
	}
	res := Result{Client: c, File: path, Scope: scope}
	data, err := readConfig(path)
	if err != nil {
		return res, err
	}
	fields := c.EntryEnv(e.Command(), socket, e.Relay)
	var out []byte
	switch c.format {
	case formatTOML:
		out, res.Changes, err = mergeTOML(data, c.container, ServerName, fields)
	default:
		out, res.Changes, err = mergeJSON(data, c.container, ServerName, fields)
	}
	if err != nil {
		return res, fmt.Errorf("%s: %w", path, err)
	}
	res.Doc = out
	if len(res.Changes) == 0 || !write {
		return res, nil
	}
	perm := fs.FileMode(0o600) // a user's file may hold other servers' secrets
	if scope == ScopeProject {
		perm = 0o644 // meant to be shared with the project
	}
	res.Backup, err = writeConfig(path, data, out, perm, e.Now())
	if err != nil {
		return res, fmt.Errorf("writing %s: %w", path, err)
	}
	res.Written = true
	return res, nil
}

func (r Result) report(w io.Writer, e Env) {
	if r.Client.notice != nil {
		defer fmt.Fprintf(w, "Note: %s\n", r.Client.notice(e))
	}
	if !r.reportChanges(w, e, r.Client.Title) {
		return
	}
	if r.Scope == ScopeProject {
		fmt.Fprintf(w, "  note: it names this machine's %s; others who share the project need their own path\n", e.Command())
	}
	fmt.Fprintf(w, "Restart %s (or reload its MCP servers) to use it.\n", r.Client.Title)
}

// reportChanges says, under what, whether the file changed or would, how,
// and with --print the whole new file; it reports whether the file was
// written.
func (r Result) reportChanges(w io.Writer, e Env, what string) bool {
	file := tildePath(e, r.File)
	switch {
	case len(r.Changes) == 0:
		fmt.Fprintf(w, "%s: already set up in %s; nothing changed.\n", what, file)
		return false
	case !r.Written:
		fmt.Fprintf(w, "%s: %s would change (nothing written, --print):\n", what, file)
	default:
		fmt.Fprintf(w, "%s: updated %s\n", what, file)
	}
	for _, c := range r.Changes {
		fmt.Fprintf(w, "  %s\n", c)
	}
	if r.Backup != "" {
		fmt.Fprintf(w, "  the previous file is saved as %s\n", tildePath(e, r.Backup))
	}
	if !r.Written {
		fmt.Fprintf(w, "\nThe whole file would read:\n%s", r.Doc)
		if len(r.Doc) > 0 && r.Doc[len(r.Doc)-1] != '\n' {
			fmt.Fprintln(w)
		}
	}
	return r.Written
}

// Status is whether one client is installed and set up.
type Status struct {
	Client  Client
	Found   string         // what shows it is installed; "" if nothing does
	File    string         // its user-level configuration file
	SetUp   bool           // the file has a feedback entry
	Command string         // the entry's command
	Entry   map[string]any // the entry as the file has it; nil when not set up
	// Env is the entry's environment (FEEDBACK_RELAY, FEEDBACK_SOCKET…):
	// its string values.
	Env map[string]string
	Err error // the file could not be read or parsed
}

// Statuses returns the status of every known client.
func Statuses(e Env) []Status {
	var out []Status
	for _, c := range Clients {
		s := Status{Client: c, Found: c.found(e), File: c.userFile(e)}
		s.Entry, s.Err = entryOf(s.File, c)
		if s.Entry != nil {
			s.SetUp = true
			s.Command, _ = s.Entry["command"].(string)
			env, _ := s.Entry["env"].(map[string]any)
			for k, v := range env {
				if v, ok := v.(string); ok {
					if s.Env == nil {
						s.Env = map[string]string{}
					}
					s.Env[k] = v
				}
			}
		}
		out = append(out, s)
	}
	return out
}

// entryOf reads the feedback entry of c's file at path: nil when there
// is none.
func entryOf(path string, c Client) (map[string]any, error) {
	data, err := readConfig(path)
	if err != nil || len(data) == 0 {
		return nil, err
	}
	var doc map[string]any
	switch c.format {
	case formatTOML:
		err = toml.Unmarshal(data, &doc)
	default:
		var std []byte
		if std, err = hujson.Standardize(data); err == nil {
			err = json.Unmarshal(std, &doc)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	servers, _ := doc[c.container].(map[string]any)
	entry, _ := servers[ServerName].(map[string]any)
	return entry, nil
}

// list prints the clients found here and whether each is set up.
func list(e Env) int {
	var missing []string
	found := 0
	for _, s := range Statuses(e) {
		if s.Found == "" && !s.SetUp {
			missing = append(missing, s.Client.Name)
			continue
		}
		found++
		state := "not set up: feedback setup " + s.Client.Name
		switch {
		case s.Err != nil:
			state = "cannot tell: " + s.Err.Error()
		case s.SetUp && s.Command == e.Command():
			state = "set up"
		case s.SetUp:
			state = fmt.Sprintf("set up, runs %s (feedback setup %s points it at %s)", s.Command, s.Client.Name, e.Command())
		}
		fmt.Fprintf(e.Stdout, "%-15s %-40s %s\n", s.Client.Name, s.Found, state)
	}
	// The project files in this directory, when there are any.
	for _, c := range Clients {
		path, err := c.File(e, ScopeProject)
		if err != nil {
			continue
		}
		if _, err := os.Stat(path); err != nil {
			continue
		}
		state := "not set up: feedback setup " + c.Name + " --scope project"
		if entry, err := entryOf(path, c); err != nil {
			state = "cannot tell: " + err.Error()
		} else if entry != nil {
			state = "set up"
		}
		rel, _ := filepath.Rel(e.Dir, path)
		fmt.Fprintf(e.Stdout, "%-15s %-40s %s\n", c.Name, "./"+filepath.ToSlash(rel)+" (this project)", state)
	}
	if found == 0 {
		fmt.Fprintln(e.Stdout, "No MCP client found on this machine.")
	}
	if len(missing) > 0 {
		fmt.Fprintf(e.Stdout, "Not found here: %s. feedback setup CLIENT --print shows what would be written.\n", strings.Join(missing, ", "))
	}
	return 0
}

// checkRelayToken refuses a token `feedback relay pair` did not print
// (or that was damaged on its way), before it is written anywhere.
func checkRelayToken(s string) error {
	_, err := relay.ParseToken(s)
	return err
}
