package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"feedback/e2e/internal/xmaps"
)

// relayBench times the popup of a question asked through a local
// mosquitto (docs/remote.md: a remote headless shim, FEEDBACK_RELAY) and,
// in the same run against the same app, through the socket: medians and
// their ratio. headless is the headless shim (FEEDBACK_HEADLESS_BIN).
func relayBench(bin, headless, dir string, runs int) error {
	b, err := startBenchBroker(filepath.Join(dir, "broker"))
	if err != nil {
		return err
	}
	defer b.Process.Kill()
	s := newSession(bin, filepath.Join(dir, "relay"))
	if err := s.startApp(); err != nil {
		return err
	}
	defer s.stopApp()
	pair := exec.Command(bin, "relay", "pair", "--broker", fmt.Sprintf("mqtt://desk:desk-pw@127.0.0.1:%d", benchBrokerPort), "--name", "bench", "--remote-user", "remote")
	pair.Env = s.env
	out, err := pair.Output()
	if err != nil {
		return fmt.Errorf("feedback relay pair: %w", err)
	}
	token := strings.TrimSpace(string(out))
	home := filepath.Join(dir, "remote")
	os.MkdirAll(filepath.Join(home, "run"), 0o700)
	pw := filepath.Join(home, "pw")
	os.WriteFile(pw, []byte("remote-pw"), 0o600)
	remoteEnv := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "XDG_RUNTIME_DIR=" + filepath.Join(home, "run"),
		"XDG_CONFIG_HOME=" + filepath.Join(home, "config"), "FEEDBACK_SOCKET=" + filepath.Join(home, "run", "none.sock"),
		"FEEDBACK_RELAY=" + token, "FEEDBACK_RELAY_PASSWORD_FILE=" + pw}

	local, err := latencyThrough(func() (*client.Client, error) { return s.shim() }, runs, "Sock")
	if err != nil {
		return fmt.Errorf("through the socket: %w", err)
	}
	relayed, err := latencyThrough(func() (*client.Client, error) { return stdioShim(headless, remoteEnv) }, runs, "Relay")
	if err != nil {
		return fmt.Errorf("through the broker: %w", err)
	}
	fmt.Printf("popup through the socket        median %7.1f ms  (%d runs)\n", ms(median(local)), len(local))
	fmt.Printf("popup through a local mosquitto median %7.1f ms  (%d runs)\n", ms(median(relayed)), len(relayed))
	fmt.Printf("relay / socket                  %.2f\n", float64(median(relayed))/float64(median(local)))
	return nil
}

// stdioShim starts command's `mcp` with env under a real MCP client.
func stdioShim(command string, env []string) (*client.Client, error) {
	tr := transport.NewStdioWithOptions(command, env, []string{"mcp"})
	if err := tr.Start(context.Background()); err != nil {
		return nil, err
	}
	c := client.NewClient(tr, client.WithProtocolVersion("2025-11-25"))
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = "2025-11-25"
	init.Params.ClientInfo = mcp.Implementation{Name: "bench", Version: "1"}
	if _, err := c.Initialize(context.Background(), init); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// latencyThrough is windowLatency with the shim start: it times each
// question from the call to its window mapped, the first two not counted.
func latencyThrough(start func() (*client.Client, error), runs int, prefix string) ([]time.Duration, error) {
	mapped, stop, err := xmaps.Watch()
	if err != nil {
		return nil, err
	}
	defer stop()
	c, err := start()
	if err != nil {
		return nil, err
	}
	defer c.Close()
	var out []time.Duration
	for i := range runs + 2 {
		title := prefix + strconv.Itoa(i)
		drain(mapped)
		done := make(chan error, 1)
		req := mcp.CallToolRequest{}
		req.Params.Name = "interactive_feedback"
		req.Params.Arguments = map[string]any{"message": "## Benchmark\n\nA question with **Markdown** and options.",
			"header_label": title, "predefined_options": []any{"one", "two"}}
		t0 := time.Now()
		go func() { _, err := c.CallTool(context.Background(), req); done <- err }()
		select {
		case t1 := <-mapped:
			if i >= 2 {
				out = append(out, t1.Sub(t0))
			}
		case err := <-done:
			return nil, fmt.Errorf("the call returned before a window was mapped: %v", err)
		case <-time.After(10 * time.Second):
			return nil, errors.New("no window was mapped within 10 s")
		}
		if err := dismiss(title + " — feedback"); err != nil {
			return nil, err
		}
		if err := <-done; err != nil {
			return nil, err
		}
		time.Sleep(100 * time.Millisecond)
	}
	return out, nil
}

var benchBrokerPort int

// startBenchBroker starts mosquitto on a free port with users desk and
// remote (passwords desk-pw, remote-pw).
func startBenchBroker(dir string) (*exec.Cmd, error) {
	bin, err := exec.LookPath("mosquitto")
	if err != nil {
		bin = "/usr/sbin/mosquitto"
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	pw := filepath.Join(dir, "passwd")
	if out, err := exec.Command("mosquitto_passwd", "-b", "-c", pw, "desk", "desk-pw").CombinedOutput(); err != nil {
		return nil, fmt.Errorf("mosquitto_passwd: %v: %s", err, out)
	}
	if out, err := exec.Command("mosquitto_passwd", "-b", pw, "remote", "remote-pw").CombinedOutput(); err != nil {
		return nil, fmt.Errorf("mosquitto_passwd: %v: %s", err, out)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	benchBrokerPort = l.Addr().(*net.TCPAddr).Port
	l.Close()
	me, _ := user.Current()
	conf := filepath.Join(dir, "mosquitto.conf")
	os.WriteFile(conf, []byte(fmt.Sprintf("user %s\nlistener %d 127.0.0.1\nallow_anonymous false\npassword_file %s\n", me.Username, benchBrokerPort, pw)), 0o600)
	cmd := exec.Command(bin, "-c", conf)
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", benchBrokerPort)); err == nil {
			c.Close()
			return cmd, nil
		}
	}
	cmd.Process.Kill()
	return nil, errors.New("mosquitto did not listen")
}
