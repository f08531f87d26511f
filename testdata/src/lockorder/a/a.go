// want package:`edges\(Session\.detachMu -> Session\.ptmxMu, Session\.ptmxMu -> Session\.detachMu, A\.Mu -> B\.Mu, a\.globalMu -> A\.Mu\)`

// Package a covers lock order: declared, inferred, and self-deadlock.
package a

import "sync"

//guard:order detachMu ptmxMu
type Session struct {
	detachMu sync.Mutex
	ptmxMu   sync.Mutex
	n        int //guard:by ptmxMu
}

// The declared order: detachMu, then ptmxMu.
func (s *Session) Detach() { // want Detach:`acquires\(s\.detachMu, s\.ptmxMu\)`
	s.detachMu.Lock()
	defer s.detachMu.Unlock()
	s.ptmxMu.Lock()
	s.n = 0
	s.ptmxMu.Unlock()
}

// Reversed: ptmxMu is held when detachMu is taken.
func (s *Session) Reversed() { // want Reversed:`acquires\(s\.ptmxMu, s\.detachMu\)`
	s.ptmxMu.Lock()
	defer s.ptmxMu.Unlock()
	s.detachMu.Lock() // want `lock order violation: Session.detachMu acquired while Session.ptmxMu is held, but //guard:order in a.Session puts Session.detachMu first`
	s.detachMu.Unlock()
}

// lockedDetach takes detachMu inside: calling it under ptmxMu reverses the
// order through a callee.
func (s *Session) lockedDetach() { // want lockedDetach:`acquires\(s\.detachMu\)`
	s.detachMu.Lock()
	defer s.detachMu.Unlock()
}

func (s *Session) ReversedThroughCallee() { // want ReversedThroughCallee:`acquires\(s\.ptmxMu, s\.detachMu\)`
	s.ptmxMu.Lock()
	defer s.ptmxMu.Unlock()
	s.lockedDetach() // want `lock order violation: Session.detachMu \(through s.lockedDetach\) acquired while Session.ptmxMu is held`
}

// Two sessions' ptmxMu are the same class: no order between instances.
func Both(a, b *Session) { // want Both:`acquires\(a\.ptmxMu, b\.ptmxMu\)`
	a.ptmxMu.Lock()
	b.ptmxMu.Lock()
	b.ptmxMu.Unlock()
	a.ptmxMu.Unlock()
}

// Get locks internally; calling it with the lock held deadlocks.
func (s *Session) Get() int { // want Get:`acquires\(s\.ptmxMu\)`
	s.ptmxMu.Lock()
	defer s.ptmxMu.Unlock()
	return s.n
}

func (s *Session) SelfDeadlock() int { // want SelfDeadlock:`acquires\(s\.ptmxMu\)`
	s.ptmxMu.Lock()
	defer s.ptmxMu.Unlock()
	return s.Get() // want `call to s.Get locks s.ptmxMu, which is already held here; sync mutexes are not reentrant`
}

// Another session's Get is fine.
func (s *Session) OtherInstance(o *Session) int { // want OtherInstance:`acquires\(s\.ptmxMu, o\.ptmxMu\)`
	s.ptmxMu.Lock()
	defer s.ptmxMu.Unlock()
	return o.Get()
}

type Table struct {
	mu sync.RWMutex
	m  map[string]int //guard:by mu
}

func (t *Table) Len() int { // want Len:`acquires\(t\.mu\)`
	t.mu.RLock()
	defer t.mu.RUnlock()
	return len(t.m)
}

func (t *Table) RecursiveRead() int { // want RecursiveRead:`acquires\(t\.mu\)`
	t.mu.RLock()
	defer t.mu.RUnlock()
	t.mu.RLock() // want `t.mu.RLock\(\) while t.mu is already read-locked; a recursive read lock deadlocks once a writer is waiting`
	defer t.mu.RUnlock()
	return len(t.m)
}

func (t *Table) RecursiveThroughCallee() int { // want RecursiveThroughCallee:`acquires\(t\.mu\)`
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.Len() // want `call to t.Len locks t.mu, which is already held here`
}

// Inferred cycle: A then B here, B then A in package b.
type A struct {
	Mu sync.Mutex
	X  int //guard:by Mu
}

type B struct {
	Mu sync.Mutex
	Y  int //guard:by Mu
}

func AThenB(a *A, b *B) { // want AThenB:`acquires\(a\.Mu, b\.Mu\)`
	a.Mu.Lock()
	defer a.Mu.Unlock()
	b.Mu.Lock()
	b.Y = a.X
	b.Mu.Unlock()
}

var (
	globalMu sync.Mutex
	count    int //guard:by globalMu
)

// Consistent order, no cycle: globalMu then A.mu everywhere.
func GlobalThenA(a *A) { // want GlobalThenA:`acquires\(a\.globalMu, a\.Mu\)`
	globalMu.Lock()
	defer globalMu.Unlock()
	a.Mu.Lock()
	count += a.X
	a.Mu.Unlock()
}
