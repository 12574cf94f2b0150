package e2e

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A 200 MiB input line does not grow the shim (read whole, it takes the
// shim to 970 MB): the shim answers it with an Invalid Request error naming
// the limit, stays small (peak resident memory under 120 MiB), and answers
// the next request.
func TestShimRefusesAHugeLine(t *testing.T) {
	requireBinary(t)
	cmd := exec.Command(bin, "mcp")
	cmd.Env = append(append(os.Environ(), env...), noGUIEnv(t)...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); cmd.Wait() })
	lines := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	next := func(what string) map[string]any {
		t.Helper()
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("the shim's output ended before %s", what)
			}
			var m map[string]any
			if err := json.Unmarshal([]byte(l), &m); err != nil {
				t.Fatalf("%s: %q is not JSON", what, l)
			}
			return m
		case <-time.After(60 * time.Second):
			t.Fatalf("no %s", what)
		}
		return nil
	}
	io.WriteString(stdin, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"huge","version":"1"}}}`+"\n")
	next("initialize response")
	io.WriteString(stdin, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ask_text","arguments":{"question":"`)
	chunk := []byte(strings.Repeat("x", 1<<20))
	for range 200 {
		if _, err := stdin.Write(chunk); err != nil {
			t.Fatalf("writing the long line: %v", err)
		}
	}
	io.WriteString(stdin, `"}}}`+"\n")
	resp := next("answer to the long line")
	e, _ := resp["error"].(map[string]any)
	if resp["id"] != float64(2) || e["code"] != float64(-32600) || !strings.Contains(e["message"].(string), "limit") {
		t.Errorf("answer to the long line: %v", resp)
	}
	if hwm := peakRSSKiB(t, cmd.Process.Pid); hwm > 120<<10 {
		t.Errorf("the shim's peak resident memory was %d MiB after a 200 MiB line", hwm>>10)
	} else {
		t.Logf("peak resident memory %d MiB", hwm>>10)
	}
	io.WriteString(stdin, `{"jsonrpc":"2.0","id":3,"method":"ping"}`+"\n")
	if r := next("ping response"); r["id"] != float64(3) || r["error"] != nil {
		t.Errorf("ping after the long line: %v", r)
	}
}

// peakRSSKiB is VmHWM of process pid, in KiB.
func peakRSSKiB(t *testing.T, pid int) int {
	t.Helper()
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmHWM:" {
			n, _ := strconv.Atoi(f[1])
			return n
		}
	}
	t.Fatal("no VmHWM")
	return 0
}
