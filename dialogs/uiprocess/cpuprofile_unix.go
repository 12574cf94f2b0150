//go:build unix

package uiprocess

import (
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"runtime"
	"runtime/pprof"
	"syscall"
	"time"
)

// profileFor is how long one SIGUSR1 profiles the UI process (a variable
// for the test).
var profileFor = 10 * time.Second

// profileOnSignal is a diagnostic for what a UI process spends its time
// on (say, lingering with no window): with FEEDBACK_UI_CPUPROFILE set to a
// path, each SIGUSR1 the process receives writes a CPU profile of the next
// profileFor to PATH.N and, at its end, the goroutines' stacks to
// PATH.N.goroutines and its live heap to PATH.N.heap (N = 1, 2…), for
// `go tool pprof BINARY PATH.N`.
// Without the variable it does nothing. Call the returned function to stop.
func profileOnSignal(log *slog.Logger) (stop func()) {
	path := os.Getenv("FEEDBACK_UI_CPUPROFILE")
	if path == "" {
		return func() {}
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGUSR1)
	done := make(chan struct{})
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		for n := 1; ; n++ {
			select {
			case <-done:
				return
			case <-sig:
			}
			name := fmt.Sprintf("%s.%d", path, n)
			if err := profile(name, done); err != nil {
				log.Warn("FEEDBACK_UI_CPUPROFILE: no profile written", "path", name, "err", err)
				continue
			}
			log.Info("FEEDBACK_UI_CPUPROFILE: profile written", "path", name, "goroutines", name+".goroutines")
		}
	}()
	return func() {
		signal.Stop(sig)
		close(done)
		<-ended
	}
}

// profile writes a CPU profile of the next profileFor (less if done is
// closed) to name, then the goroutines' stacks to name.goroutines.
func profile(name string, done <-chan struct{}) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := pprof.StartCPUProfile(f); err != nil {
		return err
	}
	t := time.NewTimer(profileFor)
	select {
	case <-t.C:
	case <-done:
		t.Stop()
	}
	pprof.StopCPUProfile()
	g, err := os.Create(name + ".goroutines")
	if err != nil {
		return err
	}
	defer g.Close()
	if err := pprof.Lookup("goroutine").WriteTo(g, 1); err != nil {
		return err
	}
	h, err := os.Create(name + ".heap")
	if err != nil {
		return err
	}
	defer h.Close()
	runtime.GC() // the live heap, not the last collection's
	if err := pprof.Lookup("heap").WriteTo(h, 0); err != nil {
		return err
	}
	return f.Close()
}
