package main

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/client"
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
	pair := exec.Command(bin, "relay", "pair", "--broker", fmt.Sprintf("mqtt://desk@127.0.0.1:%d", benchBrokerPort), "--broker-password-file", "-", "--name", "bench", "--remote-user", "remote")
	pair.Env = s.env
	pair.Stdin = strings.NewReader("desk-pw\n")
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

	local, err := latencyThrough(s.shim, runs, "Sock", nil)
	if err != nil {
		return fmt.Errorf("through the socket: %w", err)
	}
	relayed, err := latencyThrough(func() (*client.Client, error) { return stdioShim(headless, remoteEnv) }, runs, "Relay", nil)
	if err != nil {
		return fmt.Errorf("through the broker: %w", err)
	}
	fmt.Printf("popup through the socket        median %7.1f ms  (%d runs)\n", ms(median(local)), len(local))
	fmt.Printf("popup through a local mosquitto median %7.1f ms  (%d runs)\n", ms(median(relayed)), len(relayed))
	fmt.Printf("relay / socket                  %.2f\n", float64(median(relayed))/float64(median(local)))
	return nil
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
