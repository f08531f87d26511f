// Package blank has no directives and imports an annotated package only
// for its side effects. That import makes facts visible here, but nothing
// in this package uses them, so no rule reports: lock balance,
// self-deadlock, lock order and check-then-act on its own locks are for
// packages with directives (or -config.allrules).
package blank

import (
	"sync"

	_ "importers/lib"
)

type server struct {
	mu    sync.Mutex
	other sync.Mutex
	n     int
	cache sync.Map
}

func (s *server) get() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n
}

// An Unlock of a lock not held.
func (s *server) unbalanced() {
	s.mu.Lock()
	s.n++
	s.mu.Unlock()
	s.mu.Unlock()
}

// An early return that keeps the lock.
func (s *server) earlyReturn(err error) error {
	s.mu.Lock()
	if err != nil {
		return err
	}
	s.n++
	s.mu.Unlock()
	return nil
}

// Self-deadlocks: locking twice, through a callee that locks inside, and
// through a lock helper.
func (s *server) doubleLock() {
	s.mu.Lock()
	s.mu.Lock()
	s.mu.Unlock()
}

func (s *server) throughCallee() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.get()
}

func (s *server) lock()   { s.mu.Lock() }
func (s *server) unlock() { s.mu.Unlock() }

func (s *server) throughHelper() {
	s.mu.Lock()
	s.lock()
	s.unlock()
}

// A lock-order cycle between mu and other.
func (s *server) muThenOther() {
	s.mu.Lock()
	s.other.Lock()
	s.other.Unlock()
	s.mu.Unlock()
}

func (s *server) otherThenMu() {
	s.other.Lock()
	s.mu.Lock()
	s.mu.Unlock()
	s.other.Unlock()
}

// Load then Store on a sync.Map.
func (s *server) lookup(k string) any {
	if v, ok := s.cache.Load(k); ok {
		return v
	}
	v := new(int)
	s.cache.Store(k, v)
	return v
}
