// Package ignoresinfer covers a //guard:ignore written for guard
// inference, as its findings advise, checked in a run without inference:
// it is not reported as unused there, since the rule that could use it did
// not run. The same package under -infer is in testdata/src/guardinfer's
// tests (analyzer/unusedignore), where both ignores suppress a finding.
// An ignore nothing could use is reported in both runs.
package ignoresinfer

import "sync"

type Stats struct {
	mu   sync.Mutex
	hits int // no directive: inference weighs its accesses
}

func (s *Stats) Hit() {
	s.mu.Lock()
	s.hits++
	s.mu.Unlock()
}

func (s *Stats) Miss() {
	s.mu.Lock()
	s.hits--
	s.mu.Unlock()
}

func (s *Stats) Add(n int) {
	s.mu.Lock()
	s.hits += n
	s.mu.Unlock()
}

func (s *Stats) Double() {
	s.mu.Lock()
	s.hits *= 2
	s.mu.Unlock()
}

func (s *Stats) Halve() {
	s.mu.Lock()
	s.hits /= 2
	s.mu.Unlock()
}

func (s *Stats) Clear() {
	s.mu.Lock()
	s.hits = 0
	s.mu.Unlock()
}

func (s *Stats) Get() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits
}

// Approx reads hits without the lock on purpose; under -infer the ignore
// suppresses the finding, and without inference it is left alone.
func (s *Stats) Approx() int {
	return s.hits //guard:ignore approximate value for metrics
}

// resetLocked is named for the ...Locked convention inference reads.
func (s *Stats) resetLocked() { s.hits = 0 }

// Reset calls it after releasing the lock; the ignore is for inference.
func (s *Stats) Reset() {
	s.mu.Lock()
	s.hits++
	s.mu.Unlock()
	s.resetLocked() //guard:ignore called before the stats are shared
}

// Plain has no lock in its struct and calls nothing inference reads: the
// ignore can serve no rule.
type Plain struct{ n int }

func (p *Plain) Get() int {
	return p.n //guard:ignore stale // want `//guard:ignore suppresses nothing here; remove it`
}

// Term's rows is never touched with its lock taken: inference has no
// evidence about it, so the ignore can serve no rule and is reported.
type Term struct {
	mu   sync.Mutex
	rows int
}

func (t *Term) Resize(r int) {
	t.rows = r //guard:ignore rows is not guarded // want `//guard:ignore suppresses nothing here; remove it`
}
