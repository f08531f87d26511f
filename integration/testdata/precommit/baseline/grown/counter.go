// Package counter is the user code of TestPrecommit's baseline
// repository. This version grows the racy one (../../racy), whose finding
// is in the baseline, by Add and Reset, above Peek: no new finding, and
// the baselined one moves down, its line unchanged.
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

// Add adds d.
func (c *Counter) Add(d int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n += d
}

// Get returns the count.
func (c *Counter) Get() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// Reset sets the count to zero.
func (c *Counter) Reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n = 0
}

// Peek returns the count without taking the lock.
func (c *Counter) Peek() int {
	return c.n // the race: TestPrecommit expects guardvet's finding on this line
}
