package ipc

import "testing"

func TestPipePathAndSDDL(t *testing.T) {
	const sid = "S-1-5-21-1004336348-1177238915-682003330-1001"
	p, err := pipePath(sid)
	if err != nil {
		t.Fatal(err)
	}
	if want := `\\.\pipe\feedback-` + sid; p != want {
		t.Errorf("pipePath = %q, want %q", p, want)
	}
	if !isPipePath(p) {
		t.Errorf("isPipePath(%q) = false", p)
	}
	sddl, err := pipeSDDL(sid)
	if err != nil {
		t.Fatal(err)
	}
	// Owner: the user; DACL: protected, a single allow-all entry for the user.
	if want := "O:" + sid + "D:P(A;;GA;;;" + sid + ")"; sddl != want {
		t.Errorf("pipeSDDL = %q, want %q", sddl, want)
	}
}

func TestPipeRefusesWhatIsNotASID(t *testing.T) {
	for _, bad := range []string{
		"", "S-1-", "S-1-5-", "S-1-5--1", "s-1-5-21", "S-2-5", "S-1-5-21)(A;;GA;;;WD",
		"S-1-5-21-1\\..\\x", "S-1-5-18 ", "WD", "S-1-" + string(make([]byte, 200)),
	} {
		if _, err := pipePath(bad); err == nil {
			t.Errorf("pipePath(%q) accepted it", bad)
		}
		if _, err := pipeSDDL(bad); err == nil {
			t.Errorf("pipeSDDL(%q) accepted it", bad)
		}
	}
	for _, p := range []string{`C:\Users\a\feedback.sock`, `\\.\pipe\`, "/run/user/1000/feedback/feedback.sock"} {
		if isPipePath(p) {
			t.Errorf("isPipePath(%q) = true", p)
		}
	}
}
