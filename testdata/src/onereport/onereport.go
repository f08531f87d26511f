// Package onereport holds mistakes that more than one rule could see. Each
// must be reported once, by the rule that names the mistake, with the state
// after it left as the code intends, so the lines after it are not
// reported as well. It is checked with every rule on (analyzer/suite).
package onereport

import "sync"

type C struct {
	mu sync.Mutex
	n  int //guard:by mu
}

// get takes the lock itself and leaves it free.
func (c *C) get() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// Calling get with the lock held deadlocks: one report, at the call (by
// lockorder), and not the deferred Unlock as well (gVisor's xdp Attach
// calling IsAttached).
func (c *C) callsGetLocked() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.get() // want `call to c.get locks c.mu, which is already held here`
}

// The same with an explicit Unlock after the call, and a guarded write
// between: the write is under the lock the code holds.
func (c *C) callsGetLockedExplicit() {
	c.mu.Lock()
	_ = c.get() // want `call to c.get locks c.mu, which is already held here`
	c.n++
	c.mu.Unlock()
}
