// Package ignoresguarded checks that //guard:ignore suppresses guardedby
// diagnostics on exactly the lines it covers.
package ignoresguarded

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

func (c *C) NotCovered() int {
	//guard:ignore only the next line is covered
	x := c.n
	return c.n + x // want `c.n read while c.mu is not known to be held`
}
