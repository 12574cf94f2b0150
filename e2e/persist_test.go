package e2e

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"feedback/ipc"
	"feedback/ipc/wire"
)

// startApp stops the session's app and starts one with extraEnv
// ("NAME=value", added to the session's) that logs to its own file, which
// it returns. At the end of the test the app is stopped (the next test
// starts the ordinary one) and its log is checked like the session's.
func startApp(t *testing.T, extraEnv ...string) (logPath string) {
	t.Helper()
	stopApp()
	logPath = filepath.Join(t.TempDir(), "app.log")
	launchApp(t, logPath, extraEnv...)
	t.Cleanup(func() {
		stopApp()
		data, _ := os.ReadFile(logPath)
		for _, bad := range []string{"Error in Fyne call thread", "panic:", "fatal error:"} {
			if strings.Contains(string(data), bad) {
				t.Errorf("the app's log contains %q", bad)
			}
		}
		if t.Failed() {
			t.Logf("the app's log:\n%s", data)
		}
	})
	return logPath
}

// launchApp starts the app with extraEnv, logging to logPath (appended),
// and waits until it answers on the socket.
func launchApp(t *testing.T, logPath string, extraEnv ...string) {
	t.Helper()
	cmd := exec.Command(bin)
	cmd.Env = append(append(os.Environ(), env...), extraEnv...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	log, err := os.OpenFile(logPath, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go cmd.Wait()
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if appPID() == cmd.Process.Pid {
			return
		}
	}
	t.Fatal("the app did not come up within 15 s")
}

type asked struct {
	a   wire.Answer
	err error
}

// askApp asks q over the socket in the background; cancel withdraws it.
func askApp(t *testing.T, q wire.Question) (<-chan asked, context.CancelFunc) {
	t.Helper()
	return askAppAs(t, wire.Ask{Question: q})
}

// askAppAs is askApp for an ask with a wait, attach-only or keep-open.
func askAppAs(t *testing.T, r wire.Ask) (<-chan asked, context.CancelFunc) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	ch := make(chan asked, 1)
	go func() {
		a, err := appClient().Ask(ctx, r, nil)
		ch <- asked{a, err}
	}()
	return ch, cancel
}

func awaitAsk(t *testing.T, ch <-chan asked) asked {
	t.Helper()
	select {
	case r := <-ch:
		return r
	case <-time.After(30 * time.Second):
		t.Fatal("the ask did not return within 30 s")
		return asked{}
	}
}

func choiceQuestion(title string) wire.Question {
	return wire.Question{ID: title + "-" + wire.NewID()[:8], Title: title, Prompts: []wire.Prompt{{
		Markdown: "## Migration\n\nHow shall I migrate the **sessions** table?",
		Options:  []wire.Option{{Label: "Online", Default: true}, {Label: "With downtime"}},
	}}}
}

// The app killed mid-question (kill -9: nothing flushed on the way out)
// and restarted; the same question asked again (same id, as the shim
// does) opens with what the user had typed, and submitting sends it.
func TestDraftSurvivesACrash(t *testing.T) {
	requireSession(t)
	db := filepath.Join(t.TempDir(), "feedback.db")
	logPath := startApp(t, "FEEDBACK_DB="+db)
	q := choiceQuestion("CrashDraft")
	title := "CrashDraft — feedback"

	ch, _ := askApp(t, q)
	win := findWindow(t, title)
	activate(t, win)
	typeText(t, "Online, but after the backup.")
	key(t, "alt+2")
	// Saved as the user typed, the second option included: no flush before the kill.
	waitDraftOf(t, db, q.ID, func(d wire.Draft) bool { return len(d.Replies) == 1 && len(d.Replies[0].Selected) == 2 })

	syscall.Kill(appPID(), syscall.SIGKILL)
	if r := awaitAsk(t, ch); !errors.Is(r.err, ipc.ErrAppGone) {
		t.Fatalf("ask after the kill: %+v, %v; want ErrAppGone", r.a, r.err)
	}
	windowGone(t, title, 5*time.Second)

	launchApp(t, logPath, "FEEDBACK_DB="+db)
	ch, _ = askApp(t, q)
	win = findWindow(t, title)
	activate(t, win)
	screenshot(t, "crash-draft-restored")
	key(t, "ctrl+Return")
	r := awaitAsk(t, ch)
	want := []wire.Reply{{Selected: []string{"Online", "With downtime"}, Text: "Online, but after the backup."}}
	if r.err != nil || r.a.Status != wire.StatusAnswered || !reflect.DeepEqual(r.a.Replies, want) {
		t.Fatalf("answer = %+v, %v; want replies %+v", r.a, r.err, want)
	}
}

// The caller going away closes the window within a second; what the user
// had typed, even in the last moment before, is in the database, and
// asking again restores it.
func TestCancelKeepsTheDraft(t *testing.T) {
	requireSession(t)
	db := filepath.Join(t.TempDir(), "feedback.db")
	startApp(t, "FEEDBACK_DB="+db)
	q := choiceQuestion("CancelDraft")
	q.Prompts[0].Options = nil
	title := "CancelDraft — feedback"

	ch, cancel := askApp(t, q)
	win := findWindow(t, title)
	activate(t, win)
	typeText(t, "half a thought")
	// Not a wait on a fact but the point of the test: let the last key
	// reach the window, yet close it within the draft delay (300 ms) of
	// it, so that only the close can save the whole text. Nothing outside
	// the app observes a key having been handled.
	time.Sleep(100 * time.Millisecond)
	start := time.Now()
	cancel()
	windowGone(t, title, time.Second)
	t.Logf("the window closed %v after the caller went away", time.Since(start).Round(10*time.Millisecond))
	if r := awaitAsk(t, ch); !errors.Is(r.err, context.Canceled) {
		t.Fatalf("ask = %+v, %v; want context.Canceled", r.a, r.err)
	}
	waitDraftOf(t, db, q.ID, func(d wire.Draft) bool { return len(d.Replies) == 1 && d.Replies[0].Text == "half a thought" })

	ch, _ = askApp(t, q)
	win = findWindow(t, title)
	activate(t, win)
	typeText(t, ", finished")
	key(t, "ctrl+Return")
	if r := awaitAsk(t, ch); r.err != nil || r.a.Replies[0].Text != "half a thought, finished" {
		t.Fatalf("answer = %+v, %v", r.a, r.err)
	}
}

// An answer given after the caller stopped waiting (KeepOpen) outlives a
// restart of the app and is returned at once when the question is asked
// again, exactly once.
func TestKeptAnswerSurvivesARestart(t *testing.T) {
	requireSession(t)
	db := filepath.Join(t.TempDir(), "feedback.db")
	logPath := startApp(t, "FEEDBACK_DB="+db)
	q := choiceQuestion("KeptAnswer")
	title := "KeptAnswer — feedback"

	ch, cancel := askAppAs(t, wire.Ask{Question: q, KeepOpen: true})
	win := findWindow(t, title)
	cancel() // the agent stopped waiting; the window stays
	awaitAsk(t, ch)
	activate(t, win)
	typeText(t, "answered while nobody waited")
	key(t, "ctrl+Return")
	windowGone(t, title, 2*time.Second)
	waitStore(t, db, "the answer kept for its caller", keptAnswer(q.ID))

	stopApp()
	launchApp(t, logPath, "FEEDBACK_DB="+db)
	start := time.Now()
	r := awaitAsk(t, func() <-chan asked { c, _ := askAppAs(t, wire.Ask{Question: q, KeepOpen: true}); return c }())
	if r.err != nil || r.a.Status != wire.StatusAnswered || r.a.Replies[0].Text != "answered while nobody waited" {
		t.Fatalf("after the restart: %+v, %v", r.a, r.err)
	}
	t.Logf("the kept answer came back in %v", time.Since(start).Round(time.Millisecond))
	// Delivered: the next ask with the id opens a new round.
	attach := wire.Ask{Question: wire.Question{ID: q.ID}, AttachOnly: true}
	ctx, cancelAttach := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancelAttach()
	if _, err := appClient().Ask(ctx, attach, nil); !errors.Is(err, &wire.Error{Code: wire.CodeNotFound}) {
		t.Errorf("collecting it again: %v, want not_found", err)
	}
}

// Garbage where the database should be: the store moves it aside and
// starts a fresh one, the app says so in its log (for people: read once
// the facts are there), and questions work and are recorded.
func TestCorruptDatabase(t *testing.T) {
	requireSession(t)
	db := filepath.Join(t.TempDir(), "feedback.db")
	if err := os.WriteFile(db, []byte(strings.Repeat("this is not a database\n", 400)), 0o600); err != nil {
		t.Fatal(err)
	}
	logPath := startApp(t, "FEEDBACK_DB="+db)
	waitFor(t, "the corrupt file kept aside and a fresh database", 10*time.Second, func() bool {
		moved, _ := filepath.Glob(db + ".corrupt-*")
		return len(moved) > 0 && schemaVersion(db) > 0
	})
	if log, _ := os.ReadFile(logPath); !strings.Contains(string(log), "database was corrupt: moved it aside") {
		t.Errorf("the log does not explain the corrupt database:\n%s", log)
	}
	q := choiceQuestion("Corrupt")
	ch, _ := askApp(t, q)
	activate(t, findWindow(t, "Corrupt — feedback"))
	typeText(t, "still works")
	waitDraftOf(t, db, q.ID, hasText("still works"))
	key(t, "ctrl+Return")
	if r := awaitAsk(t, ch); r.err != nil || r.a.Replies[0].Text != "still works" {
		t.Fatalf("answer = %+v, %v", r.a, r.err)
	}
}

// lockDatabase creates a database at path in rollback-journal mode and
// holds an exclusive lock on it until the test ends, as another program
// might: nobody else can read or write it (checked).
func lockDatabase(t *testing.T, path string) {
	t.Helper()
	holdTransaction(t, path, "CREATE TABLE other_program (x)", "BEGIN EXCLUSIVE", "INSERT INTO other_program VALUES (1)")
	if readable(path) {
		t.Fatal("another program reads the locked database")
	}
}

// A database locked by another program (so that the app cannot open it,
// or cannot write to it): questions still open at once and are answered.
func TestLockedDatabase(t *testing.T) {
	requireSession(t)
	t.Run("at start", func(t *testing.T) {
		db := filepath.Join(t.TempDir(), "feedback.db")
		lockDatabase(t, db)
		startApp(t, "FEEDBACK_DB="+db)
		q := choiceQuestion("LockedStart")
		start := time.Now()
		ch, _ := askApp(t, q)
		win := findWindow(t, "LockedStart — feedback")
		t.Logf("the window opened after %v", time.Since(start).Round(10*time.Millisecond))
		activate(t, win)
		typeText(t, "no database needed")
		key(t, "ctrl+Return")
		if r := awaitAsk(t, ch); r.err != nil || r.a.Replies[0].Text != "no database needed" {
			t.Fatalf("answer = %+v, %v", r.a, r.err)
		}
	})
	t.Run("while running", func(t *testing.T) {
		db := filepath.Join(t.TempDir(), "feedback.db")
		startApp(t, "FEEDBACK_DB="+db)
		waitFor(t, "the database set up by the app", 10*time.Second, func() bool { return schemaVersion(db) > 0 })
		lockDatabaseWAL(t, db)
		q := choiceQuestion("LockedLater")
		start := time.Now()
		ch, _ := askApp(t, q)
		win := findWindow(t, "LockedLater — feedback")
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("the window took %v to open", d)
		}
		activate(t, win)
		typeText(t, "typing against a locked database")
		key(t, "ctrl+Return")
		if r := awaitAsk(t, ch); r.err != nil || r.a.Replies[0].Text != "typing against a locked database" {
			t.Fatalf("answer = %+v, %v", r.a, r.err)
		}
		// The lock held the app's writes off: it carried on without them.
		if recorded(t, db, q.ID) {
			t.Error("the question was recorded through the lock: the test locked nothing")
		}
	})
}

// lockDatabaseWAL takes the write lock of the app's WAL database until
// the test ends.
func lockDatabaseWAL(t *testing.T, path string) {
	t.Helper()
	// The app may be writing as the test starts (its start-up clean-up):
	// wait for that write rather than fail on SQLITE_BUSY.
	holdTransaction(t, path, "PRAGMA busy_timeout = 10000", "BEGIN IMMEDIATE")
}

// holdTransaction runs stmts on one connection to the database at path,
// as another program would, and holds the transaction they begin (and its
// locks) until the test ends, when it is rolled back.
func holdTransaction(t *testing.T, path string, stmts ...string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	for _, stmt := range stmts {
		if _, err := conn.ExecContext(ctx, stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	t.Cleanup(func() { conn.ExecContext(ctx, "ROLLBACK") })
}
