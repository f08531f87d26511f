// Package suppressonly has no contract of its own: its only directives are
// the checklocks dialect's suppressions, as gVisor's code generators write
// into every package (the *_state_autogen.go files). Suppressions do not
// make a package annotated, so the rules about lock discipline in general
// (lock balance, self-deadlock, lock order, check-then-act) stay off here,
// as in a package with no directive at all. contrast is the same code with
// one contract, and gets the reports.
package suppressonly

import "sync"

type state struct {
	mu sync.Mutex
	n  int
}

// +checklocksignore
func (s *state) StateSave() int { return s.n }

func (s *state) unbalanced() {
	s.mu.Lock()
	s.n++
	s.mu.Unlock()
	s.mu.Unlock()
}

func (s *state) doubleLock() {
	s.mu.Lock()
	s.mu.Lock() // +checklocksforce: the generator's reason
	s.mu.Unlock()
}
