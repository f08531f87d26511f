// Package counter is the fixture module TestCIRecipes runs the CI recipes
// of docs/ci.md on. This version does not type-check: the GitHub Actions
// job must fail with guardvet's exit 2, and the SARIF file it uploads must
// say the run failed.
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

// Peek returns the count.
func (c *Counter) Peek() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.count // the type error: Counter has no field count
}
