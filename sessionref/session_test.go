package sessionref_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/guardvet/guardvet/sessionref"
)

// TestEchoRoundTrip1MiB writes 1 MiB of arbitrary bytes to a raw-mode cat
// while reading its output concurrently, and checks that every byte comes
// back once and in order.
func TestEchoRoundTrip1MiB(t *testing.T) {
	m := newManager(t, sessionref.Options{Scrollback: 64 << 10, SubscriberBuffer: 1 << 14})
	s := create(t, m, rawCat...)
	sub := s.Subscribe()
	defer sub.Close()

	if got := readN(t, sub, len(ready), 10*time.Second); string(got) != ready {
		t.Fatalf("first output %q, want %q", got, ready)
	}

	payload := make([]byte, 1<<20)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range payload {
		payload[i] = byte(rng.Uint32())
	}
	writeErr := make(chan error, 1)
	go func() {
		for p := payload; len(p) > 0; {
			n := min(len(p), 4096)
			if _, err := s.Write(p[:n]); err != nil {
				writeErr <- err
				return
			}
			p = p[n:]
		}
		writeErr <- nil
	}()
	got := readN(t, sub, len(payload), 30*time.Second)
	if err := <-writeErr; err != nil {
		t.Fatalf("Write: %v", err)
	}
	if !bytes.Equal(got, payload) {
		i := 0
		for i < len(got) && got[i] == payload[i] {
			i++
		}
		t.Fatalf("echo differs from input at byte %d of %d", i, len(payload))
	}
	if err := sub.Err(); err != nil {
		t.Fatalf("subscriber: %v", err)
	}
	// Scrollback keeps the last 64 KiB, which must be the payload's tail,
	// less what it drops to start at a safe point: the random bytes hold
	// escape sequences and strings, but a string ends at the first BEL, CAN
	// or SUB, so 4 KiB is plenty.
	if out := s.Output(); !bytes.Equal(out, payload[len(payload)-len(out):]) || len(out) > 64<<10 || len(out) < 60<<10 {
		t.Fatalf("scrollback is not the last 64 KiB of output (len %d)", len(out))
	}
}

// TestAttachRoundTrip drives the session through an attached terminal:
// keystrokes written to the returned master reach the child, and the child's
// output, preceded by the scrollback replay, comes back on it.
func TestAttachRoundTrip(t *testing.T) {
	m := newManager(t, sessionref.Options{})
	s := create(t, m, rawCat...)
	waitOutput(t, s, ready)

	f, err := s.Attach()
	if err != nil {
		t.Fatalf("Attach: %v", err)
	}
	if st := s.Status(); st != sessionref.StatusRunning {
		t.Fatalf("status after Attach = %v, want running", st)
	}
	payload := make([]byte, 64<<10)
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range payload {
		payload[i] = byte(rng.Uint32())
	}
	writeErr := make(chan error, 1)
	go func() {
		_, err := f.Write(payload)
		writeErr <- err
	}()
	got := readN(t, f, len(ready)+len(payload), 30*time.Second)
	if err := <-writeErr; err != nil {
		t.Fatalf("write to terminal: %v", err)
	}
	if string(got[:len(ready)]) != ready {
		t.Fatalf("replay = %q, want %q", got[:len(ready)], ready)
	}
	if !bytes.Equal(got[len(ready):], payload) {
		t.Fatalf("bytes typed on the terminal did not come back intact")
	}
	if !bytes.Equal(s.Output(), got) {
		t.Fatalf("terminal saw %d bytes, scrollback has %d", len(got), len(s.Output()))
	}
}

// TestDetachAttach checks the status machine across detach and re-attach,
// and that the child keeps running while detached.
func TestDetachAttach(t *testing.T) {
	m := newManager(t, sessionref.Options{})
	s := create(t, m, rawCat...)
	waitOutput(t, s, ready)
	pid := s.Pid()
	if st := s.Status(); st != sessionref.StatusRunning {
		t.Fatalf("new session status = %v, want running", st)
	}

	f1, err := s.Attach()
	if err != nil {
		t.Fatalf("Attach: %v", err)
	}
	again, err := s.Attach()
	if err != nil || again != f1 {
		t.Fatalf("second Attach = %v, %v; want the same terminal", again, err)
	}
	if got := readN(t, f1, len(ready), 10*time.Second); string(got) != ready {
		t.Fatalf("replay %q", got)
	}

	if err := s.Detach(); err != nil {
		t.Fatalf("Detach: %v", err)
	}
	if st := s.Status(); st != sessionref.StatusDetached {
		t.Fatalf("status after Detach = %v, want detached", st)
	}
	if _, err := f1.Write([]byte("x")); err == nil {
		t.Fatalf("write to a detached terminal succeeded")
	}
	if err := s.Detach(); !errors.Is(err, sessionref.ErrNotAttached) {
		t.Fatalf("second Detach = %v, want ErrNotAttached", err)
	}
	// The child survived the detach and still works.
	if err := syscall.Kill(pid, 0); err != nil {
		t.Fatalf("child %d gone after Detach: %v", pid, err)
	}
	if _, err := s.Write([]byte("while-detached")); err != nil {
		t.Fatalf("Write while detached: %v", err)
	}
	waitOutput(t, s, "while-detached")

	f2, err := s.Attach()
	if err != nil {
		t.Fatalf("re-Attach: %v", err)
	}
	if f2 == f1 {
		t.Fatalf("re-Attach returned the old terminal")
	}
	if st := s.Status(); st != sessionref.StatusRunning {
		t.Fatalf("status after re-Attach = %v, want running", st)
	}
	want := ready + "while-detached"
	if got := readN(t, f2, len(want), 10*time.Second); string(got) != want {
		t.Fatalf("replay after re-attach = %q, want %q", got, want)
	}
	if _, err := f2.Write([]byte("typed")); err != nil {
		t.Fatalf("type on new terminal: %v", err)
	}
	if got := readN(t, f2, len("typed"), 10*time.Second); string(got) != "typed" {
		t.Fatalf("echo on new terminal = %q", got)
	}
	if s.Pid() != pid {
		t.Fatalf("pid changed across re-attach: %d -> %d", pid, s.Pid())
	}

	if err := m.Delete(s.ID()); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if st := s.Status(); st != sessionref.StatusClosed {
		t.Fatalf("status after Delete = %v, want closed", st)
	}
	if ended, _ := readUntilErr(f2, 5*time.Second); !ended {
		t.Fatalf("terminal still readable after Delete")
	}
	if err := s.Detach(); !errors.Is(err, sessionref.ErrClosed) {
		t.Fatalf("Detach after Delete = %v, want ErrClosed", err)
	}
}

// TestResizeVisibleToChild checks that the child sees the initial size and
// a later Resize through its terminal.
func TestResizeVisibleToChild(t *testing.T) {
	m := newManager(t, sessionref.Options{})
	s := create(t, m, "/bin/sh", "-c", "stty size; read x; stty size; read y; exit 0")
	waitOutput(t, s, "24 80")
	if err := s.Resize(40, 132); err != nil {
		t.Fatalf("Resize: %v", err)
	}
	if r, c := s.Size(); r != 40 || c != 132 {
		t.Fatalf("Size = %dx%d, want 40x132", r, c)
	}
	if _, err := s.Write([]byte("\n")); err != nil {
		t.Fatal(err)
	}
	waitOutput(t, s, "40 132")
	if _, err := s.Write([]byte("\n")); err != nil {
		t.Fatal(err)
	}
	if code := waitDone(t, s); code != 0 {
		t.Fatalf("exit code %d", code)
	}
	out := string(s.Output())
	if i, j := strings.Index(out, "24 80"), strings.Index(out, "40 132"); i < 0 || j < i {
		t.Fatalf("sizes out of order in %q", out)
	}
}

// TestResizeAttachedTerminal checks that Resize is mirrored onto the
// attached terminal.
func TestResizeAttachedTerminal(t *testing.T) {
	m := newManager(t, sessionref.Options{})
	s := create(t, m, "cat")
	f, err := s.Attach()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Resize(33, 101); err != nil {
		t.Fatal(err)
	}
	ws, err := winsizeOf(f)
	if err != nil {
		t.Fatal(err)
	}
	if ws != [2]int{33, 101} {
		t.Fatalf("attached terminal size = %v, want [33 101]", ws)
	}
}

// TestExitCodes checks exit codes (including death by signal) and that a
// finished session rejects input with ErrExited but keeps its output.
func TestExitCodes(t *testing.T) {
	m := newManager(t, sessionref.Options{})
	cases := []struct {
		argv []string
		code int
	}{
		{[]string{"true"}, 0},
		{[]string{"false"}, 1},
		{[]string{"/bin/sh", "-c", "echo bye; exit 42"}, 42},
		{[]string{"/bin/sh", "-c", "kill -KILL $$"}, 128 + 9},
	}
	for _, tc := range cases {
		s := create(t, m, tc.argv...)
		if code := waitDone(t, s); code != tc.code {
			t.Errorf("%q: exit code %d, want %d", tc.argv, code, tc.code)
		}
		if code, err := s.ExitCode(); err != nil || code != tc.code {
			t.Errorf("%q: ExitCode = %d, %v", tc.argv, code, err)
		}
		if st := s.Status(); st != sessionref.StatusExited {
			t.Errorf("%q: status %v, want exited", tc.argv, st)
		}
		if _, err := s.Write([]byte("x")); !errors.Is(err, sessionref.ErrExited) {
			t.Errorf("%q: Write after exit = %v, want ErrExited", tc.argv, err)
		}
		if err := s.Resize(10, 10); !errors.Is(err, sessionref.ErrExited) {
			t.Errorf("%q: Resize after exit = %v, want ErrExited", tc.argv, err)
		}
		if _, err := s.Attach(); !errors.Is(err, sessionref.ErrExited) {
			t.Errorf("%q: Attach after exit = %v, want ErrExited", tc.argv, err)
		}
		if err := s.Detach(); !errors.Is(err, sessionref.ErrExited) {
			t.Errorf("%q: Detach after exit = %v, want ErrExited", tc.argv, err)
		}
		if err := m.Delete(s.ID()); err != nil {
			t.Errorf("%q: Delete: %v", tc.argv, err)
		}
	}
	s := create(t, m, "/bin/sh", "-c", "echo bye; exit 3")
	waitDone(t, s)
	if out := string(s.Output()); out != "bye\r\n" {
		t.Errorf("output %q, want %q", out, "bye\r\n")
	}
	running := create(t, m, "cat")
	if _, err := running.ExitCode(); !errors.Is(err, sessionref.ErrNotExited) {
		t.Errorf("ExitCode while running = %v, want ErrNotExited", err)
	}
}

// TestSubscribersMatchOutput checks that subscribers, early and late, see
// exactly the bytes Output() has.
func TestSubscribersMatchOutput(t *testing.T) {
	m := newManager(t, sessionref.Options{})
	s := create(t, m, "/bin/sh", "-c", `read go; i=0; while [ $i -lt 300 ]; do echo "line $i"; i=$((i+1)); done`)
	early := s.Subscribe()
	earlyOut := make(chan []byte, 1)
	go func() { earlyOut <- collect(t, early, 20*time.Second) }()

	if _, err := s.Write([]byte("go\n")); err != nil {
		t.Fatal(err)
	}
	waitOutput(t, s, "line 10\r\n")
	late := s.Subscribe() // joins mid-stream: backlog, then live
	lateOut := collect(t, late, 20*time.Second)
	earlyBytes := <-earlyOut
	waitDone(t, s)

	out := s.Output()
	if !bytes.Contains(out, []byte("line 299\r\n")) {
		// Say enough to tell a child that stopped early (its exit status)
		// from output lost on the way (the subscribers' share).
		status, _ := s.Wait(context.Background())
		t.Fatalf("output incomplete: %d bytes ending %q; child %v; early subscriber %d bytes, late %d",
			len(out), out[max(0, len(out)-40):], status, len(earlyBytes), len(lateOut))
	}
	if !bytes.Equal(earlyBytes, out) {
		t.Errorf("early subscriber saw %d bytes, Output has %d", len(earlyBytes), len(out))
	}
	if !bytes.Equal(lateOut, out) {
		t.Errorf("late subscriber saw %d bytes, Output has %d", len(lateOut), len(out))
	}
	if early.Err() != nil || late.Err() != nil {
		t.Errorf("subscriber errors: %v, %v", early.Err(), late.Err())
	}
	// After the end: backlog, then closed.
	after := s.Subscribe()
	if got := collect(t, after, 5*time.Second); !bytes.Equal(got, out) {
		t.Errorf("subscriber after exit saw %d bytes, want %d", len(got), len(out))
	}
}

// TestSlowSubscriberDisconnected checks the back-pressure rule: a subscriber
// that stops reading is disconnected with ErrSlowSubscriber after its
// buffer fills, having received an exact prefix of the output, and does not
// hold up the session.
func TestSlowSubscriberDisconnected(t *testing.T) {
	m := newManager(t, sessionref.Options{SubscriberBuffer: 4, Scrollback: 1 << 20})
	s := create(t, m, "/bin/sh", "-c", `read go; i=0; while [ $i -lt 20000 ]; do echo "line $i"; i=$((i+1)); done`)
	slow := s.Subscribe()
	if _, err := s.Write([]byte("go\n")); err != nil {
		t.Fatal(err)
	}
	waitDone(t, s) // the session finished although slow never read
	if !errors.Is(slow.Err(), sessionref.ErrSlowSubscriber) {
		t.Fatalf("slow subscriber Err = %v, want ErrSlowSubscriber", slow.Err())
	}
	var chunks int
	var got bytes.Buffer
	for chunk := range slow.C() {
		chunks++
		got.Write(chunk)
	}
	if chunks > 5 { // 4 buffered chunks + the (empty-at-start) backlog slot
		t.Errorf("slow subscriber kept %d chunks, buffer is 4", chunks)
	}
	out := s.Output()
	if !bytes.HasPrefix(out, got.Bytes()) || got.Len() == len(out) {
		t.Errorf("slow subscriber's %d bytes are not a strict prefix of the %d-byte output", got.Len(), len(out))
	}
	if _, err := slow.Read(make([]byte, 1)); !errors.Is(err, sessionref.ErrSlowSubscriber) {
		t.Errorf("Read after disconnect = %v", err)
	}
	// Recovering: a new subscription starts from the full scrollback.
	if again := collect(t, s.Subscribe(), 5*time.Second); !bytes.Equal(again, out) {
		t.Errorf("resubscribe saw %d bytes, want %d", len(again), len(out))
	}
}

// TestBadInput checks that every kind of bad input gets its typed error and
// leaves nothing behind (the leak check runs at the end).
func TestBadInput(t *testing.T) {
	m := newManager(t, sessionref.Options{})
	ctx := context.Background()
	bad := []struct {
		name string
		spec sessionref.Spec
		want error
	}{
		{"empty argv", sessionref.Spec{Rows: 24, Cols: 80}, sessionref.ErrInvalidSpec},
		{"zero rows", sessionref.Spec{Argv: []string{"cat"}, Cols: 80}, sessionref.ErrInvalidSize},
		{"negative cols", sessionref.Spec{Argv: []string{"cat"}, Rows: 24, Cols: -1}, sessionref.ErrInvalidSize},
		{"huge rows", sessionref.Spec{Argv: []string{"cat"}, Rows: 1 << 20, Cols: 80}, sessionref.ErrInvalidSize},
		{"missing binary", sessionref.Spec{Argv: []string{"/nonexistent/sessionref-cmd"}, Rows: 24, Cols: 80}, sessionref.ErrStart},
		{"not in PATH", sessionref.Spec{Argv: []string{"sessionref-no-such-command"}, Rows: 24, Cols: 80}, exec.ErrNotFound},
		{"missing dir", sessionref.Spec{Argv: []string{"cat"}, Dir: "/nonexistent/dir", Rows: 24, Cols: 80}, sessionref.ErrStart},
	}
	for _, tc := range bad {
		s, err := m.Create(ctx, tc.spec)
		if !errors.Is(err, tc.want) || s != nil {
			t.Errorf("%s: Create = %v, %v; want %v", tc.name, s, err, tc.want)
		}
	}
	canceled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := m.Create(canceled, sessionref.Spec{Argv: []string{"cat"}, Rows: 1, Cols: 1}); !errors.Is(err, context.Canceled) {
		t.Errorf("Create with canceled ctx = %v", err)
	}
	if n := len(m.List()); n != 0 {
		t.Fatalf("%d sessions left after failed creates", n)
	}

	s, err := m.Create(ctx, sessionref.Spec{ID: "dup", Argv: []string{"cat"}, Rows: 24, Cols: 80})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Create(ctx, sessionref.Spec{ID: "dup", Argv: []string{"cat"}, Rows: 24, Cols: 80}); !errors.Is(err, sessionref.ErrExists) {
		t.Errorf("duplicate id: %v, want ErrExists", err)
	}
	if got, err := m.Get("dup"); err != nil || got != s {
		t.Errorf("Get(dup) = %v, %v", got, err)
	}
	if _, err := m.Get("nope"); !errors.Is(err, sessionref.ErrNotFound) {
		t.Errorf("Get unknown: %v", err)
	}
	if err := m.Delete("nope"); !errors.Is(err, sessionref.ErrNotFound) {
		t.Errorf("Delete unknown: %v", err)
	}
	for _, sz := range [][2]int{{0, 80}, {24, 0}, {-1, 80}, {24, 70000}} {
		if err := s.Resize(sz[0], sz[1]); !errors.Is(err, sessionref.ErrInvalidSize) {
			t.Errorf("Resize(%v) = %v, want ErrInvalidSize", sz, err)
		}
	}
	if r, c := s.Size(); r != 24 || c != 80 {
		t.Errorf("size changed by a rejected Resize: %dx%d", r, c)
	}
	if err := m.Approve("nope", "ls"); !errors.Is(err, sessionref.ErrNotFound) {
		t.Errorf("Approve unknown: %v", err)
	}
	for _, cmd := range []string{"", "ls\nrm -rf /", "a\rb"} {
		if err := m.Approve("dup", cmd); !errors.Is(err, sessionref.ErrInvalidCommand) {
			t.Errorf("Approve(%q) = %v, want ErrInvalidCommand", cmd, err)
		}
	}
	// An invalid command is not echoed whole: the error quotes a bounded
	// prefix and says how long it was.
	long := strings.Repeat("x", 1<<16) + "\n"
	if err := m.Approve("dup", long); !errors.Is(err, sessionref.ErrInvalidCommand) {
		t.Errorf("Approve(64 KiB command) = %.200v, want ErrInvalidCommand", err)
	} else if len(err.Error()) > 200 || !strings.Contains(err.Error(), "(65537 bytes)") {
		t.Errorf("Approve(64 KiB command): an error of %d bytes, want a bounded prefix with the length: %.200s", len(err.Error()), err)
	}

	if err := m.Delete("dup"); err != nil {
		t.Fatal(err)
	}
	if err := m.Delete("dup"); !errors.Is(err, sessionref.ErrNotFound) {
		t.Errorf("second Delete: %v", err)
	}
	if _, err := s.Write([]byte("x")); !errors.Is(err, sessionref.ErrClosed) {
		t.Errorf("Write after Delete: %v", err)
	}
	if err := s.Resize(10, 10); !errors.Is(err, sessionref.ErrClosed) {
		t.Errorf("Resize after Delete: %v", err)
	}
	if _, err := s.Attach(); !errors.Is(err, sessionref.ErrClosed) {
		t.Errorf("Attach after Delete: %v", err)
	}
	if err := m.Deny("dup", "ls", "no"); !errors.Is(err, sessionref.ErrNotFound) {
		t.Errorf("Deny after Delete: %v", err)
	}

	if err := m.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := m.Close(); !errors.Is(err, sessionref.ErrClosed) {
		t.Errorf("second Close = %v, want ErrClosed", err)
	}
	if _, err := m.Create(ctx, sessionref.Spec{Argv: []string{"cat"}, Rows: 1, Cols: 1}); !errors.Is(err, sessionref.ErrClosed) {
		t.Errorf("Create after Close = %v", err)
	}
	if _, err := m.Get("dup"); !errors.Is(err, sessionref.ErrClosed) {
		t.Errorf("Get after Close = %v", err)
	}
}

// TestListAndIDs checks generated ids, explicit ids and List order.
func TestListAndIDs(t *testing.T) {
	m := newManager(t, sessionref.Options{})
	ctx := context.Background()
	var want []string
	for i := range 3 {
		spec := sessionref.Spec{Argv: []string{"cat"}, Rows: 5, Cols: 5}
		if i == 1 {
			spec.ID = "named"
		}
		s, err := m.Create(ctx, spec)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, s.ID())
	}
	if want[1] != "named" || want[0] == want[2] || want[0] == "" {
		t.Fatalf("ids %v", want)
	}
	var got []string
	for _, s := range m.List() {
		got = append(got, s.ID())
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("List = %v, want %v", got, want)
	}
}
