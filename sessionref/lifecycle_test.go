package sessionref_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/guardvet/guardvet/sessionref"
)

// spawner is a child that starts a descendant ignoring the terminal
// hang-up (the ignored SIGHUP survives its exec), prints the descendant's
// pid and waits for it.
var spawner = []string{"/bin/sh", "-c", `trap "" HUP; sleep 1000 & echo "child $!."; wait`}

var childPid = regexp.MustCompile(`child (\d+)\.`)

// descendant waits for the spawner's line and returns the descendant's pid,
// after checking that it is alive and in the child's process group.
func descendant(t *testing.T, s *sessionref.Session) int {
	t.Helper()
	waitFor(t, 10*time.Second, "descendant pid", func() bool { return childPid.Match(s.Output()) })
	pid, _ := strconv.Atoi(string(childPid.FindSubmatch(s.Output())[1]))
	pgid, err := syscall.Getpgid(pid)
	if err != nil {
		t.Fatalf("descendant %d: %v", pid, err)
	}
	if pgid != s.Pid() {
		t.Fatalf("descendant %d is in group %d, want the child's %d", pid, pgid, s.Pid())
	}
	return pid
}

// waitGone waits until pid no longer runs. A dead process that is not our
// child counts as gone even while it is a zombie: reaping it is its new
// parent's job (init), and some container inits never do. Our own zombies
// are caught by VerifyNoLeaks.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	waitFor(t, 10*time.Second, "process "+strconv.Itoa(pid)+" to die", func() bool {
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			return true
		}
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			return true
		}
		i := bytes.LastIndexByte(stat, ')')
		f := strings.Fields(string(stat[i+1:]))
		return len(f) > 1 && f[0] == "Z" && f[1] != strconv.Itoa(os.Getpid())
	})
}

// TestDeleteKillsProcessGroup deletes a session whose child has a
// descendant that ignores SIGHUP: closing the terminal alone would leave it
// running. Delete must kill the child's whole process group.
func TestDeleteKillsProcessGroup(t *testing.T) {
	m := newManager(t, sessionref.Options{})
	s := create(t, m, spawner...)
	pid := descendant(t, s)
	if err := m.Delete(s.ID()); err != nil {
		t.Fatal(err)
	}
	waitGone(t, pid)
}

// TestCloseKillsProcessGroups is the same through Manager.Close, for two
// sessions at once.
func TestCloseKillsProcessGroups(t *testing.T) {
	m := newManager(t, sessionref.Options{})
	a, b := create(t, m, spawner...), create(t, m, spawner...)
	pa, pb := descendant(t, a), descendant(t, b)
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	waitGone(t, pa)
	waitGone(t, pb)
}

// TestExitKillsProcessGroup: when the child exits by itself, what is left
// of its process group is killed too, so nothing outlives Done.
func TestExitKillsProcessGroup(t *testing.T) {
	m := newManager(t, sessionref.Options{})
	s := create(t, m, "/bin/sh", "-c", `trap "" HUP; sleep 1000 & echo "child $!."; read x; exit 5`)
	pid := descendant(t, s)
	if _, err := s.Write([]byte("go\r")); err != nil {
		t.Fatal(err)
	}
	if code := waitDone(t, s); code != 5 {
		t.Fatalf("exit code %d, want 5", code)
	}
	waitGone(t, pid)
}

// TestSignalReachesTheGroup sends SIGUSR1: it kills the sleeping
// descendant (the group gets it) and runs the shell's trap.
func TestSignalReachesTheGroup(t *testing.T) {
	m := newManager(t, sessionref.Options{})
	s := create(t, m, "/bin/sh", "-c", `trap 'echo got-usr1; exit 7' USR1; echo ready; while :; do sleep 0.1; done`)
	waitOutput(t, s, "ready")
	if err := s.Signal(syscall.Signal(0)); err != nil {
		t.Fatalf("Signal(0): %v", err)
	}
	if err := s.Signal(syscall.SIGUSR1); err != nil {
		t.Fatalf("Signal(SIGUSR1): %v", err)
	}
	if code := waitDone(t, s); code != 7 {
		t.Fatalf("exit code %d, want 7 (the trap)", code)
	}
	if err := s.Signal(syscall.SIGTERM); !errors.Is(err, sessionref.ErrExited) {
		t.Fatalf("Signal after exit: %v, want ErrExited", err)
	}
	if err := s.Signal(os.Interrupt); !errors.Is(err, sessionref.ErrExited) {
		t.Fatalf("Signal(os.Interrupt) after exit: %v, want ErrExited", err)
	}
}

type fakeSignal struct{}

func (fakeSignal) String() string { return "fake" }
func (fakeSignal) Signal()        {}

// TestSignalErrors: a signal that is not a syscall.Signal, or out of
// range, is ErrInvalidSignal and the child is untouched; after Delete,
// Signal and Stop fail with ErrClosed.
func TestSignalErrors(t *testing.T) {
	m := newManager(t, sessionref.Options{})
	s := create(t, m, "/bin/sh", "-c", "echo ready; exec sleep 60")
	waitOutput(t, s, "ready")
	if err := s.Signal(fakeSignal{}); !errors.Is(err, sessionref.ErrInvalidSignal) {
		t.Fatalf("Signal(fake): %v, want ErrInvalidSignal", err)
	}
	if err := s.Signal(syscall.Signal(1000)); !errors.Is(err, sessionref.ErrInvalidSignal) {
		t.Fatalf("Signal(1000): %v, want ErrInvalidSignal", err)
	}
	if st := s.Status(); st != sessionref.StatusRunning {
		t.Fatalf("status %v after invalid signals", st)
	}
	if err := m.Delete(s.ID()); err != nil {
		t.Fatal(err)
	}
	if err := s.Signal(syscall.SIGTERM); !errors.Is(err, sessionref.ErrClosed) {
		t.Fatalf("Signal after Delete: %v, want ErrClosed", err)
	}
	if err := s.Stop(context.Background()); !errors.Is(err, sessionref.ErrClosed) {
		t.Fatalf("Stop after Delete: %v, want ErrClosed", err)
	}
}

// TestStopOnTerm stops a child that exits on SIGTERM: Stop returns as soon
// as it is done, without needing the deadline.
func TestStopOnTerm(t *testing.T) {
	m := newManager(t, sessionref.Options{})
	s := create(t, m, spawner...)
	pid := descendant(t, s)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	start := time.Now()
	if err := s.Stop(ctx); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("Stop took %v", d)
	}
	if code, err := s.ExitCode(); err != nil || code != 128+15 {
		t.Fatalf("ExitCode = %d, %v; want 143 (SIGTERM)", code, err)
	}
	waitGone(t, pid)
	if err := s.Stop(ctx); err != nil {
		t.Fatalf("second Stop: %v", err)
	}
}

// TestStopKillsTermIgnorer stops a child that ignores SIGTERM: Stop waits
// until the deadline and then kills the group.
func TestStopKillsTermIgnorer(t *testing.T) {
	m := newManager(t, sessionref.Options{})
	s := create(t, m, "/bin/sh", "-c", `trap "" TERM; echo ready; sleep 1000 & wait`)
	waitOutput(t, s, "ready")
	const grace = 300 * time.Millisecond
	ctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	start := time.Now()
	if err := s.Stop(ctx); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	if d := time.Since(start); d < grace || d > grace+5*time.Second {
		t.Fatalf("Stop took %v, want just over %v", d, grace)
	}
	if code, err := s.ExitCode(); err != nil || code != 128+9 {
		t.Fatalf("ExitCode = %d, %v; want 137 (SIGKILL)", code, err)
	}
}

// TestWaitExitCode: a child that exits 3 is reported as exit status 3, not
// signalled.
func TestWaitExitCode(t *testing.T) {
	m := newManager(t, sessionref.Options{})
	s := create(t, m, "/bin/sh", "-c", "exit 3")
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	st, err := s.Wait(ctx)
	if err != nil {
		t.Fatalf("Wait: %v", err)
	}
	want := sessionref.ExitStatus{Code: 3}
	if st != want || st.Signaled() || st.ShellCode() != 3 || st.String() != "exit status 3" {
		t.Fatalf("Wait = %+v (%v), want %+v", st, st, want)
	}
	// Once done, Wait returns the status even with a context that has ended.
	cancel()
	if st2, err := s.Wait(ctx); err != nil || st2 != st {
		t.Fatalf("Wait after done with an ended ctx = %+v, %v", st2, err)
	}
}

// TestWaitKilledBySignal: a child killed by SIGKILL reports the signal.
func TestWaitKilledBySignal(t *testing.T) {
	m := newManager(t, sessionref.Options{})
	s := create(t, m, "/bin/sh", "-c", "echo ready; exec sleep 60")
	waitOutput(t, s, "ready")
	if err := s.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	st, err := s.Wait(ctx)
	if err != nil {
		t.Fatalf("Wait: %v", err)
	}
	if !st.Signaled() || st.Signal != syscall.SIGKILL || st.Code != -1 || st.ShellCode() != 137 {
		t.Fatalf("Wait = %+v (%v), want killed by SIGKILL", st, st)
	}
	if code, err := s.ExitCode(); err != nil || code != 137 {
		t.Fatalf("ExitCode = %d, %v; want 137", code, err)
	}
}

// TestWaitCancelled: Wait on a running child returns ctx.Err() when the
// context is cancelled or times out, and the session is unaffected (the
// leak checks show nothing is left waiting).
func TestWaitCancelled(t *testing.T) {
	m := newManager(t, sessionref.Options{})
	s := create(t, m, "/bin/sh", "-c", "echo ready; exec sleep 60")
	waitOutput(t, s, "ready")

	ctx, cancel := context.WithCancel(context.Background())
	res := make(chan error, 1)
	go func() {
		_, err := s.Wait(ctx)
		res <- err
	}()
	time.Sleep(50 * time.Millisecond)
	cancel()
	select {
	case err := <-res:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("Wait after cancel: %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Wait did not return after cancel")
	}

	tctx, tcancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer tcancel()
	if _, err := s.Wait(tctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Wait with a deadline: %v, want context.DeadlineExceeded", err)
	}
	if st := s.Status(); st != sessionref.StatusRunning {
		t.Fatalf("status %v after cancelled Waits", st)
	}
	if _, err := s.ExitCode(); !errors.Is(err, sessionref.ErrNotExited) {
		t.Fatalf("ExitCode: %v, want ErrNotExited", err)
	}
}

// TestZeroManager: a zero Manager works, with the default options (the
// scrollback keeps output), through the whole lifecycle.
func TestZeroManager(t *testing.T) {
	sessionref.VerifyNoLeaks(t)
	var m sessionref.Manager
	if _, err := m.Get("x"); !errors.Is(err, sessionref.ErrNotFound) {
		t.Fatalf("Get on a zero Manager: %v, want ErrNotFound", err)
	}
	if err := m.Delete("x"); !errors.Is(err, sessionref.ErrNotFound) {
		t.Fatalf("Delete on a zero Manager: %v, want ErrNotFound", err)
	}
	if n := len(m.List()); n != 0 {
		t.Fatalf("List on a zero Manager: %d sessions", n)
	}
	if err := m.Approve("x", "true"); !errors.Is(err, sessionref.ErrNotFound) {
		t.Fatalf("Approve on a zero Manager: %v, want ErrNotFound", err)
	}
	s, err := m.Create(context.Background(), sessionref.Spec{ID: "z", Argv: rawCat, Rows: 24, Cols: 80})
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	waitOutput(t, s, ready)
	if err := m.Approve("z", "hello"); err != nil {
		t.Fatalf("Approve: %v", err)
	}
	waitOutput(t, s, "hello")
	sub := s.Subscribe()
	if got := collectUntil(t, sub, "hello"); !bytes.Contains(got, []byte(ready)) {
		t.Fatalf("subscription backlog %q lacks the scrollback", got)
	}
	_ = sub.Close()
	if g, err := m.Get("z"); err != nil || g != s {
		t.Fatalf("Get: %v, %v", g, err)
	}
	if err := m.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := m.Close(); !errors.Is(err, sessionref.ErrClosed) {
		t.Fatalf("second Close: %v, want ErrClosed", err)
	}
	var fresh sessionref.Manager
	if err := fresh.Close(); err != nil {
		t.Fatalf("Close of an unused zero Manager: %v", err)
	}
}

// collectUntil reads sub until what it has read contains want.
func collectUntil(t *testing.T, sub *sessionref.Subscription, want string) []byte {
	t.Helper()
	var b bytes.Buffer
	timer := time.NewTimer(10 * time.Second)
	defer timer.Stop()
	for !bytes.Contains(b.Bytes(), []byte(want)) {
		select {
		case chunk, ok := <-sub.C():
			if !ok {
				t.Fatalf("subscription ended before %q: %q", want, b.Bytes())
			}
			b.Write(chunk)
		case <-timer.C:
			t.Fatalf("no %q in %q", want, b.Bytes())
		}
	}
	return b.Bytes()
}

// TestIDValidation: Create rejects ids that are too long, not UTF-8 or
// contain control characters, starting nothing; Get, Delete, Approve and
// Deny reject them (and the empty id) as not found; no error message
// quotes more than a bounded prefix of an id.
func TestIDValidation(t *testing.T) {
	m := newManager(t, sessionref.Options{})
	huge := strings.Repeat("é", 1<<16) // 128 KiB
	bad := map[string]string{
		"too long":       strings.Repeat("a", sessionref.MaxIDLen+1),
		"huge":           huge,
		"newline":        "a\nb",
		"escape":         "\x1b[31mred",
		"nul":            "a\x00",
		"del":            "a\x7f",
		"C1 control":     "a\u0085",
		"invalid UTF-8":  "a\xff",
		"huge with ctrl": huge + "\n",
	}
	const maxMsg = 300
	for name, id := range bad {
		_, err := m.Create(context.Background(), sessionref.Spec{ID: id, Argv: []string{"true"}, Rows: 24, Cols: 80})
		if !errors.Is(err, sessionref.ErrInvalidID) || !errors.Is(err, sessionref.ErrInvalidSpec) {
			t.Errorf("%s: Create: %v, want ErrInvalidID and ErrInvalidSpec", name, err)
		} else if len(err.Error()) > maxMsg {
			t.Errorf("%s: Create error is %d bytes long", name, len(err.Error()))
		}
	}
	for name, id := range bad {
		for op, call := range map[string]func() error{
			"Get":     func() error { _, err := m.Get(id); return err },
			"Delete":  func() error { return m.Delete(id) },
			"Approve": func() error { return m.Approve(id, "true") },
			"Deny":    func() error { return m.Deny(id, "true", "no") },
		} {
			err := call()
			if !errors.Is(err, sessionref.ErrInvalidID) || !errors.Is(err, sessionref.ErrNotFound) {
				t.Errorf("%s: %s: %v, want ErrInvalidID and ErrNotFound", name, op, err)
			} else if len(err.Error()) > maxMsg {
				t.Errorf("%s: %s error is %d bytes long", name, op, len(err.Error()))
			}
		}
	}
	if _, err := m.Get(""); !errors.Is(err, sessionref.ErrInvalidID) {
		t.Errorf("Get(\"\"): %v, want ErrInvalidID", err)
	}
	if n := len(m.List()); n != 0 {
		t.Fatalf("%d sessions after invalid Creates", n)
	}

	// The longest valid id, with non-ASCII and spaces, works; the empty one
	// still means "generate".
	long := strings.Repeat("ü", sessionref.MaxIDLen/2)
	for _, id := range []string{long, "with space", ""} {
		s, err := m.Create(context.Background(), sessionref.Spec{ID: id, Argv: []string{"cat"}, Rows: 24, Cols: 80})
		if err != nil {
			t.Fatalf("Create(%q): %v", id, err)
		}
		if g, err := m.Get(s.ID()); err != nil || g != s {
			t.Fatalf("Get(%q): %v, %v", s.ID(), g, err)
		}
	}
	_, err := m.Create(context.Background(), sessionref.Spec{ID: long, Argv: []string{"cat"}, Rows: 24, Cols: 80})
	if !errors.Is(err, sessionref.ErrExists) {
		t.Fatalf("Create of a taken id: %v, want ErrExists", err)
	}
	// A valid but unknown id of any length is quoted in full only up to a
	// bounded prefix, cut at a rune boundary.
	_, err = m.Get(strings.Repeat("ü", 60))
	if !errors.Is(err, sessionref.ErrNotFound) || errors.Is(err, sessionref.ErrInvalidID) {
		t.Fatalf("Get of an unknown id: %v, want only ErrNotFound", err)
	}
	if msg := err.Error(); len(msg) > 120 || !strings.Contains(msg, "(120 bytes)") || !utf8Valid(msg) {
		t.Fatalf("Get of an unknown id: message %q", msg)
	}
}

func utf8Valid(s string) bool { return strings.ToValidUTF8(s, "\uFFFD") == s }

// TestScrollbackReplayStartsClean fills a small scrollback with coloured
// two-byte runes through a real terminal: the scrollback and a late
// subscriber's backlog must consist of whole tokens, never a cut escape
// sequence or half a rune.
func TestScrollbackReplayStartsClean(t *testing.T) {
	m := newManager(t, sessionref.Options{Scrollback: 61})
	s := create(t, m, "/bin/sh", "-c",
		`i=0; while [ $i -lt 200 ]; do printf '\033[31m\303\251\033[0m'; i=$((i+1)); done; echo; echo END; exec sleep 60`)
	waitOutput(t, s, "END")
	tokens := []string{"\x1b[31m", "\x1b[0m", "é", "\r\n", "END"}
	whole := func(b []byte) bool {
		for len(b) > 0 {
			n := 0
			for _, tok := range tokens {
				if bytes.HasPrefix(b, []byte(tok)) {
					n = len(tok)
					break
				}
			}
			if n == 0 {
				return false
			}
			b = b[n:]
		}
		return true
	}
	out := s.Output()
	if len(out) > 61 || len(out) < 61-6 || !whole(out) {
		t.Fatalf("scrollback %q (%d bytes) does not start at a whole token", out, len(out))
	}
	sub := s.Subscribe()
	defer sub.Close()
	select {
	case backlog := <-sub.C():
		if !bytes.Equal(backlog, out) {
			t.Fatalf("backlog %q, scrollback %q", backlog, out)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no backlog")
	}
}
