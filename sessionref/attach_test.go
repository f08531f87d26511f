package sessionref_test

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/term"

	"github.com/guardvet/guardvet/sessionref"
)

// TestAttachUsualTerminal uses the attached terminal the way a terminal
// program does: through its descriptor, with golang.org/x/term. Fd switches
// the file to blocking mode; Detach must still return promptly, and a Read
// in progress must end with an error rather than hang.
func TestAttachUsualTerminal(t *testing.T) {
	m := newManager(t, sessionref.Options{})
	s := create(t, m, rawCat...)
	waitOutput(t, s, ready)

	f, err := s.Attach()
	if err != nil {
		t.Fatalf("Attach: %v", err)
	}
	fd := int(f.Fd())
	if !term.IsTerminal(fd) {
		t.Fatalf("the attached file is not a terminal")
	}
	if _, err := term.MakeRaw(fd); err != nil {
		t.Fatalf("term.MakeRaw on the attached terminal: %v", err)
	}
	if w, h, err := term.GetSize(fd); err != nil || w != 80 || h != 24 {
		t.Fatalf("term.GetSize = %dx%d, %v; want 80x24", w, h, err)
	}
	if got := readN(t, f, len(ready), 10*time.Second); string(got) != ready {
		t.Fatalf("replay %q, want %q", got, ready)
	}
	if _, err := f.Write([]byte("ping\x03\r")); err != nil { // ^C and CR must pass through raw
		t.Fatalf("write: %v", err)
	}
	if got := readN(t, f, len("ping\x03\r"), 10*time.Second); string(got) != "ping\x03\r" {
		t.Fatalf("echo %q, want %q", got, "ping\x03\r")
	}

	// A Read in progress on the now blocking terminal, then Detach.
	ended := make(chan error, 1)
	go func() {
		buf := make([]byte, 64)
		for {
			if _, err := f.Read(buf); err != nil {
				ended <- err
				return
			}
		}
	}()
	time.Sleep(50 * time.Millisecond) // let the Read block
	detached := make(chan error, 1)
	go func() { detached <- s.Detach() }()
	select {
	case err := <-detached:
		if err != nil {
			t.Fatalf("Detach: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("Detach hangs on a terminal switched to blocking mode by Fd")
	}
	select {
	case <-ended:
	case <-time.After(5 * time.Second):
		t.Fatalf("a Read in progress on the detached terminal did not end")
	}
	if st := s.Status(); st != sessionref.StatusDetached {
		t.Fatalf("status after Detach = %v, want detached", st)
	}
}

// TestAttachStartsNoProcess checks that attaching runs in this process: the
// only child while a terminal is attached and used is the session's own.
func TestAttachStartsNoProcess(t *testing.T) {
	m := newManager(t, sessionref.Options{})
	s := create(t, m, rawCat...)
	waitOutput(t, s, ready)
	f, err := s.Attach()
	if err != nil {
		t.Fatalf("Attach: %v", err)
	}
	if _, err := f.Write([]byte("x")); err != nil {
		t.Fatal(err)
	}
	readN(t, f, len(ready)+1, 10*time.Second)
	if got, want := children(t), []int{s.Pid()}; !slices.Equal(got, want) {
		t.Fatalf("children of the test process while attached: %v, want only the session's %v", got, want)
	}
	if err := s.Detach(); err != nil {
		t.Fatal(err)
	}
}

// children lists the pids whose parent is this process, from /proc.
func children(t *testing.T) []int {
	t.Helper()
	stats, err := filepath.Glob("/proc/[0-9]*/stat")
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, p := range stats {
		b, err := os.ReadFile(p)
		if err != nil {
			continue // gone meanwhile
		}
		// pid (comm) state ppid ...: comm may hold spaces; split after ')'.
		rest := string(b[strings.LastIndexByte(string(b), ')')+1:])
		fields := strings.Fields(rest)
		if len(fields) < 2 {
			continue
		}
		if ppid, _ := strconv.Atoi(fields[1]); ppid == os.Getpid() {
			pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(p)))
			pids = append(pids, pid)
		}
	}
	slices.Sort(pids)
	return pids
}
