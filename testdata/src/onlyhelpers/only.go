// Package onlyhelpers covers //guard:only: the field may be touched only in
// the listed helpers, whatever locks are held, in any package.
package onlyhelpers

import (
	"os"
	"sync"
)

type Session struct {
	ptmxMu sync.Mutex
	//guard:by ptmxMu
	//guard:only lockedPTMX setPTMX
	ptmx *os.File
	name string
}

func (s *Session) lockedPTMX() *os.File {
	s.ptmxMu.Lock()
	defer s.ptmxMu.Unlock()
	return s.ptmx
}

func (s *Session) setPTMX(f *os.File) {
	s.ptmxMu.Lock()
	s.ptmx = f
	s.ptmxMu.Unlock()
	go func() {
		// A closure inside a listed helper counts as inside it; it still
		// needs the lock.
		s.ptmxMu.Lock()
		defer s.ptmxMu.Unlock()
		_ = s.ptmx
	}()
}

func (s *Session) bypass() *os.File {
	s.ptmxMu.Lock()
	defer s.ptmxMu.Unlock()
	return s.ptmx // want `s.ptmx may only be touched in lockedPTMX, setPTMX \(//guard:only\); call one of those helpers instead`
}

func newSession(f *os.File) *Session {
	return &Session{ptmx: f, name: "x"} // keyed composite literals may initialise it
}

// Other has same-named fields guarded by a different mutex: a grep guard
// needs a file exclusion for it; guardvet knows the types apart.
type Other struct {
	mu   sync.Mutex
	ptmx *os.File //guard:by mu
}

func (o *Other) Get() *os.File {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.ptmx
}

// Embedded gets the guarded field by promotion. One report: going through
// the helpers, which take the lock, fixes both the bypass and the missing
// lock.
type Embedded struct {
	*Session
}

func (e *Embedded) Peek() *os.File {
	return e.ptmx // want `e.ptmx may only be touched in lockedPTMX, setPTMX`
}
