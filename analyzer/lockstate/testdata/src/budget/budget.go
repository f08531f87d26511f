// Package budget is checked with a visit budget too small for its loop to
// settle: the function is reported as not checked, and nothing else is
// said about it (its unprotected write included), since no event recorded
// from unsettled states can be trusted.
package budget

import "sync"

type C struct {
	mu sync.Mutex
	n  int //guard:by mu
}

func loop(c *C, xs []int) { // want `loop was not checked: its lock state did not settle within guardvet's budget`
	for range xs {
		c.mu.Lock()
		c.n++
		c.mu.Unlock()
	}
	c.n++
}

// Straight-line code settles in one visit per block.
func straight(c *C) {
	c.n++ // want `c.n written while c.mu is not known to be held`
}
