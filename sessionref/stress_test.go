package sessionref_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/guardvet/guardvet/sessionref"
)

// TestStressCreateDelete creates and immediately deletes 500 sessions from
// four goroutines. Every pair must succeed and nothing may be left behind.
func TestStressCreateDelete(t *testing.T) {
	const pairs, workers = 500, 4
	m := newManager(t, sessionref.Options{})
	var wg sync.WaitGroup
	var next atomic.Int64
	for range workers {
		wg.Go(func() {
			for next.Add(1) <= pairs {
				s, err := m.Create(context.Background(), sessionref.Spec{Argv: []string{"cat"}, Rows: 24, Cols: 80})
				if err != nil {
					t.Errorf("Create: %v", err)
					return
				}
				if err := m.Delete(s.ID()); err != nil {
					t.Errorf("Delete(%s): %v", s.ID(), err)
					return
				}
				if st := s.Status(); st != sessionref.StatusClosed {
					t.Errorf("status after Delete = %v", st)
					return
				}
			}
		})
	}
	wg.Wait()
	if n := len(m.List()); n != 0 {
		t.Fatalf("%d sessions left", n)
	}
}

// TestStressMixed runs 32 goroutines doing a bounded number of random
// operations on a few shared sessions, which get deleted and replaced under
// them. Every error must be one of the documented sentinels for the race it
// lost; the leak check and the race detector do the rest.
func TestStressMixed(t *testing.T) {
	const (
		goroutines = 32
		opsEach    = 24
		slots      = 4
	)
	m := newManager(t, sessionref.Options{SubscriberBuffer: 32})
	ctx := context.Background()
	var shared [slots]atomic.Pointer[sessionref.Session]
	for i := range shared {
		s, err := m.Create(ctx, sessionref.Spec{ID: fmt.Sprintf("slot%d-0", i), Argv: []string{"cat"}, Rows: 24, Cols: 80})
		if err != nil {
			t.Fatal(err)
		}
		shared[i].Store(s)
	}
	// Errors a call may legitimately return when it races Delete, exit or
	// another goroutine's Attach/Detach.
	expected := func(err error) bool {
		return err == nil ||
			errors.Is(err, sessionref.ErrClosed) ||
			errors.Is(err, sessionref.ErrExited) ||
			errors.Is(err, sessionref.ErrNotFound) ||
			errors.Is(err, sessionref.ErrNotAttached)
	}
	var ops [8]atomic.Int64
	var generation atomic.Int64
	deadline := time.Now().Add(40 * time.Second)
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(g), 99))
			for range opsEach {
				if time.Now().After(deadline) {
					t.Errorf("stress ran out of time")
					return
				}
				slot := rng.IntN(slots)
				s := shared[slot].Load()
				op := rng.IntN(8)
				ops[op].Add(1)
				var err error
				switch op {
				case 0: // write
					_, err = s.Write([]byte("hello\n"))
				case 1: // resize
					err = s.Resize(10+rng.IntN(50), 20+rng.IntN(100))
				case 2: // attach, and sometimes type on the terminal
					var f interface{ Write([]byte) (int, error) }
					f, err = s.Attach()
					if err == nil && rng.IntN(2) == 0 {
						_, _ = f.Write([]byte("typed\r")) // may race a detach; either is fine
					}
				case 3: // detach
					err = s.Detach()
				case 4: // approve
					err = m.Approve(s.ID(), "echo approved")
				case 5: // deny
					err = m.Deny(s.ID(), "rm -rf /", "destructive")
				case 6: // replace: create a new session, swap it in, delete the old one
					var ns *sessionref.Session
					id := fmt.Sprintf("slot%d-%d", slot, generation.Add(1))
					ns, err = m.Create(ctx, sessionref.Spec{ID: id, Argv: []string{"cat"}, Rows: 24, Cols: 80})
					if err == nil {
						old := shared[slot].Swap(ns)
						err = m.Delete(old.ID())
						if err != nil {
							t.Errorf("Delete of swapped-out %s: %v", old.ID(), err)
						}
					}
				case 7: // readers
					_ = s.Output()
					_ = s.Status()
					sub := s.Subscribe()
					_ = sub.Close()
					_, err = m.Get(s.ID())
				}
				if !expected(err) {
					t.Errorf("op %d on %s: unexpected error %v", op, s.ID(), err)
				}
			}
		})
	}
	wg.Wait()
	for i := range ops {
		if ops[i].Load() == 0 {
			t.Errorf("op %d never ran", i)
		}
	}
	if n := len(m.List()); n != slots {
		t.Errorf("%d sessions in the manager, want %d", n, slots)
	}
	for i := range shared {
		s := shared[i].Load()
		if st := s.Status(); st != sessionref.StatusRunning && st != sessionref.StatusDetached {
			t.Errorf("%s: status %v", s.ID(), st)
		}
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	for i := range shared {
		if st := shared[i].Load().Status(); st != sessionref.StatusClosed {
			t.Errorf("status after Close = %v", st)
		}
	}
}
