package sessionref_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/guardvet/guardvet/sessionref"
)

// TestChildDiesMidWrite keeps writing to a child that exits after its first
// line: the writes must end with ErrExited rather than hang, and the exit
// code must be the child's.
func TestChildDiesMidWrite(t *testing.T) {
	m := newManager(t, sessionref.Options{})
	s := create(t, m, "/bin/sh", "-c", "read line; exit 7")
	chunk := make([]byte, 4096)
	for i := range chunk {
		chunk[i] = 'a' + byte(i%26)
	}
	chunk[len(chunk)-1] = '\n'
	if _, err := s.Write([]byte("first\n")); err != nil {
		t.Fatalf("first write: %v", err)
	}
	deadline := time.Now().Add(20 * time.Second)
	var err error
	for err == nil {
		if time.Now().After(deadline) {
			t.Fatalf("writes kept succeeding after the child exited; status %v", s.Status())
		}
		_, err = s.Write(chunk)
	}
	if !errors.Is(err, sessionref.ErrExited) {
		t.Fatalf("write error = %v, want ErrExited", err)
	}
	if code := waitDone(t, s); code != 7 {
		t.Fatalf("exit code %d, want 7", code)
	}
	if _, err := s.Write(chunk); !errors.Is(err, sessionref.ErrExited) {
		t.Fatalf("write after Wait = %v, want ErrExited", err)
	}
}

// TestPTYClosesUnderReader closes each kind of stream while something is
// blocked reading it: the reader must return, not hang.
func TestPTYClosesUnderReader(t *testing.T) {
	m := newManager(t, sessionref.Options{})

	t.Run("terminal closed by Detach", func(t *testing.T) {
		s := create(t, m, "cat")
		f, err := s.Attach()
		if err != nil {
			t.Fatal(err)
		}
		errc := make(chan error, 1)
		go func() {
			_, err := io.Copy(io.Discard, f)
			errc <- err
		}()
		time.Sleep(50 * time.Millisecond) // let the reader block
		if err := s.Detach(); err != nil {
			t.Fatal(err)
		}
		select {
		case err := <-errc:
			if err == nil {
				t.Fatalf("reader ended without error")
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("reader of the detached terminal still blocked")
		}
	})

	t.Run("subscription ended by Delete", func(t *testing.T) {
		s := create(t, m, "cat")
		sub := s.Subscribe()
		errc := make(chan error, 1)
		go func() {
			_, err := io.Copy(io.Discard, sub)
			errc <- err
		}()
		time.Sleep(50 * time.Millisecond)
		if err := m.Delete(s.ID()); err != nil {
			t.Fatal(err)
		}
		select {
		case err := <-errc:
			if err != nil {
				t.Fatalf("subscription reader: %v, want clean EOF", err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("subscription reader still blocked after Delete")
		}
	})

	t.Run("child closes its terminal", func(t *testing.T) {
		// The child closes every fd on its PTY and lives on: the pump sees
		// EOF while the child still runs.
		s := create(t, m, "/bin/sh", "-c", "echo bye; exec sleep 0.5 </dev/null >/dev/null 2>&1")
		sub := s.Subscribe()
		got := collect(t, sub, 5*time.Second)
		if string(got) != "bye\r\n" {
			t.Fatalf("stream %q", got)
		}
		if code := waitDone(t, s); code != 0 {
			t.Fatalf("exit code %d", code)
		}
	})

	t.Run("terminal closed by its user", func(t *testing.T) {
		// Closing the terminal ends the relay; the session detaches.
		s := create(t, m, "cat")
		f, err := s.Attach()
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil { // hang-up: the relay winds down
			t.Fatal(err)
		}
		waitFor(t, 10*time.Second, "auto-detach", func() bool { return s.Status() == sessionref.StatusDetached })
		f2, err := s.Attach()
		if err != nil || f2 == f {
			t.Fatalf("Attach after client death = %v, %v", f2, err)
		}
	})
}

// TestDeleteDuringAttach races Attach against Delete of the same session.
func TestDeleteDuringAttach(t *testing.T) {
	m := newManager(t, sessionref.Options{})
	for i := range 10 {
		s := create(t, m, "cat")
		var wg sync.WaitGroup
		files := make(chan *os.File, 3)
		for range 3 {
			wg.Go(func() {
				f, err := s.Attach()
				switch {
				case err == nil:
					files <- f
				case errors.Is(err, sessionref.ErrClosed), errors.Is(err, sessionref.ErrExited):
				default:
					t.Errorf("round %d: Attach: %v", i, err)
				}
			})
		}
		if i%2 == 1 {
			time.Sleep(time.Duration(i) * time.Millisecond)
		}
		if err := m.Delete(s.ID()); err != nil {
			t.Fatalf("Delete: %v", err)
		}
		wg.Wait()
		close(files)
		for f := range files {
			if ended, _ := readUntilErr(f, 5*time.Second); !ended {
				t.Fatalf("round %d: terminal from Attach still open after Delete", i)
			}
		}
		if st := s.Status(); st != sessionref.StatusClosed {
			t.Fatalf("status %v after Delete", st)
		}
	}
}

// TestCloseWithStalledSubscribers floods output to subscribers and an
// attached terminal that never read. They get disconnected, the session
// keeps running, and Close still returns promptly.
func TestCloseWithStalledSubscribers(t *testing.T) {
	m := newManager(t, sessionref.Options{SubscriberBuffer: 16})
	s := create(t, m, "/bin/sh", "-c", "while :; do echo flood flood flood flood flood flood; done")
	var subs []*sessionref.Subscription
	for range 3 {
		subs = append(subs, s.Subscribe())
	}
	closedEarly := s.Subscribe()
	if _, err := s.Attach(); err != nil { // nobody reads this terminal
		t.Fatal(err)
	}
	waitFor(t, 10*time.Second, "stalled subscribers disconnected", func() bool {
		for _, sub := range subs {
			if !errors.Is(sub.Err(), sessionref.ErrSlowSubscriber) {
				return false
			}
		}
		return true
	})
	// Closing a subscription that was already disconnected is fine, twice.
	if err := closedEarly.Close(); err != nil {
		t.Fatal(err)
	}
	if err := closedEarly.Close(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 10*time.Second, "stalled terminal detached", func() bool {
		return s.Status() == sessionref.StatusDetached
	})
	if st := s.Status(); st != sessionref.StatusDetached {
		t.Fatalf("status %v", st)
	}

	done := make(chan error, 1)
	go func() { done <- m.Close() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("Close blocked by stalled subscribers")
	}
	for _, sub := range append(subs, closedEarly) {
		for range sub.C() { // drains what was queued, then must be closed
		}
	}
	if st := s.Status(); st != sessionref.StatusClosed {
		t.Errorf("status after Close = %v", st)
	}
}

// TestDeleteKillsStubbornChild deletes a session whose child ignores the
// terminal hang-up and never reads: Delete must still end it, promptly.
func TestDeleteKillsStubbornChild(t *testing.T) {
	m := newManager(t, sessionref.Options{})
	s := create(t, m, "/bin/sh", "-c", `trap "" HUP; echo ready; exec sleep 60`)
	waitOutput(t, s, "ready")
	start := time.Now()
	if err := m.Delete(s.ID()); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("Delete took %v", d)
	}
	if code, err := s.ExitCode(); err != nil || code != 128+9 {
		t.Fatalf("ExitCode = %d, %v; want 137 (SIGKILL)", code, err)
	}
	if st := s.Status(); st != sessionref.StatusClosed {
		t.Fatalf("status %v", st)
	}
}

// TestDeleteWhileStarting races Create of a named session against Delete
// and Close of it. Create either wins (and the session works) or reports
// ErrClosed; nothing is left behind either way.
func TestDeleteWhileStarting(t *testing.T) {
	m := newManager(t, sessionref.Options{})
	var created, aborted int
	for i := range 40 {
		id := fmt.Sprintf("racer%d", i)
		res := make(chan error, 1)
		go func() {
			_, err := m.Create(context.Background(), sessionref.Spec{ID: id, Argv: []string{"cat"}, Rows: 24, Cols: 80})
			res <- err
		}()
		// Delete as soon as the id is visible: usually while it is starting.
		var delErr error
		for {
			if s, err := m.Get(id); err == nil {
				if st := s.Status(); st != sessionref.StatusStarting && st != sessionref.StatusRunning {
					t.Fatalf("status while starting: %v", st)
				}
				delErr = m.Delete(id)
				break
			}
			select {
			case err := <-res:
				// Create finished between the Get above and here: then its id
				// must be visible now. Put the result back for below.
				if err != nil {
					t.Fatalf("Create: %v", err)
				}
				if _, gerr := m.Get(id); gerr != nil {
					t.Fatalf("Create returned nil but %s is not visible: %v", id, gerr)
				}
				res <- err
				continue
			default:
			}
			runtime.Gosched()
		}
		if delErr != nil {
			t.Fatalf("Delete: %v", delErr)
		}
		switch err := <-res; {
		case err == nil:
			created++
		case errors.Is(err, sessionref.ErrClosed):
			aborted++
		default:
			t.Fatalf("Create: %v", err)
		}
		if _, err := m.Get(id); !errors.Is(err, sessionref.ErrNotFound) {
			t.Fatalf("Get after Delete: %v", err)
		}
	}
	t.Logf("created %d, aborted while starting %d", created, aborted)
}
