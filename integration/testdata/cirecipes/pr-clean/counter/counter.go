// Package counter is the fixture module TestCIRecipes runs the CI recipes
// of docs/ci.md on. This version reads n without mu in Peek: every recipe
// must fail and show guardvet's finding.
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

// Peek returns the count without taking the lock.
func (c *Counter) Peek() int {
	return c.n // the race: TestCIRecipes expects guardvet's finding on this line
}

// IsZero reports whether nothing was counted. A pull request adds it to
// the racy module (testdata/cirecipes/racy): checked with -new-from-rev,
// it has no finding of its own and Peek's is not the pull request's.
func (c *Counter) IsZero() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n == 0
}
