// Package ignores covers //guard:ignore on functions and lines.
package ignores

import "sync"

type C struct {
	mu sync.Mutex
	n  int //guard:by mu
}

//guard:ignore read once at start-up, before any goroutine exists
func (c *C) Init() {
	c.n = 1
}

func (c *C) Trailing() int {
	return c.n //guard:ignore a benign stale read for metrics
}

func (c *C) Above() int {
	//guard:ignore a benign stale read for metrics
	return c.n
}

func (c *C) Locked() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n //guard:ignore stale // want `//guard:ignore suppresses nothing here; remove it`
}

//guard:ignore nothing in here needs it // want `//guard:ignore suppresses nothing here; remove it`
func (c *C) Clean() {}
