package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// setupCommand is the command `feedback setup claude-code` writes (as it
// writes for every client): it runs bin's setup in a throw-away home and
// reads the entry back, so the bench times what a user's client starts.
func setupCommand(bin, dir string) ([]string, error) {
	home := filepath.Join(dir, "setuphome")
	if err := os.MkdirAll(home, 0o700); err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "setup", "claude-code")
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"))
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("feedback setup claude-code: %v: %s", err, out)
	}
	data, err := os.ReadFile(filepath.Join(home, ".claude.json"))
	if err != nil {
		return nil, err
	}
	var doc struct {
		MCPServers map[string]struct {
			Command string   `json:"command"`
			Args    []string `json:"args"`
		} `json:"mcpServers"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("the file setup wrote: %w", err)
	}
	e, ok := doc.MCPServers["feedback"]
	if !ok || e.Command == "" {
		return nil, errors.New("setup wrote no feedback entry")
	}
	return append([]string{e.Command}, e.Args...), nil
}

// shimStarts times each command from exec to its initialize reply, runs
// times each (after two unmeasured starts), taking turns, so a loaded
// machine weighs on every command alike.
func shimStarts(env []string, runs int, cmds ...[]string) ([][]time.Duration, error) {
	out := make([][]time.Duration, len(cmds))
	for i := range runs + 2 {
		for j, c := range cmds {
			d, err := shimStart(env, c)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", strings.Join(c, " "), err)
			}
			if i >= 2 {
				out[j] = append(out[j], d)
			}
		}
	}
	return out, nil
}

// shimStart times one start of the shim command c to its initialize reply.
func shimStart(env []string, c []string) (time.Duration, error) {
	const initLine = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}` + "\n"
	cmd := exec.Command(c[0], c[1:]...)
	cmd.Env = env
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return 0, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return 0, err
	}
	t0 := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	if _, err := stdin.Write([]byte(initLine)); err != nil {
		return 0, err
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	d := time.Since(t0)
	stdin.Close()
	cmd.Wait()
	if err != nil || !strings.Contains(line, `"serverInfo"`) {
		return 0, fmt.Errorf("no initialize reply: %q %v", line, err)
	}
	return d, nil
}

// shimStartFigures reports the start of the command feedback setup writes
// beside `feedback mcp` (the app's own binary), measured in turns.
func shimStartFigures(bin, dir string, env []string, runs int) error {
	setupCmd, err := setupCommand(bin, dir)
	if err != nil {
		return err
	}
	d, err := shimStarts(env, runs, setupCmd, []string{bin, "mcp"})
	if err != nil {
		return err
	}
	fmt.Printf("(the command feedback setup writes: %s)\n", strings.Join(setupCmd, " "))
	report("shim start (setup's) → init", d[0], targetStart)
	report("shim start (feedback mcp) → init", d[1], targetStart)
	return nil
}

// shimStartAlone is `-shim-start`: the shim start figures alone, in a
// private session with no app running (the shim answers initialize
// before it looks for one).
func shimStartAlone(bin, dir string, runs int) error {
	// ui_prewarm off: with no app running, each shim's greeting would start
	// one (after the initialize reply, which is what is timed).
	env := append(os.Environ(), "FEEDBACK_SOCKET="+filepath.Join(dir, "s.sock"), "FEEDBACK_UI_PREWARM=0",
		"XDG_STATE_HOME="+filepath.Join(dir, "state"), "XDG_CONFIG_HOME="+filepath.Join(dir, "config"))
	return shimStartFigures(bin, dir, env, runs)
}
