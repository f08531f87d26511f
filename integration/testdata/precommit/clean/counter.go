// Package counter is the user code that TestPrecommit commits in a
// throwaway repository. This first version is clean: n is guarded by mu
// and only touched with mu held.
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
