package e2e

import (
	"bufio"
	"bytes"
	"context"
	"debug/elf"
	"encoding/json"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"feedback/ipc"
)

// The packages of `make package` and `make deb`, checked by `make
// test-package`: FEEDBACK_TARXZ is the tarball, FEEDBACK_DEB the .deb,
// FEEDBACK_VERSION the version they were built with.

// fyneAppToml is the one source of the app's metadata, which the packages carry.
const fyneAppToml = "../FyneApp.toml"

// The tarball from `fyne package` carries FyneApp.toml's metadata in its
// .desktop file, the icon, and a stripped binary that knows its version.
func TestPackageTarball(t *testing.T) {
	tarball := os.Getenv("FEEDBACK_TARXZ")
	if tarball == "" {
		t.Skip("needs FEEDBACK_TARXZ (see `make test-package`)")
	}
	dir := t.TempDir()
	if out, err := exec.Command("tar", "-xJf", tarball, "-C", dir).CombinedOutput(); err != nil {
		t.Fatalf("unpacking %s: %v: %s", tarball, err, out)
	}
	find := func(suffix string) string {
		t.Helper()
		var found string
		filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
			if err == nil && strings.HasSuffix(p, suffix) {
				found = p
			}
			return nil
		})
		if found == "" {
			t.Fatalf("%s has no file ending in %s", tarball, suffix)
		}
		return found
	}

	meta := fyneAppMetadata(t, fyneAppToml)
	entry := desktopEntry(t, find("/share/applications/"+meta["ID"]+".desktop"))
	for key, want := range map[string]string{
		"Type":        "Application",
		"Name":        meta["Name"],
		"GenericName": meta["GenericName"],
		"Comment":     meta["Comment"],
		"Categories":  meta["Categories"],
		"Keywords":    meta["Keywords"],
		"Exec":        "feedback",
		"Icon":        meta["ID"],
	} {
		if want == "" {
			t.Errorf("FyneApp.toml has no value for %s", key)
		}
		if entry[key] != want {
			t.Errorf(".desktop %s = %q, want %q (from FyneApp.toml)", key, entry[key], want)
		}
	}

	icon, err := os.Open(find("/share/pixmaps/" + meta["ID"] + ".png"))
	if err != nil {
		t.Fatal(err)
	}
	defer icon.Close()
	if _, err := png.Decode(icon); err != nil {
		t.Errorf("the icon is no PNG: %v", err)
	}

	exe := find("/bin/feedback")
	checkStripped(t, exe)
	checkVersion(t, exe)
	shim := find("/bin/feedback-headless")
	if filepath.Dir(shim) != filepath.Dir(exe) {
		t.Errorf("the shim %s is not beside the app %s", shim, exe)
	}
	checkStripped(t, shim)
	checkVersion(t, shim)

	// fyne's Makefile installs the shim beside the app, and uninstalls it.
	dest := t.TempDir()
	makeIn := func(target string) {
		t.Helper()
		cmd := exec.Command("make", target, "DESTDIR="+dest, "PREFIX=/usr")
		cmd.Dir = filepath.Dir(find("/Makefile"))
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("make %s: %v\n%s", target, err, out)
		}
	}
	makeIn("install")
	for _, f := range []string{"feedback", "feedback-headless"} {
		if _, err := os.Stat(filepath.Join(dest, "usr", "bin", f)); err != nil {
			t.Errorf("after make install: %v", err)
		}
	}
	makeIn("uninstall")
	if _, err := os.Stat(filepath.Join(dest, "usr", "bin", "feedback-headless")); !os.IsNotExist(err) {
		t.Errorf("after make uninstall: %v", err)
	}
}

// The .deb installs with apt-get, pulls in what the binary links, puts
// feedback on PATH with its menu entry and icon; the installed `feedback
// ask` starts the installed app and gets the answer typed into its window;
// apt-get remove takes every file away again.
func TestPackageDeb(t *testing.T) {
	deb := os.Getenv("FEEDBACK_DEB")
	if deb == "" {
		t.Skip("needs FEEDBACK_DEB (see `make test-package`)")
	}
	requireSession(t)
	fields := debFields(t, deb)
	if fields["Package"] != "feedback" || fields["Version"] != os.Getenv("FEEDBACK_VERSION")+"-1" {
		t.Errorf("Package %q Version %q, want feedback %s-1", fields["Package"], fields["Version"], os.Getenv("FEEDBACK_VERSION"))
	}
	checkDepends(t, bin, fields["Depends"])

	id := fyneAppMetadata(t, fyneAppToml)["ID"]
	files := []string{
		"/usr/bin/feedback",
		"/usr/bin/feedback-headless",
		"/usr/share/applications/" + id + ".desktop",
		"/usr/share/icons/hicolor/256x256/apps/" + id + ".png",
	}
	out, err := exec.Command("dpkg-deb", "-c", deb).Output()
	if err != nil {
		t.Fatalf("dpkg-deb -c: %v", err)
	}
	for _, f := range files {
		if !regexp.MustCompile(`(?m) \.` + regexp.QuoteMeta(f) + `$`).Match(out) {
			t.Errorf("the .deb has no %s:\n%s", f, out)
		}
	}

	if installed("feedback") {
		t.Skip("a feedback package is already installed here: not replacing and removing it")
	}
	sudo := rootCommand(t)
	t.Cleanup(func() {
		if installed("feedback") {
			exec.Command(sudo[0], append(sudo[1:], "apt-get", "remove", "-y", "-qq", "feedback")...).Run()
		}
	})
	apt := func(args ...string) {
		t.Helper()
		cmd := exec.Command(sudo[0], append(sudo[1:], append([]string{"apt-get"}, args...)...)...)
		cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("apt-get %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	apt("install", "-y", "-qq", "--no-install-recommends", deb)
	for _, f := range files {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("after apt-get install: %v", err)
		}
	}
	if p, err := exec.LookPath("feedback"); err != nil || p != "/usr/bin/feedback" {
		t.Errorf("feedback on PATH: %q, %v; want /usr/bin/feedback", p, err)
	}
	checkVersion(t, "/usr/bin/feedback")
	checkSetupWritesTheShim(t, "/usr/bin/feedback", "/usr/bin/feedback-headless")

	// The installed shim (what MCP clients run) starts the installed app
	// beside it on a socket of its own.
	sock := filepath.Join(t.TempDir(), "deb.sock")
	askEnv := append(append(cleanLocaleEnv(), env...), "FEEDBACK_SOCKET="+sock, "LANG=C.UTF-8")
	r := startProgram(t, "feedback-headless", askEnv, "ask", "--title", "DebAsk", "Installed from the package?")
	win := findWindow(t, "DebAsk — feedback")
	app := &ipc.Client{Path: sock}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	h, err := app.Hello(ctx)
	cancel()
	if err != nil {
		t.Fatalf("hello to the installed app: %v", err)
	}
	t.Cleanup(func() { stopPID(h.PID) })
	if exe, _ := os.Readlink(filepath.Join("/proc", strconv.Itoa(h.PID), "exe")); exe != "/usr/bin/feedback" {
		t.Errorf("the app answering is %q, want /usr/bin/feedback", exe)
	}
	activate(t, win)
	typeText(t, "yes, from the deb")
	key(t, "ctrl+Return")
	if code := r.wait(t); code != 0 {
		t.Fatalf("feedback ask exited %d; stderr: %s", code, r.stderr.String())
	}
	if got := r.stdout.String(); got != "yes, from the deb\n" {
		t.Errorf("stdout = %q, want the reply", got)
	}
	if s := r.stderr.String(); s != "" {
		t.Errorf("the installed feedback-headless ask wrote to stderr under LANG=C.UTF-8:\n%s", s)
	}
	stopPID(h.PID)

	apt("remove", "-y", "-qq", "feedback")
	if installed("feedback") {
		t.Error("feedback is still installed after apt-get remove")
	}
	for _, f := range files {
		if _, err := os.Stat(f); !os.IsNotExist(err) {
			t.Errorf("%s is still there after apt-get remove (%v)", f, err)
		}
	}
}

// No "Fyne error" or any other line on stderr from the commands whose
// stderr ends up in MCP clients' logs, under the locales a minimal system
// or container has. FEEDBACK_BIN; with a display, feedback ask is answered.
func TestQuietStart(t *testing.T) {
	requireBinary(t)
	locales := map[string][]string{
		"LANG=C":        {"LANG=C"},
		"LANG unset":    nil,
		"LANG=C.UTF-8":  {"LANG=C.UTF-8"},
		"LC_ALL=C.utf8": {"LC_ALL=C.utf8"},
	}
	dir := t.TempDir()
	for name, vars := range locales {
		t.Run(name, func(t *testing.T) {
			base := append(cleanLocaleEnv(),
				"XDG_CONFIG_HOME="+filepath.Join(dir, "config"),
				"XDG_STATE_HOME="+filepath.Join(dir, "state"),
				"XDG_DATA_HOME="+filepath.Join(dir, "data"),
				"FEEDBACK_SOCKET="+filepath.Join(dir, "none.sock"),
				"FEEDBACK_UI_PREWARM=0") // the shim below starts no app on none.sock
			base = append(base, vars...)

			run := func(stdin string, args ...string) (stdout, stderr string) {
				t.Helper()
				cmd := exec.Command(bin, args...)
				cmd.Env = base
				cmd.Stdin = strings.NewReader(stdin)
				var o, e bytes.Buffer
				cmd.Stdout, cmd.Stderr = &o, &e
				done := make(chan error, 1)
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				go func() { done <- cmd.Wait() }()
				select {
				case <-done:
				case <-time.After(20 * time.Second):
					cmd.Process.Kill()
					t.Fatalf("feedback %s did not exit", strings.Join(args, " "))
				}
				return o.String(), e.String()
			}

			out, errs := run("", "version")
			if errs != "" || !strings.HasPrefix(out, "feedback ") {
				t.Errorf("feedback version: stdout %q, stderr:\n%s", out, errs)
			}
			// The shim: initialize and list the tools, then stdin ends.
			mcpIn := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"quiet","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/list"}
`
			out, errs = run(mcpIn, "mcp")
			if errs != "" || !strings.Contains(out, `"interactive_feedback"`) {
				t.Errorf("feedback mcp: stdout %.200q, stderr:\n%s", out, errs)
			}
			if _, errs = run("", "doctor"); strings.Contains(errs, `unknown command "doctor"`) {
				t.Log("this binary has no feedback doctor yet")
			} else if errs != "" {
				t.Errorf("feedback doctor: stderr:\n%s", errs)
			}

			if os.Getenv("DISPLAY") == "" {
				return // feedback ask below needs a window
			}
			title := "Quiet " + strings.NewReplacer("=", " ", ".", " ").Replace(name)
			askEnv := append(append(cleanLocaleEnv(), env...), vars...)
			r := startProgram(t, bin, askEnv, "ask", "--title", title, "Quiet?")
			// The app may run under the C locale, where X's legacy window
			// name mangles the em dash: match the ASCII start.
			win := findWindowPrefix(t, title+" ")
			activate(t, win)
			typeText(t, "quiet")
			key(t, "ctrl+Return")
			if code := r.wait(t); code != 0 || r.stdout.String() != "quiet\n" {
				t.Errorf("feedback ask: exit %d, stdout %q", code, r.stdout.String())
			}
			if s := r.stderr.String(); s != "" {
				t.Errorf("feedback ask: stderr:\n%s", s)
			}
		})
	}
}

// findWindowPrefix waits for exactly one visible window whose title starts with prefix.
func findWindowPrefix(t *testing.T, prefix string) string {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		out, _ := xdo("search", "--onlyvisible", "--name", "^"+regexp.QuoteMeta(prefix)).Output()
		if ids := strings.Fields(string(out)); len(ids) == 1 {
			return ids[0]
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("no window titled %q… appeared within 20 s", prefix)
	return ""
}

// cleanLocaleEnv is this process's environment without any locale variable.
func cleanLocaleEnv() []string {
	var out []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if name == "LANG" || name == "LANGUAGE" || strings.HasPrefix(name, "LC_") {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// startProgram runs prog args… in the background with exactly envv.
func startProgram(t *testing.T, prog string, envv []string, args ...string) *askRun {
	t.Helper()
	r := &askRun{done: make(chan error, 1)}
	r.cmd = exec.Command(prog, args...)
	r.cmd.Env = envv
	r.cmd.Stdout, r.cmd.Stderr = &r.stdout, &r.stderr
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.cmd.Process.Kill() })
	go func() { r.done <- r.cmd.Wait() }()
	return r
}

// stopPID terminates a process this test started (through the app's
// autostart) and waits until it is gone.
func stopPID(pid int) {
	if pid <= 0 || syscall.Kill(pid, syscall.SIGTERM) != nil {
		return
	}
	for i := 0; i < 100 && syscall.Kill(pid, 0) == nil; i++ {
		time.Sleep(50 * time.Millisecond)
	}
}

// checkStripped fails unless exe has neither a symbol table nor DWARF.
func checkStripped(t *testing.T, exe string) {
	t.Helper()
	f, err := elf.Open(exe)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, s := range []string{".symtab", ".debug_info"} {
		if f.Section(s) != nil {
			t.Errorf("%s is not stripped: it has %s", exe, s)
		}
	}
}

// checkVersion: `exe version` prints FEEDBACK_VERSION, never "dev".
func checkVersion(t *testing.T, exe string) {
	t.Helper()
	want := os.Getenv("FEEDBACK_VERSION")
	out, err := exec.Command(exe, "version").CombinedOutput()
	got := strings.TrimSpace(string(out))
	if err != nil || got == "feedback dev" || (want != "" && got != "feedback "+want) {
		t.Errorf("%s version = %q (%v), want \"feedback %s\"", exe, got, err, want)
	}
}

// checkDepends: every library the binary links (its ELF NEEDED entries),
// and every X extension GLFW dlopens (the libX*.so.N names in the binary;
// libX11-xcb serves Vulkan only), comes from a package Depends names.
func checkDepends(t *testing.T, exe, depends string) {
	t.Helper()
	declared := map[string]bool{}
	for _, d := range strings.Split(depends, ",") {
		name, _, _ := strings.Cut(strings.TrimSpace(d), " ")
		declared[name] = true
	}
	f, err := elf.Open(exe)
	if err != nil {
		t.Fatal(err)
	}
	libs, err := f.ImportedLibraries()
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range regexp.MustCompile(`libX[A-Za-z0-9]*\.so\.[0-9]+`).FindAll(data, -1) {
		if lib := string(m); !slices.Contains(libs, lib) {
			libs = append(libs, lib)
		}
	}
	if len(libs) < 4 {
		t.Fatalf("%s names only the libraries %v: is it the GUI build?", exe, libs)
	}
	cache, err := exec.Command("ldconfig", "-p").Output()
	if err != nil {
		t.Fatalf("ldconfig -p: %v", err)
	}
	for _, lib := range libs {
		m := regexp.MustCompile(`(?m)^\s*` + regexp.QuoteMeta(lib) + ` \(libc6,x86-64\) => (\S+)$`).FindSubmatch(cache)
		if m == nil {
			t.Errorf("%s links %s, which ldconfig does not know", exe, lib)
			continue
		}
		path, _ := filepath.EvalSymlinks(string(m[1]))
		out, err := exec.Command("dpkg", "-S", path).Output()
		if err != nil {
			out, err = exec.Command("dpkg", "-S", string(m[1])).Output()
		}
		if err != nil {
			t.Errorf("no package owns %s (%s)", m[1], lib)
			continue
		}
		pkg, _, _ := strings.Cut(string(out), ":")
		if !declared[pkg] {
			t.Errorf("%s links %s from %s, which Depends (%s) does not name", exe, lib, pkg, depends)
		}
	}
}

// debFields reads the control fields of a .deb.
func debFields(t *testing.T, deb string) map[string]string {
	t.Helper()
	out, err := exec.Command("dpkg-deb", "-f", deb).Output()
	if err != nil {
		t.Fatalf("dpkg-deb -f %s: %v", deb, err)
	}
	fields := map[string]string{}
	for _, line := range strings.Split(string(out), "\n") {
		if k, v, ok := strings.Cut(line, ": "); ok && !strings.HasPrefix(line, " ") {
			fields[k] = v
		}
	}
	return fields
}

func installed(pkg string) bool {
	out, _ := exec.Command("dpkg-query", "-W", "-f=${Status}", pkg).Output()
	return strings.Contains(string(out), "install ok installed")
}

// rootCommand is the prefix that runs a command as root: none for root,
// else sudo without a password, else the test is skipped.
func rootCommand(t *testing.T) []string {
	t.Helper()
	if os.Geteuid() == 0 {
		return []string{"env"}
	}
	if exec.Command("sudo", "-n", "true").Run() == nil {
		return []string{"sudo", "-n"}
	}
	t.Skip("installing the .deb needs root or password-less sudo")
	return nil
}

// desktopEntry reads the [Desktop Entry] group of a .desktop file.
func desktopEntry(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	entry := map[string]string{}
	group := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(line, "["):
			group = line
		case group == "[Desktop Entry]":
			if k, v, ok := strings.Cut(line, "="); ok {
				entry[k] = v
			}
		}
	}
	return entry
}

// fyneAppMetadata reads the few FyneApp.toml keys a .desktop file carries,
// lists in the .desktop form ("a;b;").
func fyneAppMetadata(t *testing.T, path string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	meta := map[string]string{}
	str := regexp.MustCompile(`^"((?:[^"\\]|\\.)*)"$`)
	for _, line := range strings.Split(string(data), "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(line), "=")
		if !ok {
			continue
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if m := str.FindStringSubmatch(v); m != nil {
			meta[k] = m[1]
		} else if strings.HasPrefix(v, "[") && strings.HasSuffix(v, "]") {
			var items []string
			for _, it := range strings.Split(strings.Trim(v, "[]"), ",") {
				items = append(items, strings.Trim(strings.TrimSpace(it), `"`)+";")
			}
			meta[k] = strings.Join(items, "")
		}
	}
	return meta
}

// `make help` lists every phony target of the Makefile (it once missed
// e2e: its pattern had no digits).
func TestMakeHelpListsEveryTarget(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("no make")
	}
	mk, err := os.ReadFile("../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("make", "-s", "-C", "..", "help").Output()
	if err != nil {
		t.Fatalf("make help: %v", err)
	}
	listed := map[string]bool{}
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Fields(line); len(f) > 0 {
			listed[f[0]] = true
		}
	}
	for _, m := range regexp.MustCompile(`(?m)^\.PHONY: (.+)$`).FindAllStringSubmatch(string(mk), -1) {
		for _, target := range strings.Fields(m[1]) {
			if !listed[target] {
				t.Errorf("make help does not list %q (give it a ## comment)", target)
			}
		}
	}
}

// feedback-headless's .deb: the static shim at /usr/bin/feedback-headless,
// no dependencies, the same version.
func TestPackageDebHeadless(t *testing.T) {
	deb := os.Getenv("FEEDBACK_DEB_HEADLESS")
	if deb == "" {
		t.Skip("needs FEEDBACK_DEB_HEADLESS (see `make test-package`)")
	}
	fields := debFields(t, deb)
	if fields["Package"] != "feedback-headless" || fields["Depends"] != "" {
		t.Errorf("Package %q Depends %q, want feedback-headless with none", fields["Package"], fields["Depends"])
	}
	dir := t.TempDir()
	if out, err := exec.Command("dpkg-deb", "-x", deb, dir).CombinedOutput(); err != nil {
		t.Fatalf("dpkg-deb -x: %v: %s", err, out)
	}
	exe := filepath.Join(dir, "usr", "bin", "feedback-headless")
	f, err := elf.Open(exe)
	if err != nil {
		t.Fatal(err)
	}
	libs, _ := f.ImportedLibraries()
	f.Close()
	if len(libs) != 0 {
		t.Errorf("feedback-headless links %v; want a static binary", libs)
	}
	checkStripped(t, exe)
	checkVersion(t, exe)
}

// The Go version the README asks for is go.mod's.
func TestReadmeGoVersion(t *testing.T) {
	mod, err := os.ReadFile("../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^go (\d+\.\d+)`).FindSubmatch(mod)
	if m == nil {
		t.Fatal("go.mod has no go directive")
	}
	stated := regexp.MustCompile(`Go (\d+\.\d+) or newer`).FindAllSubmatch(readme, -1)
	if len(stated) == 0 {
		t.Fatal(`the README states no "Go X.Y or newer"`)
	}
	for _, s := range stated {
		if string(s[1]) != string(m[1]) {
			t.Errorf("the README asks for Go %s, go.mod for %s", s[1], m[1])
		}
	}
}

// checkSetupWritesTheShim: `app setup claude-code`, in a throw-away home,
// writes shim as the MCP server's command.
func checkSetupWritesTheShim(t *testing.T, app, shim string) {
	t.Helper()
	home := t.TempDir()
	cmd := exec.Command(app, "setup", "claude-code")
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s setup claude-code: %v\n%s", app, err, out)
	}
	data, err := os.ReadFile(filepath.Join(home, ".claude.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		MCPServers map[string]struct{ Command string } `json:"mcpServers"`
	}
	if err := json.Unmarshal(data, &doc); err != nil || doc.MCPServers["feedback"].Command != shim {
		t.Errorf("feedback setup wrote %v (%v), want the command %s:\n%s", doc.MCPServers, err, shim, data)
	}
}
