package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"
	"time"

	"feedback/e2e/internal/procs"
	"feedback/e2e/internal/xmaps"
)

// uiProcesses returns the pids of app's UI processes (`feedback ui`).
func uiProcesses(app int) []int { return procs.UI(app) }

// waitNoUI waits until app has no UI process.
func waitNoUI(app int) error {
	for deadline := time.Now().Add(15 * time.Second); len(uiProcesses(app)) > 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			return errors.New("the UI process did not exit after its last window")
		}
	}
	return nil
}

// warmUICost samples the UI process that lingers after the last window of
// the warm session: what ui_prewarm and the linger time cost.
func (s *session) warmUICost(d time.Duration) error {
	pids := uiProcesses(s.app.Process.Pid)
	if len(pids) != 1 {
		return fmt.Errorf("UI processes %v, want the lingering one", pids)
	}
	cpu, rss, err := idleCost(pids[0], d)
	if err != nil {
		return err
	}
	fmt.Printf("%-32s CPU %.2f %% of one core, RSS %.0f MiB %v after the last window of the Markdown figures (target %d MiB; the cost of the linger time and of ui_prewarm)\n",
		"UI process lingering, no window", cpu, rss, d, targetBurstRSS)
	return nil
}

// waitAsleep waits until app's UI process is stopped (ui_sleep): it
// went to sleep after its last window.
func waitAsleep(app int) (pid int, err error) {
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if pids := uiProcesses(app); len(pids) == 1 && procs.State(pids[0]) == 'T' {
			return pids[0], nil
		}
		if time.Now().After(deadline) {
			return 0, fmt.Errorf("the UI process did not go to sleep after its last window (UI processes %v)", uiProcesses(app))
		}
	}
}

// idleSession starts an app of its own in dir/name with the settings
// file settings.
func idleSession(bin, dir, name, settings string) (*session, error) {
	home := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Join(home, "config", "feedback"), 0o700); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(home, "config", "feedback", "settings.json"), []byte(settings), 0o600); err != nil {
		return nil, err
	}
	s := newSession(bin, home)
	return s, s.startApp()
}

// afterIdle measures the popup after idle both ways a UI process can be
// after its linger time (ui_linger_seconds 0: at once): asleep (ui_sleep,
// the default) and gone (ui_sleep false: a new one starts), beside zenity
// spawned the same way, and what the sleeping one keeps; then the
// resident app's idle cost, beside a bare Fyne tray app.
func afterIdle(bin, dir string, runs int, idle time.Duration) error {
	// ui_prewarm off: the shim's greeting would prepare a UI process of
	// its own before the first call; these figures are the windows'
	// process after its linger time.
	asleep, err := idleSession(bin, dir, "asleep", `{"ui_linger_seconds": 0, "ui_prewarm": false}`)
	if err != nil {
		return err
	}
	app := asleep.app.Process.Pid
	calls := 0 // the first question starts the UI process; from then on it sleeps between them
	var firstRSS float64
	slept, err := asleep.windowLatency(runs, func() error {
		calls++
		if calls == 1 {
			return nil
		}
		pid, err := waitAsleep(app)
		if calls == 2 {
			firstRSS = rssMiB(pid)
		}
		return err
	})
	if err != nil {
		asleep.stopApp()
		return fmt.Errorf("popup, UI process asleep: %w", err)
	}
	report("tools/call → window mapped, UI asleep", slept, targetAfterIdle)
	if pid, err := waitAsleep(app); err == nil {
		cpu, rss, err := idleCost(pid, min(idle, 10*time.Second))
		if err == nil {
			fmt.Printf("%-32s CPU %.2f %% of one core, RSS %.0f MiB after %d questions, %.0f MiB after one (what ui_sleep keeps)\n",
				"UI process asleep", cpu, rss, calls, firstRSS)
		}
	}
	asleep.stopApp()

	s, err := idleSession(bin, dir, "cold", `{"ui_linger_seconds": 0, "ui_sleep": false, "ui_prewarm": false}`)
	if err != nil {
		return err
	}
	defer s.stopApp()
	app = s.app.Process.Pid
	lat, err := s.windowLatency(runs, func() error { return waitNoUI(app) })
	if err != nil {
		return fmt.Errorf("popup after idle: %w", err)
	}
	report("tools/call → window mapped, no UI", lat, targetAfterIdle)
	z, err := zenityLatency(runs)
	if err != nil {
		fmt.Printf("%-32s not measured: %v\n", "zenity --question → mapped", err)
	} else {
		report("zenity --question → mapped", z, targetAfterIdle)
		slices.Sort(lat)
		slices.Sort(slept)
		fmt.Printf("%-32s %.2f asleep, %.2f with no UI process (median popup after idle / median zenity)\n", "",
			float64(slept[len(slept)/2])/float64(z[len(z)/2]), float64(lat[len(lat)/2])/float64(z[len(z)/2]))
		if err := firstQuestionFigures(bin, dir, runs, median(z)); err != nil {
			return err
		}
	}

	if idle <= 0 {
		return nil
	}
	if err := waitNoUI(app); err != nil {
		return err
	}
	time.Sleep(2 * time.Second) // the exit's own work (reaping, logging) settles before sampling
	cpu, rss, err := idleCost(app, idle)
	if err != nil {
		return fmt.Errorf("idle app: %w", err)
	}
	fmt.Printf("%-32s CPU %.2f %% of one core (target %.1f), RSS %.0f MiB (target %d) (%v, no UI process)\n",
		"idle resident app", cpu, targetIdleCPU, rss, targetIdleRSS, idle)
	if len(uiProcesses(app)) != 0 {
		return errors.New("a UI process started while the app was idle")
	}
	return bareTray(dir, idle)
}

// zenityLatency times `zenity --question` from exec to its window mapped,
// the way a script author pops a question today.
func zenityLatency(runs int) ([]time.Duration, error) {
	if _, err := exec.LookPath("zenity"); err != nil {
		return nil, errors.New("zenity is not installed (scripts/deps.sh bench installs it)")
	}
	mapped, stop, err := xmaps.Watch()
	if err != nil {
		return nil, err
	}
	defer stop()
	var out []time.Duration
	for i := range runs + 2 {
		drain(mapped)
		cmd := exec.Command("zenity", "--question", "--title", "BenchZenity"+strconv.Itoa(i), "--text", "A question with options?")
		t0 := time.Now()
		if err := cmd.Start(); err != nil {
			return nil, err
		}
		select {
		case t1 := <-mapped:
			if i >= 2 {
				out = append(out, t1.Sub(t0))
			}
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			cmd.Wait()
			return nil, errors.New("no zenity window was mapped within 10 s")
		}
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
		time.Sleep(100 * time.Millisecond)
	}
	return out, nil
}

// bareTray builds and runs the bare Fyne tray app and samples it like the
// resident app.
func bareTray(dir string, idle time.Duration) error {
	exe := filepath.Join(dir, "baretray")
	if out, err := exec.Command("go", "build", "-o", exe, "./e2e/bench/baretray").CombinedOutput(); err != nil {
		return fmt.Errorf("building the bare tray app: %v\n%s", err, out)
	}
	cmd := exec.Command(exe)
	if err := cmd.Start(); err != nil {
		return err
	}
	defer func() {
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
	}()
	time.Sleep(3 * time.Second) // its start-up settles, as for the app
	cpu, rss, err := idleCost(cmd.Process.Pid, idle)
	if err != nil {
		return fmt.Errorf("bare tray app: %w", err)
	}
	fmt.Printf("%-32s CPU %.2f %% of one core, RSS %.0f MiB (%v; the baseline: Fyne's driver alive, no window)\n",
		"bare Fyne tray app", cpu, rss, idle)
	return nil
}
