// Package ctacompute covers the data a check-then-act write depends on:
// the value read in the earlier section, carried by any local computation
// (a compound assignment, a derived local, a loop that accumulates, a
// helper's result), up to where a local is given a value that does not
// come from it.
package ctacompute

import "sync"

type Counter struct {
	mu sync.Mutex
	n  int // +checklocks:mu
}

func (c *Counter) get() int { // want get:`fieldops\(reads c.n\)`
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

func (c *Counter) set(v int) { // want set:`fieldops\(writes c.n\)`
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n = v
}

// v += d keeps what was read in v.
func (c *Counter) AddCompound(d int) { // want AddCompound:`fieldops\(reads-internally c.n, writes c.n\)`
	c.mu.Lock()
	v := c.n
	c.mu.Unlock()
	v += d
	c.mu.Lock()
	c.n = v // want `check-then-act: c.n was read at line 30 and the lock released`
	c.mu.Unlock()
}

// A local derived from it.
func (c *Counter) AddDerived() { // want AddDerived:`fieldops\(reads-internally c.n, writes c.n\)`
	c.mu.Lock()
	v := c.n
	c.mu.Unlock()
	w := v * 2
	c.mu.Lock()
	c.n = w // want `check-then-act: c.n was read at line 41 and the lock released`
	c.mu.Unlock()
}

// Still reported, as before: the value computed in the store itself.
func (c *Counter) AddInline(d int) { // want AddInline:`fieldops\(reads-internally c.n, writes c.n\)`
	c.mu.Lock()
	v := c.n
	c.mu.Unlock()
	c.mu.Lock()
	c.n = v + d // want `check-then-act: c.n was read at line 52 and the lock released`
	c.mu.Unlock()
}

// Accumulated in a loop, through a helper's result.
func (c *Counter) AddAll(ds []int) { // want AddAll:`fieldops\(reads-internally c.n, writes c.n\)`
	v := c.get()
	for _, d := range ds {
		v += d
	}
	c.set(v) // want `check-then-act: c.n was read at line 61 \(in c.get\) and the lock released`
}

// v++ and a plain assignment from another local that carries it.
func (c *Counter) Bump() { // want Bump:`fieldops\(reads-internally c.n, writes c.n\)`
	v := c.get()
	var w int
	v++
	w = v
	c.set(w) // want `check-then-act: c.n was read at line 70 \(in c.get\) and the lock released`
}

// Given a value that does not come from the read before the write: the
// write does not depend on it.
func (c *Counter) Reset() int { // want Reset:`fieldops\(reads c.n, writes c.n\)`
	v := c.get()
	old := v
	v = 0
	c.set(v)
	return old
}

// On one path only, it still may.
func (c *Counter) MaybeReset(reset bool) { // want MaybeReset:`fieldops\(reads-internally c.n, writes c.n\)`
	v := c.get()
	if reset {
		v = 0
	}
	c.set(v) // want `check-then-act: c.n was read at line 89 \(in c.get\) and the lock released`
}

type Set struct {
	mu   sync.Mutex
	subs map[*int]bool // +checklocks:mu
}

func (s *Set) list() []*int { // want list:`fieldops\(reads-internally s.subs\)`
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*int
	for k := range s.subs {
		out = append(out, k)
	}
	return out
}

func (s *Set) remove(k *int) { // want remove:`fieldops\(writes s.subs\)`
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.subs, k)
}

func (s *Set) mark(k *int) { // want mark:`fieldops\(writes s.subs\)`
	s.mu.Lock()
	defer s.mu.Unlock()
	s.subs[k] = true
}

func (s *Set) any() *int { // want any:`fieldops\(reads-internally s.subs\)`
	s.mu.Lock()
	defer s.mu.Unlock()
	for k := range s.subs {
		return k
	}
	return nil
}

// Each element of a snapshot is acted on for its own state, not for the
// state read (sessionref's output fan-out drops the subscribers that stopped
// reading): elements of a range over the read are not followed.
func (s *Set) Prune(dead func(*int) bool) { // want Prune:`fieldops\(reads-internally s.subs, writes s.subs\)`
	for _, k := range s.list() {
		if dead(k) {
			s.remove(k)
		}
	}
}

// The cost: storing back a key a range found (which another goroutine may
// have removed in between) is not reported.
func (s *Set) MarkOne() { // want MarkOne:`fieldops\(reads-internally s.subs, writes s.subs\)`
	k := s.any()
	s.mark(k) // gap: `check-then-act: s.subs was read at line`
}

func (s *Set) Refresh() { // want Refresh:`fieldops\(reads-internally s.subs, writes s.subs\)`
	for _, k := range s.list() {
		s.mark(k) // gap: `check-then-act: s.subs was read at line`
	}
}
