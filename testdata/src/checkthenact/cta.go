// Package checkthenact covers checks and acts split across critical
// sections.
package checkthenact

import (
	"os"
	"sync"
)

type Session struct {
	ptmxMu sync.Mutex
	ptmx   *os.File //guard:by ptmxMu
}

func (s *Session) lockedPTMX() *os.File { // want lockedPTMX:`fieldops\(reads s\.ptmx\)`
	s.ptmxMu.Lock()
	defer s.ptmxMu.Unlock()
	return s.ptmx
}

// setPTYTriple installs without looking: the caller's check is stale.
func (s *Session) setPTYTriple(f *os.File) { // want setPTYTriple:`fieldops\(writes s\.ptmx\)`
	s.ptmxMu.Lock()
	defer s.ptmxMu.Unlock()
	s.ptmx = f
}

// installIfNone re-checks under the lock it installs with.
func (s *Session) installIfNone(f *os.File) bool { // want installIfNone:`fieldops\(reads-internally s\.ptmx, rechecks-writes s\.ptmx\)`
	s.ptmxMu.Lock()
	defer s.ptmxMu.Unlock()
	if s.ptmx != nil {
		return false
	}
	s.ptmx = f
	return true
}

func open() *os.File { return nil }

// AttachToExisting: two callers can both see nil and both install.
func (s *Session) AttachToExisting() { // want AttachToExisting:`fieldops\(reads-internally s\.ptmx, decides-writes s\.ptmx\)`
	if s.lockedPTMX() == nil {
		f := open()
		s.setPTYTriple(f) // want `check-then-act: s.ptmx was read at line 43 \(in s.lockedPTMX\) and the lock released; this write, in a later critical section \(.*\), depends on that read`
	}
}

// Fixed: the helper that writes re-checks under its lock.
func (s *Session) AttachToExistingFixed() { // want AttachToExistingFixed:`fieldops\(reads-internally s\.ptmx, rechecks-writes s\.ptmx\)`
	if s.lockedPTMX() == nil {
		s.installIfNone(open())
	}
}

// A write that does not depend on the read is not a check-then-act.
func (s *Session) Replace(f *os.File) { // want Replace:`fieldops\(reads-internally s\.ptmx, writes s\.ptmx\)`
	old := s.lockedPTMX()
	s.setPTYTriple(f)
	_ = old
}

type Counter struct {
	mu sync.Mutex
	n  int //guard:by mu
}

// Read in one section, written in another because of what was read.
func (c *Counter) InitOnce() { // want InitOnce:`fieldops\(reads-internally c\.n, decides-writes c\.n\)`
	c.mu.Lock()
	v := c.n
	c.mu.Unlock()
	if v == 0 {
		c.mu.Lock()
		c.n = 1 // want `check-then-act: c.n was read at line 71 and the lock released`
		c.mu.Unlock()
	}
}

// Fixed: check and act in one critical section.
func (c *Counter) InitOnceFixed() { // want InitOnceFixed:`fieldops\(reads-internally c\.n, rechecks-writes c\.n\)`
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n == 0 {
		c.n = 1
	}
}

// Fixed differently: re-check under the lock that writes.
func (c *Counter) InitOnceRecheck() { // want InitOnceRecheck:`fieldops\(reads-internally c\.n, rechecks-writes c\.n\)`
	c.mu.Lock()
	v := c.n
	c.mu.Unlock()
	if v == 0 {
		c.mu.Lock()
		if c.n == 0 {
			c.n = 1
		}
		c.mu.Unlock()
	}
}

// Two different counters: not the same instance.
func Copy(a, b *Counter) { // want Copy:`fieldops\(reads-internally a\.n, writes b\.n\)`
	a.mu.Lock()
	v := a.n
	a.mu.Unlock()
	if v > 0 {
		b.mu.Lock()
		b.n = v
		b.mu.Unlock()
	}
}

type Cache struct {
	m    sync.Map
	mu   sync.Mutex
	hits int //guard:by mu
}

func (c *Cache) Get(k string, make func() any) any {
	if v, ok := c.m.Load(k); ok {
		return v
	}
	v := make()
	c.m.Store(k, v) // want `check-then-act: c.m.Store depends on an earlier c.m.Load of the same key; another goroutine can store in between: use c.m.LoadOrStore`
	return v
}

func (c *Cache) GetFixed(k string, make func() any) any {
	v, _ := c.m.LoadOrStore(k, make())
	return v
}
