package sessionref

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func (t *approvalTable) refCount(id string) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.refs[id]
}

// TestApprovalTableExclusive hammers the table: for every id, at most one
// holder at a time, and no entries left once everyone has released.
func TestApprovalTableExclusive(t *testing.T) {
	tbl := new(approvalTable)
	ids := []string{"a", "b", "c"}
	var inside [3]atomic.Int32
	var wg sync.WaitGroup
	for g := range 32 {
		wg.Go(func() {
			for i := range 200 {
				k := (g + i) % len(ids)
				release := tbl.acquire(ids[k])
				if n := inside[k].Add(1); n != 1 {
					t.Errorf("%d holders of %q at once", n, ids[k])
				}
				if i%16 == 0 {
					time.Sleep(10 * time.Microsecond)
				}
				inside[k].Add(-1)
				release()
			}
		})
	}
	wg.Wait()
	if n := tbl.size(); n != 0 {
		t.Fatalf("%d entries left in the approval table", n)
	}
}

// TestApprovalTableKeepsHeldEntry checks that an entry outlives its holder's
// session: a waiter for the same id waits for the holder even though, in
// between, the manager forgot the session.
func TestApprovalTableKeepsHeldEntry(t *testing.T) {
	tbl := new(approvalTable)
	release := tbl.acquire("x")
	got := make(chan struct{})
	go func() {
		r := tbl.acquire("x")
		close(got)
		r()
	}()
	deadline := time.Now().Add(5 * time.Second)
	for tbl.refCount("x") != 2 {
		if time.Now().After(deadline) {
			t.Fatal("waiter never registered")
		}
		time.Sleep(time.Millisecond)
	}
	select {
	case <-got:
		t.Fatal("second approval ran while the first held the lock")
	case <-time.After(50 * time.Millisecond):
	}
	release()
	<-got
	for tbl.size() != 0 {
		if time.Now().After(deadline) {
			t.Fatal("entry not removed after the last release")
		}
		time.Sleep(time.Millisecond)
	}
}

// TestApproveDeleteWhileHeld deletes a session while an approval on it is
// blocked writing to a child that does not read, with a second approval
// queued behind it. Delete must unblock the first, the second must run only
// after it, and a new session under the same id must get approvals again.
func TestApproveDeleteWhileHeld(t *testing.T) {
	VerifyNoLeaks(t)
	m := NewManager(Options{})
	defer func() { _ = m.Close() }()
	ctx := context.Background()
	s, err := m.Create(ctx, Spec{ID: "job", Argv: []string{"/bin/sh", "-c", "stty raw -echo && echo READY && exec sleep 60"}, Rows: 24, Cols: 80})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for !bytes.Contains(s.Output(), []byte("READY")) {
		if time.Now().After(deadline) {
			t.Fatal("child not ready")
		}
		time.Sleep(5 * time.Millisecond)
	}

	huge := strings.Repeat("x", 4<<20) // far more than the terminal buffers: the write blocks
	first := make(chan error, 1)
	go func() { first <- m.Approve("job", huge) }()
	for m.approvals.refCount("job") != 1 {
		time.Sleep(time.Millisecond)
	}
	var secondRan atomic.Bool
	second := make(chan error, 1)
	go func() {
		err := m.Approve("job", "echo second")
		secondRan.Store(true)
		second <- err
	}()
	for m.approvals.refCount("job") != 2 {
		if time.Now().After(deadline) {
			t.Fatal("second approval never queued")
		}
		time.Sleep(time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond)
	select {
	case err := <-first:
		t.Fatalf("first approval finished although the child never reads: %v", err)
	default:
	}
	if secondRan.Load() {
		t.Fatal("second approval ran while the first held the lock")
	}

	if err := m.Delete("job"); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-first:
		if !errors.Is(err, ErrClosed) {
			t.Fatalf("blocked approval after Delete = %v, want ErrClosed", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Delete did not unblock the approval")
	}
	select {
	case err := <-second:
		if !errors.Is(err, ErrNotFound) {
			t.Fatalf("queued approval after Delete = %v, want ErrNotFound", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("queued approval never ran")
	}

	// Same id, new session: approvals work again and the table is clean.
	s2, err := m.Create(ctx, Spec{ID: "job", Argv: []string{"cat"}, Rows: 24, Cols: 80})
	if err != nil {
		t.Fatal(err)
	}
	// The polling loops above end the test (t.Fatal) unless refCount
	// reaches 2, so on the go/cfg graph everything after them depends on
	// that read; Approve does not act on the count.
	//guard:ignore test synchronisation: the wait for the queued approval is not a check this approval acts on
	if err := m.Approve("job", "echo third"); err != nil {
		t.Fatal(err)
	}
	if d := s2.Decisions(); len(d) != 1 || d[0].Cmd != "echo third" {
		t.Fatalf("decisions %v", d)
	}
	if len(s.Decisions()) != 0 {
		t.Fatalf("deleted session logged %v", s.Decisions())
	}
	if n := m.approvals.size(); n != 0 {
		t.Fatalf("%d approval entries left", n)
	}
}
