// Package use releases locks through function values: a method value kept
// in a local, in a slice, or in a cleanup object of another package, run
// later. The release happens where the value runs, so taking the lock
// again after it is no self-deadlock, and a guarded access after it is
// unguarded.
package use

import (
	"sync"

	"funcvalrelease/cleanup"
)

type Server struct {
	mu    sync.Mutex
	rw    sync.RWMutex
	state int //guard:by mu
	conf  int //guard:by rw
}

// relock takes s.mu: calling it with s.mu held deadlocks.
func (s *Server) relock() {
	s.mu.Lock()
	s.state++
	s.mu.Unlock()
}

func (s *Server) unlockHelper() { s.mu.Unlock() }

// MethodValue releases through a local bound to s.mu.Unlock.
func (s *Server) MethodValue() {
	s.mu.Lock()
	unlock := s.mu.Unlock
	s.state = 1
	unlock()
	s.relock()
}

// MethodValueNotCalled never calls its local: s.mu is still held.
func (s *Server) MethodValueNotCalled(fail bool) {
	s.mu.Lock()
	unlock := s.mu.Unlock
	if fail {
		unlock()
		return
	}
	s.relock() // want `call to s.relock locks s.mu, which is already held here`
	unlock()
}

// AccessAfterRelease touches a guarded field after the value released it.
func (s *Server) AccessAfterRelease() {
	s.mu.Lock()
	unlock := s.mu.Unlock
	unlock()
	s.state = 2 // want `s.state written while s.mu is not held`
}

// HelperValue releases through a method whose effect releases s.mu.
func (s *Server) HelperValue() {
	s.mu.Lock()
	done := s.unlockHelper
	done()
	s.relock()
}

// ReadRelease releases a read lock through a value.
func (s *Server) ReadRelease() int {
	s.rw.RLock()
	runlock := s.rw.RUnlock
	c := s.conf
	runlock()
	s.rw.Lock()
	s.conf = c + 1 // want `check-then-act: s.conf was read at line 71 and the lock released`
	s.rw.Unlock()
	return c
}

// Slice releases through values kept in a slice and run in a loop.
func (s *Server) Slice() {
	s.mu.Lock()
	var undo []func()
	undo = append(undo, s.mu.Unlock)
	for _, f := range undo {
		f()
	}
	s.relock()
}

// Cleanup is gVisor's runsc Restore: the unlock kept in a cleanup object,
// run early on the success path and by the deferred Clean otherwise.
func (s *Server) Cleanup(fail bool) error {
	s.mu.Lock()
	cu := cleanup.Make(s.mu.Unlock)
	defer cu.Clean()
	if fail {
		return nil // the deferred Clean releases s.mu
	}
	s.state = 3
	cu.Clean()
	s.relock()
	return nil
}

// CleanupInDefer runs the cleanup from a deferred closure before taking
// the lock again.
func (s *Server) CleanupInDefer() (err error) {
	s.mu.Lock()
	cu := cleanup.Make(s.mu.Unlock)
	defer cu.Clean()
	defer func() {
		if err != nil {
			cu.Clean() // releases s.mu: relock can take it
			s.relock()
		}
	}()
	s.state = 4
	return nil
}

// Added keeps the unlock with Add.
func (s *Server) Added() {
	var cu cleanup.Cleanup
	s.mu.Lock()
	cu.Add(s.mu.Unlock)
	cu.Clean()
	s.relock()
}

// Released disarms the cleanup: Clean after Release runs nothing, so
// s.mu is still held.
func (s *Server) Released() {
	s.mu.Lock()
	cu := cleanup.Make(s.mu.Unlock)
	cu.Release()
	cu.Clean()
	s.relock() // want `call to s.relock locks s.mu, which is already held here`
	s.mu.Unlock()
}

// ReleasedThenRun runs what Release handed back.
func (s *Server) ReleasedThenRun() {
	s.mu.Lock()
	cu := cleanup.Make(s.mu.Unlock)
	run := cu.Release()
	run()
	s.relock()
}

// Keyed keeps the unlock in a map inside another package's object and
// runs it by name.
func (s *Server) Keyed() {
	var st cleanup.Stack
	s.mu.Lock()
	st.Push("mu", s.mu.Unlock)
	st.Pop("mu")
	s.relock()
}

// Escaped hands the value to a goroutine: it runs there, not here.
func (s *Server) Escaped() {
	s.mu.Lock()
	unlock := s.mu.Unlock
	go unlock()
	s.relock() // want `call to s.relock locks s.mu, which is already held here`
}

// DeferredValue releases at return through a deferred call of the value:
// the lock is held for the write and free after the return.
func (s *Server) DeferredValue() {
	s.mu.Lock()
	unlock := s.mu.Unlock
	defer unlock()
	s.state = 5
}

// DeferredThenRelock relocks after the function that defers the release
// returns.
func (s *Server) DeferredThenRelock() {
	s.DeferredValue()
	s.relock()
}
