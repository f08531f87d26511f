// Package contrast is suppressonly with one contract (a guarded field):
// the package is annotated, and every rule applies.
package contrast

import "sync"

type state struct {
	mu sync.Mutex
	// +checklocks:mu
	n int
}

// +checklocksignore
func (s *state) StateSave() int { return s.n }

func (s *state) unbalanced() {
	s.mu.Lock()
	s.n++
	s.mu.Unlock()
	s.mu.Unlock() // want `s.mu.Unlock\(\) but s.mu is not held here`
}

func (s *state) doubleLock() {
	s.mu.Lock()
	s.mu.Lock() // want `s.mu.Lock\(\) while s.mu is already locked`
	s.mu.Unlock()
}
