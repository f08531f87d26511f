package sessionref_test

import (
	"bytes"
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
