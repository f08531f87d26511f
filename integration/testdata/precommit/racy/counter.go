// Package counter is the user code that TestPrecommit commits in a
// throwaway repository. This second version adds Peek, which reads n
// without mu: the commit must be rejected.
package counter

import "sync"

// Counter counts under a lock.
type Counter struct {
	mu sync.Mutex
	n  int //guard:by mu
}

// Inc adds one.
func (c *Counter) Inc() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
}

// Get returns the count.
func (c *Counter) Get() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// Peek returns the count without taking the lock.
func (c *Counter) Peek() int {
	return c.n // the race: TestPrecommit expects guardvet's finding on this line
}
