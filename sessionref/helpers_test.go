package sessionref_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/creack/pty"

	"github.com/guardvet/guardvet/sessionref"
)

// newManager returns a manager that is closed when the test ends, and
// checks for leaks after that.
func newManager(t *testing.T, opts sessionref.Options) *sessionref.Manager {
	t.Helper()
	sessionref.VerifyNoLeaks(t) // registered first, so it runs after Close
	m := sessionref.NewManager(opts)
	t.Cleanup(func() {
		if err := m.Close(); err != nil && !errors.Is(err, sessionref.ErrClosed) {
			t.Errorf("Close: %v", err)
		}
	})
	return m
}

func create(t *testing.T, m *sessionref.Manager, argv ...string) *sessionref.Session {
	t.Helper()
	s, err := m.Create(context.Background(), sessionref.Spec{Argv: argv, Rows: 24, Cols: 80})
	if err != nil {
		t.Fatalf("Create(%q): %v", argv, err)
	}
	return s
}

// rawCat is a child that puts its terminal in raw mode without echo, says
// READY, and then copies input to output byte for byte.
var rawCat = []string{"/bin/sh", "-c", "stty raw -echo && echo READY && exec cat"}

const ready = "READY\n"

// waitFor polls cond until it holds or the timeout expires.
func waitFor(t *testing.T, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", timeout, what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func waitOutput(t *testing.T, s *sessionref.Session, want string) {
	t.Helper()
	waitFor(t, 10*time.Second, "output "+want, func() bool {
		return bytes.Contains(s.Output(), []byte(want))
	})
}

func waitDone(t *testing.T, s *sessionref.Session) int {
	t.Helper()
	select {
	case <-s.Done():
	case <-time.After(15 * time.Second):
		t.Fatalf("session %s not done; status %v", s.ID(), s.Status())
	}
	status, err := s.Wait(context.Background())
	if err != nil {
		t.Fatalf("Wait: %v", err)
	}
	return status.ShellCode()
}

// collect reads sub until its channel closes or the timeout expires.
func collect(t *testing.T, sub *sessionref.Subscription, timeout time.Duration) []byte {
	t.Helper()
	var b bytes.Buffer
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		select {
		case chunk, ok := <-sub.C():
			if !ok {
				return b.Bytes()
			}
			b.Write(chunk)
		case <-timer.C:
			t.Fatalf("subscription not closed after %v (%d bytes so far)", timeout, b.Len())
		}
	}
}

// readN reads from r until it has n bytes, in a goroutine so a stuck read
// fails the test instead of hanging it.
func readN(t *testing.T, r io.Reader, n int, timeout time.Duration) []byte {
	t.Helper()
	type result struct {
		b   []byte
		err error
	}
	ch := make(chan result, 1)
	go func() {
		b := make([]byte, n)
		_, err := io.ReadFull(r, b)
		ch <- result{b, err}
	}()
	select {
	case res := <-ch:
		if res.err != nil {
			t.Fatalf("read %d bytes: %v", n, res.err)
		}
		return res.b
	case <-time.After(timeout):
		t.Fatalf("reading %d bytes timed out", n)
	}
	return nil
}

// readUntilErr reads r until it fails and returns the error; ended is false
// if that did not happen in time.
func readUntilErr(r io.Reader, timeout time.Duration) (ended bool, err error) {
	ch := make(chan error, 1)
	go func() {
		buf := make([]byte, 4096)
		for {
			if _, err := r.Read(buf); err != nil {
				ch <- err
				return
			}
		}
	}()
	select {
	case err := <-ch:
		return true, err
	case <-time.After(timeout):
		return false, nil
	}
}

// winsizeOf reads f's window size without taking f out of non-blocking
// mode (pty.Getsize would, through f.Fd).
func winsizeOf(f *os.File) ([2]int, error) {
	sc, err := f.SyscallConn()
	if err != nil {
		return [2]int{}, err
	}
	var ws pty.Winsize
	var errno syscall.Errno
	if err := sc.Control(func(fd uintptr) {
		_, _, errno = syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCGWINSZ, uintptr(unsafe.Pointer(&ws)))
	}); err != nil {
		return [2]int{}, err
	}
	if errno != 0 {
		return [2]int{}, errno
	}
	return [2]int{int(ws.Rows), int(ws.Cols)}, nil
}
