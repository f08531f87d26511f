package sessionref

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// leakMarker is put in the environment of this test process, and so of
// every process it starts (children inherit it). Any process still carrying
// it after a test is a leak, even if it was reparented away from us.
const leakMarker = "SESSIONREF_TEST_OWNER"

func TestMain(m *testing.M) {
	if err := os.Setenv(leakMarker, strconv.Itoa(os.Getpid())); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	goleak.VerifyTestMain(m)
}

// VerifyNoLeaks records the number of open file descriptors and, when the
// test ends, waits (bounded) until every fd, child process and goroutine the
// test created is gone. It fails the test on zombies, live children,
// marked processes that escaped, extra fds or leaked goroutines. Tests that
// use it must not run in parallel.
func VerifyNoLeaks(t testing.TB) {
	t.Helper()
	// Initialize the runtime poller (epoll fd and its wakeup fd) up front so
	// it is part of the baseline.
	if r, w, err := os.Pipe(); err == nil {
		_ = r.Close()
		_ = w.Close()
	}
	before := fdCount(t)
	// An *os.File that is never closed gets closed by its finalizer when
	// the GC runs, which would hide an fd leak. No GC, no hiding.
	gcPercent := debug.SetGCPercent(-1)
	t.Cleanup(func() {
		defer debug.SetGCPercent(gcPercent)
		deadline := time.Now().Add(15 * time.Second)
		for {
			fds := fdCount(t)
			zombies, live := ourChildren()
			escaped := markedProcesses()
			if fds <= before && len(zombies) == 0 && len(live) == 0 && len(escaped) == 0 {
				break
			}
			if time.Now().After(deadline) {
				t.Errorf("leak: fds %d -> %d %v; zombie children %v; live children %v; escaped processes %v",
					before, fds, fdTargets(), zombies, live, escaped)
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		goleak.VerifyNone(t)
	})
}

func fdCount(t testing.TB) int {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatalf("read /proc/self/fd: %v", err)
	}
	return len(ents)
}

func fdTargets() []string {
	ents, _ := os.ReadDir("/proc/self/fd")
	var out []string
	for _, e := range ents {
		target, _ := os.Readlink(filepath.Join("/proc/self/fd", e.Name()))
		out = append(out, e.Name()+"="+target)
	}
	return out
}

// ourChildren scans /proc for processes whose parent is this process.
func ourChildren() (zombies, live []string) {
	me := os.Getpid()
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...; comm may contain spaces and parens.
		i := bytes.LastIndexByte(stat, ')')
		if i < 0 {
			continue
		}
		fields := strings.Fields(string(stat[i+1:]))
		if len(fields) < 2 {
			continue
		}
		ppid, _ := strconv.Atoi(fields[1])
		if ppid != me {
			continue
		}
		desc := fmt.Sprintf("%d%s", pid, stat[bytes.IndexByte(stat, ' '):i+1])
		if fields[0] == "Z" {
			zombies = append(zombies, desc)
		} else {
			live = append(live, desc)
		}
	}
	return zombies, live
}

// markedProcesses returns other processes that carry this test's marker.
func markedProcesses() []string {
	me := os.Getpid()
	want := []byte(leakMarker + "=" + strconv.Itoa(me) + "\x00")
	ents, _ := os.ReadDir("/proc")
	var out []string
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == me {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err != nil || !bytes.Contains(env, want) {
			continue
		}
		// Threads of this process show up only under /proc/self/task, but
		// be safe: skip anything whose thread group is us.
		status, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "status"))
		if bytes.Contains(status, []byte("\nTgid:\t"+strconv.Itoa(me)+"\n")) {
			continue
		}
		cmdline, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		out = append(out, fmt.Sprintf("%d:%s", pid, bytes.ReplaceAll(cmdline, []byte{0}, []byte{' '})))
	}
	return out
}
